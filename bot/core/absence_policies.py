"""Deadlines and absence, as the commands see them: a game's deadline policy, table votes
(a new policy, pause/resume), vacations, taking over an abandoned seat, quiet hours.

Rules (docs/ASYNC.md): the creator sets the policy before the start; afterwards it changes
only by a unanimous vote of the human players, like a pause (one vote model,
:mod:`bot.core.votes`). A vacation stops the player's clocks in every game; the days come
from a yearly allowance set per server. This module decides; every write goes through the
service (:mod:`bot.core.service`), the only writer.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.core import errors, votes
from bot.core.models import ACTIVE, LOBBY, DeadlinePolicy, GameInfo, UserSettings
from bot.core.quiet_hours import parse_time, zone
from bot.core.service import GameService
from bot.core.storage.base import Vacation
from bot.core.votes import VoteResult
from engines.base import GameOver

log = logging.getLogger(__name__)
DAY = 86400.0
MAX_DEADLINE_HOURS = 24.0 * 60
MAX_ABANDON_AFTER = 20
TIMEOUT_POLICIES = ("ai", "skip")
DEFAULT_VACATION_DAYS = 10
MAX_VACATION_DAYS = 365


@dataclass(frozen=True, slots=True)
class VacationStatus:
    current: Vacation | None
    used_days: int
    allowance: int

    @property
    def left(self) -> int:
        return max(0, self.allowance - self.used_days)


def make_policy(hours: float | None = None, on_timeout: str | None = None,
                abandon_after: int | None = None, *,
                base: DeadlinePolicy | None = None) -> DeadlinePolicy:
    """``base`` with the given changes, validated (None = unchanged)."""
    policy = base or DeadlinePolicy()
    if hours is not None:
        try:
            value = float(hours)
        except (TypeError, ValueError):
            value = -1.0
        if not 0 <= value <= MAX_DEADLINE_HOURS:
            raise errors.InvalidOption(key="deadline.invalid_hours", hours=hours,
                                       max=MAX_DEADLINE_HOURS)
        policy = dataclasses.replace(policy, hours=value)
    if on_timeout is not None:
        if on_timeout not in TIMEOUT_POLICIES:
            raise errors.InvalidOption(option="on_timeout", value=on_timeout,
                                       choices=", ".join(TIMEOUT_POLICIES))
        policy = dataclasses.replace(policy, on_timeout=on_timeout)
    if abandon_after is not None:
        if not 0 <= int(abandon_after) <= MAX_ABANDON_AFTER:
            raise errors.InvalidOption(option="abandon_after", value=abandon_after,
                                       choices=f"0-{MAX_ABANDON_AFTER}")
        policy = dataclasses.replace(policy, abandon_after=int(abandon_after))
    return policy


def _topic(policy: DeadlinePolicy) -> str:
    return f"deadline:{policy.hours:g}:{policy.on_timeout}:{policy.abandon_after}"


def _year_start(now: float) -> float:
    year = datetime.fromtimestamp(now, UTC).year
    return datetime(year, 1, 1, tzinfo=UTC).timestamp()


class Absence:
    def __init__(self, service: GameService, *, clock: Callable[[], float] = time.time,
                 default_vacation_days: int = DEFAULT_VACATION_DAYS) -> None:
        self.service = service
        self.repo = service.repo
        self.clock = clock
        self.default_vacation_days = default_vacation_days

    # ------------------------------------------------------------ deadline policy
    async def policy(self, game_id: int) -> DeadlinePolicy:
        return await self.repo.deadline_policy(game_id)

    async def configure(self, game_id: int, by_user_id: int, *, hours: float | None = None,
                        on_timeout: str | None = None,
                        abandon_after: int | None = None) -> DeadlinePolicy:
        """The creator's choice before the start."""
        game = await self.service.get(game_id)
        if game.status != LOBBY:
            raise errors.AlreadyStarted(game_id=game_id)
        if by_user_id != game.creator_id:
            raise errors.NotCreator(game_id=game_id)
        policy = make_policy(hours, on_timeout, abandon_after,
                             base=await self.repo.deadline_policy(game_id))
        await self.service.set_deadline_policy(game_id, policy, restart_clocks=False)
        log.info("game %d: deadline policy %s", game_id, policy)
        return policy

    async def propose(self, game_id: int, user_id: int, *, hours: float | None = None,
                      on_timeout: str | None = None,
                      abandon_after: int | None = None) -> VoteResult:
        """After the start: a vote for a new policy, applied once every human agreed."""
        current = await self.repo.deadline_policy(game_id)
        policy = make_policy(hours, on_timeout, abandon_after, base=current)
        result = await self.service.vote(game_id, _topic(policy), user_id)
        if result.passed:
            await self.service.set_deadline_policy(game_id, policy, restart_clocks=True)
            log.info("game %d: deadline policy changed by vote to %s", game_id, policy)
        return result

    # ------------------------------------------------------------ pause
    async def vote_pause(self, game_id: int, user_id: int) -> VoteResult:
        """A vote to pause a running game, or to resume a paused one (unanimous)."""
        paused = (await self.repo.deadline_policy(game_id)).paused_at is not None
        result = await self.service.vote(game_id, votes.RESUME if paused else votes.PAUSE,
                                         user_id)
        if result.passed:
            await self.service.set_paused(game_id, not paused)
        return result

    async def set_paused(self, game_id: int, paused: bool) -> bool:
        """Stop or restart every clock of the game (an admin); False if it already was."""
        return await self.service.set_paused(game_id, paused)

    # ------------------------------------------------------------ vacations
    async def allowance(self, guild_id: int | None) -> int:
        if guild_id is None:
            return self.default_vacation_days
        days = (await self.repo.guild_settings(guild_id)).vacation_days
        return self.default_vacation_days if days is None else days

    async def vacation_status(self, user_id: int, guild_id: int | None) -> VacationStatus:
        now = self.clock()
        taken = await self.repo.vacations_since(user_id, _year_start(now))
        # Booked days count; a vacation ended early counts its started days only.
        used = sum(math.ceil((v.end_at - v.start_at) / DAY - 1e-9) for v in taken)
        return VacationStatus(await self.repo.current_vacation(user_id, now), used,
                              await self.allowance(guild_id))

    async def start_vacation(self, user_id: int, guild_id: int | None,
                             days: int) -> VacationStatus:
        """Stop the player's clocks in every game for ``days`` days (from the allowance)."""
        status = await self.vacation_status(user_id, guild_id)
        if status.current is not None:
            raise errors.Forbidden(key="deadline.vacation_already", end=int(status.current.end_at))
        if not 1 <= days <= status.left:
            raise errors.InvalidOption(key="deadline.vacation_days", days=days, left=status.left)
        now = self.clock()
        await self.service.start_vacation(user_id, now, now + days * DAY)
        log.info("user %d: vacation of %d day(s)", user_id, days)
        return await self.vacation_status(user_id, guild_id)

    async def end_vacation(self, user_id: int, guild_id: int | None) -> VacationStatus:
        """Back early: the unused whole days return to the allowance."""
        now = self.clock()
        current = await self.repo.current_vacation(user_id, now)
        if current is None:
            raise errors.Forbidden(key="deadline.no_vacation")
        await self.service.end_vacation(current, now)
        log.info("user %d: vacation ended early", user_id)
        return await self.vacation_status(user_id, guild_id)

    async def set_vacation_allowance(self, guild_id: int, days: int) -> int:
        if not 0 <= days <= MAX_VACATION_DAYS:
            raise errors.InvalidOption(option="vacation_days", value=days,
                                       choices=f"0-{MAX_VACATION_DAYS}")
        await self.service.set_vacation_days(guild_id, days)
        return days

    # ------------------------------------------------------------ takeover
    async def abandoned(self, game_id: int) -> dict[int, int]:
        return await self.repo.abandoned_seats(game_id)

    async def takeover(self, game_id: int, user_id: int, name: str,
                       seat: int | None = None) -> GameInfo:
        """Anyone in the channel (not already playing) takes an abandoned seat."""
        game = await self.service.get(game_id)
        if game.status != ACTIVE:
            raise errors.NotStarted(game_id=game_id) if game.status == LOBBY else GameOver(
                f"game {game_id} is {game.status}")
        if game.seat_of(user_id) is not None:
            raise errors.AlreadySeated(game_id=game_id)
        free = await self.repo.abandoned_seats(game_id)
        if seat is None and free:
            seat = min(free)
        if seat is None or seat not in free:
            raise errors.Forbidden(key="deadline.not_abandoned", seat=(seat or 0) + 1)
        return await self.service.take_over_seat(game_id, seat, user_id, name)

    # ------------------------------------------------------------ quiet hours
    async def set_quiet(self, user_id: int, *, timezone_name: str | None = None,
                        start: str | None = None, end: str | None = None,
                        notify_before: bool | None = None) -> UserSettings:
        """Set the given preferences (None = unchanged; an empty start or end = no quiet
        hours)."""
        values: dict[str, object] = {}
        if timezone_name is not None:
            try:
                values["timezone"] = zone(timezone_name.strip()).key
            except ValueError:
                raise errors.InvalidOption(key="deadline.invalid_timezone",
                                           timezone=timezone_name) from None
        for field, text in (("quiet_start", start), ("quiet_end", end)):
            if text is None:
                continue
            try:
                values[field] = parse_time(text) if text.strip() else None
            except ValueError:
                raise errors.InvalidOption(key="deadline.invalid_time", time=text) from None
        if notify_before is not None:
            values["notify_before"] = bool(notify_before)
        if not values:
            return await self.repo.user_settings(user_id)
        settings = await self.service.set_quiet_hours(user_id, values)
        log.info("user %d quiet settings: %s", user_id, values)
        return settings
