"""A player's region: three modules side by side, each maybe turned 180° and shifted.

Arrangement (rulebook "Mise en place"): ``order`` names the modules left to right by their
letter ("bac" = the B module left), ``turns`` has one 0/1 per position (1 = turned 180°,
cell (c, r) -> (1-c, 4-r)), ``shifts`` one 0/1 per position (1 = one hex lower). No module
may be more than one hex higher or lower than another, so shifts are 0/1; "111" is the same
as "000" and is stored as that.

Geometry: spaces are numbered ``column * 5 + row`` over the 6 global columns (a-f) and 5
module rows; a space's label is its column letter and row number ("c3"). In half-hex units
a space sits at ``y = 2 * (row + shift) + (column % 2)`` (the right column of each module is
half a hex lower). Spaces in one column touch when their rows differ by one; spaces in
neighbouring columns touch when their ``y`` differ by one — so adjacency crosses module
seams. Zones (same-colour connected spaces) never cross a seam (reference, "Region board").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

from .data import MODULES, ROWS, module_zones

ORDERS: tuple[str, ...] = tuple("".join(p) for p in permutations("abc"))
TURNS: tuple[str, ...] = tuple(f"{i:03b}" for i in range(8))
SHIFTS: tuple[str, ...] = ("000", "100", "010", "001", "110", "101", "011")
COLUMN_LETTERS = "abcdef"
NUM_SPACES = 30


@dataclass(frozen=True, slots=True)
class Geometry:
    """Everything about an assembled region that does not change during play."""

    colours: tuple[int, ...]  # per space
    adjacent: tuple[tuple[int, ...], ...]  # per space, across seams
    zone_of: tuple[int, ...]  # per space: index into ``zones``
    zones: tuple[tuple[int, ...], ...]
    labels: tuple[str, ...]
    ys: tuple[int, ...]  # half-hex units from the top, for renderers
    module_at: tuple[int, ...]  # per space: position 0..2
    by_colour: tuple[tuple[int, ...], ...]  # colour -> spaces


def label(space: int) -> str:
    return f"{COLUMN_LETTERS[space // ROWS]}{space % ROWS + 1}"


LABELS: tuple[str, ...] = tuple(label(s) for s in range(NUM_SPACES))
LABEL_INDEX: dict[str, int] = {lab: i for i, lab in enumerate(LABELS)}


def canonical_shifts(shifts: str) -> str:
    return "000" if shifts == "111" else shifts


def valid_arrangement(order: str, turns: str, shifts: str) -> bool:
    return order in ORDERS and turns in TURNS and canonical_shifts(shifts) in SHIFTS


@lru_cache(maxsize=4096)
def geometry(modules: tuple[str, str, str], order: str, turns: str, shifts: str) -> Geometry:
    """The region built from the dealt modules (A, B, C ids) in this arrangement."""
    colours: list[int] = []
    ys: list[int] = []
    module_at: list[int] = []
    zone_of = [0] * NUM_SPACES
    zones: list[tuple[int, ...]] = []
    for pos in range(3):
        cells = MODULES[modules["abc".index(order[pos])]]
        if turns[pos] == "1":
            cells = tuple(cells[(1 - c) * ROWS + (ROWS - 1 - r)] for c in (0, 1)
                          for r in range(ROWS))
        shift = int(shifts[pos])
        for c in (0, 1):
            for r in range(ROWS):
                colours.append(cells[c * ROWS + r])
                ys.append(2 * (r + shift) + c)
                module_at.append(pos)
        for zone in module_zones(cells):
            for cell in zone:
                zone_of[pos * 2 * ROWS + cell] = len(zones)
            zones.append(tuple(pos * 2 * ROWS + cell for cell in zone))
    adjacent: list[tuple[int, ...]] = []
    for s in range(NUM_SPACES):
        col = s // ROWS
        near = []
        for t in range(NUM_SPACES):
            tcol = t // ROWS
            if (tcol == col and abs(ys[t] - ys[s]) == 2) or (
                    abs(tcol - col) == 1 and abs(ys[t] - ys[s]) == 1):
                near.append(t)
        adjacent.append(tuple(near))
    by_colour = tuple(tuple(s for s in range(NUM_SPACES) if colours[s] == c) for c in range(8))
    return Geometry(tuple(colours), tuple(adjacent), tuple(zone_of), tuple(zones), LABELS,
                    tuple(ys), tuple(module_at), by_colour)
