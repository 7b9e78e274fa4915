"""The Castles of Tuscany game state: plain mutable records, cloned by hand, checked on load.

``apply`` never mutates its input: it clones first (a hand-written copy is far cheaper than
``deepcopy``) and mutates the clone. Pending decisions of the player to move are a stack of
small frozen :class:`Frame` records (a castle can chain into a city's improvement, etc.).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.validators import StateValidator

from .board import NUM_SPACES, ORDERS, SHIFTS, TURNS
from .data import (
    BASE_STORAGE,
    DISPLAY_SIZE,
    DOMAIN_COUNTS,
    IMPROVEMENTS,
    IMPROVEMENTS_EACH,
    INCOME_COUNTS,
    JOKER,
    MODULE_GROUPS,
    NEUTRAL_IDS,
    TILES,
    start_castle,
)

PHASES = ("arrange", "castle", "improve", "play", "over")
FRAME_KINDS = ("main", "take", "replace", "place", "space", "pay", "castle", "improve",
               "extra", "done", "refill")
AUTO_FRAMES = ("done", "refill")  # resolved by the engine, never awaited from a player


@dataclass(frozen=True, slots=True)
class Frame:
    """One pending decision (or automatic step) of the player to move.

    ``slot`` is a storage slot (``src == "store"``) or a display slot (castle pick, refill,
    replace); ``tile`` the tile id or :data:`JOKER` being placed; ``units`` a half-chosen
    payment.
    """

    kind: str
    slot: int = -1
    tile: int | None = None
    space: int = -1
    src: str = ""
    units: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "slot": self.slot, "tile": self.tile, "space": self.space,
                "src": self.src, "units": list(self.units)}

    @classmethod
    def from_dict(cls, d: Any) -> Frame:
        d = _fields(d, _FRAME_FIELDS, "pending step")
        tile = d["tile"]
        if tile is not None:
            tile = _int(tile, "pending tile", JOKER, len(TILES) - 1)
        units = _json.array(d["units"], "payment")
        if len(units) > 2 or not all(isinstance(u, str) and u in UNITS for u in units):
            raise _json.fail("payment units")
        return cls(_choice(d["kind"], FRAME_KINDS, "pending step"),
                   _int(d["slot"], "slot", -1, 99), tile,
                   _int(d["space"], "space", -1, NUM_SPACES - 1),
                   _choice(d["src"], ("", "store", "display"), "source"), tuple(units))


@dataclass(slots=True)
class Player:
    modules: list[str]  # dealt module ids: the A, the B and the C
    order: str = "abc"
    turns: str = "000"
    shifts: str = "000"
    confirmed: bool = False
    board: list[int | None] = field(default_factory=lambda: [None] * NUM_SPACES)
    piles: list[list[int]] = field(default_factory=lambda: [[], [], []])  # top = last
    storage: list[int | None] = field(default_factory=lambda: [None] * BASE_STORAGE)
    imps: list[int] = field(default_factory=lambda: [0] * len(IMPROVEMENTS))
    hand: list[int] = field(default_factory=lambda: [0] * 8)  # cards per colour
    marbles: int = 0
    workers: int = 0
    green: int = 0
    red: int = 0
    # Storage slots holding a joker gained this turn: rulebook "Auberge", the joker is
    # placed "lors d'un tour ultérieur" (decision 13). Emptied when the turn ends.
    fresh_jokers: list[int] = field(default_factory=list)

    def clone(self) -> Player:
        return Player(self.modules[:], self.order, self.turns, self.shifts, self.confirmed,
                      self.board[:], [p[:] for p in self.piles], self.storage[:],
                      self.imps[:], self.hand[:], self.marbles, self.workers, self.green,
                      self.red, self.fresh_jokers[:])

    def to_dict(self) -> dict[str, Any]:
        return {"modules": self.modules[:], "order": self.order, "turns": self.turns,
                "shifts": self.shifts, "confirmed": self.confirmed, "board": self.board[:],
                "piles": [p[:] for p in self.piles], "storage": self.storage[:],
                "imps": self.imps[:], "hand": self.hand[:], "marbles": self.marbles,
                "workers": self.workers, "green": self.green, "red": self.red,
                "fresh_jokers": self.fresh_jokers[:]}

    @classmethod
    def from_dict(cls, d: Any) -> Player:
        # ``fresh_jokers`` is absent from games saved before it existed: nothing gained yet.
        if isinstance(d, Mapping) and "fresh_jokers" not in d:
            d = {**d, "fresh_jokers": []}
        d = _fields(d, _PLAYER_FIELDS, "player")
        modules = _json.array(d["modules"], "modules", 3)
        board = _json.array(d["board"], "board", NUM_SPACES)
        storage = _json.array(d["storage"], "storage")
        if not 1 <= len(storage) <= BASE_STORAGE + IMPROVEMENTS_EACH:
            raise _json.fail("storage size")
        return cls([_json.string(m, "module") for m in modules],
                   _choice(d["order"], ORDERS, "order"),
                   _choice(d["turns"], TURNS, "turns"), _choice(d["shifts"], SHIFTS, "shifts"),
                   _json.boolean(d["confirmed"], "confirmed"),
                   [None if x is None else _int(x, "board tile", JOKER, len(TILES) - 1)
                    for x in board],
                   [_ints(pile, "pile", 0, len(TILES) - 1)
                    for pile in _json.array(d["piles"], "piles", 3)],
                   [None if x is None else _int(x, "stored tile", JOKER, len(TILES) - 1)
                    for x in storage],
                   _ints(d["imps"], "improvements", 0, IMPROVEMENTS_EACH, len(IMPROVEMENTS)),
                   _ints(d["hand"], "hand", 0, sum(DOMAIN_COUNTS), 8),
                   _int(d["marbles"], "marbles", 0, _BIG), _int(d["workers"], "workers", 0, _BIG),
                   _int(d["green"], "green", 0, _BIG), _int(d["red"], "red", 0, _BIG),
                   _ints(d["fresh_jokers"], "fresh jokers", 0, 99))


@dataclass(slots=True)
class State:
    num_players: int
    rng: int
    first: int
    players: list[Player]
    phase: str = "arrange"
    current: int = 0
    round: int = 1
    trigger: bool = False  # this round's end was triggered; finish the rotation
    extra: bool = False  # round 3 only: the additional rotation is being played
    turn: int = 0  # turns played (for logs)
    marble_used: bool = False
    display: list[int | None] = field(default_factory=lambda: [None] * DISPLAY_SIZE)
    neutral: list[int] = field(default_factory=list)  # face-down stack, top = last
    neutral_discard: list[int] = field(default_factory=list)  # face up, by the stack
    boxed: list[int] = field(default_factory=list)  # tiles out of the game
    deck: list[int] = field(default_factory=list)  # domain cards (colour index), top = last
    discard: list[int] = field(default_factory=list)
    income: list[str] = field(default_factory=list)
    income_discard: list[str] = field(default_factory=list)
    supply: list[int] = field(default_factory=lambda: [IMPROVEMENTS_EACH] * len(IMPROVEMENTS))
    bonus: list[list[int]] = field(default_factory=lambda: [[] for _ in range(8)])
    stack: list[Frame] = field(default_factory=list)

    def clone(self) -> State:
        return State(self.num_players, self.rng, self.first, [p.clone() for p in self.players],
                     self.phase, self.current, self.round, self.trigger, self.extra, self.turn,
                     self.marble_used, self.display[:], self.neutral[:],
                     self.neutral_discard[:], self.boxed[:], self.deck[:], self.discard[:],
                     self.income[:], self.income_discard[:], self.supply[:],
                     [b[:] for b in self.bonus], self.stack[:])

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "tuscany", "num_players": self.num_players, "rng": self.rng,
            "first": self.first, "players": [p.to_dict() for p in self.players],
            "phase": self.phase, "current": self.current, "round": self.round,
            "trigger": self.trigger, "extra": self.extra, "turn": self.turn,
            "marble_used": self.marble_used, "display": self.display[:],
            "neutral": self.neutral[:], "neutral_discard": self.neutral_discard[:],
            "boxed": self.boxed[:], "deck": self.deck[:], "discard": self.discard[:],
            "income": self.income[:], "income_discard": self.income_discard[:],
            "supply": self.supply[:], "bonus": [b[:] for b in self.bonus],
            "stack": [f.to_dict() for f in self.stack],
        }

    @classmethod
    def from_dict(cls, d: Any) -> State:
        """Rebuild and check a state: exact fields and types, then conservation."""
        d = _fields(d, _STATE_FIELDS, "state")
        if d["game"] != "tuscany":
            raise _json.fail("not a Tuscany state")
        n = _int(d["num_players"], "num_players", 2, 4)
        players = _json.array(d["players"], "players", n)
        tiles = len(TILES) - 1
        s = cls(n, _int(d["rng"], "rng", 0, (1 << 64) - 1), _int(d["first"], "first", 0, n - 1),
                [Player.from_dict(p) for p in players], _choice(d["phase"], PHASES, "phase"),
                _int(d["current"], "current", 0, n - 1), _int(d["round"], "round", 1, 3),
                _json.boolean(d["trigger"], "trigger"), _json.boolean(d["extra"], "extra"),
                _int(d["turn"], "turn", 0, _BIG), _json.boolean(d["marble_used"], "marble_used"),
                [None if x is None else _int(x, "display tile", 0, tiles)
                 for x in _json.array(d["display"], "display", DISPLAY_SIZE)],
                _ints(d["neutral"], "neutral", 0, tiles),
                _ints(d["neutral_discard"], "neutral discard", 0, tiles),
                _ints(d["boxed"], "boxed", 0, tiles), _ints(d["deck"], "deck", 0, 7),
                _ints(d["discard"], "discard", 0, 7),
                [_choice(c, tuple(INCOME_COUNTS), "income") for c in _json.array(d["income"], "i")],
                [_choice(c, tuple(INCOME_COUNTS), "income")
                 for c in _json.array(d["income_discard"], "i")],
                _ints(d["supply"], "supply", 0, IMPROVEMENTS_EACH, len(IMPROVEMENTS)),
                [_ints(b, "bonus", 0, n - 1) for b in _json.array(d["bonus"], "bonus", 8)],
                [Frame.from_dict(f) for f in _json.array(d["stack"], "stack")])
        validate(s)
        return s


_BIG = 1 << 31  # no count of a real game comes near it
_FRAME_FIELDS = frozenset({"kind", "slot", "tile", "space", "src", "units"})
_PLAYER_FIELDS = frozenset({"modules", "order", "turns", "shifts", "confirmed", "board",
                            "piles", "storage", "imps", "hand", "marbles", "workers", "green",
                            "red", "fresh_jokers"})
_STATE_FIELDS = frozenset({"game", "num_players", "rng", "first", "players", "phase",
                           "current", "round", "trigger", "extra", "turn", "marble_used",
                           "display", "neutral", "neutral_discard", "boxed", "deck", "discard",
                           "income", "income_discard", "supply", "bonus", "stack"})
# Payment units: a card of the space's colour, a worker, or a pair of another colour.
UNITS = frozenset({*(c.lower() for c in "CRIFQVMT"), "worker",
                   *("2" + c.lower() for c in "CRIFQVMT")})


_json = StateValidator("Tuscany", prefix="Bad", detail=False)


def _fields(d: Any, names: frozenset[str], what: str) -> Mapping[str, Any]:
    if not isinstance(d, Mapping) or set(d) != names:
        raise _json.fail(f"{what} fields")
    return d


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _json.fail(f"{what} must be an integer in {lo}..{hi}")
    return value


def _ints(value: Any, what: str, lo: int, hi: int, n: int | None = None) -> list[int]:
    return [_int(v, what, lo, hi) for v in _json.array(value, what, n)]


def _choice(value: Any, allowed: tuple[str, ...], what: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise _json.fail(f"unknown {what}")
    return value


def _int_list(values: list[Any], what: str) -> None:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise _json.fail(f"{what} must hold integers")


def _check_fresh(s: State, seat: int, p: Player) -> None:
    """Jokers gained this turn: only the player in turn has some, each slot holds a joker."""
    fresh = p.fresh_jokers
    if not fresh:
        return
    _int_list(fresh, "fresh jokers")
    if s.phase != "play" or seat != s.current:
        raise _json.fail(f"fresh jokers of seat {seat} outside their turn")
    if len(set(fresh)) != len(fresh) or any(
            not 0 <= k < len(p.storage) or p.storage[k] != JOKER for k in fresh):
        raise _json.fail(f"fresh jokers of seat {seat} not in storage")


def validate(s: State) -> None:
    """Structural and conservation checks (every tile, card and income card accounted for)."""
    n = s.num_players
    if not 2 <= n <= 4 or len(s.players) != n:
        raise _json.fail("player count")
    if s.phase not in PHASES or not 0 <= s.first < n or not 0 <= s.current < n:
        raise _json.fail("phase or seat")
    if not 1 <= s.round <= 3:
        raise _json.fail("round")
    if len(s.display) != DISPLAY_SIZE or len(s.supply) != len(IMPROVEMENTS) or len(s.bonus) != 8:
        raise _json.fail("display, supply or bonus size")
    if any(f.kind not in FRAME_KINDS for f in s.stack):
        raise _json.fail("unknown pending step")
    tiles: list[int] = [t for t in s.display if t is not None]
    tiles += s.neutral + s.neutral_discard + s.boxed
    # A tile picked by a castle is held by its pending "space" frame until placed.
    tiles += [f.tile for f in s.stack if f.src == "display" and f.tile is not None]
    cards = [0] * 8
    for c in s.deck + s.discard:
        if not isinstance(c, int) or not 0 <= c < 8:
            raise _json.fail("card")
        cards[c] += 1
    for seat, p in enumerate(s.players):
        for g, mid in zip("ABC", p.modules, strict=True):
            if mid not in MODULE_GROUPS[g]:
                raise _json.fail(f"module {mid}")
        if p.order not in ORDERS or p.turns not in TURNS or p.shifts not in SHIFTS:
            raise _json.fail(f"arrangement of seat {seat}")
        if len(p.board) != NUM_SPACES or len(p.hand) != 8 or len(p.imps) != len(IMPROVEMENTS):
            raise _json.fail(f"sizes of seat {seat}")
        if len(p.storage) != 1 + p.imps[1] or len(p.piles) != 3:
            raise _json.fail(f"storage of seat {seat}")
        if min(p.hand) < 0 or min(p.marbles, p.workers) < 0:
            raise _json.fail(f"negative resource at seat {seat}")
        _int_list(p.hand + p.imps + [t for pile in p.piles for t in pile], "player data")
        _check_fresh(s, seat, p)
        tiles += [t for t in p.board + p.storage if t is not None and t != JOKER]
        tiles += [t for pile in p.piles for t in pile]
        for i in range(8):
            cards[i] += p.hand[i]
    _int_list(tiles, "tiles")
    if len(tiles) != len(set(tiles)) or any(not 0 <= t < len(TILES) for t in tiles):
        raise _json.fail("a tile is in two places or unknown")
    owners = [0] * 4
    for t in tiles:
        if TILES[t].owner >= 0:
            owners[TILES[t].owner] += 1
    expected_own = [22 if i < n and s.phase != "arrange" and s.phase != "castle" else 0
                    for i in range(4)]
    for i in range(n):
        placed = owners[i]
        if placed not in (21, 22) or (expected_own[i] == 22 and placed != 22):
            raise _json.fail(f"seat {i} tiles missing")
    if any(owners[i] for i in range(n, 4)):
        raise _json.fail("tiles of an absent seat")
    if sum(1 for t in tiles if TILES[t].owner < 0) != len(NEUTRAL_IDS):
        raise _json.fail("neutral tiles missing")
    if tuple(cards) != DOMAIN_COUNTS:
        raise _json.fail("domain cards missing")
    income = sorted(s.income + s.income_discard)
    if income != sorted(k for k, c in INCOME_COUNTS.items() for _ in range(c)):
        raise _json.fail("income cards missing")
    if any(len(b) > 2 or len(set(b)) != len(b) for b in s.bonus):
        raise _json.fail("colour bonus claims")
    _check_phase(s)


def _check_phase(s: State) -> None:
    """The pending decisions fit the phase, so the game can go on from here."""
    stack = [f.kind for f in s.stack]
    players = s.players
    if s.phase != "play":
        if stack:
            raise _json.fail("pending steps outside the play phase")
        if s.phase == "arrange" and (all(p.confirmed for p in players) or any(
                t is not None for p in players for t in p.board)):
            raise _json.fail("setup: regions")
        if s.phase in ("castle", "improve") and not all(p.confirmed for p in players):
            raise _json.fail("setup: unconfirmed region")
        if s.phase == "castle" and all(start_castle(i) in p.board
                                       for i, p in enumerate(players)):
            raise _json.fail("setup: every start castle placed")
        if s.phase == "improve" and not any(s.supply):
            raise _json.fail("no improvement left to choose")
        return
    # Play: the turn's steps sit on "done" (or are one "main"/"extra" decision).
    if not stack or stack[-1] in AUTO_FRAMES:
        raise _json.fail("nothing is awaited in the play phase")
    # "done" ends an action (twice over after a marble's extra action); "main" and "extra"
    # are a turn's first decision and the marble's offer, asked on their own or on "done".
    done = len(stack) - len("".join("x" if k == "done" else "-" for k in stack).lstrip("x"))
    rest = stack[done:]
    if done > 2 or "done" in rest or any(k in ("main", "extra") for k in rest[:-1]) or (
            not done and (len(rest) != 1 or rest[0] not in ("main", "extra"))):
        raise _json.fail("pending steps")
