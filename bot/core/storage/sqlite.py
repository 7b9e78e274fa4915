"""The SQLite backend, the default: one file, nothing to install (``make run``).

One aiosqlite connection per process, in WAL mode (readers never block the writer) with
foreign keys on. Coroutines share the connection, so an asyncio lock keeps each transaction
whole. Writes use ``BEGIN IMMEDIATE`` — one writer at a time, across processes too, which
is why a claim needs no row locks here — and are retried a few times, with a log line each,
when another process holds the write lock longer than ``busy_timeout``.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.core.futures import mark_seen
from bot.core.storage.db import Conn, Database, bundled_migrations
from bot.core.storage.repository import SqlRepository

log = logging.getLogger(__name__)
T = TypeVar("T")


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every SQLite migration, in order."""
    return bundled_migrations("migrations")


def _is_busy(err: sqlite3.OperationalError) -> bool:
    text = str(err).lower()
    return "locked" in text or "busy" in text


def _statements(script: str) -> list[str]:
    """Split a script into statements (trigger bodies contain ';' too)."""
    out: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            out.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise RuntimeError(f"incomplete SQL statement at the end of a migration: {buffer!r}")
    return out


class SqliteConn(Conn):
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._conn.execute(sql, params) as cur:
            return cur.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._conn.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def lock(self, key: str) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already lets one writer in at a time."""


class SqliteDatabase(Database):
    integrity_errors = (sqlite3.IntegrityError,)

    def __init__(self, conn: aiosqlite.Connection, path: Path, *, retries: int,
                 retry_delay: float) -> None:
        self._raw = conn
        self._conn = SqliteConn(conn)
        self.path = path
        self._lock = asyncio.Lock()
        self._retries = retries
        self._retry_delay = retry_delay

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout_ms: int = 5000, retries: int = 5,
                   retry_delay: float = 0.05) -> SqliteDatabase:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        db = cls(conn, path, retries=retries, retry_delay=retry_delay)
        try:
            await db.migrate()
        except BaseException:
            await conn.close()
            raise
        return db

    async def close(self) -> None:
        async with self._lock:
            await self._raw.close()

    async def _run(self, fn: Callable[[Conn], Awaitable[T]], *, begin: str,
                   commit: bool) -> T:
        """One transaction, run to its end (commit or rollback) even if the caller is
        cancelled meanwhile: the caller gets its ``CancelledError``, but no statement of the
        one shared connection is left half-run for the next transaction to trip on (a
        cancelled delivery's next commit failed with "SQL statements in progress")."""
        inner = asyncio.ensure_future(self._transaction(fn, begin=begin, commit=commit))
        inner.add_done_callback(mark_seen)
        return await asyncio.shield(inner)

    async def _transaction(self, fn: Callable[[Conn], Awaitable[T]], *, begin: str,
                           commit: bool) -> T:
        attempt = 0
        async with self._lock:
            while True:
                try:
                    await self._raw.execute(begin)
                    try:
                        result = await fn(self._conn)
                        if commit:
                            await self._raw.commit()
                    except BaseException:
                        if self._raw.in_transaction:
                            await self._raw.rollback()
                        raise
                    if self._raw.in_transaction:  # a read ends its snapshot
                        await self._raw.rollback()
                    return result
                except sqlite3.OperationalError as err:
                    if not _is_busy(err) or attempt >= self._retries:
                        raise
                    attempt += 1
                    delay = self._retry_delay * 2 ** (attempt - 1)
                    log.warning("database is locked (%s); retry %d/%d in %.2fs",
                                err, attempt, self._retries, delay)
                    await asyncio.sleep(delay)

    def read(self, fn: Callable[[Conn], Awaitable[T]]) -> Awaitable[T]:
        return self._run(fn, begin="BEGIN", commit=False)

    def write(self, fn: Callable[[Conn], Awaitable[T]]) -> Awaitable[T]:
        return self._run(fn, begin="BEGIN IMMEDIATE", commit=True)

    async def migrate(self) -> list[int]:
        """Apply pending migrations, each in its own transaction; return those applied."""
        applied: list[int] = []
        for number, name, script in migrations():
            async def step(conn: Conn, number: int = number, name: str = name,
                           script: str = script) -> bool:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                    "name TEXT NOT NULL, applied_at REAL NOT NULL)")
                if await conn.fetchval("SELECT 1 FROM schema_version WHERE version = ?",
                                       (number,)):
                    return False
                for statement in _statements(script):
                    await conn.execute(statement)
                await conn.execute("INSERT INTO schema_version VALUES (?, ?, ?)",
                                   (number, name, time.time()))
                return True

            if await self.write(step):
                log.info("applied migration %s", name)
                applied.append(number)
        return applied

    async def pragma(self, name: str) -> Any:
        if not name.isidentifier():
            raise ValueError(name)
        return await self._run(lambda c: c.fetchval(f"PRAGMA {name}"), begin="BEGIN",
                               commit=False)


class SqliteRepository(SqlRepository):
    """The repository over one SQLite file; open with :meth:`open` (applies migrations)."""

    db: SqliteDatabase

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout_ms: int = 5000, retries: int = 5,
                   retry_delay: float = 0.05, owner: str | None = None) -> SqliteRepository:
        return cls(await SqliteDatabase.open(path, busy_timeout_ms=busy_timeout_ms,
                                             retries=retries, retry_delay=retry_delay),
                   owner=owner)

    @property
    def path(self) -> Path:
        return self.db.path

    async def pragma(self, name: str) -> Any:
        """Read one PRAGMA (tests check WAL and foreign keys)."""
        return await self.db.pragma(name)
