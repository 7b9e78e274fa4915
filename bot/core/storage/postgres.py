"""The PostgreSQL backend (asyncpg), for several bot processes over one database.

Chosen by ``LUDO_DATABASE=postgresql://…``. The stores' SQL is the same as SQLite's; this
module turns its ``?`` placeholders into ``$1, $2, …`` and runs it on a connection pool:

* reads run in a read-only ``REPEATABLE READ`` transaction (one snapshot, like SQLite's);
* writes run in ``READ COMMITTED``: a move's ``UPDATE games … WHERE version = $n`` waits for
  a concurrent writer of the same game and then finds the version changed, so exactly one
  of two concurrent moves is stored (the other gets :class:`VersionConflict`);
* claims end in ``FOR UPDATE … SKIP LOCKED``: a row another process is claiming is skipped,
  never handed out twice;
* :meth:`Conn.lock` is a transaction-scoped advisory lock.

Migrations are the files of ``migrations/postgresql`` (same numbers as SQLite's), applied
under an advisory lock so processes starting together apply each once.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, TypeVar

import asyncpg

from bot.core.storage.db import Conn, Database, bundled_migrations
from bot.core.storage.repository import SqlRepository

log = logging.getLogger(__name__)
T = TypeVar("T")
_PLACEHOLDER = re.compile(r"\?")
_MIGRATION_LOCK = 0x6C75646F  # any constant shared by every process of the bot


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every PostgreSQL migration, in order."""
    return bundled_migrations("migrations/postgresql")


_translated: dict[str, str] = {}


def translate(sql: str) -> str:
    """``?`` placeholders to ``$n`` (the stores' SQL never holds a literal ``?``)."""
    found = _translated.get(sql)
    if found is None:
        counter = iter(range(1, 10_000))
        found = _translated[sql] = _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)
    return found


def _count(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresConn(Conn):
    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _count(await self._conn.execute(translate(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            await self._conn.executemany(translate(sql), rows)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self._conn.fetch(translate(sql), *params))

    async def lock(self, key: str) -> None:
        await self._conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", key)


class PostgresDatabase(Database):
    skip_locked = "FOR UPDATE OF {table} SKIP LOCKED"
    integrity_errors = (asyncpg.IntegrityConstraintViolationError,)

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def open(cls, dsn: str, *, min_size: int = 1, max_size: int = 10) -> PostgresDatabase:
        pool = await asyncpg.create_pool(dsn, min_size=min_size, max_size=max_size)
        db = cls(pool)
        try:
            await db.migrate()
        except BaseException:
            await pool.close()
            raise
        return db

    async def close(self) -> None:
        await self._pool.close()

    async def _run(self, fn: Callable[[Conn], Awaitable[T]], **options: Any) -> T:
        async with self._pool.acquire() as conn, conn.transaction(**options):
            return await fn(PostgresConn(conn))

    def read(self, fn: Callable[[Conn], Awaitable[T]]) -> Awaitable[T]:
        return self._run(fn, isolation="repeatable_read", readonly=True)

    def write(self, fn: Callable[[Conn], Awaitable[T]]) -> Awaitable[T]:
        return self._run(fn)

    async def migrate(self) -> list[int]:
        """Apply pending migrations, each in its own transaction; return those applied."""
        applied: list[int] = []
        for number, name, script in migrations():
            async with self._pool.acquire() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                    "name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)")
                if await conn.fetchval("SELECT 1 FROM schema_version WHERE version = $1",
                                       number):
                    continue
                await conn.execute(script)  # a whole file: the simple query protocol
                await conn.execute("INSERT INTO schema_version VALUES ($1, $2, $3)",
                                   number, name, time.time())
            log.info("applied migration %s", name)
            applied.append(number)
        return applied


class PostgresRepository(SqlRepository):
    """The repository over a PostgreSQL database; open with :meth:`open`."""

    db: PostgresDatabase

    @classmethod
    async def open(cls, dsn: str, *, owner: str | None = None,
                   **pool: Any) -> PostgresRepository:
        return cls(await PostgresDatabase.open(dsn, **pool), owner=owner)
