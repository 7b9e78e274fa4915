"""What Havana's AI needs from the engine: hidden information resampled, and a position's
worth for one seat.

Hidden from a seat (see ``view``): the other players' hands and discards (only their
counts show; face-up cards are public), their unrevealed picks and cover choices, the order
of the face-down building pile, and the generator's future (cube draws).
"""

from __future__ import annotations

from engines.ai.defaults import deal, fresh_seed, reshuffle, standing
from engines.rng import Rng

from .data import BUILDINGS, CARD_IDS, CARD_ORDER, RUBBLE, VP_TO_WIN
from .rules import buyable_ids, can_build
from .state import Player, State

# Worth of one unit in VP, from the building costs (a 1-VP building costs ~3 pesos,
# ~2 rubble or 1 coloured cube; a worker buys ~1 VP).
PESO, WORKER, COLOURED, RUBBLE_VP = 0.3, 0.8, 0.8, 0.4
HOARD = 6.0  # resources beyond this many VP are worth a third: they must become buildings
SCALE = 3.0  # VP of lead for odds of e:1


def determinize(s: State, seat: int, rng: Rng) -> State:
    out = s.clone()
    for i, p in enumerate(out.players):
        if i != seat:
            _resample_player(p, rng)
    reshuffle(out.pile, rng)
    out.rng = fresh_seed(rng)
    return out


def _resample_player(p: Player, rng: Rng) -> None:
    """Hand, discard and picks redealt from the cards not face up, counts kept."""
    unseen = [c for c in CARD_IDS if c not in p.face_up]
    picks, rest, discard = deal(unseen, (len(p.picks), len(p.hand) - len(p.picks),
                                         len(p.discard)), rng)
    p.picks = picks
    p.hand = sorted(picks + rest, key=CARD_ORDER.__getitem__)
    p.discard = sorted(discard, key=CARD_ORDER.__getitem__)
    if p.cover is not None:
        p.cover = p.face_up[rng.randrange(len(p.face_up))]


def projected(s: State, p: Player, buyable: list[int] | None = None) -> float:
    """VP plus what the player's resources are worth, more if a building is in reach
    (``buyable``: the buildings at the rows' ends, when the caller has them already)."""
    m = p.materials
    raw = (PESO * p.pesos + WORKER * p.workers
           + COLOURED * (m[0] + m[1] + m[2] + m[3]) + RUBBLE_VP * m[RUBBLE])
    worth = min(raw, HOARD) + max(0.0, raw - HOARD) / 3.0
    ids = buyable_ids(s) if buyable is None else buyable
    reach = [BUILDINGS[b].vp for b in ids if can_build(s, p, b)]
    return p.vp + worth + (0.3 * max(reach) if reach else 0.0)


def evaluate(s: State, seat: int) -> float:
    if s.winners is not None:
        return 1.0 / len(s.winners) if seat in s.winners else 0.0
    target = VP_TO_WIN[s.num_players]
    buyable = buyable_ids(s)
    values = [projected(s, p, buyable) for p in s.players]
    # Near the threshold a lead counts more: scale shrinks as the leader closes in.
    closeness = max(p.vp for p in s.players) / target
    return standing(values, seat, SCALE * (1.2 - 0.6 * min(closeness, 1.0)))
