"""What Minos's AI needs beyond the engine: a position's worth for one seat.

Nothing in Minos is hidden (the engine's ``determinize`` only reseeds the dice).

A seat's strength is counted in value-track points (V): the V it holds now, plus what its
position can still turn into V before the game ends — the buildings its colonies can still
take (a wall is worth nothing by itself but doubles what is built after it), the free sites
its ships and spare guards can reach — plus a little for what buys or defends those
(talents, pieces, rings). Talents and rings are worth what they can still do: a seat with
hundreds of talents gains nothing from more, and neither does one with a dozen rings.
"""

from __future__ import annotations

import math
from collections import deque
from functools import cache

from .data import (
    GUARD_STEPS,
    MAX_BUILDINGS,
    SHIP_STEPS,
    SITES,
    TRACK,
    TYPES,
    VALUES,
    WALL,
)
from .rules import alive
from .state import State, colony_value, pieces_on_board

# A conflict's attacker loses ties and its piece if beaten: a seat whose last piece is in a
# conflict is out if it loses. Until the dice are thrown, count the piece at risk this much.
ATTACK_RISK, DEFENCE_RISK = 0.55, 0.45
# A building still to come is worth its V times BUILD_DISCOUNT per building before it (BP
# and talents must be found for each, one level dearer each time). At 0.6, a wall second
# (T, W: the next two count double) is worth more than a second trading house, as it
# should be (T,W,T,T = 10 against T,T,W,T = 8); at 1 the wall would gain nothing now.
BUILD_DISCOUNT = 0.6
# A free site d MP away is worth exp(-d / REACH_MP) of a held empty one: a Seagull gives
# 5 MP, and most turns use one or two. Each step towards a free port then counts.
REACH_MP = 8.0
# Talents count 1/20 V each at first (a level-1 building costs 5, a level-4 one 20), then
# ever less, to at most TALENT_CAP V: with hundreds of talents more buy nothing (the
# old linear talents/20 made 1,438 talents worth 72 V, more than the whole track, and
# every seat hoarded: easy vs easy, 3 seats, seed 1000, 1,700 talents at V 22).
TALENT_CAP, TALENT_SCALE = 3.0, 60.0
TIE_BREAK = 1e-4  # per talent, so that equal V still prefers more talents (the tie rule)
# Rings pay the combat re-throws (at most 2 a conflict): the first few count 1/4 V each as
# before, the rest almost nothing (seats held 12 to 19 rings each and used a handful).
RING_VALUE, USEFUL_RINGS, SPARE_RING = 0.25, 4, 0.02
PIECE_VALUE = 0.5  # each ship or guard on the board: defence and reach


def _counted(types: tuple[str, ...], kind: str) -> int:
    """The V a building of ``kind`` adds on top of ``types`` (double after the wall)."""
    return VALUES[kind] * (2 if WALL in types else 1)


def _next_types(types: tuple[str, ...]) -> list[str]:
    """Building types the rules allow next on a site holding ``types`` (supply aside)."""
    if len(types) >= MAX_BUILDINGS:
        return []
    if not types:
        return [t for t in TYPES if t != WALL]
    if WALL in types:
        return [t for t in TYPES if t != WALL]
    if len(types) == MAX_BUILDINGS - 1:
        return [WALL]
    return list(TYPES)


@cache
def prospect(types: tuple[str, ...], builds: int = MAX_BUILDINGS) -> float:
    """The V a colony holding ``types`` can still gain from at most ``builds`` buildings,
    each discounted by BUILD_DISCOUNT per building placed before it (best order)."""
    if builds <= 0:
        return 0.0
    return max((BUILD_DISCOUNT * (_counted(types, t) + prospect((*types, t), builds - 1))
                for t in _next_types(types)), default=0.0)


