"""Río de la Plata's board, loaded from ``board.json`` and validated at import.

The rulebook lost its icons and every piece of board data (map, ladders, tracks); the values
are a designed set kept in ONE file so the real board's values can be dropped in. Everything
derived here (cells, quarters, edges, entries, adjacency) is computed from that file, and the
file is checked against the rules it encodes: a bad file fails loudly at import.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PATH = Path(__file__).parent / "board.json"
RESOURCES = ("wood", "stone", "precious")
MINOR_BASE = ("hut", "stonecutter", "carpenter", "market", "square", "barracks", "church")
MINOR = ("hut", "house", "stonecutter", "carpenter", "market", "company", "square",
         "monument", "garden", "barracks", "church")
MAJOR = ("palace", "cathedral", "fort", "port")
LADDERS = ("palace", "cathedral", "fort", "port", "walls", "roads")
CHARACTERS = ("cannoneer", "general", "road_builder", "defender_char", "master_stonecutter",
              "master_carpenter", "master_craftsman", "master_merchant", "shipowner", "bishop",
              "architect", "governor")
SIDES = ("n", "e", "s", "w")


class DataError(ValueError):
    """The data file contradicts the rules it is meant to encode."""


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise DataError(message)


@dataclass(frozen=True, slots=True)
class Minor:
    name: str
    vp: int
    workers: int
    cost: dict[str, int]  # wood, stone, precious
    base: str | None


@dataclass(frozen=True, slots=True)
class Ladder:
    name: str
    cost: dict[str, int]  # wood/stone/precious, or {"wood_or_stone": 1}
    spaces: tuple[int, ...]
    spaces4: tuple[int, ...]
    spaces5: tuple[int, ...]
    bonus: int
    repeat: bool

    def vps(self, players: int) -> tuple[int, ...]:
        """The ladder's spaces (VP each) at this player count (2 players: the 3p spaces)."""
        extra = (self.spaces4 if players >= 4 else ()) + (self.spaces5 if players >= 5 else ())
        return self.spaces + extra


@dataclass(frozen=True, slots=True)
class Character:
    name: str
    cost: int
    vp_needed: int
    end_vp: int


@dataclass(frozen=True, slots=True)
class Conversion:
    id: str
    pay: dict[str, int]
    get: dict[str, int]


