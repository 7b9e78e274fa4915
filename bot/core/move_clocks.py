"""Move clocks: when an awaited player's deadline and warning fall, and stopping/restarting
them for table pauses and vacations.

A clock lives on the seat's reminder row. It is *running* (``deadline_at`` set) or *stopped*
(``deadline_left`` seconds kept while the table is paused or the player is on vacation). The
service asks :func:`plan` when a seat's turn begins; :func:`stop` and :func:`resume` are used
by the pause and vacation commands and by the deadline pass.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.models import DeadlinePolicy
from bot.core.storage.base import Reminder, Repository, SeatClock

HOUR = 3600.0
MIN_WARN_HOURS = 1.0
WARN_FRACTION = 0.25


def warn_lead(policy: DeadlinePolicy) -> float:
    """Seconds before the deadline when the awaited player is warned: the table's choice,
    else 25 % of the deadline but at least 1 h; never more than half the deadline."""
    period = policy.hours * HOUR
    lead = (policy.warn_hours * HOUR if policy.warn_hours is not None
            else max(WARN_FRACTION * period, MIN_WARN_HOURS * HOUR))
    return min(lead, period / 2)


def running(policy: DeadlinePolicy, seat: int, deadline_at: float, now: float) -> SeatClock:
    lead = warn_lead(policy)
    warn_at = deadline_at - lead
    return SeatClock(seat, deadline_at, None, warn_at if lead > 0 and warn_at > now else None)


async def plan(repo: Repository, game_id: int, user_ids: Sequence[int],
               now: float) -> dict[int, tuple[float | None, float | None, float | None]]:
    """(deadline_at, deadline_left, warn_at) for each user whose turn begins now."""
    policy = await repo.deadline_policy(game_id)
    out: dict[int, tuple[float | None, float | None, float | None]] = {}
    for user_id in user_ids:
        if not policy.enabled:
            out[user_id] = (None, None, None)
        elif policy.paused_at is not None or await repo.current_vacation(user_id, now):
            out[user_id] = (None, policy.hours * HOUR, None)
        else:
            clock = running(policy, 0, now + policy.hours * HOUR, now)
            out[user_id] = (clock.deadline_at, None, clock.warn_at)
    return out


def stop(rows: Sequence[Reminder], now: float) -> list[SeatClock]:
    """Stop the running clocks among ``rows``, keeping the time each has left."""
    return [SeatClock(r.seat, None, max(0.0, r.deadline_at - now), None)
            for r in rows if r.deadline_at is not None]


def resume(policy: DeadlinePolicy, rows: Sequence[Reminder], at: float,
           now: float) -> list[SeatClock]:
    """Restart the stopped clocks among ``rows`` from ``at`` (when the pause ended)."""
    return [running(policy, r.seat, at + r.deadline_left, now)
            for r in rows if r.deadline_at is None and r.deadline_left is not None]


def restart(policy: DeadlinePolicy, rows: Sequence[Reminder], paused: Sequence[int],
            now: float) -> list[SeatClock]:
    """A new policy applies to the current turns too, counted from now (``paused``: user
    ids whose clocks stay stopped)."""
    out = []
    for r in rows:
        if not policy.enabled:
            out.append(SeatClock(r.seat, None, None, None))
        elif policy.paused_at is not None or r.user_id in paused:
            out.append(SeatClock(r.seat, None, policy.hours * HOUR, None))
        else:
            out.append(running(policy, r.seat, now + policy.hours * HOUR, now))
    return out
