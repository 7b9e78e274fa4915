"""What Minos's AI needs beyond the engine: a position's worth for one seat.

Nothing in Minos is hidden (the engine's ``determinize`` only reseeds the dice).
"""

from __future__ import annotations

from .data import TRACK
from .rules import alive, held_sites
from .state import State, pieces_on_board

# A conflict's attacker loses ties and its piece if beaten: a seat whose last piece is in a
# conflict is out if it loses. Until the dice are thrown, count the piece at risk this much.
ATTACK_RISK, DEFENCE_RISK = 0.55, 0.45
SITE = 0.75  # a held site: where the next buildings (value) can go


def strength(s: State, i: int) -> float:
    p = s.players[i]
    ships, guards = pieces_on_board(s, i)
    return (p.value + p.talents / 20 + (ships + guards) / 2 + p.rings / 4
            + SITE * len(held_sites(s, i)))


def evaluate(s: State, seat: int) -> float:
    """The value track decides; talents count a little (they buy buildings and break ties),
    pieces and held sites a little (they hold colonies, where value is built). A seat whose
    last piece is in a conflict keeps only its chance of surviving it (the AI otherwise
    attacks with its only ship, and is out when it loses). 0.5 = level with the best rival."""
    if s.phase == "over":
        winners = s.winners or []
        return 1.0 / len(winners) if seat in winners else 0.0
    if s.players[seat].out:
        return 0.0
    mine = strength(s, seat)
    rivals = [strength(s, i) for i in alive(s) if i != seat]
    best = max(rivals, default=0.0)
    score = min(1.0, max(0.0, 0.5 + 0.5 * (mine - best) / (mine + best + TRACK / 10)))
    c = s.combat
    if c is not None and seat in (c.attacker, c.defender) and sum(pieces_on_board(s, seat)) <= 1:
        score *= 1.0 - (ATTACK_RISK if seat == c.attacker else DEFENCE_RISK)
    return score
