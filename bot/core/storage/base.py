"""The storage interface: every read and write the bot makes, with no SQL in sight.

The SQLite backend (:mod:`bot.core.storage.sqlite`) holds all the SQL, so a PostgreSQL backend
for multi-process deployments is one new module implementing :class:`Repository`.

Two rules every backend keeps:

* a move is one transaction: append the log row and ``UPDATE games ... WHERE version = ?``;
  if another writer got there first, nothing is written and :class:`VersionConflict` is
  raised (optimistic concurrency, like boardgame.io's ``stateID``);
* at most one open (lobby or active) game per channel, enforced by the database itself.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.models import DeadlinePolicy, GameInfo, GuildSettings, Reliability, Seat, UserSettings
from bot.core.shards import Shards
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


class VoteStore(ABC):
    """The votes aggregate: every vote of a game and its ballots (migration 007)."""

    @abstractmethod
    async def create_vote(self, game_id: int, topic: str, *, user_id: int, now: float,
                          voters: Sequence[int] = (), expires_at: float | None = None,
                          version: int | None = None, seat: int | None = None,
                          rewind_to: int | None = None) -> Vote:
        """Open a vote; :class:`RequestPending` if one is open on this topic."""

    @abstractmethod
    async def vote(self, vote_id: int) -> Vote | None: ...

    @abstractmethod
    async def open_vote(self, game_id: int, topic: str) -> Vote | None: ...

    @abstractmethod
    async def cast_ballot(self, vote_id: int, user_id: int, accept: bool, *,
                          now: float) -> Vote:
        """Record (or change) a ballot; :class:`VersionConflict` if the vote is closed."""

    @abstractmethod
    async def close_vote(self, vote_id: int, status: str, *, now: float) -> bool:
        """Close an open vote with ``status``; False if it was no longer open."""

    @abstractmethod
    async def close_open_votes(self, game_id: int, status: str, *, now: float,
                               keep: Sequence[str] = ()) -> int:
        """Close every open vote of the game but those on ``keep`` topics; how many."""

    @abstractmethod
    async def withdraw_ballots(self, game_id: int, user_id: int) -> None:
        """A player leaves the table: their ballots in its open votes no longer count."""


class Repository(VoteStore):
    """Async storage of games, seats, the action log, settings and reminder state."""

    snapshot_every: int = SNAPSHOT_EVERY  # effective moves between two replay snapshots

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
                         awaited: Sequence[AwaitedSeat],
                         outbox: Sequence[Outgoing] = ()) -> GameInfo:
        """Lobby -> active with the initial snapshot; :class:`VersionConflict` if not a lobby.
        ``outbox``: the messages the start owes, stored in the same transaction."""

    @abstractmethod
    async def save_move(self, game_id: int, *, expected_version: int, state: Mapping[str, Any],
                        seat: int, action: str, public: Sequence[Event],
                        private: Sequence[Event], turn_end: bool, finished: bool,
                        awaited: Sequence[AwaitedSeat], now: float,
                        irreversible: bool = True,
                        outbox: Sequence[Outgoing] = ()) -> GameInfo:
        """Append log row ``expected_version + 1`` and the new snapshot, atomically, with
        the messages the move owes (``outbox``) in the same transaction.

        Reminder rows follow ``awaited``: a seat still awaited keeps its row (its turn goes
        on) unless ``turn_end``, after which every awaited seat begins a new turn."""

    # --- outbox ------------------------------------------------------------------------
    @abstractmethod
    async def pending_outbox(self, *, limit: int = 50,
                             shards: Shards | None = None) -> list[OutboxRow]:
        """Messages not yet sent, oldest first; with ``shards``, only those of games whose
        guild is on one of them (a process delivers its own guilds' messages)."""

    @abstractmethod
    async def outbox_attempt(self, row_id: int) -> None:
        """Count one delivery attempt (before the post)."""

    @abstractmethod
    async def outbox_done(self, row_id: int, *, now: float, message_id: int | None = None,
                          failure: str | None = None) -> None:
        """The message was posted (``message_id``), or given up on (``failure``, logged):
        either way it is no longer pending."""

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

    @abstractmethod
    async def set_game_ai_level(self, game_id: int, level: str, *, now: float) -> GameInfo:
        """The level of AIs that take over a seat at this table from now on."""

    # --- action log --------------------------------------------------------------------
    @abstractmethod
    async def log(self, game_id: int, *, limit: int = 20,
                  before_seq: int | None = None) -> list[LogRow]:
        """The newest ``limit`` entries before ``before_seq``, oldest first."""

    @abstractmethod
    async def turn_batch(self, game_id: int, upto_seq: int) -> list[LogRow]:
        """Entries from the last turn-ending one before ``upto_seq`` (inclusive) to it."""

    @abstractmethod
    async def history(self, game_id: int) -> list[LogRow]:
        """Every entry, oldest first, with its ``undone`` flag (export, animation)."""

    @abstractmethod
    async def entries(self, game_id: int, first: int, last: int) -> list[LogRow]:
        """Entries ``first`` to ``last`` (seq, inclusive), with their ``undone`` flag."""

    @abstractmethod
    async def undo_tail(self, game_id: int, seat: int) -> list[LogRow]:
        """The effective moves from the one before ``seat``'s last effective move to the end
        (all a take-back needs, see :func:`bot.core.undo.plan_undo`); [] if it has none. Its cost
        follows the moves since that seat last played, not the length of the game."""

    @abstractmethod
    async def moved_since(self, game_id: int, seat: int, since: int) -> bool:
        """Whether an entry after version ``since`` is ``seat``'s own or an undo."""

    @abstractmethod
    async def replay_base(self, game_id: int, position: int) -> ReplayBase:
        """The nearest valid snapshot strictly before ``position`` (position 0: the setup)
        and the effective moves after it up to ``position``: at most
        :data:`SNAPSHOT_EVERY` moves to replay, however long the game."""

    # --- undo ---------------------------------------------------------------------------
    @abstractmethod
    async def save_undo(self, game_id: int, *, expected_version: int,
                        state: Mapping[str, Any], seat: int, rewind_to: int,
                        undone: Sequence[int], awaited: Sequence[AwaitedSeat],
                        now: float) -> GameInfo:
        """Append an undo entry (version + 1) marking ``undone`` entries (effective moves)
        as taken back, with the rewound snapshot; every awaited seat begins a new turn."""

    # --- archives -----------------------------------------------------------------------
    @abstractmethod
    async def import_game(self, *, guild_id: int | None, channel_id: int, game_key: str,
                          creator_id: int, options: Mapping[str, Any], seed: int,
                          seats: Sequence[Seat], status: str, state: Mapping[str, Any],
                          rows: Sequence[LogRow], now: float,
                          snapshots: Sequence[tuple[int, int, Mapping[str, Any]]] = ()
                          ) -> GameInfo:
        """Insert a finished or cancelled game with its whole log (flagged imported) and
        its replay snapshots ``(seq, position, state)``."""

    @abstractmethod
    async def secret(self, name: str, make: Callable[[], bytes]) -> bytes:
        """A key the bot keeps: made by ``make`` the first time, the same ever after."""

    @abstractmethod
    async def is_imported(self, game_id: int) -> bool: ...

    @abstractmethod
    async def guild_games(self, guild_id: int, statuses: Sequence[str], *, limit: int,
                          offset: int = 0) -> list[GameInfo]:
        """This server's games in those statuses, newest first."""

    @abstractmethod
    async def count_guild_games(self, guild_id: int, statuses: Sequence[str]) -> int: ...

    @abstractmethod
    async def latest_game_in_channel(self, channel_id: int) -> GameInfo | None:
        """The newest started game of a channel, whatever its status."""

    # --- ratings ------------------------------------------------------------------------
    @abstractmethod
    async def update_ratings(self, game_id: int, game_key: str, scopes: Sequence[int],
                             user_ids: Sequence[int], update: RatingUpdate, *,
                             now: float) -> bool:
        """Rate a game once: in one write transaction, read the players' ratings of each
        scope, apply ``update`` and store the result with the game's ``rated_games`` row.
        False (nothing written) if the game was already rated."""

    @abstractmethod
    async def unrated_finished_games(self) -> list[int]:
        """Finished, not imported games without a ``rated_games`` row."""

    @abstractmethod
    async def leaderboard(self, scope: int, game_key: str, *, limit: int,
                          offset: int = 0) -> list[RatingRow]: ...

    @abstractmethod
    async def count_rated(self, scope: int, game_key: str) -> int: ...

    @abstractmethod
    async def user_ratings(self, user_id: int, scope: int) -> list[RatingRow]: ...

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

    # --- deadlines and absence (docs/ASYNC.md) -----------------------------------------
    @abstractmethod
    async def deadline_policy(self, game_id: int) -> DeadlinePolicy:
        """The game's policy (the default, without deadline, if none was set)."""

    @abstractmethod
    async def set_deadline_policy(self, game_id: int, policy: DeadlinePolicy, *,
                                  now: float) -> None: ...

    @abstractmethod
    async def set_clocks(self, game_id: int, clocks: Sequence[SeatClock]) -> None:
        """Write the deadline columns of these seats' reminder rows (if they still exist)."""

    @abstractmethod
    async def start_clock(self, game_id: int, awaited: AwaitedSeat, *, version: int,
                          now: float) -> None:
        """A reminder row for a seat that became human while awaited (a takeover)."""

    @abstractmethod
    async def user_clocks(self, user_id: int) -> list[Reminder]:
        """Reminder rows of this user in active games."""

    @abstractmethod
    async def due_warnings(self, now: float) -> list[Reminder]:
        """Running clocks of active games whose ``warn_at <= now``."""

    @abstractmethod
    async def set_warn_at(self, game_id: int, seat: int, turn_version: int,
                          warn_at: float | None, *, outbox: Sequence[Outgoing] = (),
                          now: float | None = None) -> None:
        """Move (None: clear) the warning time, with the messages that owes (``outbox``,
        queued at ``now``) in the same transaction."""

    @abstractmethod
    async def due_deadlines(self, now: float) -> list[Reminder]:
        """Running clocks of active games whose ``deadline_at <= now``."""

    @abstractmethod
    async def claim_timeout(self, game_id: int, seat: int, user_id: int, turn_version: int, *,
                            expected_version: int, now: float,
                            owed: Callable[[int], Sequence[Outgoing]] | None = None
                            ) -> int | None:
        """Record a missed deadline once per seat turn, in one transaction guarded by the
        game version and the expired clock; return the consecutive misses so far, or None
        if the guard failed (the player moved, the game changed, the clock was stopped).
        ``owed(misses)``: the messages the miss owes, stored in the same transaction, only
        when the miss is counted (a retry after a crash finds them already queued)."""

    @abstractmethod
    async def reset_misses(self, game_id: int, seat: int) -> None:
        """The player moved by themselves: their consecutive misses start again at 0."""

    @abstractmethod
    async def abandon_seat(self, game_id: int, seat: Seat, user_id: int, turn_version: int, *,
                           now: float, outbox: Sequence[Outgoing] = ()) -> GameInfo:
        """Hand a missing player's seat to the AI (``seat`` is the AI seat) and mark it
        abandoned, with the messages that owes (``outbox``) in the same transaction;
        :class:`VersionConflict` if ``user_id`` no longer holds it."""

    @abstractmethod
    async def abandoned_seats(self, game_id: int) -> dict[int, int]:
        """Abandoned seats still played by the AI: seat -> the player who left it."""

    @abstractmethod
    async def take_over_seat(self, game_id: int, seat: Seat, *, version: int,
                             now: float) -> GameInfo:
        """Seat a new player on an abandoned seat; :class:`VersionConflict` if it is not
        abandoned any more, :class:`SeatTaken` if that player already has a seat."""

    @abstractmethod
    async def pending_before(self) -> list[Reminder]:
        """Rows of active games whose notify-before has not been handled yet."""

    @abstractmethod
    async def mark_before_sent(self, game_id: int, seat: int, turn_version: int, *,
                               outbox: Sequence[Outgoing] = (),
                               now: float | None = None) -> None:
        """The "you're next" of this turn is handled, with the message it owes if any."""

    @abstractmethod
    async def add_notice(self, game_id: int, seat: int, turn_version: int, user_id: int,
                         kind: str, due_at: float) -> None: ...

    @abstractmethod
    async def due_notices(self, now: float) -> list[Notice]: ...

    @abstractmethod
    async def delete_notice(self, notice_id: int, *, outbox: Sequence[Outgoing] = (),
                            now: float | None = None) -> None:
        """A held-back notice is done, with the message it owes if any (same transaction)."""

    @abstractmethod
    async def add_vacation(self, user_id: int, start_at: float, end_at: float) -> Vacation: ...

    @abstractmethod
    async def current_vacation(self, user_id: int, now: float) -> Vacation | None: ...

    @abstractmethod
    async def vacations_since(self, user_id: int, since: float) -> list[Vacation]: ...

    @abstractmethod
    async def end_vacation(self, vacation_id: int, at: float) -> None:
        """Set its end (a vacation ended early); its clocks are resumed by the caller."""

    @abstractmethod
    async def vacations_to_resume(self, now: float) -> list[Vacation]:
        """Ended vacations whose clocks have not been given back yet."""

    @abstractmethod
    async def mark_vacation_resumed(self, vacation_id: int) -> None: ...

    @abstractmethod
    async def reliability(self, user_id: int) -> Reliability: ...
