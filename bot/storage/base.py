"""The storage interface: every read and write the bot makes, with no SQL in sight.

The SQLite backend (:mod:`bot.storage.sqlite`) holds all the SQL, so a PostgreSQL backend
for multi-process deployments is one new module implementing :class:`Repository`.

Two rules every backend keeps:

* a move is one transaction: append the log row and ``UPDATE games ... WHERE version = ?``;
  if another writer got there first, nothing is written and :class:`VersionConflict` is
  raised (optimistic concurrency, like boardgame.io's ``stateID``);
* at most one open (lobby or active) game per channel, enforced by the database itself.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.models import GameInfo, GuildSettings, Seat, UserSettings
from engines.base import Event


class StorageError(Exception):
    """Base of the storage errors the service translates."""


class VersionConflict(StorageError):
    """The game changed since it was loaded (or left the expected status); nothing written."""


class ChannelTaken(StorageError):
    """The channel already has an open game."""


class SeatTaken(StorageError):
    """A seat number or user is already at this table."""


@dataclass(frozen=True, slots=True)
class LogRow:
    """One entry of the append-only action log (both public and private events)."""

    seq: int
    seat: int
    action: str
    public: tuple[Event, ...]
    private: tuple[Event, ...]
    turn_end: bool
    created_at: float


@dataclass(frozen=True, slots=True)
class AwaitedSeat:
    """A human seat awaited after a save; ``next_at`` is its first reminder (None = never)."""

    seat: int
    user_id: int
    next_at: float | None


@dataclass(frozen=True, slots=True)
class Reminder:
    """Reminder state of one awaited seat; it lives as long as the seat stays awaited."""

    game_id: int
    seat: int
    user_id: int
    turn_version: int  # the game version at which this seat's turn began
    since: float  # when it began
    next_at: float | None
    muted_at_version: int | None

    @property
    def muted(self) -> bool:
        return self.muted_at_version is not None and self.muted_at_version >= self.turn_version


class Repository(ABC):
    """Async storage of games, seats, the action log, settings and reminder state."""

    # --- lifecycle ---------------------------------------------------------------------
    @abstractmethod
    async def close(self) -> None: ...

    async def __aenter__(self) -> Repository:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- games -------------------------------------------------------------------------
    @abstractmethod
    async def create_game(self, *, guild_id: int | None, channel_id: int, game_key: str,
                          creator_id: int, options: Mapping[str, Any], seed: int,
                          max_seats: int, reminder_hours: float, seats: Sequence[Seat],
                          now: float) -> GameInfo:
        """Insert a lobby; :class:`ChannelTaken` if the channel has an open game."""

    @abstractmethod
    async def get_game(self, game_id: int) -> GameInfo | None: ...

    @abstractmethod
    async def load_game(self, game_id: int) -> tuple[GameInfo, dict[str, Any] | None] | None:
        """The game and its state snapshot (None before start)."""

    @abstractmethod
    async def open_game_in_channel(self, channel_id: int) -> GameInfo | None: ...

    @abstractmethod
    async def games_with_user(self, user_id: int, statuses: Sequence[str]) -> list[GameInfo]: ...

    @abstractmethod
    async def games_with_status(self, statuses: Sequence[str]) -> list[GameInfo]: ...

    @abstractmethod
    async def count_games(self, statuses: Sequence[str] | None = None) -> int: ...

    @abstractmethod
    async def set_seats(self, game_id: int, seats: Sequence[Seat], *, now: float) -> GameInfo:
        """Replace a lobby's seats (join/leave/AI); :class:`SeatTaken` on a duplicate user,
        :class:`VersionConflict` if the game is no longer a lobby."""

    @abstractmethod
    async def replace_seat(self, game_id: int, seat: Seat, *, now: float) -> GameInfo:
        """Change who sits at one seat of a started game (a player replaced by an AI)."""

    @abstractmethod
    async def start_game(self, game_id: int, state: Mapping[str, Any], *, now: float,
                         awaited: Sequence[AwaitedSeat]) -> GameInfo:
        """Lobby -> active with the initial snapshot; :class:`VersionConflict` if not a lobby."""

    @abstractmethod
    async def save_move(self, game_id: int, *, expected_version: int, state: Mapping[str, Any],
                        seat: int, action: str, public: Sequence[Event],
                        private: Sequence[Event], turn_end: bool, finished: bool,
                        awaited: Sequence[AwaitedSeat], now: float) -> GameInfo:
        """Append log row ``expected_version + 1`` and the new snapshot, atomically.

        Reminder rows follow ``awaited``: a seat still awaited keeps its row (its turn goes
        on) unless ``turn_end``, after which every awaited seat begins a new turn."""

    @abstractmethod
    async def set_status(self, game_id: int, status: str, *, expected: Sequence[str],
                         now: float) -> GameInfo:
        """Change status if the current one is in ``expected``, else :class:`VersionConflict`."""

    @abstractmethod
    async def set_lobby_message(self, game_id: int, message_id: int | None) -> None: ...

    @abstractmethod
    async def set_game_reminder_hours(self, game_id: int, hours: float, *,
                                      now: float) -> GameInfo:
        """Also re-times pending reminders: ``next_at = since + hours`` (None if hours <= 0)."""

    # --- action log --------------------------------------------------------------------
    @abstractmethod
    async def log(self, game_id: int, *, limit: int = 20,
                  before_seq: int | None = None) -> list[LogRow]:
        """The newest ``limit`` entries before ``before_seq``, oldest first."""

    @abstractmethod
    async def turn_batch(self, game_id: int, upto_seq: int) -> list[LogRow]:
        """Entries from the last turn-ending one before ``upto_seq`` (inclusive) to it."""

    # --- cancel votes ------------------------------------------------------------------
    @abstractmethod
    async def add_cancel_vote(self, game_id: int, user_id: int, *, now: float) -> set[int]:
        """Record a vote; return every voter so far."""

    @abstractmethod
    async def cancel_votes(self, game_id: int) -> set[int]: ...

    @abstractmethod
    async def remove_cancel_vote(self, game_id: int, user_id: int) -> None: ...

    # --- settings ----------------------------------------------------------------------
    @abstractmethod
    async def guild_settings(self, guild_id: int) -> GuildSettings: ...

    @abstractmethod
    async def update_guild_settings(self, guild_id: int, values: Mapping[str, Any], *,
                                    now: float) -> GuildSettings:
        """Upsert ``locale`` / ``reminder_hours`` (None clears an override)."""

    @abstractmethod
    async def user_settings(self, user_id: int) -> UserSettings: ...

    @abstractmethod
    async def update_user_settings(self, user_id: int, values: Mapping[str, Any], *,
                                   now: float) -> UserSettings:
        """Upsert ``locale`` / ``dm_opt_in`` / ``reminder_hours``."""

    @abstractmethod
    async def user_locales(self) -> dict[int, str]:
        """Every user's language override (loaded once at start-up by the bot)."""

    # --- reminders ---------------------------------------------------------------------
    @abstractmethod
    async def reminders(self, game_id: int) -> list[Reminder]: ...

    @abstractmethod
    async def due_reminders(self, now: float) -> list[Reminder]:
        """Unmuted reminders of active games whose ``next_at <= now``."""

    @abstractmethod
    async def reschedule_reminder(self, game_id: int, seat: int, next_at: float | None) -> None:
        ...

    @abstractmethod
    async def mute_reminders(self, game_id: int, user_id: int) -> int:
        """Mute this user's reminders for the current turn; number of seats muted."""
