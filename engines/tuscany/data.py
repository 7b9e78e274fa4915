"""The Castles of Tuscany's fixed components, loaded from the JSON files in ``data/``.

The rulebook prints neither the region modules nor the card mix; those are a designed set
(``/work/shared/games/tuscany.md``) kept as data so they can be replaced without touching
code. Everything is validated at import: a bad data file fails loudly and early.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "data"

# Colour indices used everywhere (hands are lists of 8 counts in this order).
COLOURS: tuple[str, ...] = ("C", "R", "I", "F", "Q", "V", "M", "T")
CASTLE, CITY, INN, FARM, QUARRY, VILLAGE, MONASTERY, TRADE = range(8)
COLOUR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}
CODES: tuple[str, ...] = tuple(c.lower() for c in COLOURS)  # action tokens: c r i f q v m t
CODE_INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}

JOKER = -1  # a joker on a storage space or the board (jokers are unlimited pieces)
MAX_PLAYERS = 4
TILES_PER_PLAYER = 22  # 21 in piles + the start castle


class DataError(ValueError):
    """A data file contradicts the rules it is meant to encode."""


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((_DIR / name).read_text(encoding="utf-8"))
    return data


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise DataError(message)


# --- region modules -------------------------------------------------------------------

_MODULES_RAW = _load("modules.json")
ROWS, COLS = 5, 2


def _parse_module(mid: str, rows: list[str]) -> tuple[int, ...]:
    """A module as 10 colour indices, index ``col * 5 + row``."""
    _need(len(rows) == ROWS, f"module {mid}: {len(rows)} rows")
    grid = [row.split() for row in rows]
    _need(all(len(r) == COLS for r in grid), f"module {mid}: a row is not 2 wide")
    for r in grid:
        for c in r:
            _need(c in COLOUR_INDEX, f"module {mid}: unknown colour {c}")
    return tuple(COLOUR_INDEX[grid[r][c]] for c in range(COLS) for r in range(ROWS))


MODULES: dict[str, tuple[int, ...]] = {
    mid: _parse_module(mid, rows) for mid, rows in _MODULES_RAW["modules"].items()
}
MODULE_GROUPS: dict[str, tuple[str, ...]] = {
    g: tuple(sorted(m for m in MODULES if m[0] == g)) for g in "ABC"
}
ZONE_POINTS: dict[int, int] = {int(k): v for k, v in _MODULES_RAW["zone_points"].items()}
MAX_ZONE: int = _MODULES_RAW["max_zone"]


def module_neighbours(col: int, row: int) -> list[tuple[int, int]]:
    """Side neighbours inside one module (right column shifted down by half a hex)."""
    if col == 0:
        cand = [(0, row - 1), (0, row + 1), (1, row - 1), (1, row)]
    else:
        cand = [(1, row - 1), (1, row + 1), (0, row), (0, row + 1)]
    return [(c, r) for c, r in cand if 0 <= r < ROWS]


def module_zones(cells: tuple[int, ...]) -> list[list[int]]:
    """Connected same-colour groups of cell indices (``col * 5 + row``) inside a module."""
    seen: set[int] = set()
    zones: list[list[int]] = []
    for start in range(COLS * ROWS):
        if start in seen:
            continue
        zone, todo = [], [start]
        seen.add(start)
        while todo:
            cell = todo.pop()
            zone.append(cell)
            for c, r in module_neighbours(cell // ROWS, cell % ROWS):
                n = c * ROWS + r
                if n not in seen and cells[n] == cells[start]:
                    seen.add(n)
                    todo.append(n)
        zones.append(sorted(zone))
    return zones


def _validate_modules() -> None:
    _need(all(len(MODULE_GROUPS[g]) == MAX_PLAYERS for g in "ABC"), "need 4 modules per group")
    for mid, cells in MODULES.items():
        want = _MODULES_RAW["colour_counts"][mid[0]]
        have: dict[str, int] = {}
        for c in cells:
            have[COLOURS[c]] = have.get(COLOURS[c], 0) + 1
        _need(have == want, f"module {mid}: colours {have} != {want}")
        for zone in module_zones(cells):
            _need(len(zone) <= MAX_ZONE, f"module {mid}: zone of {len(zone)} spaces")
    _need(set(ZONE_POINTS) == set(range(1, MAX_ZONE + 1)), "zone points must cover 1..max")


_validate_modules()

# --- tiles ----------------------------------------------------------------------------

_TILES_RAW = _load("tiles.json")
CROPS: tuple[str, ...] = tuple(_TILES_RAW["agriculture_types"])
PILE_SIZE: int = _TILES_RAW["pile_size"]
DISPLAY_SIZE: int = _TILES_RAW["display_size"]
RESET_COUNT: int = _TILES_RAW["reset_count"]


@dataclass(frozen=True, slots=True)
class Tile:
    """One physical domain tile. ``owner`` is a seat, or -1 for a neutral tile."""

    id: int
    colour: int
    crops: tuple[str, ...]
    owner: int

    @property
    def kind(self) -> str:
        """The tile's name key: a colour code, or ``f_<crops>`` for agriculture."""
        if self.crops:
            return "f_" + "_".join(self.crops)
        return CODES[self.colour]


