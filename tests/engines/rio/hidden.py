"""Where Río de la Plata hides information (the hook of test_conformance.py).

The table is public. A seat alone knows its unsent trade draft; nobody knows the dice to
come (the generator's future).
"""

from __future__ import annotations

import random

from engines.rio import ENGINE
from engines.rio.state import State


def hide(s: State, seat: int | None, rng: random.Random) -> State | None:
    """A copy of ``s`` changed only in what ``seat`` alone knows (None: nobody)."""
    out = ENGINE.from_dict(ENGINE.to_dict(s))
    if seat is None:
        out.rng = (out.rng + 1 + rng.randrange(1 << 32)) % (1 << 64)
        return out
    draft = out.drafts.get(str(seat))
    if draft is None:
        return None
    others = [x for x in range(-1, out.num_players) if x not in (seat, draft["to"])]
    draft["to"] = rng.choice(others)  # the same draft, meant for someone else
    return out