@cache
def _prospects(builds: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """:func:`prospect` by number of buildings, for colonies without the wall and with it:
    all it depends on, so a colony's is looked up without hashing its types."""
    plain = tuple(prospect((TYPES[0],) * n, builds) for n in range(MAX_BUILDINGS + 1))
    walled = tuple(prospect((WALL,) + (TYPES[0],) * (n - 1), builds) if n else 0.0
                   for n in range(MAX_BUILDINGS + 1))
    return plain, walled


def _bfs(graph: dict[str, tuple[str, ...]], start: str) -> dict[str, int]:
    dist = {start: 0}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for there in graph[here]:
            if there not in dist:
                dist[there] = dist[here] + 1
                todo.append(there)
    return dist


# MP from any place to each site on an empty board: ships by sea (entering the port
# included), guards along the paths (island sites have none).
SHIP_MP: dict[str, dict[str, int]] = {site: _bfs(SHIP_STEPS, site) for site in SITES}
GUARD_MP: dict[str, dict[str, int]] = {site: _bfs(GUARD_STEPS, site) for site in SITES}


def builds_left(s: State) -> int:
    """Buildings one colony can still take before the round limit (one per turn)."""
    if not s.max_rounds:
        return MAX_BUILDINGS
    return max(1, min(MAX_BUILDINGS, s.max_rounds - s.round + 1))


@cache
def _decay(kind: str, place: str, builds: int) -> tuple[tuple[str, float], ...]:
    """(site, share of its worth) for each site a ``kind`` standing on ``place`` can reach:
    exp(-MP / reach), the reach shrinking with the buildings (turns) left."""
    table = SHIP_MP if kind == "ship" else GUARD_MP
    reach = REACH_MP * builds / MAX_BUILDINGS
    return tuple((site, math.exp(-table[site][place] / reach))
                 for site in SITES if place in table[site])


Pieces = list[list[tuple[str, str]]]


def _board(s: State) -> tuple[dict[str, int], list[int], Pieces]:
    """One pass over the pieces: each held site's holder, and by seat the pieces on the
    board and the pieces free to go for a free site, as (kind, place): ships at sea or in a
    port whose site their guards hold, guards on the paths, and all but one guard of a
    site. The last piece of a held site stays where it is."""
    owners: dict[str, int] = {}
    count = [0] * s.num_players
    mobile: Pieces = [[] for _ in range(s.num_players)]
    guards = s.guards
    for place, seats in s.ships.items():
        site = place in SITES
        if site:
            owners[place] = seats[0]
        for seat in seats:
            count[seat] += 1
            if not site or place in guards:
                mobile[seat].append(("ship", place))
    for place, (seat, n) in guards.items():
        count[seat] += n
        if place in SITES:
            owners[place] = seat
            n -= 1
        if n:
            mobile[seat].extend([("guard", place)] * n)
    return owners, count, mobile


def expansion(pieces: list[tuple[str, str]], free: dict[str, float], builds: int) -> float:
    """The free sites (no holder; ``free``: each one's worth, V and buildings to come) that
    mobile ``pieces`` can reach, fading with the MP to each; one site per piece, best
    first."""
    if not pieces or not free:
        return 0.0
    if len(pieces) == 1:  # the common case: the best site in reach, no sort
        kind, place = pieces[0]
        best = 0.0
        for site, f in _decay(kind, place, builds):
            if site in free:
                value = free[site] * f
                if value > best:
                    best = value
        return best
    offers = [(free[site] * f, n, site) for n, (kind, place) in enumerate(pieces)
              for site, f in _decay(kind, place, builds) if site in free]
    offers.sort(reverse=True)
    used_pieces: set[int] = set()
    used_sites: set[str] = set()
    total = 0.0
    for value, n, site in offers:
        if n not in used_pieces and site not in used_sites:
            used_pieces.add(n)
            used_sites.add(site)
            total += value
    return total


@cache
def talents_worth(talents: int, builds: int = MAX_BUILDINGS) -> float:
    """Concave: the first talents buy buildings, hundreds more buy nothing; and in the
    last rounds, with fewer buildings still to buy (``builds``), less."""
    buying = TALENT_CAP * (1.0 - math.exp(-talents / TALENT_SCALE))
    return buying * builds / MAX_BUILDINGS + TIE_BREAK * talents


@cache
def rings_worth(rings: int) -> float:
    """A few rings pay a conflict's re-throws; a hoard pays no more."""
    return RING_VALUE * min(rings, USEFUL_RINGS) + SPARE_RING * max(0, rings - USEFUL_RINGS)


def strengths(s: State) -> dict[int, float]:
    """Each seat still in the game's strength, in V: its track, the buildings its colonies
    can still take, the free sites it can reach, and what its talents, rings and pieces are
    still worth."""
    builds = builds_left(s)
    plain, walled = _prospects(builds)
    players = s.players
    score = {i: 0.0 for i in alive(s)}
    owners, count, mobile = _board(s)
    buildings = s.buildings
    for site, owner in owners.items():
        if owner in score:
            types = buildings.get(site, ())
            score[owner] += (walled if WALL in types else plain)[len(types)]
    free = {}
    for site in SITES:
        if site not in owners:
            types = buildings.get(site, ())
            free[site] = colony_value(types) + (walled if WALL in types else plain)[len(types)]
    for i in score:
        p = players[i]
        score[i] += (p.value + expansion(mobile[i], free, builds)
                     + talents_worth(p.talents, builds) + rings_worth(p.rings)
                     + PIECE_VALUE * count[i])
    return score


def evaluate(s: State, seat: int) -> float:
    """The value track decides; what the position can still add to it counts too
    (:func:`strengths`). A seat whose last piece is in a conflict keeps only its chance of
    surviving it (the AI otherwise attacks with its only ship, and is out when it loses).
    0.5 = level with the best rival."""
    if s.phase == "over":
        winners = s.winners or []
        return 1.0 / len(winners) if seat in winners else 0.0
    if s.players[seat].out:
        return 0.0
    score_of = strengths(s)
    mine = score_of[seat]
    others = [v for i, v in score_of.items() if i != seat]
    best = max(others) if others else 0.0
    score = min(1.0, max(0.0, 0.5 + 0.5 * (mine - best) / (mine + best + TRACK / 10)))
    c = s.combat
    if c is not None and seat in (c.attacker, c.defender) and sum(pieces_on_board(s, seat)) <= 1:
        score *= 1.0 - (ATTACK_RISK if seat == c.attacker else DEFENCE_RISK)
    return score
