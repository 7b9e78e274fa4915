"""The Castles of Tuscany game state: plain mutable records, cloned by hand, checked on load.

``apply`` never mutates its input: it clones first (a hand-written copy is far cheaper than
``deepcopy``) and mutates the clone. Pending decisions of the player to move are a stack of
small frozen :class:`Frame` records (a castle can chain into a city's improvement, etc.).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.base import InvalidState

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
    def from_dict(cls, d: Mapping[str, Any]) -> Frame:
        return cls(str(d["kind"]), int(d["slot"]), d["tile"], int(d["space"]), str(d["src"]),
                   tuple(str(u) for u in d["units"]))


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
    def from_dict(cls, d: Mapping[str, Any]) -> Player:
        return cls([str(m) for m in d["modules"]], str(d["order"]), str(d["turns"]),
                   str(d["shifts"]), bool(d["confirmed"]), list(d["board"]),
                   [list(p) for p in d["piles"]], list(d["storage"]), list(d["imps"]),
                   list(d["hand"]), int(d["marbles"]), int(d["workers"]), int(d["green"]),
                   int(d["red"]),
                   # Absent from games saved before the field existed: nothing gained yet.
                   list(d.get("fresh_jokers", [])))


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
    def from_dict(cls, d: Mapping[str, Any]) -> State:
        try:
            s = cls(int(d["num_players"]), int(d["rng"]), int(d["first"]),
                    [Player.from_dict(p) for p in d["players"]], str(d["phase"]),
                    int(d["current"]), int(d["round"]), bool(d["trigger"]), bool(d["extra"]),
                    int(d["turn"]), bool(d["marble_used"]), list(d["display"]),
                    list(d["neutral"]), list(d["neutral_discard"]), list(d["boxed"]),
                    list(d["deck"]), list(d["discard"]), [str(c) for c in d["income"]],
                    [str(c) for c in d["income_discard"]], list(d["supply"]),
                    [list(b) for b in d["bonus"]], [Frame.from_dict(f) for f in d["stack"]])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidState(f"Bad Tuscany state: {exc}", key="error.invalid_state") from exc
        validate(s)
        return s


def _bad(message: str) -> InvalidState:
    return InvalidState(f"Bad Tuscany state: {message}", key="error.invalid_state")


def _int_list(values: list[Any], what: str) -> None:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise _bad(f"{what} must hold integers")


def _check_fresh(s: State, seat: int, p: Player) -> None:
    """Jokers gained this turn: only the player in turn has some, each slot holds a joker."""
    fresh = p.fresh_jokers
    if not fresh:
        return
    _int_list(fresh, "fresh jokers")
    if s.phase != "play" or seat != s.current:
        raise _bad(f"fresh jokers of seat {seat} outside their turn")
    if len(set(fresh)) != len(fresh) or any(
            not 0 <= k < len(p.storage) or p.storage[k] != JOKER for k in fresh):
        raise _bad(f"fresh jokers of seat {seat} not in storage")


def validate(s: State) -> None:
    """Structural and conservation checks (every tile, card and income card accounted for)."""
    n = s.num_players
    if not 2 <= n <= 4 or len(s.players) != n:
        raise _bad("player count")
    if s.phase not in PHASES or not 0 <= s.first < n or not 0 <= s.current < n:
        raise _bad("phase or seat")
    if not 1 <= s.round <= 3:
        raise _bad("round")
    if len(s.display) != DISPLAY_SIZE or len(s.supply) != len(IMPROVEMENTS) or len(s.bonus) != 8:
        raise _bad("display, supply or bonus size")
    if any(f.kind not in FRAME_KINDS for f in s.stack):
        raise _bad("unknown pending step")
    tiles: list[int] = [t for t in s.display if t is not None]
    tiles += s.neutral + s.neutral_discard + s.boxed
    # A tile picked by a castle is held by its pending "space" frame until placed.
    tiles += [f.tile for f in s.stack if f.src == "display" and f.tile is not None]
    cards = [0] * 8
    for c in s.deck + s.discard:
        if not isinstance(c, int) or not 0 <= c < 8:
            raise _bad("card")
        cards[c] += 1
    for seat, p in enumerate(s.players):
        for g, mid in zip("ABC", p.modules, strict=True):
            if mid not in MODULE_GROUPS[g]:
                raise _bad(f"module {mid}")
        if p.order not in ORDERS or p.turns not in TURNS or p.shifts not in SHIFTS:
            raise _bad(f"arrangement of seat {seat}")
        if len(p.board) != NUM_SPACES or len(p.hand) != 8 or len(p.imps) != len(IMPROVEMENTS):
            raise _bad(f"sizes of seat {seat}")
        if len(p.storage) != 1 + p.imps[1] or len(p.piles) != 3:
            raise _bad(f"storage of seat {seat}")
        if min(p.hand) < 0 or min(p.marbles, p.workers) < 0:
            raise _bad(f"negative resource at seat {seat}")
        _int_list(p.hand + p.imps + [t for pile in p.piles for t in pile], "player data")
        _check_fresh(s, seat, p)
        tiles += [t for t in p.board + p.storage if t is not None and t != JOKER]
        tiles += [t for pile in p.piles for t in pile]
        for i in range(8):
            cards[i] += p.hand[i]
    _int_list(tiles, "tiles")
    if len(tiles) != len(set(tiles)) or any(not 0 <= t < len(TILES) for t in tiles):
        raise _bad("a tile is in two places or unknown")
    owners = [0] * 4
    for t in tiles:
        if TILES[t].owner >= 0:
            owners[TILES[t].owner] += 1
    expected_own = [22 if i < n and s.phase != "arrange" and s.phase != "castle" else 0
                    for i in range(4)]
    for i in range(n):
        placed = owners[i]
        if placed not in (21, 22) or (expected_own[i] == 22 and placed != 22):
            raise _bad(f"seat {i} tiles missing")
    if any(owners[i] for i in range(n, 4)):
        raise _bad("tiles of an absent seat")
    if sum(1 for t in tiles if TILES[t].owner < 0) != len(NEUTRAL_IDS):
        raise _bad("neutral tiles missing")
    if tuple(cards) != DOMAIN_COUNTS:
        raise _bad("domain cards missing")
    income = sorted(s.income + s.income_discard)
    if income != sorted(k for k, c in INCOME_COUNTS.items() for _ in range(c)):
        raise _bad("income cards missing")
