"""Where The Castles of Tuscany hides information (the hook of test_conformance.py).

A seat alone knows the colours of its hand; nobody knows the order of the domain deck, the
income deck, the neutral stack or the face-down piles, nor the generator's future.
"""

from __future__ import annotations

import random

from engines.base import InvalidState
from engines.tuscany import ENGINE
from engines.tuscany.state import State


def hide(s: State, seat: int | None, rng: random.Random) -> State | None:
    """A copy of ``s`` changed only in what ``seat`` alone knows (None: nobody)."""
    if seat is None:
        out = ENGINE.from_dict(ENGINE.to_dict(s))
        out.rng = (out.rng + 1 + rng.randrange(1 << 32)) % (1 << 64)
        for items in (out.deck, out.income, out.neutral, *(pile for p in out.players
                                                          for pile in p.piles)):
            rng.shuffle(items)  # type: ignore[arg-type]
        return out
    # One card of the hand swapped with a card of another colour from the hidden deck, where
    # the seat's public choices allow it: a placement begun shows that the seat holds a card
    # to pay with, so a hand without one is not a state the game can reach (from_dict
    # refuses it; `make soak` met such states in 12 of Tuscany's 120 soak games).
    for colour in rng.sample(range(8), 8):
        if not s.players[seat].hand[colour]:
            continue
        tried = {colour}  # each other colour once, at its first place in the deck
        for other, card in enumerate(s.deck):
            if card in tried:
                continue
            tried.add(card)
            out = ENGINE.from_dict(ENGINE.to_dict(s))
            hand = out.players[seat].hand
            hand[colour] -= 1
            hand[out.deck[other]] += 1
            out.deck[other] = colour
            try:
                return ENGINE.from_dict(ENGINE.to_dict(out))
            except InvalidState:
                continue
    return None
