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


def _houses(s: State, conn: set[int]) -> list[int]:
    """Each seat's house VP (``city.house_score`` for every seat, quarters valued once)."""
    mods = {q: city.quarter_modifier(s, q, conn) for q in BOARD.quarters}
    base = BOARD.qvalue["house_base"]
    out = [0] * s.num_players
    for i, bld in enumerate(s.bld):
        if bld == "house" and s.bown[i] >= 0:
            out[s.bown[i]] += max(0, base + mods[BOARD.quarter_of[i]])
    return out


def worth(s: State, seat: int, conn: set[int], houses: list[int]) -> float:
    """The seat's VP now plus the VP its position is likely to bring (module docstring)."""
    p = s.players[seat]
    value = float(p.vp) + houses[seat]
    value += sum(getattr(p, good) * rate for good, rate in GOODS.items())
    value += sum(rules.character_vp(s, c, conn) for c, (owner, _) in s.chars.items()
                 if owner == seat)
    for name, spaces in s.ladders.items():
        if name in s.closed:
            continue
        vps = BOARD.ladders[name].vps(s.num_players)
        value += LADDER_SHARE * sum(vps[k] for k, x in enumerate(spaces)
                                    if x == seat and k < len(vps))
    value += PLACED["prod"] * sum(1 for k, x in enumerate(s.prod)
                                  if x == seat and not s.prod_done[k])
    value += (PLACED["agri"] * s.agri[seat] + PLACED["crafts"] * s.crafts[seat]
              + PLACED["quay"] * s.quay[seat] + PLACED["bid"] * s.bids[seat])
    for cell, bld in enumerate(s.bld):
        if bld == "hut" and s.bown[cell] == seat:
            value += HUT
    for workers in s.cw:
        for x, n, role in workers:
            if x == seat and role == ROLE_ACT:
                value += PLACED["act"] * n
            elif x == seat and role == ROLE_UPGRADE:
                value += PLACED["upgrade"] * n
    return float(value)


def evaluate(s: State, seat: int, ranking: list[list[int]] | None = None) -> float:
    """``seat``'s standing in [0, 1]: once over, 1 for a sole winner, a share for a tie,
    0 otherwise (``ranking`` from the result); else its worth against the best rival's."""
    if ranking is not None:
        first = ranking[0]
        return 1.0 / len(first) if seat in first else 0.0
    conn = city.connected_quarters(s)
    houses = _houses(s, conn)
    mine = worth(s, seat, conn, houses)
    best = max((worth(s, x, conn, houses) for x in range(s.num_players) if x != seat),
               default=mine)
    return max(0.0, min(1.0, 0.5 + (mine - best) / (2 * (abs(mine - best) + 20))))