class Board:
    """Every board value and what follows from it (cells are ``r * cols + c``)."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        g = raw["grid"]
        self.cols: int = g["cols"]
        self.rows: int = g["rows"]
        _need(self.cols > 2 and self.rows > 2, "grid too small")
        self.ncells = self.cols * self.rows
        cell = self._cell
        self.plaza = frozenset(cell(p) for p in raw["plaza"])
        self.quarter_of: list[int] = [0] * self.ncells
        self.quarter_cells: dict[int, list[int]] = {}
        self.centres: dict[int, tuple[int, int]] = {}
        for key, q in raw["quarters"].items():
            qid = int(key)
            minus = {cell(p) for p in q["minus"]}
            cells = [r * self.cols + c for r in range(q["rows"][0], q["rows"][1] + 1)
                     for c in range(q["cols"][0], q["cols"][1] + 1)
                     if r * self.cols + c not in minus]
            for i in cells:
                _need(self.quarter_of[i] == 0, f"cell {i} in two quarters")
                self.quarter_of[i] = qid
            self.quarter_cells[qid] = cells
            cx, cy = q["centre"]
            _need(0 <= cx <= self.cols and 0 <= cy <= self.rows, f"quarter {qid} centre")
            self.centres[qid] = (cx, cy)
        for i in range(self.ncells):
            _need((self.quarter_of[i] == 0) == (i in self.plaza),
                  f"cell {self.token(i)} must be in one quarter or the Plaza")
        self.quarters = tuple(sorted(self.quarter_cells))
        self.plaza_vertices = frozenset((v[0], v[1]) for v in raw["plaza_boundary_vertices"])
        self.plaza_inner = frozenset(raw["plaza_inner_edges"])
        self.sites = tuple(cell(p) for p in raw["palace_cathedral_sites"])
        self.fort_cells = tuple(cell(p) for p in raw["fort_cells"])
        self.port_cell = cell(raw["port_cell"])
        reserved = set(self.plaza) | set(self.fort_cells) | {self.port_cell}
        _need(not reserved & set(self.sites), "a palace site is a reserved cell")
        self.reserved = frozenset(reserved)
        self.buildable = tuple(i for i in range(self.ncells) if i not in self.reserved)
        self.start_zone = frozenset(cell(p) for p in raw["start_zone"])
        _need(self.start_zone <= set(self.buildable), "start zone on a reserved cell")
        for i in self.sites:
            _need(any(j in self.plaza for j in self.n8(i)), "palace site not by the Plaza")
        # Edges: perimeter (entries and walls) and internal (roads).
        self.perimeter: dict[str, int] = {}  # edge -> cell behind it
        for c in range(self.cols):
            self.perimeter[f"h.{c}.0"] = c
        for r in range(self.rows):
            self.perimeter[f"v.{self.cols}.{r}"] = r * self.cols + self.cols - 1
        for c in range(self.cols):
            self.perimeter[f"h.{c}.{self.rows}"] = (self.rows - 1) * self.cols + c
        for r in range(self.rows):
            self.perimeter[f"v.0.{r}"] = r * self.cols
        self.prebuilt_walls = frozenset(raw["prebuilt_walls"])
        _need(self.prebuilt_walls <= set(self.perimeter), "pre-built wall not on the perimeter")
        internal = [f"h.{x}.{y}" for y in range(1, self.rows) for x in range(self.cols)]
        internal += [f"v.{x}.{y}" for x in range(1, self.cols) for y in range(self.rows)]
        _need(self.plaza_inner <= set(internal), "plaza inner edge unknown")
        self.road_edges = tuple(e for e in internal if e not in self.plaza_inner)
        self.entry_side = {e: self.edge_side(e) for e in self.perimeter}
        # Quarter perimeter edges (a quarter is "closed" when all carry walls).
        self.quarter_perimeter: dict[int, tuple[str, ...]] = {
            q: tuple(e for e, i in self.perimeter.items() if self.quarter_of[i] == q)
            for q in self.quarters}
        self.pieces: int = raw["pieces"]
        self.dwellings: int = raw["dwelling_tiles"]
        self.workers: int = raw["workers"]
        self.per_round: int = raw["max_per_round"]
        _need(self.workers > self.per_round > 0, "workers")
        self.start: dict[str, Any] = raw["start"]
        self.ladders = {name: Ladder(name, dict(v["cost"]), tuple(v["spaces"]),
                                     tuple(v["spaces4"]), tuple(v["spaces5"]), v["bonus"],
                                     v["repeat"]) for name, v in raw["ladders"].items()}
        _need(tuple(raw["ladder_order"]) == LADDERS and set(self.ladders) == set(LADDERS),
              "ladders must be the six major-building ladders")
        for lad in self.ladders.values():
            _need(len(lad.vps(5)) <= 10 and all(v >= 0 for v in lad.vps(5)), f"{lad.name} VP")
            _need(set(lad.cost) <= {"wood", "stone", "precious", "wood_or_stone"},
                  f"{lad.name} cost")
            _need(lad.repeat == (lad.name in ("walls", "roads")), f"{lad.name} repeat")
        self.per_completion: int = raw["pieces_per_completion"]
        prod = raw["production"]
        self.prod_workers: tuple[int, ...] = tuple(prod["workers"])
        self.prod_beyond: int = prod["beyond"]
        _need(all(1 <= w <= self.per_round for w in (*self.prod_workers, self.prod_beyond)),
              "production worker counts")
        self.minor = {name: Minor(name, v["vp"], v["workers"],
                                  {r: v[r] for r in RESOURCES}, v["base"])
                      for name, v in raw["minor"].items()}
        _need(tuple(self.minor) == MINOR, "minor buildings")
        for m in self.minor.values():
            _need(1 <= m.workers <= 3 and m.vp >= 0, f"{m.name} workers/VP")
            _need(m.base is None or m.base in self.minor, f"{m.name} base")
        self.square_need: int = raw["square_surroundings"]
        self.tile_caps = tuple((tuple(c["types"]), c["max"]) for c in raw["tile_caps"])
        for types, cap in self.tile_caps:
            _need(set(types) <= set(MINOR) and cap > 0, "tile caps")
        self.one_per_quarter = frozenset(raw["one_per_quarter"])
        self.production_buildings = frozenset(raw["production_buildings"])
        self.conversions = {b: tuple(Conversion(c["id"], dict(c["pay"]), dict(c["get"]))
                                     for c in convs)
                            for b, convs in raw["conversions"].items()}
        _need(set(self.conversions) <= set(MINOR), "conversions")
        self.church_vp_cathedral: int = raw["church_vp_with_cathedral"]
        self.upgrades: dict[str, tuple[str, ...]] = {
            k: tuple(v) for k, v in raw["upgrades"].items()}
        for base, tops in self.upgrades.items():
            _need(all(self.minor[t].base == base for t in tops), "upgrades")
        self.qvalue: dict[str, int] = raw["quarter_value"]
        self.characters = {k: Character(k, v["cost"], v["vp_needed"], v["end_vp"])
                           for k, v in raw["characters"].items()}
        _need(tuple(self.characters) == CHARACTERS, "the 12 characters")
        self.fine: dict[str, int] = raw["character_fine"]
        self.end_rates: dict[str, int] = raw["end_vp_rates"]
        self.ship: dict[str, Any] = raw["ship"]
        e = raw["enemy"]
        self.enemy_bonus: tuple[int, ...] = tuple(e["bonus"])
        self.enemy_max: int = e["max"]
        self.retreat: int = e["retreat"]
        _need(len(self.enemy_bonus) == self.enemy_max + 1, "enemy bonus per track value")
        self.enemy_start = {int(k): tuple(v) for k, v in e["start"].items()}
        self.enemy_start_short = {int(k): tuple(v) for k, v in e["start_short"].items()}
        for table in (self.enemy_start, self.enemy_start_short):
            _need(set(table) == {2, 3, 4, 5}, "enemy start per player count")
            _need(all(0 <= v <= self.enemy_max for p in table.values() for v in p),
                  "enemy start values")
        t = raw["time_track"]
        self.first_year: int = t["first_year"]
        self.symbols: tuple[str, ...] = tuple(t["symbols"])
        self.rounds: int = t["rounds"]
        self.rounds_short: int = t["rounds_short"]
        _need(len(self.symbols) == self.rounds - 1 and set(self.symbols) <= {"F", "S", "FS", ""},
              "time track symbols: one per transition")
        self.combat: dict[str, Any] = raw["combat"]
        # Adjacency tables.
        self.nb8 = [tuple(self.n8(i)) for i in range(self.ncells)]
        self.nb4 = [dict(self.n4(i)) for i in range(self.ncells)]

    # --- geometry ---------------------------------------------------------------------
    def _cell(self, p: list[int]) -> int:
        c, r = p
        _need(0 <= c < self.cols and 0 <= r < self.rows, f"cell {p} off the grid")
        return r * self.cols + c

    def cr(self, i: int) -> tuple[int, int]:
        return i % self.cols, i // self.cols

    def token(self, i: int) -> str:
        c, r = self.cr(i)
        return f"{c}.{r}"

    def parse_cell(self, token: str) -> int | None:
        parts = token.split(".")
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) < 3 for p in parts):
            return None
        c, r = int(parts[0]), int(parts[1])
        if not (0 <= c < self.cols and 0 <= r < self.rows):
            return None
        return r * self.cols + c

    def n8(self, i: int) -> list[int]:
        c, r = self.cr(i)
        return [(r + dr) * self.cols + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= c + dc < self.cols and 0 <= r + dr < self.rows]

    def n4(self, i: int) -> list[tuple[str, int]]:
        c, r = self.cr(i)
        out = []
        for side, dc, dr in (("n", 0, -1), ("e", 1, 0), ("s", 0, 1), ("w", -1, 0)):
            if 0 <= c + dc < self.cols and 0 <= r + dr < self.rows:
                out.append((side, (r + dr) * self.cols + c + dc))
        return out

    def side_edge(self, i: int, side: str) -> str:
        c, r = self.cr(i)
        return {"n": f"h.{c}.{r}", "s": f"h.{c}.{r + 1}", "w": f"v.{c}.{r}",
                "e": f"v.{c + 1}.{r}"}[side]

    def edge_side(self, edge: str) -> str:
        """Which side of the city a perimeter edge is on (n/e/s/w)."""
        kind, x, y = edge.split(".")
        if kind == "h":
            return "n" if y == "0" else "s"
        return "w" if x == "0" else "e"

    @staticmethod
    def edge_vertices(edge: str) -> tuple[tuple[int, int], tuple[int, int]]:
        kind, xs, ys = edge.split(".")
        x, y = int(xs), int(ys)
        return ((x, y), (x + 1, y)) if kind == "h" else ((x, y), (x, y + 1))

    def cell_walls(self, i: int) -> list[str]:
        """The perimeter edges on this cell's own sides."""
        return [e for e in (self.side_edge(i, s) for s in SIDES) if e in self.perimeter]


def load(path: Path = PATH) -> Board:
    """Load and validate a board file (raises :class:`DataError` on any inconsistency)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return Board(raw)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        if isinstance(exc, DataError):
            raise
        raise DataError(f"malformed board file: {exc!r}") from exc


BOARD = load()
