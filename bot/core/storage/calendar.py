"""The players' calendar: vacations (every clock of the player stops) and the messages held
back by their quiet hours until they wake (docs/ASYNC.md)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from bot.core.shards import Shards
from bot.core.storage.db import Conn, Database
from bot.core.storage.outbox import in_shards, queue
from bot.core.storage.records import Notice, Outgoing, Vacation


def _vacation(row: Any) -> Vacation:
    return Vacation(row["id"], row["user_id"], row["start_at"], row["end_at"],
                    bool(row["resumed"]))


class CalendarStore(ABC):
    @abstractmethod
    async def add_notice(self, game_id: int, seat: int, turn_version: int, user_id: int,
                         kind: str, due_at: float) -> None: ...

    @abstractmethod
    async def due_notices(self, now: float, *, shards: Shards | None = None) -> list[Notice]:
        """Held notices due at ``now``; with ``shards``, only those of games whose guild is
        on one of them (a process delivers its own guilds' notices)."""

    @abstractmethod
    async def delete_notice(self, notice_id: int, *, outbox: Sequence[Outgoing] = (),
                            now: float | None = None) -> None:
        """A held-back notice is done, with the message it owes if any (same transaction)."""

    @abstractmethod
    async def add_vacation(self, user_id: int, start_at: float, end_at: float) -> Vacation: ...

    @abstractmethod
    async def current_vacation(self, user_id: int, now: float) -> Vacation | None: ...

    @abstractmethod
    async def vacations_since(self, user_id: int, since: float) -> list[Vacation]: ...

    @abstractmethod
    async def end_vacation(self, vacation_id: int, at: float) -> None:
        """Set its end (a vacation ended early); its clocks are resumed by the caller."""

    @abstractmethod
    async def vacations_to_resume(self, now: float) -> list[Vacation]:
        """Ended vacations whose clocks have not been given back yet."""

    @abstractmethod
    async def mark_vacation_resumed(self, vacation_id: int) -> None: ...


class SqlCalendar(CalendarStore):
    db: Database

    async def add_notice(self, game_id: int, seat: int, turn_version: int, user_id: int,
                         kind: str, due_at: float) -> None:
        async def tx(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO notices (game_id, seat, turn_version, user_id, kind, due_at) "
                "VALUES (?, ?, ?, ?, ?, ?)", (game_id, seat, turn_version, user_id, kind, due_at))

        await self.db.write(tx)

    async def due_notices(self, now: float, *, shards: Shards | None = None) -> list[Notice]:
        mine, params = in_shards(shards)
        rows = await self.db.read(lambda c: c.fetch(
            "SELECT n.* FROM notices n JOIN games g ON g.id = n.game_id "
            f"WHERE n.due_at <= ?{mine} ORDER BY n.due_at, n.id", (now, *params)))
        return [Notice(r["id"], r["game_id"], r["seat"], r["turn_version"], r["user_id"],
                       r["kind"], r["due_at"]) for r in rows]

    async def delete_notice(self, notice_id: int, *, outbox: Sequence[Outgoing] = (),
                            now: float | None = None) -> None:
        async def tx(conn: Conn) -> None:
            row = await conn.fetchrow("DELETE FROM notices WHERE id = ? "
                                      "RETURNING game_id, turn_version", (notice_id,))
            if row is not None:  # else: handled already
                await queue(conn, row[0], row[1], outbox, now)

        await self.db.write(tx)

    async def _vacations(self, sql: str, params: Sequence[Any]) -> list[Vacation]:
        return [_vacation(r) for r in await self.db.read(lambda c: c.fetch(sql, params))]

    async def add_vacation(self, user_id: int, start_at: float, end_at: float) -> Vacation:
        async def tx(conn: Conn) -> int:
            return int(await conn.fetchval(
                "INSERT INTO vacations (user_id, start_at, end_at) VALUES (?, ?, ?) "
                "RETURNING id", (user_id, start_at, end_at)))

        return Vacation(await self.db.write(tx), user_id, start_at, end_at, False)

    async def current_vacation(self, user_id: int, now: float) -> Vacation | None:
        found = await self._vacations(
            "SELECT * FROM vacations WHERE user_id = ? AND start_at <= ? AND end_at > ? "
            "ORDER BY id DESC LIMIT 1", (user_id, now, now))
        return found[0] if found else None

    async def vacations_since(self, user_id: int, since: float) -> list[Vacation]:
        return await self._vacations(
            "SELECT * FROM vacations WHERE user_id = ? AND start_at >= ? ORDER BY start_at",
            (user_id, since))

    async def end_vacation(self, vacation_id: int, at: float) -> None:
        async def tx(conn: Conn) -> None:
            await conn.execute(
                "UPDATE vacations SET end_at = CASE WHEN start_at > ? THEN start_at ELSE ? END "
                "WHERE id = ?", (at, at, vacation_id))

        await self.db.write(tx)

    async def vacations_to_resume(self, now: float) -> list[Vacation]:
        return await self._vacations(
            "SELECT * FROM vacations WHERE resumed = 0 AND end_at <= ? ORDER BY end_at, id",
            (now,))

    async def mark_vacation_resumed(self, vacation_id: int) -> None:
        async def tx(conn: Conn) -> None:
            await conn.execute("UPDATE vacations SET resumed = 1 WHERE id = ?", (vacation_id,))

        await self.db.write(tx)
