"""The SQL repository: every aggregate's SQL implementation over one :class:`Database`."""

from __future__ import annotations

from bot.storage.base import Repository
from bot.storage.calendar import SqlCalendar
from bot.storage.db import Database
from bot.storage.gamelog import SqlLog
from bot.storage.games import SqlGames
from bot.storage.outbox import SqlOutbox
from bot.storage.ratings import SqlRatings
from bot.storage.settings import SqlSettings
from bot.storage.timing import SqlTiming
from bot.storage.votes import SqlVotes


class SqlRepository(SqlGames, SqlLog, SqlVotes, SqlSettings, SqlTiming, SqlCalendar,
                    SqlRatings, SqlOutbox, Repository):
    """The stores share ``db``: one transaction helper."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.rows_read = 0  # log rows and snapshots read so far (tests bound the costs)

    async def close(self) -> None:
        await self.db.close()

    async def migrate(self) -> list[int]:
        """Apply pending migrations (opening a repository already does)."""
        return await self.db.migrate()

    async def schema_version(self) -> int:
        return await self.db.schema_version()
