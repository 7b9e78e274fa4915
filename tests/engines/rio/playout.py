"""Seeded random playouts for Río (used by the tests and the soak)."""

from __future__ import annotations

import random

from engines.base import Action
from engines.rio import ENGINE
from engines.rio.state import State

AVOID = frozenset({"back", "trade", "unstage", "hold", "tnew"})


def pick(rng: random.Random, s: State, seat: int) -> Action:
    """A random offered action, biased towards progress so games end in bounded steps."""
    legal = ENGINE.legal_actions(s, seat)
    subsets = ENGINE.subsets(s, seat)
    if subsets and (not legal or rng.random() < 0.9):
        return subsets[0].action(o for o in subsets[0].options if rng.random() < 0.5)
    useful = [a for a in legal if a.kind not in AVOID] or legal
    ending = [a for a in useful if a.kind in ("done", "end", "stop")]
    rest = [a for a in useful if a not in ending]
    if ending and (not rest or rng.random() < 0.04):
        return ending[0]
    return rng.choice(rest)


def playout(n: int, seed: int, *, checked: bool = False, max_steps: int = 60000,
            options: dict[str, object] | None = None) -> tuple[State, int]:
    rng = random.Random(seed)
    s = ENGINE.new_game(n, seed, options)
    steps = 0
    while not ENGINE.is_over(s):
        steps += 1
        assert steps < max_steps, "playout did not end"
        seat = min(ENGINE.active_players(s))
        action = pick(rng, s, seat)
        s = ENGINE.apply(s, seat, action).state if checked else ENGINE.apply_unchecked(
            s, seat, action)
    return s, steps
