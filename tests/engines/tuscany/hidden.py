"""Where The Castles of Tuscany hides information (the hook of test_conformance.py).

A seat alone knows the colours of its hand; nobody knows the order of the domain deck, the
income deck, the neutral stack or the face-down piles, nor the generator's future.
"""

from __future__ import annotations

import random

from engines.tuscany import ENGINE
from engines.tuscany.state import State


def hide(s: State, seat: int | None, rng: random.Random) -> State | None:
    """A copy of ``s`` changed only in what ``seat`` alone knows (None: nobody)."""
    out = ENGINE.from_dict(ENGINE.to_dict(s))
    if seat is None:
        out.rng = (out.rng + 1 + rng.randrange(1 << 32)) % (1 << 64)
        for items in (out.deck, out.income, out.neutral, *(pile for p in out.players
                                                          for pile in p.piles)):
            rng.shuffle(items)  # type: ignore[arg-type]
        return out
    hand = out.players[seat].hand
    # One card of the hand swapped with a card of another colour from the hidden deck.
    for colour in rng.sample(range(8), 8):
        if hand[colour]:
            other = next((i for i, c in enumerate(out.deck) if c != colour), None)
            if other is not None:
                hand[colour] -= 1
                hand[out.deck[other]] += 1
                out.deck[other] = colour
                return out
    return None
