"""The one transaction helper every store shares, whatever the database behind it.

A store writes its SQL once, with ``?`` placeholders and the SQL both SQLite and PostgreSQL
understand; a backend (:mod:`bot.core.storage.sqlite`, :mod:`bot.core.storage.postgres`) runs it. A
store's method hands :meth:`Database.read` or :meth:`Database.write` a function of one
:class:`Conn`: the function runs inside one transaction, committed if it returns and rolled
back if it raises. The few things the two dialects say differently are attributes here
(:attr:`Database.skip_locked`, :meth:`Conn.lock`).
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from importlib import resources
from typing import Any, TypeVar

T = TypeVar("T")
_MIGRATION_NAME = re.compile(r"^(\d+)_[a-z0-9_]+\.sql$")
Row = Mapping[str, Any]  # sqlite3.Row and asyncpg.Record both read by name and by index


class Conn(ABC):
    """One connection inside one transaction."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row (each readable as ``row["column"]`` and ``row[0]``)."""

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = await self.fetchrow(sql, params)
        return None if row is None else row[0]

    @abstractmethod
    async def lock(self, key: str) -> None:
        """Hold ``key`` until the transaction ends: writers of the same key take turns
        (a read-modify-write such as a rating update). SQLite writers take turns anyway."""


class Database(ABC):
    """Runs functions of a :class:`Conn` in transactions."""

    #: Ends a claim query (``{table}``: the alias of the claimed rows): lock the rows read,
    #: skipping those another transaction holds (PostgreSQL ``FOR UPDATE SKIP LOCKED``);
    #: empty where writers take turns anyway (SQLite).
    skip_locked: str = ""
    #: The exceptions a broken UNIQUE or CHECK constraint raises.
    integrity_errors: tuple[type[BaseException], ...] = ()

    @abstractmethod
    def read(self, fn: Callable[[Conn], Awaitable[T]]) -> Awaitable[T]:
        """Run ``fn`` in a read-only transaction that sees one consistent snapshot."""

    @abstractmethod
    def write(self, fn: Callable[[Conn], Awaitable[T]]) -> Awaitable[T]:
        """Run ``fn`` in a write transaction: all of it is stored, or nothing."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def migrate(self) -> list[int]:
        """Apply the pending migrations of this dialect; return the numbers applied."""

    async def schema_version(self) -> int:
        return int(await self.read(lambda c: c.fetchval(
            "SELECT COALESCE(MAX(version), 0) FROM schema_version")))


def dumps(value: Any) -> str:
    """The stored JSON text of plain data (stable: sorted keys, no spaces)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def marks(values: Sequence[Any]) -> str:
    """``?, ?, ?`` for an ``IN (...)`` list of these values."""
    return ",".join("?" * len(values))


def bundled_migrations(folder: str) -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every migration file ``NNN_name.sql`` in ``folder``
    (under this package), in order; one numbering for both dialects."""
    found = []
    for entry in resources.files("bot.core.storage").joinpath(folder).iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _, _ in found]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError(f"two migrations share a number: {numbers}")
    return found
