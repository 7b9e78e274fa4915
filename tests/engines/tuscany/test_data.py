"""The data files and the region geometry (reference "Region board", "Cards and tiles")."""

from __future__ import annotations

from engines.tuscany.board import ORDERS, SHIFTS, TURNS, geometry
from engines.tuscany.data import (
    BONUSES,
    DOMAIN_COUNTS,
    INCOME_COUNTS,
    MODULE_GROUPS,
    MODULES,
    SPACES_PER_COLOUR,
    TILES,
    module_zones,
)


def test_module_colour_counts_and_zone_sizes() -> None:
    want = {"A": [1, 1, 1, 3, 1, 2, 0, 1], "B": [1, 1, 0, 0, 2, 3, 3, 0],
            "C": [1, 1, 1, 2, 1, 0, 1, 3]}
    for mid, cells in MODULES.items():
        assert [cells.count(c) for c in range(8)] == want[mid[0]], mid
        assert max(len(z) for z in module_zones(cells)) <= 3, mid


def test_card_totals() -> None:
    assert sum(DOMAIN_COUNTS) == 122 and sum(INCOME_COUNTS.values()) == 27
    assert BONUSES[3] == (4, 2) and BONUSES[2] == (2, 1)


def test_tiles_22_per_player_and_32_neutral() -> None:
    for seat in range(4):
        own = [t for t in TILES if t.owner == seat]
        assert len(own) == 22
        assert [sum(1 for t in own if t.colour == c) for c in range(8)] == [
            2, 2, 1, 4, 3, 4, 3, 3]
    assert sum(1 for t in TILES if t.owner == -1) == 32
    assert SPACES_PER_COLOUR == (3, 3, 2, 5, 4, 5, 4, 4)


def test_every_arrangement_is_a_connected_30_space_region_with_zones_inside_modules() -> None:
    mods = (MODULE_GROUPS["A"][0], MODULE_GROUPS["B"][1], MODULE_GROUPS["C"][2])
    for order in ORDERS:
        for turns in TURNS:
            for shifts in SHIFTS:
                g = geometry(mods, order, turns, shifts)
                assert [g.colours.count(c) for c in range(8)] == list(SPACES_PER_COLOUR)
                for s, near in enumerate(g.adjacent):
                    assert len(near) <= 6
                    assert all(s in g.adjacent[t] for t in near)
                for zone in g.zones:
                    assert len({g.module_at[s] for s in zone}) == 1 and len(zone) <= 3
                seen, todo = {0}, [0]
                while todo:
                    for t in g.adjacent[todo.pop()]:
                        if t not in seen:
                            seen.add(t)
                            todo.append(t)
                assert len(seen) == 30


def test_seam_adjacency_follows_the_shift() -> None:
    flat = geometry(("A1", "B1", "C1"), "abc", "000", "000")
    # b1 (right column of A, half a hex down) touches c1 and c2 of module B.
    assert {5 + 0, 5 + 1} & set(flat.adjacent[10]) == {5}
    assert set(flat.adjacent[5]) >= {10, 11}
    shifted = geometry(("A1", "B1", "C1"), "abc", "000", "010")
    # B one hex lower: b1 now touches only c1 of B (which is beside b1/b2).
    assert 10 in shifted.adjacent[5] and 11 not in shifted.adjacent[5]
    assert 10 in shifted.adjacent[6]


def test_turning_a_module_rotates_its_cells() -> None:
    g = geometry(("A1", "B1", "C1"), "abc", "100", "000")
    a1 = MODULES["A1"]
    assert g.colours[0] == a1[1 * 5 + 4]  # top-left = the unturned bottom-right
    assert g.colours[9] == a1[0]
