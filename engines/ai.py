"""The simple AI seat: a uniformly random legal action from its own seeded generator.

The generator is seeded from the game's seed, the seat and the move number, so an AI's move
is reproducible and survives restarts without storing anything.
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import Action, Engine


def ai_rng(game_seed: int, seat: int, move_number: int) -> random.Random:
    return random.Random(f"ai:{game_seed}:{seat}:{move_number}")


def random_action(engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> Action:
    """One of the offered actions or subset decisions, each equally likely; a subset
    decision then takes a random count of its options, chosen at random."""
    actions = engine.legal_actions(state, seat)
    # engines not yet on contract v2 have no subset decisions
    subsets = engine.subsets(state, seat) if hasattr(engine, "subsets") else []
    if not actions and not subsets:
        raise RuntimeError(f"seat {seat} is awaited but has no legal action")
    k = rng.randrange(len(actions) + len(subsets))
    if k < len(actions):
        return actions[k]
    subset = subsets[k - len(actions)]
    size = rng.randint(subset.min_values, subset.most)
    return subset.action(rng.sample(subset.options, size))
