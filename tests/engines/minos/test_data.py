"""The designed map and numbers as loaded: the reference's tables, recomputed."""

from __future__ import annotations

from collections import deque

from engines.minos.data import (
    DOTS,
    FISH,
    GUARD_STEPS,
    LEVELS,
    PATHS,
    SEA,
    SHIP_STEPS,
    SITES,
    VALUES,
)

SHIP_MP = {"gad": 13, "cno": 12, "mas": 10, "ost": 6, "tar": 3, "kar": 7, "syr": 2, "car": 5,
           "lep": 5, "cyr": 5, "ale": 8, "tyr": 10, "sal": 7, "kno": 4, "ath": 5, "eph": 6}


def distances(graph: dict[str, tuple[str, ...]], start: str,
              blocked: frozenset[str] = frozenset()) -> dict[str, int]:
    dist = {start: 0}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        if here in SITES and here != start:
            continue  # a port is a dead end for ships
        for there in graph[here]:
            if there not in dist and there not in blocked:
                dist[there] = dist[here] + 1
                todo.append(there)
    return dist


def test_ship_mp_from_the_fish_space_to_every_port() -> None:
    dist = distances(SHIP_STEPS, FISH)
    assert {site: dist[site] for site in SITES} == SHIP_MP


def test_one_ship_in_the_way_costs_at_most_6_mp_and_never_cuts_a_port_off() -> None:
    worst = 0
    for sea in SEA:
        if sea == FISH:
            continue
        dist = distances(SHIP_STEPS, FISH, frozenset({sea}))
        for site, base in SHIP_MP.items():
            if SITES[site].port == sea:
                continue
            assert site in dist, (sea, site)
            worst = max(worst, dist[site] - base)
    assert worst == 6


def test_paths_dots_and_guard_mp() -> None:
    assert len(DOTS) == 50 and len(PATHS) == 11
    for path in PATHS:
        dist = distances(GUARD_STEPS, path.start)
        assert dist[path.end] == len(path.dots) + 1
    islands = [s for s in SITES.values() if s.island]
    assert {s.code for s in islands} == {"kar", "syr", "sal", "kno"}
    assert all(not GUARD_STEPS[s.code] for s in islands)
    assert len(GUARD_STEPS["ost"]) == 3


def test_cost_table_and_values() -> None:
    assert [(lv.bp, lv.wall_bp, lv.talents) for lv in LEVELS] == [
        (1, None, 5), (2, 4, 10), (3, 4, 15), (4, 4, 20)]
    assert VALUES == {"harbour": 1, "dwelling": 1, "trading": 2, "wall": 0}
