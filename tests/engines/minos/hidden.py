"""Where Minos hides information (the hook of test_conformance.py): nowhere but the future.

Every throw, talent, ring and stock is public; no seat knows anything the others do not.
Nobody knows the generator's future, so only that changes.
"""

from __future__ import annotations

import random

from engines.minos import ENGINE
from engines.minos.state import State


def hide(s: State, seat: int | None, rng: random.Random) -> State | None:
    """A copy of ``s`` changed only in what ``seat`` alone knows (None: nobody)."""
    if seat is not None:
        return None  # a seat alone knows nothing in Minos
    out = ENGINE.from_dict(ENGINE.to_dict(s))
    out.rng = (out.rng + 1 + rng.randrange(1 << 32)) % (1 << 64)
    return out
