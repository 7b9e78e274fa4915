"""Timing: the reminder row of each awaited seat, with its move clock (deadline, warning,
notify-before), and the missed deadlines behind the reliability profile (docs/ASYNC.md).

Periodic work is claimed: a ``claim_*`` method hands out due rows and marks them held for
``lease`` seconds, so a poller meanwhile — in this process or another — skips them
(PostgreSQL: ``FOR UPDATE SKIP LOCKED``; SQLite: its one writer at a time). Doing the job
releases it (a new ``next_at``, ``warn_at`` or turn); a process that dies leaves its claims
to expire (another process then does the job), or to be released when it starts again
under the same owner name (:meth:`~bot.core.storage.base.Repository.release_claims`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from bot.core.models import ACTIVE, FINISHED, DeadlinePolicy, Reliability
from bot.core.shards import Shards
from bot.core.storage.db import Conn, Database
from bot.core.storage.outbox import in_shards, queue
from bot.core.storage.records import AwaitedSeat, Outgoing, Reminder, SeatClock

# A reminder row ``r`` whose clocks are stopped: its game is paused or its player is on
# vacation (two ``now`` parameters). Reminders wait too.
_CLOCKS_STOPPED = (
    "EXISTS (SELECT 1 FROM deadline_policies d WHERE d.game_id = r.game_id "
    "AND d.paused_at IS NOT NULL) OR EXISTS (SELECT 1 FROM vacations v "
    "WHERE v.user_id = r.user_id AND v.start_at <= ? AND v.end_at > ?)")

# What is due, per job: (WHERE clause on ``r`` and ``g``, ORDER BY).
_DUE = {
    "reminders": ("r.next_at IS NOT NULL AND r.next_at <= ? AND g.status = ? "
                  "AND (r.muted_at_version IS NULL OR r.muted_at_version < r.turn_version) "
                  f"AND NOT ({_CLOCKS_STOPPED})", "r.next_at, r.game_id, r.seat"),
    "warnings": ("r.warn_at IS NOT NULL AND r.warn_at <= ? AND r.deadline_at IS NOT NULL "
                 "AND g.status = ?", "r.warn_at, r.game_id, r.seat"),
    "deadlines": ("r.deadline_at IS NOT NULL AND r.deadline_at <= ? AND g.status = ?",
                  "r.deadline_at, r.game_id, r.seat"),
}


_CLAIM_COLUMN = {"reminders": "remind_claimed_until", "warnings": "warn_claimed_until",
                 "deadlines": "deadline_claimed_until"}


def _due_params(job: str, now: float) -> tuple[Any, ...]:
    return (now, ACTIVE, now, now) if job == "reminders" else (now, ACTIVE)


def _reminder(row: Any) -> Reminder:
    return Reminder(game_id=row["game_id"], seat=row["seat"], user_id=row["user_id"],
                    turn_version=row["turn_version"], since=row["since"],
                    next_at=row["next_at"], muted_at_version=row["muted_at_version"],
                    deadline_at=row["deadline_at"], deadline_left=row["deadline_left"],
                    warn_at=row["warn_at"], before_sent=bool(row["before_sent"]))


async def sync_reminders(conn: Conn, game_id: int, version: int,
                         awaited: Sequence[AwaitedSeat], now: float,
                         keep_others: bool = False) -> None:
    """Keep one reminder row per awaited human; a seat still awaited keeps its row (called
    inside the transaction of a move, a start or an undo)."""
    seats = [a.seat for a in awaited]
    keep = f" AND seat NOT IN ({','.join('?' * len(seats))})" if seats else ""
    if not keep_others:
        await conn.execute(f"DELETE FROM reminders WHERE game_id = ?{keep}", (game_id, *seats))
    await conn.executemany(
        "INSERT INTO reminders (game_id, seat, user_id, turn_version, since, next_at, "
        "deadline_at, deadline_left, warn_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        [(game_id, a.seat, a.user_id, version, now, a.next_at, a.deadline_at,
          a.deadline_left, a.warn_at) for a in awaited])


class TimingStore(ABC):
    """Reminders, move clocks and absence."""

    @abstractmethod
    async def reminders(self, game_id: int) -> list[Reminder]: ...

    @abstractmethod
    async def due_reminders(self, now: float) -> list[Reminder]:
        """Unmuted reminders of active games whose ``next_at <= now`` and clocks run."""

    @abstractmethod
    async def claim_due_reminders(self, now: float, *, lease: float = 300.0, limit: int = 100,
                                  shards: Shards | None = None) -> list[Reminder]:
        """The due reminders nobody holds (with ``shards``: of games in their guilds), now
        held by the caller for ``lease`` seconds (or until :meth:`reschedule_reminder`)."""

    @abstractmethod
    async def reschedule_reminder(self, game_id: int, seat: int, next_at: float | None) -> None:
        ...

    @abstractmethod
    async def mute_reminders(self, game_id: int, user_id: int) -> int:
        """Mute this user's reminders for the current turn; number of seats muted."""

    @abstractmethod
    async def deadline_policy(self, game_id: int) -> DeadlinePolicy:
        """The game's policy (the default, without deadline, if none was set)."""

    @abstractmethod
    async def set_deadline_policy(self, game_id: int, policy: DeadlinePolicy, *,
                                  now: float) -> None: ...

    @abstractmethod
    async def set_clocks(self, game_id: int, clocks: Sequence[SeatClock]) -> None:
        """Write the deadline columns of these seats' reminder rows (if they still exist)."""

    @abstractmethod
    async def start_clock(self, game_id: int, awaited: AwaitedSeat, *, version: int,
                          now: float) -> None:
        """A reminder row for a seat that became human while awaited (a takeover)."""

    @abstractmethod
    async def user_clocks(self, user_id: int) -> list[Reminder]:
        """Reminder rows of this user in active games."""

    @abstractmethod
    async def due_warnings(self, now: float) -> list[Reminder]:
        """Running clocks of active games whose ``warn_at <= now``."""

    @abstractmethod
    async def claim_due_warnings(self, now: float, *, lease: float = 300.0, limit: int = 100,
                                 shards: Shards | None = None) -> list[Reminder]:
        """:meth:`due_warnings` nobody holds, now held (until :meth:`set_warn_at`)."""

    @abstractmethod
    async def set_warn_at(self, game_id: int, seat: int, turn_version: int,
                          warn_at: float | None, *, outbox: Sequence[Outgoing] = (),
                          now: float | None = None) -> None:
        """Move (None: clear) the warning time, with the messages that owes (``outbox``,
        queued at ``now``) in the same transaction."""

    @abstractmethod
    async def due_deadlines(self, now: float) -> list[Reminder]:
        """Running clocks of active games whose ``deadline_at <= now``."""

    @abstractmethod
    async def claim_due_deadlines(self, now: float, *, lease: float = 300.0, limit: int = 100,
                                  shards: Shards | None = None) -> list[Reminder]:
        """:meth:`due_deadlines` nobody holds, now held (until the lease ends: the job
        changes the turn, or :meth:`claim_timeout` refuses a second count)."""

    @abstractmethod
    async def claim_timeout(self, game_id: int, seat: int, user_id: int, turn_version: int, *,
                            expected_version: int, now: float,
                            owed: Callable[[int], Sequence[Outgoing]] | None = None
                            ) -> int | None:
        """Record a missed deadline once per seat turn, in one transaction guarded by the
        game version and the expired clock; return the consecutive misses so far, or None
        if the guard failed (the player moved, the game changed, the clock was stopped).
        ``owed(misses)``: the messages the miss owes, stored in the same transaction, only
        when the miss is counted (a retry after a crash finds them already queued)."""

    @abstractmethod
    async def reset_misses(self, game_id: int, seat: int) -> None:
        """The player moved by themselves: their consecutive misses start again at 0."""

    @abstractmethod
    async def abandoned_seats(self, game_id: int) -> dict[int, int]:
        """Abandoned seats still played by the AI: seat -> the player who left it."""

    @abstractmethod
    async def pending_before(self, *, shards: Shards | None = None) -> list[Reminder]:
        """Rows of active games whose notify-before has not been handled yet (with
        ``shards``: of games in their guilds)."""

    @abstractmethod
    async def mark_before_sent(self, game_id: int, seat: int, turn_version: int, *,
                               outbox: Sequence[Outgoing] = (),
                               now: float | None = None) -> None:
        """The "you're next" of this turn is handled, with the message it owes if any."""

    @abstractmethod
    async def reliability(self, user_id: int) -> Reliability: ...


