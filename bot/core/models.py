"""Plain records passed between storage, the game service and the cogs (no discord types)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.base import Choice, Event, MultiChoice, Result

LOBBY, ACTIVE, FINISHED, CANCELLED = "lobby", "active", "finished", "cancelled"
OPEN_STATUSES = (LOBBY, ACTIVE)


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    user_id: int | None  # None for an AI seat
    name: str
    level: str = "normal"  # the AI's level (engines.ai.LEVELS); kept if a human sits

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    def mention(self) -> str:
        return f"<@{self.user_id}>" if self.user_id is not None else f"**{self.name}**"


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One game row with its seats. ``version`` = number of actions applied so far."""

    id: int
    guild_id: int | None
    channel_id: int
    game_key: str
    status: str
    creator_id: int
    options: dict[str, Any]
    seed: int
    version: int
    max_seats: int
    seats: tuple[Seat, ...]
    created_at: float
    updated_at: float
    lobby_message_id: int | None = None
    reminder_hours: float = 24.0
    moves: int = 0  # effective moves so far: the replay position of the current state
    imported: bool = False  # re-created by /game import: never counted anywhere
    ai_level: str = "normal"  # the level of an AI taking over a seat at this table

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def seat(self, number: int) -> Seat:
        return self.seats[number]

    @property
    def humans(self) -> tuple[Seat, ...]:
        return tuple(s for s in self.seats if not s.is_ai)


@dataclass(frozen=True, slots=True)
class LogEntry:
    seq: int  # 1-based; entry n turns version n-1 into version n
    seat: int
    action: str
    created_at: float
    public: tuple[Event, ...] = ()


@dataclass(slots=True)
class MoveResult:
    """Everything a cog needs to answer one accepted move (and the AI moves it triggered)."""

    game: GameInfo
    public_events: list[Event] = field(default_factory=list)
    private_events: dict[int, list[Event]] = field(default_factory=dict)
    turn_completed: bool = False  # a TURN_END happened: post one channel message
    image: bytes | None = None  # spectator board PNG, rendered when turn_completed
    awaited: tuple[Seat, ...] = ()
    result: Result | None = None  # set when the game just ended
    deadlines: dict[int, float] = field(default_factory=dict)  # seat -> move deadline
    panel: Panel | None = None  # the mover's fresh panel, drawn from the state just saved


@dataclass(frozen=True, slots=True)
class Panel:
    """A seat's private panel: its view and the legal choices of the current step."""

    game: GameInfo
    seat: int
    view: dict[str, Any]
    choices: tuple[Choice | MultiChoice, ...]
    awaited: bool
    take_back: bool = False  # the seat may take back its last move freely (no vote needed)


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's overrides; ``None`` = use the bot's default."""

    guild_id: int
    locale: str | None = None
    reminder_hours: float | None = None
    vacation_days: int | None = None  # per player and calendar year


@dataclass(frozen=True, slots=True)
class UserSettings:
    """A player's preferences: reminders by DM only when opted in."""

    user_id: int
    locale: str | None = None
    dm_opt_in: bool = False
    reminder_hours: float | None = None
    timezone: str | None = None  # IANA name, for quiet hours
    quiet_start: int | None = None  # minutes after local midnight
    quiet_end: int | None = None
    notify_before: bool = False  # DM when the player before me starts


@dataclass(frozen=True, slots=True)
class DeadlinePolicy:
    """How long an awaited player has, and what happens when the time is up."""

    hours: float = 0.0  # 0 = no deadline
    on_timeout: str = "ai"  # "ai" plays for them; "skip" skips where the game allows
    abandon_after: int = 3  # consecutive misses before the seat is abandoned (0 = never)
    warn_hours: float | None = None  # None = 25 % of the deadline, at least 1 h
    paused_at: float | None = None  # the table paused every clock

    @property
    def enabled(self) -> bool:
        return self.hours > 0


@dataclass(frozen=True, slots=True)
class Reliability:
    """A player's record across every server: shown by ``/game profile``."""

    user_id: int
    finished: int = 0  # games played to the end in their seat
    timeouts: int = 0  # deadlines missed
    abandoned: int = 0  # seats declared abandoned
