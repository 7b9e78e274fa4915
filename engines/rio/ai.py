"""What Río's AI needs: ``determinize`` and ``evaluate`` (see docs/AI.md).

Río hides nothing but other players' unsent trade drafts and menu cursors (not game
information) and the dice to come, so ``determinize`` only drops those drafts and reseeds.

``evaluate`` compares a seat's *worth* with its best rival's. Worth is what the end
scoring would give now (VP, silver / 3, characters, houses by quarter value) plus what the
seat has laid down and will most likely collect: ladder spaces of buildings not yet
completed (their VP, discounted), workers placed this round on production, agriculture,
crafts, the quay, turn-order bids or city cells (their effects come in phase B), huts that
may become houses, and goods at what they are worth in buildings. Without that, a move
that pays now for VP later (every placement) would look like a loss to the ``easy`` level,
which then ends its turns at once and scores nothing.
"""

from __future__ import annotations

from engines.rng import Rng

from . import city, rules
from .data import BOARD
from .state import ROLE_ACT, ROLE_UPGRADE, State

LADDER_SHARE = 0.7  # a space's VP, discounted: the building may not be completed in time
GOODS = {"silver": 1 / 3, "wood": 0.5, "stone": 0.5, "precious": 1.0}
PLACED = {"prod": 1.0, "agri": 0.8, "crafts": 0.8, "quay": 0.6, "bid": 0.3,
          "act": 0.8, "upgrade": 1.5}
HUT = 0.5


def determinize(s: State, seat: int, rng: Rng) -> State:
    out = s.clone()
    out.rng = rng.next64()
    for key in list(out.drafts):
        if key != str(seat):
            del out.drafts[key]
    return out


def worths(s: State) -> list[float]:
    """Every seat's VP now plus the VP its position is likely to bring (module docstring),
    in one pass over the city (the ``easy`` level evaluates thousands of states a move)."""
    n = s.num_players
    conn = city.connected_quarters(s)
    out = [float(p.vp) + sum(getattr(p, good) * rate for good, rate in GOODS.items())
           for p in s.players]
    for c, (owner, _) in s.chars.items():
        out[owner] += rules.character_vp(s, c, conn)
    base = BOARD.qvalue["house_base"]
    mods: dict[int, int] = {}
    for i, bld in enumerate(s.bld):
        owner = s.bown[i]
        if bld == "house" and owner >= 0:
            q = BOARD.quarter_of[i]
            if q not in mods:
                mods[q] = city.quarter_modifier(s, q, conn)
            out[owner] += max(0, base + mods[q])
        elif bld == "hut" and owner >= 0:
            out[owner] += HUT
    for name, spaces in s.ladders.items():
        if name not in s.closed:
            vps = BOARD.ladders[name].vps(n)
            for k, x in enumerate(spaces):
                if x >= 0 and k < len(vps):
                    out[x] += LADDER_SHARE * vps[k]
    for k, x in enumerate(s.prod):
        if x >= 0 and not s.prod_done[k]:
            out[x] += PLACED["prod"]
    for x in range(n):
        out[x] += (PLACED["agri"] * s.agri[x] + PLACED["crafts"] * s.crafts[x]
                   + PLACED["quay"] * s.quay[x] + PLACED["bid"] * s.bids[x])
    for workers in s.cw:
        for x, count, role in workers:
            if role == ROLE_ACT:
                out[x] += PLACED["act"] * count
            elif role == ROLE_UPGRADE:
                out[x] += PLACED["upgrade"] * count
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
