"""The outbox: channel messages a move owes, written in the move's own transaction and
marked sent once Discord has them (docs/OUTBOX.md).

Between processes delivery is claimed row by row, and only a game's oldest pending row is
ever handed out: another process can take a game's next message only once the one before
it is sent, so each channel still reads its turns in order.
"""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from bot.core.shards import Shards
from bot.core.storage.db import Conn, Database, dumps
from bot.core.storage.records import OutboxRow, Outgoing

# A pending row ``o`` that is the oldest pending message of its game.
_FIRST_OF_GAME = ("o.sent_at IS NULL AND NOT EXISTS (SELECT 1 FROM outbox p "
                  "WHERE p.game_id = o.game_id AND p.sent_at IS NULL AND p.id < o.id)")


def _outbox_row(r: Any) -> OutboxRow:
    return OutboxRow(id=r["id"], game_id=r["game_id"], version=r["version"], kind=r["kind"],
                     payload=json.loads(r["payload"]), nonce=r["nonce"],
                     created_at=r["created_at"], attempts=r["attempts"])


async def queue(conn: Conn, game_id: int, version: int, outbox: Sequence[Outgoing],
                now: float | None) -> None:
    """Store the messages a change owes (inside the change's transaction)."""
    created = time.time() if now is None else now
    await conn.executemany(
        "INSERT INTO outbox (game_id, version, kind, payload, nonce, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, version, o.kind, dumps(o.payload), o.nonce, created) for o in outbox])


def in_shards(shards: Shards | None) -> tuple[str, list[Any]]:
    """`` AND`` a condition on the game ``g`` of a row: its guild is on one of ``shards``
    (:meth:`~bot.core.shards.Shards.where`), or nothing when no filter is needed."""
    if shards is None or shards.everything:
        return "", []
    owned, values = shards.where("g.guild_id")
    return f" AND {owned}", list(values)


class OutboxStore(ABC):
    @abstractmethod
    async def pending_outbox(self, *, limit: int = 50,
                             shards: Shards | None = None) -> list[OutboxRow]:
        """Messages not yet sent, oldest first; with ``shards``, only those of games whose
        guild is on one of them (a process delivers its own guilds' messages)."""

    @abstractmethod
    async def claim_outbox(self, now: float, *, lease: float = 300.0, limit: int = 50,
                           shards: Shards | None = None) -> list[OutboxRow]:
        """The oldest pending message of each game (with ``shards``: of their guilds' games)
        that nobody holds, now held by the caller for ``lease`` seconds (or until
        :meth:`outbox_done` / :meth:`release_outbox`), oldest first."""

    @abstractmethod
    async def release_outbox(self, row_id: int) -> None:
        """Give a claimed message back (its post failed for now: anyone may retry it)."""

    @abstractmethod
    async def outbox_attempt(self, row_id: int) -> None:
        """Count one delivery attempt (before the post)."""

    @abstractmethod
    async def outbox_done(self, row_id: int, *, now: float, message_id: int | None = None,
                          failure: str | None = None) -> None:
        """The message was posted (``message_id``), or given up on (``failure``, logged):
        either way it is no longer pending."""


class SqlOutbox(OutboxStore):
    db: Database
    owner: str

    async def pending_outbox(self, *, limit: int = 50,
                             shards: Shards | None = None) -> list[OutboxRow]:
        where, params = in_shards(shards)
        rows = await self.db.read(lambda c: c.fetch(
            "SELECT o.* FROM outbox o JOIN games g ON g.id = o.game_id "
            f"WHERE o.sent_at IS NULL{where} ORDER BY o.id LIMIT ?", (*params, max(0, limit))))
        return [_outbox_row(r) for r in rows]

    async def claim_outbox(self, now: float, *, lease: float = 300.0, limit: int = 50,
                           shards: Shards | None = None) -> list[OutboxRow]:
        where, params = in_shards(shards)

        async def tx(conn: Conn) -> list[OutboxRow]:
            rows = await conn.fetch(
                f"SELECT o.* FROM outbox o JOIN games g ON g.id = o.game_id "
                f"WHERE {_FIRST_OF_GAME}{where} AND (o.claimed_until IS NULL "
                "OR o.claimed_until <= ?) ORDER BY o.id LIMIT ? "
                f"{self.db.skip_locked.format(table='o')}", (*params, now, max(0, limit)))
            await conn.executemany(
                "UPDATE outbox SET claimed_until = ?, claim_owner = ? WHERE id = ?",
                [(now + lease, self.owner, r["id"]) for r in rows])
            return [_outbox_row(r) for r in rows]

        return await self.db.write(tx)

    async def release_outbox(self, row_id: int) -> None:
        async def tx(conn: Conn) -> None:
            await conn.execute("UPDATE outbox SET claimed_until = NULL WHERE id = ?", (row_id,))

        await self.db.write(tx)

    async def outbox_attempt(self, row_id: int) -> None:
        async def tx(conn: Conn) -> None:
            await conn.execute("UPDATE outbox SET attempts = attempts + 1 WHERE id = ?",
                               (row_id,))

        await self.db.write(tx)

    async def outbox_done(self, row_id: int, *, now: float, message_id: int | None = None,
                          failure: str | None = None) -> None:
        async def tx(conn: Conn) -> None:
            # The payload (a state snapshot) is no longer needed once the message is out.
            await conn.execute(
                "UPDATE outbox SET sent_at = ?, message_id = ?, failure = ?, payload = '{}', "
                "claimed_until = NULL WHERE id = ?",
                (now, message_id, failure, row_id))

        await self.db.write(tx)
