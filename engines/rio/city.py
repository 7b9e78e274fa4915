"""Questions about the city map of a state: legal cells, roads, walls, quarter values.

Pure functions over :class:`State`; the rules and the menus both ask them, so a cell the
menu offers is exactly a cell the rules accept.
"""

from __future__ import annotations

import functools

from .data import BOARD
from .state import ROLE_ACT, ROLE_STAY, ROLE_UPGRADE, State

B = BOARD


def workers_on(s: State, cell: int, seat: int | None = None, role: int | None = None) -> int:
    here = s.cw[cell]
    if not here:  # most cells, asked at every placement menu: no sum to set up
        return 0
    return sum(w[1] for w in here
               if (seat is None or w[0] == seat) and (role is None or w[2] == role))


def colours_on(s: State, cell: int) -> set[int]:
    return {w[0] for w in s.cw[cell]}


def add_workers(s: State, cell: int, seat: int, n: int, role: int) -> None:
    for w in s.cw[cell]:
        if w[0] == seat and w[2] == role:
            w[1] += n
            return
    s.cw[cell].append([seat, n, role])


def take_workers(s: State, cell: int, seat: int, n: int, role: int) -> None:
    for w in s.cw[cell]:
        if w[0] == seat and w[2] == role:
            w[1] -= n
            if w[1] <= 0:
                s.cw[cell].remove(w)
            return
    raise AssertionError("no such workers")  # pragma: no cover - rules check first


def own_dwellings(s: State, seat: int) -> list[int]:
    return [i for i in range(B.ncells) if s.bown[i] == seat]


def has_house_near(s: State, cell: int, seat: int) -> bool:
    """An own house 8-adjacent to ``cell`` (activation needs a house, not a hut)."""
    return any(s.bld[j] == "house" and s.bown[j] == seat for j in B.nb8[cell])


def reachable(s: State, seat: int) -> set[int]:
    """Cells where ``seat`` may put workers: the start zone, cells 8-adjacent to his
    huts/houses, and his own hut/house cells (§1.5). Never reserved or major cells."""
    cells = set(B.start_zone)
    for i in own_dwellings(s, seat):
        cells.add(i)
        cells.update(B.nb8[i])
    return {i for i in cells if i not in B.reserved and s.bld[i] not in ("palace", "cathedral")}


_VERTICES = {e: B.edge_vertices(e) for e in B.road_edges}  # the board's, parsed once


def _road_graph(roads: tuple[str, ...]) -> dict[tuple[int, int], list[tuple[int, int]]]:
    graph: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for e in roads:
        a, b = _VERTICES.get(e) or B.edge_vertices(e)
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, []).append(a)
    return graph


def connected_quarters(s: State) -> set[int]:
    """Quarters whose centre is joined to the Plaza boundary by roads (§1.7), as a set of
    the caller's own. Every evaluation asks and the roads change a few times a game, so
    the answer is kept per set of roads."""
    return set(_connected(tuple(s.roads)))


@functools.lru_cache(maxsize=1024)
def _connected(roads: tuple[str, ...]) -> frozenset[int]:
    """One search from the Plaza boundary over the roads, not one per quarter."""
    graph = _road_graph(roads)
    reached = set(B.plaza_vertices)
    todo = [v for v in B.plaza_vertices if v in graph]
    while todo:
        for w in graph[todo.pop()]:
            if w not in reached:
                reached.add(w)
                todo.append(w)
    return frozenset(q for q, centre in B.centres.items() if centre in reached)


def activation_limit(s: State, cell: int, connected: set[int] | None = None) -> int:
    conn = connected_quarters(s) if connected is None else connected
    return 2 if B.quarter_of[cell] in conn else 1


def legal_roads(s: State) -> list[str]:
    """Internal edges (not Plaza-inner, not yet roads) sharing a vertex with the Plaza
    boundary, a road, or a quarter centre (§2.3)."""
    have = set(s.roads)
    anchors = set(B.plaza_vertices) | set(B.centres.values())
    for e in s.roads:
        anchors.update(B.edge_vertices(e))
    return [e for e in B.road_edges if e not in have
            and any(v in anchors for v in B.edge_vertices(e))]


def walled(s: State) -> set[str]:
    return set(B.prebuilt_walls) | set(s.walls)


def free_wall_edges(s: State) -> list[str]:
    w = walled(s)
    return [e for e in B.perimeter if e not in w]


def open_entries(s: State) -> list[str]:
    return free_wall_edges(s)


def closed_quarters(s: State) -> list[int]:
    w = walled(s)
    return [q for q, edges in B.quarter_perimeter.items() if edges and set(edges) <= w]


def surroundings(s: State, cell: int) -> int:
    """For a Square: 8-adjacent minor buildings plus walls on the cell's own edges."""
    w = walled(s)
    return (sum(1 for j in B.nb8[cell] if s.bld[j] in B.minor)
            + sum(1 for e in B.cell_walls(cell) if e in w))


def count_type(s: State, types: tuple[str, ...] | frozenset[str]) -> int:
    return sum(1 for b in s.bld if b in types)


def in_quarter(s: State, q: int, kind: str) -> int:
    return sum(1 for i in B.quarter_cells.get(q, ()) if s.bld[i] == kind)


def quarter_modifier(s: State, q: int, connected: set[int] | None = None) -> int:
    conn = connected_quarters(s) if connected is None else connected
    present = [s.bld[i] for i in B.quarter_cells[q]]
    prod = sum(1 for b in present if b in B.production_buildings)
    value = -(prod - 1) if prod >= 2 else 0
    kinds = set(present)
    for kind in ("garden", "monument", "church", "barracks", "cathedral", "palace"):
        if kind in kinds:
            value += B.qvalue[kind]
    if q in conn:
        value += B.qvalue["road"]
    return value


def house_score(s: State, seat: int) -> int:
    conn = connected_quarters(s)
    mods = {q: quarter_modifier(s, q, conn) for q in B.quarters}
    return sum(max(0, B.qvalue["house_base"] + mods[B.quarter_of[i]])
               for i in range(B.ncells) if s.bld[i] == "house" and s.bown[i] == seat)


def stay_workers(s: State, seat: int) -> list[int]:
    return [i for i in range(B.ncells) if workers_on(s, i, seat, ROLE_STAY)]


__all__ = ["ROLE_ACT", "ROLE_STAY", "ROLE_UPGRADE"]
