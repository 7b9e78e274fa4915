"""Votes: every decision put to the players of a game — cancelling it, pausing or resuming
it, a new deadline policy, taking back moves — and their ballots (migration 007; the rules
are in bot/core/votes.py)."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from bot.core.storage.db import Conn, Database, dumps, marks
from bot.core.storage.records import RequestPending, VersionConflict, Vote


async def _vote(conn: Conn, where: str, params: Sequence[Any]) -> Vote | None:
    row = await conn.fetchrow(f"SELECT * FROM votes WHERE {where}", params)
    if row is None:
        return None
    votes = {r[0]: bool(r[1]) for r in await conn.fetch(
        "SELECT user_id, accept FROM ballots WHERE vote_id = ?", (row["id"],))}
    return Vote(id=row["id"], game_id=row["game_id"], topic=row["topic"],
                user_id=row["user_id"], status=row["status"], created_at=row["created_at"],
                votes=votes, voters=tuple(json.loads(row["voters"])),
                expires_at=row["expires_at"], version=row["version"], seat=row["seat"],
                rewind_to=row["rewind_to"])


async def withdraw(conn: Conn, game_id: int, user_id: int) -> None:
    """A player's ballots in the game's open votes no longer count (inside a transaction)."""
    await conn.execute("DELETE FROM ballots WHERE user_id = ? AND vote_id IN (SELECT id "
                       "FROM votes WHERE game_id = ? AND status = 'open')", (user_id, game_id))


class VoteStore(ABC):
    """The votes aggregate: every vote of a game and its ballots."""

    @abstractmethod
    async def create_vote(self, game_id: int, topic: str, *, user_id: int, now: float,
                          voters: Sequence[int] = (), expires_at: float | None = None,
                          version: int | None = None, seat: int | None = None,
                          rewind_to: int | None = None) -> Vote:
        """Open a vote; :class:`RequestPending` if one is open on this topic."""

    @abstractmethod
    async def vote(self, vote_id: int) -> Vote | None: ...

    @abstractmethod
    async def open_vote(self, game_id: int, topic: str) -> Vote | None: ...

    @abstractmethod
    async def cast_ballot(self, vote_id: int, user_id: int, accept: bool, *,
                          now: float) -> Vote:
        """Record (or change) a ballot; :class:`VersionConflict` if the vote is closed."""

    @abstractmethod
    async def close_vote(self, vote_id: int, status: str, *, now: float) -> bool:
        """Close an open vote with ``status``; False if it was no longer open."""

    @abstractmethod
    async def close_open_votes(self, game_id: int, status: str, *, now: float,
                               keep: Sequence[str] = ()) -> int:
        """Close every open vote of the game but those on ``keep`` topics; how many."""

    @abstractmethod
    async def withdraw_ballots(self, game_id: int, user_id: int) -> None:
        """A player leaves the table: their ballots in its open votes no longer count."""


class SqlVotes(VoteStore):
    db: Database

    async def create_vote(self, game_id: int, topic: str, *, user_id: int, now: float,
                          voters: Sequence[int] = (), expires_at: float | None = None,
                          version: int | None = None, seat: int | None = None,
                          rewind_to: int | None = None) -> Vote:
        async def tx(conn: Conn) -> Vote:
            try:
                vote_id = await conn.fetchval(
                    "INSERT INTO votes (game_id, topic, user_id, voters, created_at, "
                    "expires_at, version, seat, rewind_to) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "RETURNING id", (game_id, topic, user_id, dumps(list(voters)), now,
                                     expires_at, version, seat, rewind_to))
            except self.db.integrity_errors as err:
                raise RequestPending(f"game {game_id} has an open {topic} vote") from err
            found = await _vote(conn, "id = ?", (vote_id,))
            assert found is not None
            return found

        return await self.db.write(tx)

    async def vote(self, vote_id: int) -> Vote | None:
        return await self.db.read(lambda c: _vote(c, "id = ?", (vote_id,)))

    async def open_vote(self, game_id: int, topic: str) -> Vote | None:
        return await self.db.read(lambda c: _vote(
            c, "game_id = ? AND topic = ? AND status = 'open'", (game_id, topic)))

    async def cast_ballot(self, vote_id: int, user_id: int, accept: bool, *,
                          now: float) -> Vote:
        async def tx(conn: Conn) -> Vote:
            if not await conn.fetchval("SELECT 1 FROM votes WHERE id = ? AND status = 'open'",
                                       (vote_id,)):
                raise VersionConflict(f"vote {vote_id} is closed")
            await conn.execute(
                "INSERT INTO ballots (vote_id, user_id, accept, created_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (vote_id, user_id) DO UPDATE SET "
                "accept = excluded.accept, created_at = excluded.created_at",
                (vote_id, user_id, int(accept), now))
            found = await _vote(conn, "id = ?", (vote_id,))
            assert found is not None
            return found

        return await self.db.write(tx)

    async def close_vote(self, vote_id: int, status: str, *, now: float) -> bool:
        async def tx(conn: Conn) -> bool:
            return await conn.execute(
                "UPDATE votes SET status = ?, resolved_at = ? WHERE id = ? AND status = 'open'",
                (status, now, vote_id)) == 1

        return await self.db.write(tx)

    async def close_open_votes(self, game_id: int, status: str, *, now: float,
                               keep: Sequence[str] = ()) -> int:
        kept = f" AND topic NOT IN ({marks(keep)})" if keep else ""

        async def tx(conn: Conn) -> int:
            return await conn.execute(
                "UPDATE votes SET status = ?, resolved_at = ? WHERE game_id = ? AND "
                f"status = 'open'{kept}", (status, now, game_id, *keep))

        return await self.db.write(tx)

    async def withdraw_ballots(self, game_id: int, user_id: int) -> None:
        await self.db.write(lambda conn: withdraw(conn, game_id, user_id))
