"""Persistence behind one interface (:class:`Repository`); SQLite is the default backend."""

from __future__ import annotations

from pathlib import Path

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


async def open_repository(path: str | Path, **kwargs: object) -> Repository:
    """Open (and migrate) the database at ``path``."""
    return await SqliteRepository.open(path, **kwargs)  # type: ignore[arg-type]


__all__ = ["AwaitedSeat", "ChannelTaken", "LogRow", "RatingRow", "Reminder", "Repository",
           "RequestPending", "SeatTaken", "SqliteRepository", "StorageError", "VersionConflict",
           "Vote", "VoteStore", "open_repository"]
