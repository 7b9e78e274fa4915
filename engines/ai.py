"""The simple AI seat: a uniformly random legal action from its own seeded generator.

The generator is seeded from the game's seed, the seat and the move number, so an AI's move
is reproducible and survives restarts without storing anything.
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import Action, Engine, Subset
from engines.rng import Rng


def ai_rng(game_seed: int, seat: int, move_number: int) -> random.Random:
    return random.Random(f"ai:{game_seed}:{seat}:{move_number}")


def random_action(engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> Action:
    """One offered action: a listed one, or a random member of a subset decision (each
    decision equally likely, whatever its size)."""
    actions: list[Action | Subset] = [*engine.legal_actions(state, seat),
                                      *engine.subsets(state, seat)]
    if not actions:
        raise RuntimeError(f"seat {seat} is awaited but has no legal action")
    choice = actions[rng.randrange(len(actions))]
    return choice.sample(Rng(rng.getrandbits(64))) if isinstance(choice, Subset) else choice
