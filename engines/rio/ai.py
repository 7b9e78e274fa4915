"""What Río's AI needs: ``determinize`` and ``evaluate`` (see docs/AI.md).

Río hides nothing but other players' unsent trade drafts and menu cursors (not game
information) and the dice to come, so ``determinize`` only drops those drafts and reseeds.
``evaluate`` compares a seat's worth (VP, goods, houses by quarter value) with its best
rival's.
"""

from __future__ import annotations

from engines.rng import Rng

from . import city
from .data import BOARD
from .state import State


def determinize(s: State, seat: int, rng: Rng) -> State:
    out = s.clone()
    out.rng = rng.next64()
    for key in list(out.drafts):
        if key != str(seat):
            del out.drafts[key]
    return out


def worths(s: State) -> list[float]:
    """Every seat's VP now plus goods (a third each, precious double) and house VP, in one
    pass over the city (the ``easy`` level evaluates thousands of states a move)."""
    conn = city.connected_quarters(s)
    out = [p.vp + (p.silver + p.wood + p.stone + 2 * p.precious) / 3 for p in s.players]
    base = BOARD.qvalue["house_base"]
    mods: dict[int, int] = {}
    for i, bld in enumerate(s.bld):
        owner = s.bown[i]
        if bld == "house" and owner >= 0:
            q = BOARD.quarter_of[i]
            if q not in mods:
                mods[q] = city.quarter_modifier(s, q, conn)
            out[owner] += max(0, base + mods[q])
    return out


def evaluate(s: State, seat: int, ranking: list[list[int]] | None = None) -> float:
    """``seat``'s standing in [0, 1]: once over, 1 for a sole winner, a share for a tie,
    0 otherwise (``ranking`` from the result); else its worth against the best rival's."""
    if ranking is not None:
        first = ranking[0]
        return 1.0 / len(first) if seat in first else 0.0
    every = worths(s)
    mine = every[seat]
    best = max((v for x, v in enumerate(every) if x != seat), default=mine)
    return max(0.0, min(1.0, 0.5 + (mine - best) / (2 * (abs(mine - best) + 20))))
