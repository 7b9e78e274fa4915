"""The storage interface, split by aggregate; :class:`Repository` is all of them at once.

Each aggregate is a small interface in its own module — games (:mod:`.games`), their log
(:mod:`.gamelog`), votes (:mod:`.votes`), settings (:mod:`.settings`), timing
(:mod:`.timing`), the players' calendar (:mod:`.calendar`), ratings (:mod:`.ratings`) and
the outbox (:mod:`.outbox`) — with one SQL implementation over the shared transaction helper
(:mod:`.db`). A caller that needs one aggregate may ask for that interface only.

The records the interfaces speak in are defined in :mod:`bot.core.storage.records` and
re-exported here.
"""

from __future__ import annotations

from abc import abstractmethod

from bot.core.storage.calendar import CalendarStore
from bot.core.storage.gamelog import LogStore
from bot.core.storage.games import GameStore
from bot.core.storage.outbox import OutboxStore
from bot.core.storage.ratings import RatingStore
from bot.core.storage.records import (
    SNAPSHOT_EVERY,
    AwaitedSeat,
    ChannelTaken,
    LogRow,
    Notice,
    OutboxRow,
    Outgoing,
    RatingRow,
    RatingUpdate,
    Reminder,
    ReplayBase,
    RequestPending,
    SeatClock,
    SeatTaken,
    StorageError,
    Vacation,
    VersionConflict,
    Vote,
    undone_by,
)
from bot.core.storage.settings import SettingsStore
from bot.core.storage.timing import TimingStore
from bot.core.storage.votes import VoteStore


class Repository(GameStore, LogStore, VoteStore, SettingsStore, TimingStore, CalendarStore,
                 RatingStore, OutboxStore):
    """Every aggregate's interface, over one database."""

    #: The name this repository's claims are held under: one per bot process, the same
    #: across its restarts (``LUDO_INSTANCE``, else the host name).
    owner: str

    @abstractmethod
    async def release_claims(self) -> int:
        """Give back every claim held under :attr:`owner` — left by this process's previous
        life, which died holding them — so their jobs are done now rather than when their
        leases end. Call it once at start, before any claim. Returns how many."""

    @abstractmethod
    async def close(self) -> None: ...

    async def __aenter__(self) -> Repository:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


__all__ = [
    "SNAPSHOT_EVERY", "AwaitedSeat", "CalendarStore", "ChannelTaken", "GameStore", "LogRow",
    "LogStore", "Notice", "OutboxRow", "OutboxStore", "Outgoing", "RatingRow", "RatingStore",
    "RatingUpdate", "Reminder", "ReplayBase", "Repository", "RequestPending", "SeatClock",
    "SeatTaken", "SettingsStore", "StorageError", "TimingStore", "Vacation", "VersionConflict",
    "Vote", "VoteStore", "undone_by",
]
