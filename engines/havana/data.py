"""Havana's fixed components: the 13 action cards and the 36 buildings.

The rulebook gives the cards but not the buildings' costs; those are a designed set kept in
``buildings.json`` (see ``/work/shared/games/havana.md``) so they can be replaced without
touching code. The file is validated at import: a bad data file fails loudly and early.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Material indices used everywhere in the engine (counts are lists of 5 ints).
MATERIALS: tuple[str, ...] = ("brick", "sandstone", "clay", "glass", "rubble")
BRICK, SANDSTONE, CLAY, GLASS, RUBBLE = range(5)
COLOURS: tuple[int, ...] = (BRICK, SANDSTONE, CLAY, GLASS)
MATERIAL_INDEX: dict[str, int] = {name: i for i, name in enumerate(MATERIALS)}

BAG_START: tuple[int, ...] = (10, 10, 10, 10, 40)  # 80 cubes
TOTAL_CUBES = 80
TOTAL_WORKERS = 15
EXCHANGE_RATE = 5  # 5 pesos for 1 worker, 5 rubble for 1 coloured material


@dataclass(frozen=True, slots=True)
class Card:
    """An action card; its name is the catalogue key ``havana.card.<id>``."""

    id: str
    value: int


_CARD_ROWS = (
    ("siesta", 0), ("refreshment", 1), ("protection", 2), ("debris", 2),
    ("conservation", 3), ("tax_collector", 3), ("worker", 4), ("architect", 4),
    ("peso_thief", 5), ("material_thief", 6), ("black_market", 7), ("pesos", 8), ("mama", 9),
)
CARDS: dict[str, Card] = {row[0]: Card(*row) for row in _CARD_ROWS}
CARD_IDS: tuple[str, ...] = tuple(CARDS)  # deck order: by value, then rulebook order
CARD_ORDER: dict[str, int] = {c: i for i, c in enumerate(CARD_IDS)}


@dataclass(frozen=True, slots=True)
class Building:
    """A building; its name is the catalogue key ``havana.building.<id>``."""

    id: int
    vp: int
    materials: tuple[int, int, int, int, int]  # brick, sandstone, clay, glass, rubble
    pesos: int
    workers: int
    architect: bool

    def cost_dict(self) -> dict[str, int]:
        """The cost in the view's shape: every key present, zeros included."""
        cost = {name: self.materials[i] for i, name in enumerate(MATERIALS)}
        cost["pesos"] = self.pesos
        cost["workers"] = self.workers
        return cost


_COST_KEYS = frozenset((*MATERIALS, "pesos", "workers"))


def _parse_building(raw: Any) -> Building:
    if not isinstance(raw, dict) or set(raw) != {"id", "vp", "cost", "architect"}:
        raise ValueError(f"bad building entry {raw!r}")
    bid, vp, cost, arch = raw["id"], raw["vp"], raw["cost"], raw["architect"]
    if not isinstance(bid, int) or not 1 <= bid <= 36:
        raise ValueError(f"bad building id {bid!r}")
    if not isinstance(vp, int) or not 1 <= vp <= 7:
        raise ValueError(f"building {bid}: VP {vp!r} not in 1..7")
    if not isinstance(cost, dict) or not set(cost) <= _COST_KEYS or not cost:
        raise ValueError(f"building {bid}: unknown cost keys {sorted(set(cost) - _COST_KEYS)}")
    if not all(isinstance(v, int) and v > 0 for v in cost.values()):
        raise ValueError(f"building {bid}: cost amounts must be positive integers")
    if not isinstance(arch, bool):
        raise ValueError(f"building {bid}: architect must be a bool")
    mats = tuple(int(cost.get(m, 0)) for m in MATERIALS)
    return Building(bid, vp,
                    (mats[0], mats[1], mats[2], mats[3], mats[4]),
                    int(cost.get("pesos", 0)), int(cost.get("workers", 0)), arch)


def load_buildings(path: Path) -> dict[int, Building]:
    """Read and validate a buildings file: 36 buildings, unique ids (names are in the
    catalogues, ``havana.building.<id>``)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(raw, list) or len(raw) != 36:
        raise ValueError("the buildings file must list exactly 36 buildings")
    buildings = [_parse_building(item) for item in raw]
    if len({b.id for b in buildings}) != 36:
        raise ValueError("building ids must be unique")
    return {b.id: b for b in sorted(buildings, key=lambda b: b.id)}


BUILDINGS: dict[int, Building] = load_buildings(Path(__file__).with_name("buildings.json"))
LOW_VP = (1, 2, 3)  # setup: at least one row end must be worth 1-3 VP
VP_TO_WIN: dict[int, int] = {2: 25, 3: 20, 4: 15}