def _parse_tile(tid: int, text: str, owner: int) -> Tile:
    colour, _, crops = text.partition(":")
    _need(colour in COLOUR_INDEX, f"tile {text}: unknown colour")
    kinds = tuple(crops.split("+")) if crops else ()
    _need(all(k in CROPS for k in kinds), f"tile {text}: unknown agriculture type")
    _need(bool(kinds) == (colour == "F"), f"tile {text}: only agriculture has types")
    return Tile(tid, COLOUR_INDEX[colour], kinds, owner)


def _build_tiles() -> tuple[Tile, ...]:
    own: list[str] = _TILES_RAW["player_tiles"]
    neutral: list[str] = _TILES_RAW["neutral_tiles"]
    _need(len(own) == 3 * PILE_SIZE == TILES_PER_PLAYER - 1, "21 tiles per player")
    tiles: list[Tile] = []
    for seat in range(MAX_PLAYERS):
        for text in own:
            tiles.append(_parse_tile(len(tiles), text, seat))
        tiles.append(_parse_tile(len(tiles), "C", seat))  # the start castle
    for text in neutral:
        tiles.append(_parse_tile(len(tiles), text, -1))
    return tuple(tiles)


TILES: tuple[Tile, ...] = _build_tiles()
NEUTRAL_IDS: tuple[int, ...] = tuple(t.id for t in TILES if t.owner < 0)


def own_tiles(seat: int) -> tuple[int, ...]:
    """The 21 pile tiles of a seat (the start castle excluded)."""
    base = seat * TILES_PER_PLAYER
    return tuple(range(base, base + TILES_PER_PLAYER - 1))


def start_castle(seat: int) -> int:
    return seat * TILES_PER_PLAYER + TILES_PER_PLAYER - 1


# --- cards, improvements, bonuses -----------------------------------------------------

_CARDS_RAW = _load("cards.json")
DOMAIN_COUNTS: tuple[int, ...] = tuple(_CARDS_RAW["domain"][c] for c in COLOURS)
HAND_SIZE: int = _CARDS_RAW["hand_size"]
DRAW_COUNT: int = _CARDS_RAW["draw"]
MONASTERY_DRAW: int = _CARDS_RAW["monastery_draw"]
INCOME: dict[str, dict[str, int]] = {
    k: {e: n for e, n in v.items() if e != "count"} for k, v in _CARDS_RAW["income"].items()
}
INCOME_COUNTS: dict[str, int] = {k: v["count"] for k, v in _CARDS_RAW["income"].items()}
JOKER_FALLBACK_RED: int = _CARDS_RAW["joker_fallback_red"]
IMPROVEMENTS: tuple[str, ...] = tuple(_CARDS_RAW["improvements"])
IMP_CARD, IMP_STORAGE, IMP_MARBLE, IMP_WORKER, IMP_INCOME = range(5)
IMPROVEMENT_INDEX: dict[str, int] = {k: i for i, k in enumerate(IMPROVEMENTS)}
IMPROVEMENTS_EACH: int = _CARDS_RAW["improvements_each"]
STORAGE_GREEN: int = _CARDS_RAW["storage_green"]
BASE_STORAGE: int = _CARDS_RAW["base_storage"]

_BONUS_RAW = _load("bonuses.json")["bonuses"]
BONUSES: tuple[tuple[int, int], ...] = tuple(
    (int(_BONUS_RAW[c][0]), int(_BONUS_RAW[c][1])) for c in COLOURS)


def _validate_cards() -> None:
    _need(sum(DOMAIN_COUNTS) == _CARDS_RAW["domain_total"] == 122, "122 domain cards")
    _need(sum(INCOME_COUNTS.values()) == _CARDS_RAW["income_total"] == 27, "27 income cards")
    effects = {"red", "green", "cards", "marbles", "workers", "jokers"}
    for k, eff in INCOME.items():
        _need(len(eff) == 1 and set(eff) <= effects, f"income card {k}: one known effect")
    _need(IMPROVEMENTS == ("card", "storage", "marble", "worker", "income"), "5 improvements")
    _need(set(_BONUS_RAW) == set(COLOURS), "a colour bonus per colour")
    _need(all(a >= b for a, b in BONUSES), "first bonus >= second")
    # Own tiles: one of each kind fewer than the region's spaces (the start castle aside).
    spaces = [0] * 8
    for g in "ABC":
        for c, n in _MODULES_RAW["colour_counts"][g].items():
            spaces[COLOUR_INDEX[c]] += n
    _need(sum(spaces) == 30, "30 spaces per region")
    own = [0] * 8
    for t in TILES:
        if t.owner == 0:
            own[t.colour] += 1
    _need(all(own[i] <= spaces[i] for i in range(8)), "more own tiles than spaces")
    _need(len(NEUTRAL_IDS) == 32, "32 neutral tiles")


_validate_cards()
SPACES_PER_COLOUR: tuple[int, ...] = tuple(
    sum(_MODULES_RAW["colour_counts"][g].get(c, 0) for g in "ABC") for c in COLOURS)
