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
from collections.abc import Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from engines.rng import Rng

JSON = Any  # a value made only of dict/list/str/int/float/bool/None
S = TypeVar("S")  # an engine's state type
T = TypeVar("T")

# Longest action token accepted: ids, counts and names are short; a token of thousands of
# digits is malformed input, refused before any int() sees it.
MAX_TOKEN = 40

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
    """A translatable text: ``key`` in the locale catalogues, ``params`` to format it.

    A parameter that is itself a text to translate (a card's name in "takes {card}") is a
    nested ``Message``; a plain string parameter is always shown as it is."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``to is None``: public; otherwise only that seat sees it."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    to: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "params": _encode(self.params), "to": self.to}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        return cls(str(data["key"]), _decode(data.get("params") or {}), data.get("to"))


# A Message nested in event parameters is stored as {"$message": key, "params": {...}}: the
# marker tells a text to translate from any other value (user text is never a key).
_MESSAGE = "$message"


def _encode(params: Mapping[str, Any]) -> dict[str, Any]:
    def one(value: Any) -> Any:
        if isinstance(value, Message):
            return {_MESSAGE: value.key, "params": _encode(value.params)}
        if isinstance(value, (list, tuple)):
            return [one(v) for v in value]
        return value

    return {k: one(v) for k, v in params.items()}


def _decode(params: Mapping[str, Any]) -> dict[str, Any]:
    def one(value: Any) -> Any:
        if isinstance(value, dict) and isinstance(value.get(_MESSAGE), str):
            return Message(value[_MESSAGE], _decode(value.get("params") or {}))
        if isinstance(value, list):
            return [one(v) for v in value]
        return value

    return {str(k): one(v) for k, v in params.items()}


_TOKEN = re.compile(r"^[a-z0-9_:.=+\-]+$", re.ASCII)


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
            if (not isinstance(token, str) or len(token) > MAX_TOKEN
                    or not _TOKEN.match(token)):
                raise InvalidAction(f"Bad action token {token!r}", key="error.bad_token",
                                    token=str(token))

    def __str__(self) -> str:
        return " ".join((self.kind, *self.args))

    @classmethod
    def parse(cls, text: str) -> Action:
        if not isinstance(text, str) or len(text) > 1000:
            raise InvalidAction("Action text too long", key="error.bad_token", token="…")
        tokens = text.strip().lower().split()
        if not tokens:
            raise InvalidAction("Empty action", key="error.empty_action")
        return cls(tokens[0], tuple(tokens[1:]))


@dataclass(frozen=True, slots=True)
class Outcome(Generic[S]):
    """What ``apply`` returns.

    ``irreversible`` is true when the step revealed hidden information or drew from the
    random generator: undo past it needs the other players' consent.
    """

    state: S
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
class Subset:
    """A decision that chooses a subset (keep some dice, pay with some cards, split a stack).

    It is *one* decision offered as one multi-select, never 2ⁿ listed actions. The action it
    describes is ``Action(kind, fixed + chosen)``, the chosen values in ``options`` order,
    each at most once, between ``min_values`` and ``max_values`` of them. An engine accepts
    a subset action exactly when one of its offered :class:`Subset` s :meth:`accepts` it.
    Options may repeat a value (two dice showing the same symbol are two options "3", "3"):
    then the value may be chosen as many times as it is listed.
    """

    kind: str
    options: tuple[str, ...]
    min_values: int = 0
    max_values: int = -1  # -1: up to every option
    fixed: tuple[str, ...] = ()

    @property
    def most(self) -> int:
        return len(self.options) if self.max_values < 0 else min(self.max_values,
                                                                    len(self.options))

    def action(self, chosen: Iterable[str]) -> Action:
        """The action for these chosen values (put in ``options`` order); checks them."""
        picked = list(chosen)
        pool = list(self.options)
        ordered: list[str] = []
        for value in picked:
            if value not in pool:
                raise InvalidAction(f"{value!r} is not an option", key="error.bad_option",
                                    option=str(value)[:MAX_TOKEN])
            pool.remove(value)
        for value in self.options:  # canonical order: the options' own
            if value in picked:
                ordered.append(value)
                picked.remove(value)
        if not self.min_values <= len(ordered) <= self.most:
            raise IllegalAction(f"Choose {self.min_values} to {self.most}",
                                key="error.subset_size", min=self.min_values, max=self.most)
        return Action(self.kind, (*self.fixed, *ordered))

    def accepts(self, action: Action) -> bool:
        if action.kind != self.kind or action.args[:len(self.fixed)] != self.fixed:
            return False
        try:
            return self.action(action.args[len(self.fixed):]) == action
        except GameError:
            return False

    def sample(self, rng: Rng) -> Action:
        """A uniformly sized random member (for random seats, playouts and fuzzing)."""
        size = self.min_values + rng.randrange(self.most - self.min_values + 1)
        indices = list(range(len(self.options)))
        rng.shuffle(indices)
        return self.action(self.options[i] for i in sorted(indices[:size]))


@dataclass(frozen=True, slots=True)
class MultiChoice:
    """How a :class:`Subset` is offered: one multi-select, a label per option."""

    subset: Subset
    label: Message
    option_labels: tuple[Message, ...]  # one per ``subset.options``, same order
    description: Message | None = None
    group: str = ""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A table option chosen at ``/game new``."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    description: Message | None = None


@dataclass(frozen=True, slots=True)
class Spec:
    """What the lobby and the bot need to know about a game before any state exists.

    Display names are catalogue keys (``<key>.name``), not strings kept here. What the bot
    must know of the game's events and actions is declared, never guessed from names:

    * ``seat_params``: event parameters holding a seat number (shown as a player's name);
      ``seat_list_params``: parameters holding a list of seats;
    * ``ending_kinds``: action kinds that end a turn or confirm a step (a green button);
      ``passing_kinds``: action kinds that decline or pass (a grey button);
    * ``free_kinds``: action kinds a seated player may take whether awaited or not (Río's
      trades, allowed "at any time"). A seat that is not awaited is offered these only;
      usually there are none, and a seat not awaited is offered nothing. Like ``back_kinds``,
      the AI levels above ``random`` never choose one while anything else is offered;
    * ``back_kinds``: action kinds that do not move the game on and may be repeated without
      end: stepping back out of a menu (Río's "back", Minos's "cancel"), or rearranging
      what may be rearranged any number of times (Tuscany's set-up "arrange"). The AI
      levels above ``random`` never choose one while anything else is offered: a player
      that may take them can go round forever.
    """

    key: str  # "havana"; also the slash-command group and the catalogue namespace
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()
    seat_params: frozenset[str] = frozenset({"seat"})
    seat_list_params: frozenset[str] = frozenset()
    ending_kinds: frozenset[str] = frozenset()
    passing_kinds: frozenset[str] = frozenset()
    free_kinds: frozenset[str] = frozenset()
    back_kinds: frozenset[str] = frozenset()

    def check_players(self, num_players: object) -> int:
        """The player count for ``new_game``, or :class:`InvalidState` (one error, all games)."""
        if (not isinstance(num_players, int) or isinstance(num_players, bool)
                or not self.min_players <= num_players <= self.max_players):
            raise InvalidState(f"{self.key} is for {self.min_players} to {self.max_players} "
                               f"players", key="error.players", min=self.min_players,
                               max=self.max_players)
        return num_players


@dataclass(frozen=True, slots=True)
class Result:
    """Final standings: ``ranking`` is a list of places, each a list of tied seats."""

    scores: Mapping[int, int]
    ranking: Sequence[Sequence[int]]
    details: tuple[Message, ...] = ()

    @property
    def winners(self) -> frozenset[int]:
        return frozenset(self.ranking[0]) if self.ranking else frozenset()


class Ctx(Generic[S]):
    """One ``apply`` in progress, shared by every engine: the cloned state being changed,
    the events it emits, and whether chance was used.

    Every draw, shuffle or roll goes through here: it advances the state's seeded generator
    (the state's ``rng`` integer) and marks the step irreversible, so no engine keeps that
    bookkeeping itself.
    """

    __slots__ = ("s", "events", "irreversible", "_rng")

    def __init__(self, s: S) -> None:
        self.s = s
        self.events: list[Event] = []
        self.irreversible = False
        self._rng = Rng(getattr(s, "rng"))  # noqa: B009 - every state keeps its rng integer

    def emit(self, key: str, to: int | None = None, **params: Any) -> None:
        self.events.append(Event(key, params, to))

    def _used(self) -> Rng:
        self.irreversible = True
        return self._rng

    def _store(self) -> None:
        setattr(self.s, "rng", self._rng.state)  # noqa: B010

    def randrange(self, n: int) -> int:
        value = self._used().randrange(n)
        self._store()
        return value

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randrange(len(items))]

    def draw(self, pile: MutableSequence[T]) -> T | None:
        """Remove and return a random item of ``pile`` (a bag); None when it is empty."""
        if not pile:
            return None
        return pile.pop(self.randrange(len(pile)))

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._used().shuffle(items)
        self._store()

    def roll(self, dice: int, sides: int = 6) -> list[int]:
        """``dice`` throws of a die with faces 0..sides-1 (an engine maps faces to symbols)."""
        rng = self._used()
        faces = [rng.randrange(sides) for _ in range(dice)]
        self._store()
        return faces

    def outcome(self) -> Outcome[S]:
        return Outcome(self.s, tuple(self.events), self.irreversible)


class Engine(Protocol[S]):
    """The interface of a game module's engine object (``engines.havana.ENGINE``).

    Everything the bot, the AI and the tests call is declared here; an engine implements all
    of it (a part a game has no use for returns the neutral answer: no subsets, no skip).
    """

    spec: Spec

    def new_game(self, num_players: int, seed: int,
                 options: Mapping[str, Any] | None = None) -> S:
        """A fresh state; all setup randomness comes from ``seed``. A bad player count is
        ``InvalidState`` (``spec.check_players``); a bad option ``InvalidState`` too."""
        ...

    def to_dict(self, state: S) -> dict[str, JSON]:
        """Plain JSON data; ``from_dict(to_dict(s)) == s``."""
        ...

    def from_dict(self, data: Mapping[str, JSON]) -> S:
        """Validate and rebuild a state; raise :class:`InvalidState` on any data the engine
        could not play on (wrong types, impossible counts), never a raw Python error."""
        ...

    def active_players(self, state: S) -> frozenset[int]:
        """Seats awaited now (empty once the game is over)."""
        ...

    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every legal atomic action of ``seat`` now, deterministically ordered. A seat that
        is not awaited is offered only actions of ``spec.free_kinds`` (usually nothing)."""
        ...

    def subsets(self, state: S, seat: int) -> list[Subset]:
        """The subset decisions of ``seat`` now (usually none). What the engine accepts is
        exactly ``legal_actions`` plus what these subsets accept."""
        ...

    def apply(self, state: S, seat: int, action: Action) -> Outcome[S]:
        """Check and apply; never mutate ``state``. A refused action raises a
        :class:`GameError` and changes nothing."""
        ...

    def apply_unchecked(self, state: S, seat: int, action: Action) -> S:
        """Fast path for playouts and search: ``action`` must be offered. Same result state
        as ``apply``, no legality check and no events kept."""
        ...

    def choices(self, state: S, seat: int) -> list[Choice | MultiChoice]:
        """``legal_actions`` (as :class:`Choice`, same order) then ``subsets`` (as
        :class:`MultiChoice`), with menu labels and effect lines."""
        ...

    def skip_action(self, state: S, seat: int) -> Action | None:
        """The legal move that skips an absent ``seat`` (deadline policy ``skip``), or None
        where the rules let nobody decline this decision (then the AI plays it)."""
        ...

    def view(self, state: S, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` may see; ``None`` is a spectator (no hidden information)."""
        ...

    def determinize(self, state: S, seat: int, rng: Rng) -> S:
        """A state ``seat`` cannot tell from ``state``: every part hidden from that seat
        (others' hands and picks, bag and deck order, the generator's future) resampled
        consistently with what it knows. Games with nothing hidden still reseed the
        generator, so a search never learns future draws."""
        ...

    def evaluate(self, state: S, seat: int) -> float:
        """How well ``seat`` stands, from ``view``-visible information, in [0, 1] (1: a sure
        win). Used by the AI's greedy level and to cut searches short."""
        ...

    def is_over(self, state: S) -> bool: ...

    def result(self, state: S) -> Result | None:
        """Standings once over, else ``None``."""
        ...


def places(keys: Mapping[int, Any]) -> list[list[int]]:
    """Standings from each seat's sort key, best first; equal keys share a place (the
    ``ranking`` of a :class:`Result`)."""
    ranking: list[list[int]] = []
    for seat in sorted(keys, key=lambda i: keys[i], reverse=True):
        if ranking and keys[ranking[-1][0]] == keys[seat]:
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    return ranking


def offered(engine: Engine[S], state: S, seat: int, action: Action) -> bool:
    """Whether ``engine`` offers ``action`` to ``seat`` now (atomic or subset): the only
    actions ``apply`` may accept."""
    return action in engine.legal_actions(state, seat) or any(
        sub.accepts(action) for sub in engine.subsets(state, seat))


def int_arg(token: str, low: int, high: int, *, what: str = "number") -> int:
    """An action argument as an int in ``[low, high]``, else :class:`InvalidAction`
    (ASCII digits only: tokens are already bounded by ``MAX_TOKEN``)."""
    if not token.isascii() or not token.lstrip("-").isdigit():
        raise InvalidAction(f"{what} {token!r} is not a number", key="error.bad_number",
                            value=token[:MAX_TOKEN])
    value = int(token)
    if not low <= value <= high:
        raise InvalidAction(f"{what} {value} out of range", key="error.bad_number",
                            value=token[:MAX_TOKEN])
    return value


def check(condition: bool, error: type[GameError], message: str, *,
          key: str | None = None, **params: Any) -> None:
    """Raise ``error(message)`` unless ``condition`` holds (keeps rule checks one line)."""
    if not condition:
        raise error(message, key=key, **params)


def is_seat(seat: object, num_players: int) -> bool:
    """Whether ``seat`` names a seat of a ``num_players`` game: an int (never a bool) in
    range. Engines refuse anything else with :class:`NotYourTurn`, never a raw error."""
    return (isinstance(seat, int) and not isinstance(seat, bool)
            and 0 <= seat < num_players)


def check_seed(seed: object) -> int:
    """A ``new_game`` seed: any int (the generator keeps its low 64 bits), else
    :class:`InvalidState`."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidState(f"Bad seed {str(seed)[:MAX_TOKEN]!r}", key="error.invalid_state",
                           detail="seed")
    return seed


def check_options(spec: Spec, options: object) -> dict[str, Any]:
    """``new_game``'s options: only those ``spec`` declares, each one of its choices (when it
    lists them), the others at their default; anything else is :class:`InvalidState`."""
    given = {} if options is None else options
    known = {o.name: o for o in spec.options}
    if not isinstance(given, Mapping) or not set(given) <= set(known):
        raise InvalidState(f"Bad options for {spec.key}", key="error.invalid_state",
                           detail="options")
    chosen = {name: o.default for name, o in known.items()}
    for name, value in given.items():
        if known[name].choices and value not in known[name].choices:
            raise InvalidState(f"Bad value for option {name}", key="error.invalid_state",
                               detail=name)
        chosen[name] = value
    return chosen
