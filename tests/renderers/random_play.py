"""Seeded random games stopped at a chosen moment: the one loop every game's test states use.

Each game's ``<game>_states`` module keeps its own stopping points and seeds; only the walk
through random legal moves is shared, so a new game's renderer tests get it for free.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

from engines.base import Action, Engine
from engines.rng import Rng

S = TypeVar("S")
Step = Callable[[S, int, Action], S]


def play_until(engine: Engine, num_players: int, seed: int, stop: Callable[[S], bool], *,
               rng_key: str, max_moves: int, step: Step[S] | None = None) -> S | None:
    """Random legal moves from a new game of ``seed`` until ``stop(state)``; None if never.

    The lowest active seat moves first, so a simultaneous step fills up seat by seat and can
    be stopped half-way. ``rng_key`` seeds the move choice (a game's goldens depend on it);
    ``step`` applies a move, the engine's checked ``apply`` unless a faster one is given.
    """
    advance: Step[Any] = step or (lambda s, seat, action: engine.apply(s, seat, action).state)
    rng = random.Random(rng_key)
    s: S = engine.new_game(num_players, seed)
    for _ in range(max_moves):
        if stop(s):
            return s
        if engine.is_over(s):
            return None
        seat = min(engine.active_players(s))
        actions = engine.legal_actions(s, seat) or [  # a subset decision: one sampled member
            sub.sample(Rng(rng.randrange(1 << 62))) for sub in engine.subsets(s, seat)]
        s = advance(s, seat, actions[rng.randrange(len(actions))])
    return None
