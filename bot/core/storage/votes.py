"""Votes at a table: cancelling the game, the table's proposals (pause, resume, a new
deadline policy) and undo requests waiting for the other players' consent."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from bot.core.storage.db import Conn, Database, dumps
from bot.core.storage.records import RequestPending, UndoRequest, VersionConflict


async def _undo_request(conn: Conn, where: str, params: Sequence[Any]) -> UndoRequest | None:
    row = await conn.fetchrow(f"SELECT * FROM undo_requests WHERE {where}", params)
    if row is None:
        return None
    votes = {r[0]: bool(r[1]) for r in await conn.fetch(
        "SELECT user_id, accept FROM undo_votes WHERE request_id = ?", (row["id"],))}
    return UndoRequest(id=row["id"], game_id=row["game_id"], user_id=row["user_id"],
                       seat=row["seat"], version=row["version"], rewind_to=row["rewind_to"],
                       voters=tuple(json.loads(row["voters"])), status=row["status"],
                       created_at=row["created_at"], expires_at=row["expires_at"],
                       votes=votes)


async def _voters(conn: Conn, table: str, game_id: int, topic: str | None = None) -> set[int]:
    if topic is None:
        rows = await conn.fetch(f"SELECT user_id FROM {table} WHERE game_id = ?", (game_id,))
    else:
        rows = await conn.fetch(f"SELECT user_id FROM {table} WHERE game_id = ? AND topic = ?",
                                (game_id, topic))
    return {r[0] for r in rows}


class VoteStore(ABC):
    @abstractmethod
    async def add_cancel_vote(self, game_id: int, user_id: int, *, now: float) -> set[int]:
        """Record a vote; return every voter so far."""

    @abstractmethod
    async def cancel_votes(self, game_id: int) -> set[int]: ...

    @abstractmethod
    async def remove_cancel_vote(self, game_id: int, user_id: int) -> None: ...

    @abstractmethod
    async def add_table_vote(self, game_id: int, topic: str, user_id: int, *,
                             now: float) -> set[int]:
        """Record a vote; return every voter on this topic so far."""

    @abstractmethod
    async def clear_table_votes(self, game_id: int) -> None: ...

    @abstractmethod
    async def create_undo_request(self, game_id: int, *, user_id: int, seat: int,
                                  version: int, rewind_to: int, voters: Sequence[int],
                                  now: float, expires_at: float) -> UndoRequest:
        """:class:`RequestPending` if the game has an open request."""

    @abstractmethod
    async def undo_request(self, request_id: int) -> UndoRequest | None: ...

    @abstractmethod
    async def open_undo_request(self, game_id: int) -> UndoRequest | None: ...

    @abstractmethod
    async def add_undo_vote(self, request_id: int, user_id: int, accept: bool, *,
                            now: float) -> UndoRequest:
        """Record (or change) a vote on an open request."""

    @abstractmethod
    async def close_undo_request(self, request_id: int, status: str, *, now: float) -> bool:
        """Close an open request with ``status``; False if it was no longer open."""


class SqlVotes(VoteStore):
    db: Database

    async def add_cancel_vote(self, game_id: int, user_id: int, *, now: float) -> set[int]:
        async def tx(conn: Conn) -> set[int]:
            await conn.execute(
                "INSERT INTO cancel_votes (game_id, user_id, created_at) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING", (game_id, user_id, now))
            return await _voters(conn, "cancel_votes", game_id)

        return await self.db.write(tx)

    async def cancel_votes(self, game_id: int) -> set[int]:
        return await self.db.read(lambda c: _voters(c, "cancel_votes", game_id))

    async def remove_cancel_vote(self, game_id: int, user_id: int) -> None:
        async def tx(conn: Conn) -> None:
            await conn.execute("DELETE FROM cancel_votes WHERE game_id = ? AND user_id = ?",
                               (game_id, user_id))

        await self.db.write(tx)

    async def add_table_vote(self, game_id: int, topic: str, user_id: int, *,
                             now: float) -> set[int]:
        async def tx(conn: Conn) -> set[int]:
            await conn.execute(
                "INSERT INTO table_votes (game_id, topic, user_id, created_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", (game_id, topic, user_id, now))
            return await _voters(conn, "table_votes", game_id, topic)

        return await self.db.write(tx)

    async def clear_table_votes(self, game_id: int) -> None:
        async def tx(conn: Conn) -> None:
            await conn.execute("DELETE FROM table_votes WHERE game_id = ?", (game_id,))

        await self.db.write(tx)

    async def create_undo_request(self, game_id: int, *, user_id: int, seat: int,
                                  version: int, rewind_to: int, voters: Sequence[int],
                                  now: float, expires_at: float) -> UndoRequest:
        async def tx(conn: Conn) -> UndoRequest:
            try:
                request_id = await conn.fetchval(
                    "INSERT INTO undo_requests (game_id, user_id, seat, version, rewind_to, "
                    "voters, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                    "RETURNING id",
                    (game_id, user_id, seat, version, rewind_to, dumps(list(voters)), now,
                     expires_at))
            except self.db.integrity_errors as err:
                raise RequestPending(f"game {game_id} has an open undo request") from err
            found = await _undo_request(conn, "id = ?", (request_id,))
            assert found is not None
            return found

        return await self.db.write(tx)

    async def undo_request(self, request_id: int) -> UndoRequest | None:
        return await self.db.read(lambda c: _undo_request(c, "id = ?", (request_id,)))

    async def open_undo_request(self, game_id: int) -> UndoRequest | None:
        return await self.db.read(lambda c: _undo_request(
            c, "game_id = ? AND status = 'open'", (game_id,)))

    async def add_undo_vote(self, request_id: int, user_id: int, accept: bool, *,
                            now: float) -> UndoRequest:
        async def tx(conn: Conn) -> UndoRequest:
            if not await conn.fetchval("SELECT 1 FROM undo_requests WHERE id = ? AND "
                                       "status = 'open'", (request_id,)):
                raise VersionConflict(f"undo request {request_id} is closed")
            await conn.execute(
                "INSERT INTO undo_votes (request_id, user_id, accept, created_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (request_id, user_id) DO UPDATE SET "
                "accept = excluded.accept, created_at = excluded.created_at",
                (request_id, user_id, int(accept), now))
            found = await _undo_request(conn, "id = ?", (request_id,))
            assert found is not None
            return found

        return await self.db.write(tx)

    async def close_undo_request(self, request_id: int, status: str, *, now: float) -> bool:
        async def tx(conn: Conn) -> bool:
            return await conn.execute(
                "UPDATE undo_requests SET status = ?, resolved_at = ? "
                "WHERE id = ? AND status = 'open'", (status, now, request_id)) == 1

        return await self.db.write(tx)
