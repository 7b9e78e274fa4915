"""The SQL repository: every aggregate's SQL implementation over one :class:`Database`."""

from __future__ import annotations

import os
import socket

from bot.core.storage.base import Repository
from bot.core.storage.calendar import SqlCalendar
from bot.core.storage.db import Conn, Database
from bot.core.storage.gamelog import SqlLog
from bot.core.storage.games import SqlGames
from bot.core.storage.outbox import SqlOutbox
from bot.core.storage.ratings import SqlRatings
from bot.core.storage.settings import SqlSettings
from bot.core.storage.timing import SqlTiming
from bot.core.storage.votes import SqlVotes


def default_owner() -> str:
    """``LUDO_INSTANCE`` (one name per process when several run on one host), else the
    host name: stable across restarts, so a restarted process finds its own claims."""
    return os.environ.get("LUDO_INSTANCE") or socket.gethostname()


class SqlRepository(SqlGames, SqlLog, SqlVotes, SqlSettings, SqlTiming, SqlCalendar,
                    SqlRatings, SqlOutbox, Repository):
    """The stores share ``db`` (one transaction helper) and ``owner`` (claims)."""

    def __init__(self, db: Database, *, owner: str | None = None) -> None:
        self.db = db
        self.owner = owner or default_owner()
        self.rows_read = 0  # log rows and snapshots read so far (tests bound the costs)

    async def release_claims(self) -> int:
        async def tx(conn: Conn) -> int:
            return sum([
                await conn.execute(
                    "UPDATE reminders SET claim_owner = NULL, remind_claimed_until = NULL, "
                    "warn_claimed_until = NULL, deadline_claimed_until = NULL "
                    "WHERE claim_owner = ?", (self.owner,)),
                await conn.execute(
                    "UPDATE outbox SET claim_owner = NULL, claimed_until = NULL "
                    "WHERE claim_owner = ? AND sent_at IS NULL", (self.owner,)),
                await conn.execute(
                    "UPDATE games SET ai_claim_owner = NULL, ai_claim_version = NULL, "
                    "ai_claimed_until = NULL WHERE ai_claim_owner = ?", (self.owner,)),
            ])

        return await self.db.write(tx)

    async def close(self) -> None:
        await self.db.close()

    async def migrate(self) -> list[int]:
        """Apply pending migrations (opening a repository already does)."""
        return await self.db.migrate()

    async def schema_version(self) -> int:
        return await self.db.schema_version()
