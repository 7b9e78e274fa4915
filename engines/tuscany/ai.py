"""What Tuscany's AI needs from the engine: hidden information resampled, and a position's
worth for one seat.

Hidden from a seat (see ``view``): the other hands (counts show), the domain deck and its
discard (counts show), the income deck, the neutral stack, every player's face-down piles
(counts show) and the generator's future.
"""

from __future__ import annotations

from engines.ai.defaults import deal, fresh_seed, reshuffle, standing
from engines.rng import Rng

from .data import JOKER, TILES, ZONE_POINTS
from .rules import frontier, geo, standing_key
from .state import Player, State

SCALE = 6.0  # projected VP of lead for odds of e:1


def determinize(s: State, seat: int, rng: Rng) -> State:
    out = s.clone()
    others = [i for i in range(out.num_players) if i != seat]
    cards = out.deck + out.discard
    for i in others:
        cards += [c for c in range(8) for _ in range(out.players[i].hand[c])]
    parts = deal(cards, [sum(out.players[i].hand) for i in others]
                 + [len(out.deck), len(out.discard)], rng)
    for i, part in zip(others, parts, strict=False):
        hand = [0] * 8
        for c in part:
            hand[c] += 1
        out.players[i].hand = hand
    out.deck, out.discard = parts[-2], parts[-1]
    for p in out.players:
        p.piles = deal([t for pile in p.piles for t in pile], [len(x) for x in p.piles], rng)
    reshuffle(out.neutral, rng)
    reshuffle(out.income, rng)
    out.rng = fresh_seed(rng)
    return out


def _fits(tile: int, open_colours: set[int]) -> bool:
    """Whether a free space by the region has the tile's colour (a joker: any)."""
    return bool(open_colours) if tile == JOKER else TILES[tile].colour in open_colours


def projected(s: State, p: Player) -> float:
    """Red VP now, green VP times the scorings still to come, half the worth of zones
    under way, and what stored tiles and resources may still become."""
    if s.phase == "over":
        return float(p.red)
    scorings = 4 - s.round
    g = geo(p)
    partial = 0.0
    for zone in g.zones:
        filled = sum(1 for x in zone if p.board[x] is not None)
        if 0 < filled < len(zone):
            partial += 0.5 * ZONE_POINTS[len(zone)] * (filled / len(zone)) ** 1.5
    # a stored tile with no free space of its colour by the region is worth less: taking
    # such tiles (and boxing one for another) kept an easy seat busy while it placed one
    # tile in a game (3 seats, seed 1008)
    if any(t is not None for t in p.storage):
        open_colours = {g.colours[x] for x in frontier(p, g)}
        stored = sum(1.0 if _fits(t, open_colours) else 0.4
                     for t in p.storage if t is not None)
    else:
        stored = 0.0
    jokers = sum(1 for t in p.storage if t == JOKER)
    resources = (0.8 * stored + 0.4 * jokers + 0.25 * p.workers + 0.3 * p.marbles
                 + 0.15 * min(sum(p.hand), 10))
    return p.red + scorings * (p.green + partial) + resources * (0.5 + 0.5 * scorings)


def evaluate(s: State, seat: int) -> float:
    if s.phase == "over":
        best = max(p.red for p in s.players)
        top = [i for i, p in enumerate(s.players) if p.red == best]
        if len(top) > 1:  # the engine's tie-breaks decide; evaluate follows the ranking
            key = max(standing_key(s.players[i]) for i in top)
            top = [i for i in top if standing_key(s.players[i]) == key]
        return 1.0 / len(top) if seat in top else 0.0
    return standing([projected(s, p) for p in s.players], seat, SCALE)
