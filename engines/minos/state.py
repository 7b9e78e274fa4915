"""Minos game state: plain mutable records, cloned by hand and checked on load.

``apply`` never mutates its input: it clones first and then changes the clone. ``from_dict``
checks every count the rules conserve (pieces on the board plus stock, rings, buildings, the
value track against the colonies held), so a stored game that loads is one the engine can play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.base import InvalidState
from engines.validators import StateValidator

from .data import (
    BUILDINGS_PER_TYPE,
    DICE,
    DOTS,
    FACES,
    FISH,
    GUARDS,
    MAX_BUILDINGS,
    RINGS,
    SEA,
    SHIPS,
    SITES,
    SYMBOLS,
    THROWS,
    TYPES,
    VALUES,
    WALL,
)

PHASES = ("act", "combo", "buy", "build", "order", "attack", "defend", "over")


@dataclass(slots=True)
class Player:
    talents: int
    rings: int = 0
    value: int = 0  # the value-track position V
    ships: int = SHIPS  # in stock
    guards: int = GUARDS  # in stock
    out: bool = False

    def clone(self) -> Player:
        return Player(self.talents, self.rings, self.value, self.ships, self.guards, self.out)


@dataclass(slots=True)
class Combat:
    """A conflict in progress: one attacking piece against the enemy pieces of a place."""

    attacker: int
    defender: int
    kind: str  # the attacking piece: "ship" or "guard"
    origin: str  # where the attacking piece stands until it wins
    target: str  # the place it entered
    foe: str | None = None  # the defending piece being fought; None while the order is open
    attack: list[int] = field(default_factory=list)  # the attacker's combat throw
    defence: list[int] = field(default_factory=list)  # the defender's, once thrown
    rethrows: int = 0  # re-throws taken by whoever throws now
    won: int = 0  # defending pieces beaten so far

    def clone(self) -> Combat:
        return Combat(self.attacker, self.defender, self.kind, self.origin, self.target,
                      self.foe, self.attack[:], self.defence[:], self.rethrows, self.won)


@dataclass(slots=True)
class State:
    num_players: int
    rng: int
    players: list[Player]
    first: int
    current: int
    round: int = 1
    phase: str = "act"
    max_rounds: int = 40
    ships: dict[str, list[int]] = field(default_factory=dict)  # place -> seats (K5 may hold many)
    guards: dict[str, list[int]] = field(default_factory=dict)  # place -> [seat, count]
    buildings: dict[str, list[str]] = field(default_factory=dict)  # site -> types, bottom first
    rings: int = RINGS  # the supply
    stock: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TYPES, BUILDINGS_PER_TYPE))
    dice: list[int] = field(default_factory=list)  # the current throw, faces 0..5
    used: list[bool] = field(default_factory=list)
    throws: int = 0
    mp: int = 0
    bp: int = 0
    symbol: str | None = None  # combination being formed (phase "combo")
    selected: str | None = None  # the piece being moved, "ship:k5" / "guard:tar"
    site: str | None = None  # the site being built on (phase "build")
    recruited: list[str] = field(default_factory=list)  # colonies that recruited this turn
    uses: list[list[Any]] = field(default_factory=list)  # [symbol, [dice], amount] this turn
    last: dict[str, Any] | None = None  # the previous turn's final throw, for the message
    combat: Combat | None = None
    winners: list[int] | None = None
    end_reason: str | None = None

    def clone(self) -> State:
        return State(
            self.num_players, self.rng, [p.clone() for p in self.players], self.first,
            self.current, self.round, self.phase, self.max_rounds,
            {k: v[:] for k, v in self.ships.items()}, {k: v[:] for k, v in self.guards.items()},
            {k: v[:] for k, v in self.buildings.items()}, self.rings, dict(self.stock),
            self.dice[:], self.used[:], self.throws, self.mp, self.bp, self.symbol,
            self.selected, self.site, self.recruited[:], [u[:] for u in self.uses],
            None if self.last is None else dict(self.last),
            None if self.combat is None else self.combat.clone(),
            None if self.winners is None else self.winners[:], self.end_reason)


def colony_value(types: Sequence[str]) -> int:
    """Sum of the building values, each building placed after the wall counted twice."""
    total, factor = 0, 1
    for t in types:
        total += VALUES[t] * factor
        if t == WALL:
            factor = 2
    return total


def holder(s: State, site: str) -> int | None:
    """The seat holding a site: its ship in the port or its guards on the site."""
    ships = s.ships.get(site)
    if ships:
        return ships[0]
    guards = s.guards.get(site)
    return guards[0] if guards else None


def track_values(s: State) -> list[int]:
    """V recomputed from the board: the colonies each seat holds."""
    values = [0] * s.num_players
    for site, types in s.buildings.items():
        owner = holder(s, site)
        if owner is not None:
            values[owner] += colony_value(types)
    return values


def pieces_on_board(s: State, seat: int) -> tuple[int, int]:
    ships = sum(seats.count(seat) for seats in s.ships.values())
    guards = sum(g[1] for g in s.guards.values() if g[0] == seat)
    return ships, guards


# --- JSON ------------------------------------------------------------------------------

_SCALARS = ("num_players", "rng", "first", "current", "round", "phase", "max_rounds", "rings",
            "throws", "mp", "bp", "symbol", "selected", "site", "winners", "end_reason")


def to_dict(s: State) -> dict[str, Any]:
    data: dict[str, Any] = {"game": "minos", "version": 1}
    for name in _SCALARS:
        value = getattr(s, name)
        data[name] = value[:] if isinstance(value, list) else value
    data["players"] = [{"talents": p.talents, "rings": p.rings, "value": p.value,
                        "ships": p.ships, "guards": p.guards, "out": p.out} for p in s.players]
    data["ships"] = {k: v[:] for k, v in s.ships.items()}
    data["guards"] = {k: v[:] for k, v in s.guards.items()}
    data["buildings"] = {k: v[:] for k, v in s.buildings.items()}
    data["stock"] = dict(s.stock)
    data["dice"] = s.dice[:]
    data["used"] = s.used[:]
    data["recruited"] = s.recruited[:]
    data["uses"] = [[u[0], list(u[1]), u[2]] for u in s.uses]
    data["last"] = None if s.last is None else {"seat": s.last["seat"],
                                                "dice": list(s.last["dice"]),
                                                "uses": [[u[0], list(u[1]), u[2]]
                                                         for u in s.last["uses"]]}
    c = s.combat
    data["combat"] = None if c is None else {
        "attacker": c.attacker, "defender": c.defender, "kind": c.kind, "origin": c.origin,
        "target": c.target, "foe": c.foe, "attack": c.attack[:], "defence": c.defence[:],
        "rethrows": c.rethrows, "won": c.won}
    return data


_json = StateValidator("Minos")


def _str(value: Any, what: str, allowed: Any = None) -> str:
    found = _json.opt_string(value, what, allowed)
    if found is None:
        raise _json.fail(f"{what} missing")
    return found


def _bools(value: Any) -> list[bool]:
    if not isinstance(value, list) or not all(isinstance(v, bool) for v in value):
        raise _json.fail("used flags")
    return list(value)


def _strs(value: Any, what: str) -> list[str]:
    if not isinstance(value, list):
        raise _json.fail(what)
    return [_str(v, what) for v in value]


def _faces(value: Any, what: str, n: int | None = None) -> list[int]:
    if not isinstance(value, list) or (n is not None and len(value) != n):
        raise _json.fail(f"{what} must be a list of faces")
    return [_json.integer(v, what, 0, len(FACES) - 1) for v in value]


def _uses(value: Any) -> list[list[Any]]:
    if not isinstance(value, list):
        raise _json.fail("uses")
    out: list[list[Any]] = []
    for u in value:
        if not (isinstance(u, list) and len(u) == 3 and u[0] in SYMBOLS):
            raise _json.fail("uses entry")
        dice = [_json.integer(d, "use die", 0, DICE - 1) for d in u[1]]
        out.append([u[0], dice, _json.integer(u[2], "use amount")])
    return out


def from_dict(data: Mapping[str, Any]) -> State:
    """Rebuild a state, checking every count the rules conserve."""
    if not isinstance(data, Mapping) or data.get("game") != "minos":
        raise _json.fail("not a Minos state")
    try:
        return _build(data)
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
        if isinstance(exc, InvalidState):
            raise
        raise _json.fail(f"missing or malformed field ({exc})") from exc


_KEYS = frozenset((*_SCALARS, "game", "version", "players", "ships", "guards", "buildings",
                   "stock", "dice", "used", "recruited", "uses", "last", "combat"))
_PLAYER_KEYS = frozenset(("talents", "rings", "value", "ships", "guards", "out"))
_COMBAT_KEYS = frozenset(("attacker", "defender", "kind", "origin", "target", "foe", "attack",
                          "defence", "rethrows", "won"))


def _exact(raw: Any, keys: frozenset[str], what: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping) or set(raw) != keys:
        raise _json.fail(f"{what}: fields")
    return raw


def _build(data: Mapping[str, Any]) -> State:
    _exact(data, _KEYS, "state")
    if data["version"] != 1:
        raise _json.fail("version")
    n = _json.integer(data["num_players"], "num_players", 2, 4)
    seats = range(n)
    players = []
    if not isinstance(data["players"], list):
        raise _json.fail("players")
    for raw in data["players"]:
        raw = _exact(raw, _PLAYER_KEYS, "player")
        if not isinstance(raw["out"], bool):
            raise _json.fail("out")
        players.append(Player(_json.integer(raw["talents"], "talents"),
                              _json.integer(raw["rings"], "rings"),
                              _json.integer(raw["value"], "value"),
                              _json.integer(raw["ships"], "ships", 0, SHIPS),
                              _json.integer(raw["guards"], "guards", 0, GUARDS), bool(raw["out"])))
    if len(players) != n:
        raise _json.fail("player count")
    ships: dict[str, list[int]] = {}
    for place, owners in dict(data["ships"]).items():
        if place not in SEA and place not in SITES:
            raise _json.fail(f"ship on unknown place {place}")
        if not isinstance(owners, list) or not owners or (len(owners) > 1 and place != FISH):
            raise _json.fail(f"ships on {place}")
        ships[place] = [_json.integer(o, "ship seat", 0, n - 1) for o in owners]
    guards: dict[str, list[int]] = {}
    for place, g in dict(data["guards"]).items():
        if place not in SITES and place not in DOTS:
            raise _json.fail(f"guard on unknown place {place}")
        if not isinstance(g, list) or len(g) != 2:
            raise _json.fail(f"guards on {place}")
        count = _json.integer(g[1], "guard count", 1, 1 if place in DOTS else GUARDS)
        guards[place] = [_json.integer(g[0], "guard seat", 0, n - 1), count]
    buildings: dict[str, list[str]] = {}
    for site, types in dict(data["buildings"]).items():
        if site not in SITES or not isinstance(types, list) or not 1 <= len(types) <= MAX_BUILDINGS:
            raise _json.fail(f"buildings on {site}")
        if not all(t in TYPES for t in types) or types[0] == WALL or types.count(WALL) > 1:
            raise _json.fail(f"building types on {site}")
        if len(types) == MAX_BUILDINGS and WALL not in types:
            raise _json.fail(f"city {site} without a wall")
        buildings[site] = list(types)
    stock = {t: _json.integer(dict(data["stock"])[t], f"stock {t}", 0, BUILDINGS_PER_TYPE)
             for t in TYPES}
    combat = None
    raw_c = data["combat"]
    if raw_c is not None:
        raw_c = _exact(raw_c, _COMBAT_KEYS, "combat")
        combat = Combat(_json.integer(raw_c["attacker"], "attacker", 0, n - 1),
                        _json.integer(raw_c["defender"], "defender", 0, n - 1),
                        _str(raw_c["kind"], "kind", ("ship", "guard")),
                        _str(raw_c["origin"], "origin"), _str(raw_c["target"], "target"),
                        _json.opt_string(raw_c["foe"], "foe", ("ship", "guard")),
                        _faces(raw_c["attack"], "attack"), _faces(raw_c["defence"], "defence"),
                        _json.integer(raw_c["rethrows"], "rethrows"),
                        _json.integer(raw_c["won"], "won"))
    last = data["last"]
    if last is not None:
        last = {"seat": _json.integer(last["seat"], "last seat", 0, n - 1),
                "dice": _faces(last["dice"], "last dice"), "uses": _uses(last["uses"])}
    winners = data["winners"]
    s = State(
        n, _json.integer(data["rng"], "rng", 0, (1 << 64) - 1), players,
        _json.integer(data["first"], "first", 0, n - 1),
        _json.integer(data["current"], "current", 0, n - 1),
        _json.integer(data["round"], "round", 1), _str(data["phase"], "phase", PHASES),
        _json.integer(data["max_rounds"], "max_rounds"), ships, guards, buildings,
        _json.integer(data["rings"], "rings", 0, RINGS), stock, _faces(data["dice"], "dice", DICE),
        _bools(data["used"]), _json.integer(data["throws"], "throws", 0, THROWS),
        _json.integer(data["mp"], "mp"), _json.integer(data["bp"], "bp"),
        _json.opt_string(data["symbol"], "symbol", SYMBOLS),
        _json.opt_string(data["selected"], "selected"),
        _json.opt_string(data["site"], "site", SITES), _strs(data["recruited"], "recruited"),
        _uses(data["uses"]), last, combat,
        None if winners is None else [_json.integer(w, "winner", 0, n - 1) for w in winners],
        _json.opt_string(data["end_reason"], "end_reason"))
    _check(s, seats)
    return s


def _check(s: State, seats: range) -> None:
    if len(s.used) != DICE:
        raise _json.fail("used flags")
    for seat in seats:
        p = s.players[seat]
        ships, guards = pieces_on_board(s, seat)
        if ships + p.ships != SHIPS or guards + p.guards != GUARDS:
            raise _json.fail(f"seat {seat}: pieces on the board and in stock do not add up")
        if p.out and ships + guards:
            raise _json.fail(f"seat {seat} is out but has pieces on the board")
    for site in SITES:
        ship = s.ships.get(site)
        guard = s.guards.get(site)
        if ship and guard and ship[0] != guard[0]:
            raise _json.fail(f"site {site} holds two colours")
    if [p.value for p in s.players] != track_values(s):
        raise _json.fail("the value track does not match the colonies held")
    if s.rings + sum(p.rings for p in s.players) != RINGS:
        raise _json.fail("rings do not add up")
    for t in TYPES:
        built = sum(types.count(t) for types in s.buildings.values())
        if built + s.stock[t] != BUILDINGS_PER_TYPE:
            raise _json.fail(f"{t} buildings do not add up")
    if (s.phase == "over") != (s.winners is not None):
        raise _json.fail("winners are set exactly when the game is over")
    if (s.phase in ("order", "attack", "defend")) != (s.combat is not None):
        raise _json.fail("a combat exists exactly in the combat phases")
    if s.players[s.current].out and s.phase != "over":
        raise _json.fail("the current player is out")
    if (s.symbol is not None) != (s.phase == "combo") or (s.site is not None) != (
            s.phase == "build"):
        raise _json.fail("a half-made choice outside its phase")
    if not set(s.recruited) <= set(SITES):
        raise _json.fail("recruited sites")
    if s.selected is not None and not _has_piece(s, s.current, s.selected):
        raise _json.fail(f"selected piece {s.selected} is not on the board")
    c = s.combat
    if c is not None:
        if c.attacker != s.current or c.defender == c.attacker:
            raise _json.fail("combat seats")
        if not _has_piece(s, c.attacker, f"{c.kind}:{c.origin}"):
            raise _json.fail("the attacking piece is not where the combat says")
        if c.target not in SEA and c.target not in SITES and c.target not in DOTS:
            raise _json.fail("combat target")
        if len(c.attack) not in (0, DICE) or len(c.defence) not in (0, DICE):
            raise _json.fail("combat throws")


def _has_piece(s: State, seat: int, token: str) -> bool:
    kind, _, place = token.partition(":")
    if kind == "ship":
        return seat in s.ships.get(place, [])
    if kind == "guard":
        g = s.guards.get(place)
        return g is not None and g[0] == seat
    return False
