"""Havana game state: plain mutable records, cloned by hand and checked on load.

``apply`` never mutates its input: it clones first (a hand-written copy is ~20x cheaper than
``deepcopy``, which matters for the 50 ms random-playout budget) and then mutates the clone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.validators import StateValidator

from .data import BAG_START, BUILDINGS, CARD_IDS, CARD_ORDER, TOTAL_CUBES, TOTAL_WORKERS

PHASES = ("start_pick", "actions", "cover", "over")
END_REASONS = ("threshold", "buildings", "cubes")
STEPS = ("choose_card", "refreshment", "conservation", "tax_collector", "peso_thief_target",
         "material_thief_target", "material_thief_take", "mama_take", "build",
         "pay_materials", "pay_workers")


@dataclass(slots=True)
class Player:
    hand: list[str]
    discard: list[str] = field(default_factory=list)
    face_up: list[str] = field(default_factory=list)  # sorted by value; [] before the reveal
    used: list[str] = field(default_factory=list)  # face-up cards carried out this turn
    picks: list[str] = field(default_factory=list)  # hidden picks not yet revealed
    cover: str | None = None  # hidden choice of the face-up card to cover (phase 3)
    pesos: int = 0
    workers: int = 0
    materials: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])
    buildings: list[int] = field(default_factory=list)

    def clone(self) -> Player:
        return Player(self.hand[:], self.discard[:], self.face_up[:], self.used[:],
                      self.picks[:], self.cover, self.pesos, self.workers,
                      self.materials[:], self.buildings[:])

    @property
    def vp(self) -> int:
        return sum(BUILDINGS[b].vp for b in self.buildings)

    @property
    def coloured(self) -> int:
        m = self.materials
        return m[0] + m[1] + m[2] + m[3]

    @property
    def protected(self) -> bool:
        return "protection" in self.face_up


@dataclass(slots=True)
class State:
    num_players: int
    rng: int
    players: list[Player]
    rows: list[list[int]]
    pile: list[int]  # face down; the last item is the top
    bag: list[int]
    box: list[int]
    centre: list[int]  # the five materials
    centre_pesos: int
    bank_workers: int
    round: int = 1
    phase: str = "start_pick"
    step: str | None = None
    turn_order: list[int] = field(default_factory=list)
    turn_index: int = 0
    removed_this_round: bool = False
    worker_done: bool = False  # someone has carried out Worker this round
    market_done: bool = False  # someone has carried out Black market this round
    # Context of the step in progress (which card, whom, how many, which building).
    card: str | None = None
    targets: list[int] = field(default_factory=list)
    remaining: int = 0
    building: int | None = None
    exchange: str | None = None  # material exchange chosen before the worker exchange
    winners: list[int] | None = None
    end_reason: str | None = None

    @property
    def current(self) -> int | None:
        if self.phase != "actions":
            return None
        return self.turn_order[self.turn_index]

    def clone(self) -> State:
        return State(
            self.num_players, self.rng, [p.clone() for p in self.players],
            [self.rows[0][:], self.rows[1][:]], self.pile[:], self.bag[:], self.box[:],
            self.centre[:], self.centre_pesos, self.bank_workers, self.round, self.phase,
            self.step, self.turn_order[:], self.turn_index, self.removed_this_round,
            self.worker_done, self.market_done, self.card, self.targets[:], self.remaining,
            self.building, self.exchange,
            None if self.winners is None else self.winners[:], self.end_reason)


_PLAYER_FIELDS = ("hand", "discard", "face_up", "used", "picks", "cover", "pesos", "workers",
                  "materials", "buildings")
_STATE_SCALARS = ("num_players", "rng", "bag", "box", "centre", "centre_pesos", "bank_workers",
                  "round", "phase", "step", "turn_order", "turn_index", "removed_this_round",
                  "worker_done", "market_done", "card", "targets", "remaining", "building",
                  "exchange", "winners", "end_reason")


def to_dict(state: State) -> dict[str, Any]:
    data: dict[str, Any] = {"game": "havana", "version": 1}
    for name in _STATE_SCALARS:
        value = getattr(state, name)
        data[name] = value[:] if isinstance(value, list) else value
    data["rows"] = [state.rows[0][:], state.rows[1][:]]
    data["pile"] = state.pile[:]
    data["players"] = [
        {name: (v[:] if isinstance(v := getattr(p, name), list) else v) for name in _PLAYER_FIELDS}
        for p in state.players]
    return data


_json = StateValidator("Havana")


def _ints(value: Any, what: str, n: int | None = None) -> list[int]:
    return [_json.integer(v, f"{what} item") for v in _json.array(value, what, n)]


def _cards(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in CARD_ORDER
                                              for c in value):
        raise _json.fail(f"{what} must be a list of card ids")
    return list(value)


_FIELDS = frozenset({"game", "version", "rows", "pile", "players", *_STATE_SCALARS})


def from_dict(data: Mapping[str, Any]) -> State:
    """Rebuild a state: exactly the fields ``to_dict`` writes, each of its type, and every
    count the rules conserve (the engine then checks the awaited decisions can go on)."""
    if not isinstance(data, Mapping) or data.get("game") != "havana":
        raise _json.fail("not a Havana state")
    if set(data) != _FIELDS or data["version"] != 1:
        raise _json.fail("fields or version")
    return _build(data)


def _player(raw: Mapping[str, Any], i: int) -> Player:
    if not isinstance(raw, Mapping) or set(raw) != set(_PLAYER_FIELDS):
        raise _json.fail(f"player {i} fields")
    if not isinstance(raw["buildings"], list) or not all(
            isinstance(b, int) and b in BUILDINGS for b in raw["buildings"]):
        raise _json.fail(f"player {i} buildings")
    p = Player(_cards(raw["hand"], "hand"), _cards(raw["discard"], "discard"),
               _cards(raw["face_up"], "face_up"), _cards(raw["used"], "used"),
               _cards(raw["picks"], "picks"), _json.opt_string(raw["cover"], "cover", CARD_IDS),
               _json.integer(raw["pesos"], "pesos"), _json.integer(raw["workers"], "workers"),
               _ints(raw["materials"], "materials", 5), _ints(raw["buildings"], "buildings"))
    own = p.hand + p.discard + p.face_up
    if sorted(own) != sorted(CARD_IDS) or len(set(own)) != 13:
        raise _json.fail(f"player {i} does not hold exactly the 13 cards")
    if not set(p.picks) <= set(p.hand) or len(set(p.picks)) != len(p.picks):
        raise _json.fail(f"player {i} picked cards not in hand")
    if not set(p.used) <= set(p.face_up) or len(p.face_up) not in (0, 2):
        raise _json.fail(f"player {i} face-up cards")
    return p


def _build(data: Mapping[str, Any]) -> State:
    n = _json.integer(data["num_players"], "num_players", 2, 4)
    if not isinstance(data["players"], list) or len(data["players"]) != n:
        raise _json.fail("player count")
    players = [_player(raw, i) for i, raw in enumerate(data["players"])]
    rows = data["rows"]
    if not isinstance(rows, list) or len(rows) != 2:
        raise _json.fail("rows")
    state = State(
        n, _json.integer(data["rng"], "rng", 0, (1 << 64) - 1), players,
        [_ints(rows[0], "row"), _ints(rows[1], "row")], _ints(data["pile"], "pile"),
        _ints(data["bag"], "bag", 5), _ints(data["box"], "box", 5),
        _ints(data["centre"], "centre", 5), _json.integer(data["centre_pesos"], "centre_pesos"),
        _json.integer(data["bank_workers"], "bank_workers", 0, TOTAL_WORKERS),
        _json.integer(data["round"], "round", 1),
        str(_json.opt_string(data["phase"], "phase", PHASES)),
        _json.opt_string(data["step"], "step", STEPS), _ints(data["turn_order"], "turn_order"),
        _json.integer(data["turn_index"], "turn_index"),
        _json.boolean(data["removed_this_round"], "removed_this_round"),
        _json.boolean(data["worker_done"], "worker_done"),
        _json.boolean(data["market_done"], "market_done"),
        _json.opt_string(data["card"], "card", CARD_IDS), _ints(data["targets"], "targets"),
        _json.integer(data["remaining"], "remaining"),
        None if data["building"] is None else _json.integer(data["building"], "building", 1, 36),
        _json.opt_string(data["exchange"], "exchange"),
        None if data["winners"] is None else _ints(data["winners"], "winners"),
        _json.opt_string(data["end_reason"], "end_reason", END_REASONS))
    _check_totals(state)
    return state


def _check_totals(s: State) -> None:
    seats = range(s.num_players)
    buildings = s.rows[0] + s.rows[1] + s.pile + [b for p in s.players for b in p.buildings]
    # Conservation removes buildings from the game: a building is in one place at most.
    if len(set(buildings)) != len(buildings) or not set(buildings) <= set(BUILDINGS):
        raise _json.fail("building ids unknown or duplicated")
    for m in range(5):
        total = s.bag[m] + s.box[m] + s.centre[m] + sum(p.materials[m] for p in s.players)
        if total != BAG_START[m]:
            raise _json.fail(f"material {m}: {total} cubes instead of {BAG_START[m]}")
    if sum(s.bag) + sum(s.box) + sum(s.centre) + sum(sum(p.materials) for p in s.players) \
            != TOTAL_CUBES:
        raise _json.fail("cube total")
    if s.bank_workers + sum(p.workers for p in s.players) != TOTAL_WORKERS:
        raise _json.fail("workers must total 15 (bank + players)")
    needs_order = s.phase in ("actions", "cover") or bool(s.turn_order)
    if needs_order and sorted(s.turn_order) != list(seats):
        raise _json.fail("turn order")
    if s.phase == "actions" and not 0 <= s.turn_index < s.num_players:
        raise _json.fail("turn index")
    if not all(t in seats for t in s.targets) or (
            s.winners is not None and not all(w in seats for w in s.winners)):
        raise _json.fail("seat out of range")
    if (s.phase == "over") != (s.winners is not None) or (
            s.phase == "over") != (s.end_reason is not None):
        raise _json.fail("winners are set exactly when the game is over")
    if s.winners is not None and (not s.winners or len(set(s.winners)) != len(s.winners)):
        raise _json.fail("winners")
    _check_phase(s)


def _check_phase(s: State) -> None:
    """Cards and the step in progress fit the phase."""
    for i, p in enumerate(s.players):
        if len(p.face_up) != (0 if s.phase == "start_pick" else 2) or len(
                set(p.face_up)) != len(p.face_up):
            raise _json.fail(f"player {i}: face-up cards for the phase")
        if len(p.picks) > (2 if s.phase == "start_pick" else 1 if s.phase == "cover" else 0):
            raise _json.fail(f"player {i}: picks for the phase")
        if p.cover is not None and (s.phase != "cover" or p.cover not in p.face_up):
            raise _json.fail(f"player {i}: covered card")
        if s.phase == "start_pick" and p.discard:
            raise _json.fail(f"player {i}: discard before the first round")
    if s.phase == "start_pick" and s.turn_order:
        raise _json.fail("turn order before the first round")
    if (s.phase == "actions") != (s.step is not None):
        raise _json.fail("a step exactly in the actions phase")
    if s.phase != "actions" and (s.targets or s.remaining or s.card or s.building is not None
                                 or s.exchange is not None):
        raise _json.fail("step context outside the actions phase")
