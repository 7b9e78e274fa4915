"""Persistence behind the storage interfaces (:class:`Repository`, one per aggregate in
:mod:`bot.core.storage.base`). SQLite is the default backend; PostgreSQL is chosen by a
``postgresql://`` address (``LUDO_DATABASE``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.core.storage.base import (
    AwaitedSeat,
    ChannelTaken,
    LogRow,
    RatingRow,
    Reminder,
    Repository,
    RequestPending,
    SeatTaken,
    StorageError,
    VersionConflict,
    Vote,
    VoteStore,
)
from bot.core.storage.sqlite import SqliteRepository

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str | Path) -> bool:
    return str(target).startswith(POSTGRES_SCHEMES)


async def open_repository(target: str | Path, **kwargs: Any) -> Repository:
    """Open (and migrate) the database at ``target``: a PostgreSQL address, or the path of
    a SQLite file."""
    if is_postgres(target):
        from bot.core.storage.postgres import PostgresRepository  # asyncpg only when asked for

        return await PostgresRepository.open(str(target), **kwargs)
    return await SqliteRepository.open(target, **kwargs)


__all__ = ["AwaitedSeat", "ChannelTaken", "LogRow", "RatingRow", "Reminder", "Repository",
           "RequestPending", "SeatTaken", "SqliteRepository", "StorageError", "VersionConflict",
           "Vote", "VoteStore", "is_postgres", "open_repository"]
