"""The records and errors the storage interfaces speak in (plain data, no SQL)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import Event


class StorageError(Exception):
    """Base of the storage errors the service translates."""


class VersionConflict(StorageError):
    """The game changed since it was loaded (or left the expected status); nothing written."""


class ChannelTaken(StorageError):
    """The channel already has an open game."""


class SeatTaken(StorageError):
    """A seat number or user is already at this table."""


class RequestPending(StorageError):
    """The game already has an open vote on this topic."""


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
    irreversible: bool = True  # revealed hidden information or drew at random
    rewind_to: int | None = None  # set on an undo entry: the last entry it keeps
    undone: bool = False  # taken back by a later undo entry

    @property
    def is_undo(self) -> bool:
        return self.rewind_to is not None

    @property
    def effective(self) -> bool:
        """A move that counts: replaying the effective entries gives the snapshot."""
        return self.rewind_to is None and not self.undone


def undone_by(rows: Sequence[LogRow]) -> dict[int, int]:
    """Which undo entry took back each entry, from the ``rewind_to`` pointers alone
    (an undo keeps the entries up to ``rewind_to`` that were still live)."""
    live: list[int] = []
    out: dict[int, int] = {}
    for row in rows:
        if row.rewind_to is None:
            live.append(row.seq)
            continue
        while live and live[-1] > row.rewind_to:
            out[live.pop()] = row.seq
    return out


SNAPSHOT_EVERY = 25  # effective moves between two stored snapshots (replays, undo)


@dataclass(frozen=True, slots=True)
class ReplayBase:
    """Where to rebuild a past position from: the nearest stored snapshot before it (or the
    setup: ``state`` None at position 0) and the effective moves from there to it."""

    position: int
    state: Mapping[str, Any] | None
    moves: tuple[LogRow, ...]


@dataclass(frozen=True, slots=True)
class AwaitedSeat:
    """A human seat awaited after a save; ``next_at`` is its first reminder (None = never)."""

    seat: int
    user_id: int
    next_at: float | None
    deadline_at: float | None = None  # its move deadline (running clock)
    deadline_left: float | None = None  # or the seconds it will have once clocks run again
    warn_at: float | None = None


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
    deadline_at: float | None = None
    deadline_left: float | None = None
    warn_at: float | None = None
    before_sent: bool = False

    @property
    def muted(self) -> bool:
        return self.muted_at_version is not None and self.muted_at_version >= self.turn_version


@dataclass(frozen=True, slots=True)
class Vote:
    """A decision put to the players of a game (the rules: bot/core/votes.py): cancelling
    it, pausing or resuming it, a new deadline policy, or taking back moves (``undo``)."""

    id: int
    game_id: int
    topic: str  # cancel | pause | resume | deadline:… | undo
    user_id: int  # who asked
    status: str  # open | accepted | refused | expired | void
    created_at: float
    votes: Mapping[int, bool]  # each ballot so far: user id -> yes
    voters: tuple[int, ...] = ()  # whose yes is needed; () = every human seated now
    expires_at: float | None = None
    version: int | None = None  # undo: the game version asked at; any later entry voids it
    seat: int | None = None  # undo: the seat whose moves are taken back
    rewind_to: int | None = None  # undo: the last log entry kept


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One player's rating in one game and scope (a guild id, or 0 for global)."""

    scope: int
    game_key: str
    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate leaderboards sort by (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma


# (user_id -> (mu, sigma) known so far) -> (user_id -> (mu, sigma, won)) for one scope.
RatingUpdate = Callable[[Mapping[int, tuple[float, float]]],
                        Mapping[int, tuple[float, float, bool]]]


@dataclass(frozen=True, slots=True)
class SeatClock:
    """New deadline values of one awaited seat's reminder row."""

    seat: int
    deadline_at: float | None
    deadline_left: float | None
    warn_at: float | None


@dataclass(frozen=True, slots=True)
class Vacation:
    id: int
    user_id: int
    start_at: float
    end_at: float
    resumed: bool


@dataclass(frozen=True, slots=True)
class Notice:
    """A message held back by quiet hours, about ``seat``'s turn ``turn_version``."""

    id: int
    game_id: int
    seat: int
    turn_version: int
    user_id: int
    kind: str
    due_at: float


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A channel message a move owes, written in the move's transaction (the outbox).
    ``payload`` is plain JSON data; ``nonce`` makes a repeated post a no-op on Discord."""

    kind: str
    payload: Mapping[str, Any]
    nonce: str


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """A pending outbox message: the move at ``version`` of ``game_id`` owes it."""

    id: int
    game_id: int
    version: int
    kind: str
    payload: Mapping[str, Any]
    nonce: str
    created_at: float
    attempts: int
