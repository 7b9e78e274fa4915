"""Minos's designed numbers and map, loaded from ``data/rules.json`` and ``data/map.json``.

The French fragment gives neither the cost table, the combat values nor the board; those were
designed for this project (docs/rules/minos.md) and are kept as data so they can be replaced
without touching code. Everything is validated at import: a bad data file fails loudly.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "data"

# Die faces, in the order ``Ctx.roll`` numbers them (0..5).
FACES: tuple[str, ...] = ("scales", "arrow", "seagull", "construction", "joker", "star")
SCALES, ARROW, SEAGULL, CONSTRUCTION, JOKER, STAR = range(6)
SYMBOLS: tuple[str, ...] = FACES[:4]  # what a combination can be
FACE_INDEX: dict[str, int] = {f: i for i, f in enumerate(FACES)}
TYPES: tuple[str, ...] = ("harbour", "dwelling", "trading", "wall")
HARBOUR, DWELLING, TRADING, WALL = TYPES
KINDS: tuple[str, ...] = ("ship", "guard")


class DataError(ValueError):
    """A data file contradicts the rules it is meant to encode."""


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise DataError(message)


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((_DIR / name).read_text(encoding="utf-8"))
    return data


def _pos_int(raw: dict[str, Any], name: str, low: int = 1) -> int:
    value = raw.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise DataError(f"rules.json: {name} must be an integer >= {low}")
    return value


# --- numbers --------------------------------------------------------------------------

_RULES = _load("rules.json")
START_TALENTS = _pos_int(_RULES, "start_talents", 0)
SHIPS = _pos_int(_RULES, "ships_per_player")
GUARDS = _pos_int(_RULES, "guards_per_player")
RINGS = _pos_int(_RULES, "rings_supply")
BUILDINGS_PER_TYPE = _pos_int(_RULES, "buildings_per_type")
RING_PRICE = _pos_int(_RULES, "ring_price")
RECRUIT_PRICE = _pos_int(_RULES, "recruit_price")
THROWS = _pos_int(_RULES, "throws")
DICE = _pos_int(_RULES, "dice")
SCALES_FLOOR = _pos_int(_RULES, "scales_floor", 0)
SEAGULL_MP = _pos_int(_RULES, "seagull_mp")
CONSTRUCTION_BP = _pos_int(_RULES, "construction_bp")
ARROW_RINGS = _pos_int(_RULES, "arrow_rings")
STAR_UNIT = _pos_int(_RULES, "star_unit")
MAX_BUILDINGS = _pos_int(_RULES, "max_buildings")
TRACK = _pos_int(_RULES, "track_size")
MAX_ROUNDS_DEFAULT = _pos_int(_RULES, "max_rounds_default", 0)
COMBAT_RETHROWS = _pos_int(_RULES, "combat_rethrows", 0)
MIN_CITIES = _pos_int(_RULES["end"], "min_cities")
_need(DICE == 6 and THROWS >= 1, "rules.json: six dice, at least one throw")


@dataclass(frozen=True, slots=True)
class Level:
    bp: int
    wall_bp: int | None  # None: a wall may not be built at this level
    talents: int


def _levels(raw: Any) -> tuple[Level, ...]:
    _need(isinstance(raw, list) and len(raw) == MAX_BUILDINGS,
          f"rules.json: levels must list {MAX_BUILDINGS} levels")
    levels = []
    for i, row in enumerate(raw, start=1):
        _need(isinstance(row, dict) and row.get("level") == i, f"level {i}: bad row")
        wall = row.get("wall_bp")
        _need(wall is None or (isinstance(wall, int) and wall > 0), f"level {i}: wall_bp")
        levels.append(Level(_pos_int(row, "bp"), wall, _pos_int(row, "talents")))
    _need(levels[0].wall_bp is None, "the first building may never be a wall")
    _need(all(lv.wall_bp is not None for lv in levels[1:]), "a wall must be possible later")
    return tuple(levels)


LEVELS = _levels(_RULES["levels"])
_VALUES = _RULES["buildings"]
_need(isinstance(_VALUES, dict) and set(_VALUES) == set(TYPES), "rules.json: building types")
VALUES: dict[str, int] = {t: _pos_int(_VALUES, t, 0) for t in TYPES}
_need(VALUES[WALL] == 0, "the wall has no value of its own")
_COMBAT = _RULES["combat"]
COMBAT: dict[str, int] = {k: _pos_int(_COMBAT, k, 0) for k in (
    "arrow", "seagull", "construction", "scales", "joker_alone", "star_alone",
    "star_in_combination", "combination_bonus")}


# --- the map ----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Site:
    code: str  # lower-case id used in actions: "tar"
    name: str
    land: str  # grid square of the site ("J3")
    port: str  # the sea space its port is attached to ("k3")
    island: bool


@dataclass(frozen=True, slots=True)
class Path_:
    start: str
    end: str
    dots: tuple[str, ...]  # dot ids from start to end: "ost-tar.1" ...
    via: tuple[str, ...]  # land squares the drawing passes through


_MAP = _load("map.json")
COLUMNS = _pos_int(_MAP, "columns")
ROWS = _pos_int(_MAP, "rows")


def square(code: str) -> tuple[int, int]:
    """(column, row), both from 0, of a grid square such as "K5" or "k5"."""
    col = ord(code[0].upper()) - ord("A")
    row = int(code[1:]) - 1
    _need(0 <= col < COLUMNS and 0 <= row < ROWS, f"square {code} off the grid")
    return col, row


def _sea(raw: Any) -> dict[str, tuple[str, ...]]:
    _need(isinstance(raw, dict) and bool(raw), "map.json: sea")
    sea: dict[str, tuple[str, ...]] = {}
    for code, near in raw.items():
        square(code)
        _need(isinstance(near, list) and all(isinstance(n, str) for n in near),
              f"sea {code}: neighbours")
        c, r = square(code)
        for n in near:
            _need(n in raw, f"sea {code}: unknown neighbour {n}")
            nc, nr = square(n)
            _need(abs(nc - c) + abs(nr - r) == 1, f"sea {code}-{n} do not share an edge")
            _need(code in raw[n], f"sea {code}-{n} is not symmetric")
        sea[code.lower()] = tuple(n.lower() for n in near)
    return sea


SEA: dict[str, tuple[str, ...]] = _sea(_MAP["sea"])
FISH: str = str(_MAP["fish"]).lower()
_need(FISH in SEA, "the fish space must be a sea space")


def _sites(raw: Any) -> dict[str, Site]:
    _need(isinstance(raw, list) and bool(raw), "map.json: sites")
    sites: dict[str, Site] = {}
    ports: set[str] = set()
    for row in raw:
        code = str(row["code"]).lower()
        _need(code.isalpha() and code not in sites, f"site {code}: bad or repeated code")
        land, port = str(row["land"]), str(row["port"]).lower()
        _need(land.lower() not in SEA, f"site {code}: its land square is sea")
        _need(port in SEA and port not in ports, f"site {code}: port {port} unknown or shared")
        lc, lr = square(land)
        pc, pr = square(port)
        _need(abs(lc - pc) + abs(lr - pr) == 1, f"site {code}: port not next to the site")
        ports.add(port)
        sites[code] = Site(code, str(row["name"]), land.upper(), port, bool(row["island"]))
    return sites


SITES: dict[str, Site] = _sites(_MAP["sites"])
SITE_CODES: tuple[str, ...] = tuple(SITES)
PORT_OF: dict[str, str] = {s.port: s.code for s in SITES.values()}  # sea space -> site


def _paths(raw: Any) -> tuple[Path_, ...]:
    _need(isinstance(raw, list), "map.json: paths")
    paths = []
    for row in raw:
        a, b, n = str(row["from"]).lower(), str(row["to"]).lower(), row["dots"]
        _need(a in SITES and b in SITES and a != b, f"path {a}-{b}: unknown site")
        _need(not SITES[a].island and not SITES[b].island, f"path {a}-{b}: islands have none")
        _need(isinstance(n, int) and n >= 1, f"path {a}-{b}: dots")
        via = tuple(str(v).upper() for v in row["via"])
        for v in via:
            square(v)
            _need(v.lower() not in SEA, f"path {a}-{b}: via {v} is sea")
        paths.append(Path_(a, b, tuple(f"{a}-{b}.{i}" for i in range(1, n + 1)), via))
    return tuple(paths)


PATHS: tuple[Path_, ...] = _paths(_MAP["paths"])
DOTS: tuple[str, ...] = tuple(d for p in PATHS for d in p.dots)
_need(len(set(DOTS)) == len(DOTS), "dot ids repeat")


def _ship_graph() -> dict[str, tuple[str, ...]]:
    """Where a ship may step: sea to sea by an edge, sea into its port, port back out."""
    graph = {code: near + ((PORT_OF[code],) if code in PORT_OF else ())
             for code, near in SEA.items()}
    for site in SITES.values():
        graph[site.code] = (site.port,)
    return graph


def _guard_graph() -> dict[str, tuple[str, ...]]:
    """Where a guard may step: along each path, dot to dot, site to its first dot."""
    graph: dict[str, list[str]] = {code: [] for code in SITES}
    for path in PATHS:
        chain = (path.start, *path.dots, path.end)
        for here, there in zip(chain, chain[1:], strict=False):
            graph.setdefault(here, []).append(there)
            graph.setdefault(there, []).append(here)
    return {k: tuple(v) for k, v in graph.items()}


SHIP_STEPS = _ship_graph()
GUARD_STEPS = _guard_graph()


def connected(nodes: set[str], graph: dict[str, tuple[str, ...]], start: str) -> set[str]:
    """Every node of ``nodes`` reachable from ``start`` inside ``nodes``."""
    seen = {start}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for there in graph[here]:
            if there in nodes and there not in seen:
                seen.add(there)
                todo.append(there)
    return seen


_need(connected(set(SEA), SEA, FISH) == set(SEA), "the sea must be one connected graph")
_need(all(len(n) >= 2 for n in SEA.values()), "every sea space needs two neighbours")
