"""Where Havana hides information (the hook of tests/engines/test_conformance.py).

A seat alone knows its hand against its discard, its unrevealed picks and the card it
chose to cover; nobody knows the building pile's order or the generator's future.
"""

from __future__ import annotations

import random

from engines.havana import ENGINE
from engines.havana.state import State


def hide(s: State, seat: int | None, rng: random.Random) -> State | None:
    """A copy of ``s`` changed only in what ``seat`` alone knows (None: nobody)."""
    out = ENGINE.from_dict(ENGINE.to_dict(s))
    if seat is None:
        out.rng = (out.rng + 1 + rng.randrange(1 << 32)) % (1 << 64)
        if len(out.pile) > 1:
            out.pile.reverse()
        return out
    p = out.players[seat]
    free = [c for c in p.hand if c not in p.picks]
    if p.picks and free:  # another card set aside, face down
        p.picks[rng.randrange(len(p.picks))] = rng.choice(free)
        return out
    if p.cover is not None:  # the other face-up card covered
        p.cover = next(c for c in p.face_up if c != p.cover)
        return out
    if free and p.discard:  # which cards are in hand and which discarded
        a, b = rng.choice(free), rng.choice(p.discard)
        p.hand[p.hand.index(a)], p.discard[p.discard.index(b)] = b, a
        return out
    return None
