"""The contract every game engine follows (OpenSpiel / boardgame.io / python-chess shape).

An engine is a module-level object implementing :class:`Engine`. It is pure: standard
library only, no I/O, no clock, no global randomness. Everything a game needs to continue
lives in its state, which is plain data that round-trips through JSON.

Conventions (see ../docs/ENGINES.md for the long form):

* ``active_players(state)`` is a *set*: several seats may be awaited at once (hidden
  simultaneous picks, a combat where several players answer).
* ``legal_actions(state, seat)`` lists every legal choice of that seat, deterministically
  ordered, as small atomic decisions that fit a Discord select menu.
* ``apply(state, seat, action)`` never mutates its input; it returns an :class:`Outcome`
  with the new state and the events it caused, or raises a :class:`GameError`.
* Randomness comes only from the seeded :class:`engines.rng.Rng` kept inside the state.
* ``view(state, seat | None)`` is what that seat may see; ``None`` is a spectator.
* Every user-facing text is a translation *key* plus parameters (:class:`Message`); the
  English text of errors is kept for logs and as a fallback.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

JSON = Any  # a value made only of dict/list/str/int/float/bool/None

# Event key that closes a player's whole turn, or a resolved simultaneous step. The bot
# posts one public channel message per TURN_END (never one per intermediate step).
TURN_END = "turn_end"


class GameError(ValueError):
    """Base of every rules error: ``key`` names a translatable message, ``params`` fill it."""

    key = "error.game"

    def __init__(self, message: str, *, key: str | None = None, **params: Any) -> None:
        super().__init__(message)
        if key is not None:
            self.key = key
        self.params = params


class InvalidAction(GameError):
    """The action text or value is malformed (not an action of this game at all)."""

    key = "error.invalid_action"


class IllegalAction(GameError):
    """A well-formed action that the rules do not allow now."""

    key = "error.illegal_action"


class NotYourTurn(GameError):
    """The seat is not among ``active_players``."""

    key = "error.not_your_turn"


class GameOver(GameError):
    """The game has ended; no more actions."""

    key = "error.game_over"


class InvalidState(GameError):
    """``from_dict`` got data that is not a consistent state of this game."""

    key = "error.invalid_state"


@dataclass(frozen=True, slots=True)
class Message:
    """A translatable text: ``key`` in the locale catalogues, ``params`` to format it."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``to is None``: public; otherwise only that seat sees it."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    to: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params), "to": self.to}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        return cls(str(data["key"]), dict(data.get("params") or {}), data.get("to"))


_TOKEN = re.compile(r"^[a-z0-9_:.=+\-]+$")


@dataclass(frozen=True, slots=True)
class Action:
    """A move as a frozen value: a kind and string arguments.

    Its text form (``str(action)``, parsed back by :meth:`parse`) is used by slash commands,
    the stored action log and tests, like python-chess's ``Move.uci``/``Move.from_uci``.
    """

    kind: str
    args: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for token in (self.kind, *self.args):
            if not isinstance(token, str) or not _TOKEN.match(token):
                raise InvalidAction(f"Bad action token {token!r}", key="error.bad_token",
                                    token=str(token))

    def __str__(self) -> str:
        return " ".join((self.kind, *self.args))

    @classmethod
    def parse(cls, text: str) -> Action:
        tokens = text.strip().lower().split()
        if not tokens:
            raise InvalidAction("Empty action", key="error.empty_action")
        return cls(tokens[0], tuple(tokens[1:]))


@dataclass(frozen=True, slots=True)
class Outcome:
    """What ``apply`` returns.

    ``irreversible`` is true when the step revealed hidden information or drew from the
    random generator: undo past it needs the other players' consent.
    """

    state: Any
    events: tuple[Event, ...] = ()
    irreversible: bool = False


@dataclass(frozen=True, slots=True)
class Choice:
    """How a legal action is offered in a menu: a short label and a line on its effect."""

    action: Action
    label: Message
    description: Message | None = None
    group: str = ""  # actions of one group share a select menu (e.g. "pick", "build")


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A table option chosen at ``/game new``."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    description: Message | None = None


@dataclass(frozen=True, slots=True)
class Spec:
    """What the lobby needs to know about a game before any state exists."""

    key: str  # "havana"; also the slash-command group and the locale namespace
    names: Mapping[str, str]  # locale -> display name
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class Result:
    """Final standings: ``ranking`` is a list of places, each a list of tied seats."""

    scores: Mapping[int, int]
    ranking: Sequence[Sequence[int]]
    details: tuple[Message, ...] = ()

    @property
    def winners(self) -> frozenset[int]:
        return frozenset(self.ranking[0]) if self.ranking else frozenset()


class Engine(Protocol):
    """The interface of a game module's engine object (``engines.havana.ENGINE``)."""

    spec: Spec

    def new_game(self, num_players: int, seed: int,
                 options: Mapping[str, Any] | None = None) -> Any:
        """A fresh state; all setup randomness comes from ``seed``."""

    def to_dict(self, state: Any) -> dict[str, JSON]:
        """Plain JSON data; ``from_dict(to_dict(s)) == s``."""

    def from_dict(self, data: Mapping[str, JSON]) -> Any:
        """Validate and rebuild a state; raise :class:`InvalidState` on bad data."""

    def active_players(self, state: Any) -> frozenset[int]:
        """Seats awaited now (empty once the game is over)."""

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now, deterministically ordered."""

    def apply(self, state: Any, seat: int, action: Action) -> Outcome:
        """Check and apply; never mutate ``state``."""

    def choices(self, state: Any, seat: int) -> list[Choice]:
        """``legal_actions`` with menu labels and effect lines, in the same order."""

    def view(self, state: Any, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` may see; ``None`` is a spectator (no hidden information)."""

    def is_over(self, state: Any) -> bool: ...

    def result(self, state: Any) -> Result | None:
        """Standings once over, else ``None``."""


def check(condition: bool, error: type[GameError], message: str, *,
          key: str | None = None, **params: Any) -> None:
    """Raise ``error(message)`` unless ``condition`` holds (keeps rule checks one line)."""
    if not condition:
        raise error(message, key=key, **params)