class SqlTiming(TimingStore):
    db: Database
    owner: str

    async def _reminders(self, sql: str, params: Sequence[Any]) -> list[Reminder]:
        return [_reminder(r) for r in await self.db.read(lambda c: c.fetch(sql, params))]

    async def _due(self, job: str, now: float) -> list[Reminder]:
        where, order = _DUE[job]
        return await self._reminders(
            f"SELECT r.* FROM reminders r JOIN games g ON g.id = r.game_id WHERE {where} "
            f"ORDER BY {order}", _due_params(job, now))

    async def _claim(self, job: str, now: float, lease: float, limit: int,
                     shards: Shards | None) -> list[Reminder]:
        """Lock the due rows nobody holds (skipping those another transaction has locked),
        of games in ``shards``' guilds, hold them until ``now + lease``, return them."""
        where, order = _DUE[job]
        held = _CLAIM_COLUMN[job]
        mine, shard_params = in_shards(shards)

        async def tx(conn: Conn) -> list[Reminder]:
            rows = await conn.fetch(
                f"SELECT r.* FROM reminders r JOIN games g ON g.id = r.game_id WHERE {where} "
                f"AND (r.{held} IS NULL OR r.{held} <= ?){mine} "
                f"ORDER BY {order} LIMIT ? {self.db.skip_locked.format(table='r')}",
                (*_due_params(job, now), now, *shard_params, max(0, limit)))
            await conn.executemany(
                f"UPDATE reminders SET {held} = ?, claim_owner = ? WHERE game_id = ? AND seat = ?",
                [(now + lease, self.owner, r["game_id"], r["seat"]) for r in rows])
            return [_reminder(r) for r in rows]

        return await self.db.write(tx)

    async def reminders(self, game_id: int) -> list[Reminder]:
        return await self._reminders(
            "SELECT * FROM reminders WHERE game_id = ? ORDER BY seat", (game_id,))

    async def due_reminders(self, now: float) -> list[Reminder]:
        return await self._due("reminders", now)

    async def claim_due_reminders(self, now: float, *, lease: float = 300.0, limit: int = 100,
                                  shards: Shards | None = None) -> list[Reminder]:
        return await self._claim("reminders", now, lease, limit, shards)

    async def reschedule_reminder(self, game_id: int, seat: int, next_at: float | None) -> None:
        async def tx(conn: Conn) -> None:
            await conn.execute("UPDATE reminders SET next_at = ?, remind_claimed_until = NULL "
                               "WHERE game_id = ? AND seat = ?",
                               (next_at, game_id, seat))

        await self.db.write(tx)

    async def mute_reminders(self, game_id: int, user_id: int) -> int:
        async def tx(conn: Conn) -> int:
            return await conn.execute(
                "UPDATE reminders SET muted_at_version = "
                "(SELECT version FROM games WHERE id = ?) WHERE game_id = ? AND user_id = ?",
                (game_id, game_id, user_id))

        return await self.db.write(tx)

    async def deadline_policy(self, game_id: int) -> DeadlinePolicy:
        row = await self.db.read(lambda c: c.fetchrow(
            "SELECT * FROM deadline_policies WHERE game_id = ?", (game_id,)))
        if row is None:
            return DeadlinePolicy()
        return DeadlinePolicy(row["hours"], row["on_timeout"], row["abandon_after"],
                              row["warn_hours"], row["paused_at"])

    async def set_deadline_policy(self, game_id: int, policy: DeadlinePolicy, *,
                                  now: float) -> None:
        async def tx(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO deadline_policies (game_id, hours, on_timeout, abandon_after, "
                "warn_hours, paused_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET hours = excluded.hours, "
                "on_timeout = excluded.on_timeout, abandon_after = excluded.abandon_after, "
                "warn_hours = excluded.warn_hours, paused_at = excluded.paused_at, "
                "updated_at = excluded.updated_at",
                (game_id, policy.hours, policy.on_timeout, policy.abandon_after,
                 policy.warn_hours, policy.paused_at, now))

        await self.db.write(tx)

    async def set_clocks(self, game_id: int, clocks: Sequence[SeatClock]) -> None:
        async def tx(conn: Conn) -> None:
            await conn.executemany(
                "UPDATE reminders SET deadline_at = ?, deadline_left = ?, warn_at = ? "
                "WHERE game_id = ? AND seat = ?",
                [(c.deadline_at, c.deadline_left, c.warn_at, game_id, c.seat) for c in clocks])

        if clocks:
            await self.db.write(tx)

    async def start_clock(self, game_id: int, awaited: AwaitedSeat, *, version: int,
                          now: float) -> None:
        async def tx(conn: Conn) -> None:
            await sync_reminders(conn, game_id, version, [awaited], now, keep_others=True)

        await self.db.write(tx)

    async def user_clocks(self, user_id: int) -> list[Reminder]:
        return await self._reminders(
            "SELECT r.* FROM reminders r JOIN games g ON g.id = r.game_id "
            "WHERE r.user_id = ? AND g.status = ? ORDER BY r.game_id, r.seat",
            (user_id, ACTIVE))

    async def due_warnings(self, now: float) -> list[Reminder]:
        return await self._due("warnings", now)

    async def claim_due_warnings(self, now: float, *, lease: float = 300.0, limit: int = 100,
                                 shards: Shards | None = None) -> list[Reminder]:
        return await self._claim("warnings", now, lease, limit, shards)

    async def set_warn_at(self, game_id: int, seat: int, turn_version: int,
                          warn_at: float | None, *, outbox: Sequence[Outgoing] = (),
                          now: float | None = None) -> None:
        async def tx(conn: Conn) -> None:
            await conn.execute(
                "UPDATE reminders SET warn_at = ?, warn_claimed_until = NULL "
                "WHERE game_id = ? AND seat = ? AND turn_version = ?",
                (warn_at, game_id, seat, turn_version))
            await queue(conn, game_id, turn_version, outbox, now)

        await self.db.write(tx)

    async def due_deadlines(self, now: float) -> list[Reminder]:
        return await self._due("deadlines", now)

    async def claim_due_deadlines(self, now: float, *, lease: float = 300.0, limit: int = 100,
                                  shards: Shards | None = None) -> list[Reminder]:
        return await self._claim("deadlines", now, lease, limit, shards)

    async def claim_timeout(self, game_id: int, seat: int, user_id: int, turn_version: int, *,
                            expected_version: int, now: float,
                            owed: Callable[[int], Sequence[Outgoing]] | None = None
                            ) -> int | None:
        async def tx(conn: Conn) -> int | None:
            guard = await conn.fetchval(
                "SELECT 1 FROM games g JOIN reminders r ON r.game_id = g.id "
                "WHERE g.id = ? AND g.version = ? AND g.status = ? AND r.seat = ? "
                "AND r.user_id = ? AND r.turn_version = ? AND r.deadline_at <= ?",
                (game_id, expected_version, ACTIVE, seat, user_id, turn_version, now))
            if not guard:
                return None
            counted = await conn.execute(
                "INSERT INTO absence_events (game_id, seat, user_id, kind, turn_version, "
                "created_at) VALUES (?, ?, ?, 'timeout', ?, ?) ON CONFLICT DO NOTHING",
                (game_id, seat, user_id, turn_version, now))
            if counted == 1:  # a retry after a crash finds it already counted
                await conn.execute(
                    "INSERT INTO seat_absence (game_id, seat, user_id, misses) "
                    "VALUES (?, ?, ?, 1) ON CONFLICT (game_id, seat) DO UPDATE SET "
                    "misses = CASE WHEN seat_absence.user_id = excluded.user_id "
                    "THEN seat_absence.misses + 1 ELSE 1 END, user_id = excluded.user_id",
                    (game_id, seat, user_id))
            misses = int(await conn.fetchval(
                "SELECT misses FROM seat_absence WHERE game_id = ? AND seat = ?",
                (game_id, seat)))
            if counted == 1 and owed is not None:
                await queue(conn, game_id, expected_version, owed(misses), now)
            return misses

        return await self.db.write(tx)

    async def reset_misses(self, game_id: int, seat: int) -> None:
        async def tx(conn: Conn) -> None:
            await conn.execute(
                "UPDATE seat_absence SET misses = 0 WHERE game_id = ? AND seat = ? "
                "AND misses > 0", (game_id, seat))

        await self.db.write(tx)

    async def abandoned_seats(self, game_id: int) -> dict[int, int]:
        rows = await self.db.read(lambda c: c.fetch(
            "SELECT a.seat, a.user_id FROM seat_absence a JOIN seats s "
            "ON s.game_id = a.game_id AND s.seat = a.seat WHERE a.game_id = ? "
            "AND a.abandoned_at IS NOT NULL AND s.user_id IS NULL ORDER BY a.seat",
            (game_id,)))
        return {r[0]: r[1] for r in rows}

    async def pending_before(self, *, shards: Shards | None = None) -> list[Reminder]:
        mine, params = in_shards(shards)
        return await self._reminders(
            "SELECT r.* FROM reminders r JOIN games g ON g.id = r.game_id "
            f"WHERE r.before_sent = 0 AND g.status = ?{mine} ORDER BY r.game_id, r.seat",
            (ACTIVE, *params))

    async def mark_before_sent(self, game_id: int, seat: int, turn_version: int, *,
                               outbox: Sequence[Outgoing] = (),
                               now: float | None = None) -> None:
        async def tx(conn: Conn) -> None:
            await conn.execute(
                "UPDATE reminders SET before_sent = 1 WHERE game_id = ? AND seat = ? "
                "AND turn_version = ?", (game_id, seat, turn_version))
            await queue(conn, game_id, turn_version, outbox, now)

        await self.db.write(tx)

    async def reliability(self, user_id: int) -> Reliability:
        async def q(conn: Conn) -> Reliability:
            finished = await conn.fetchval(
                "SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE s.user_id = ? AND g.status = ? AND g.imported = 0", (user_id, FINISHED))
            counts = {r[0]: r[1] for r in await conn.fetch(
                "SELECT kind, COUNT(*) FROM absence_events WHERE user_id = ? GROUP BY kind",
                (user_id,))}
            return Reliability(user_id, int(finished or 0), counts.get("timeout", 0),
                               counts.get("abandon", 0))

        return await self.db.read(q)
