"""Real Río engine states for the renderer tests: seeded random play up to a phase."""

from __future__ import annotations

import random
from typing import Any

from engines.rio import ENGINE
from engines.rio.state import State
from tests.engines.rio.playout import pick


def play_until(kind: str, n: int, seed: int) -> State:
    """Random play from ``seed`` until ``kind``: "place" (mid-game placement), "combat" (a
    combat round with groups in the city) or "over"."""
    rng = random.Random(seed)
    s = ENGINE.new_game(n, seed)
    for _ in range(200_000):
        if kind == "place" and s.phase == "place" and s.round >= 9 and s.cur == 1:
            return s
        if (kind == "combat" and s.combat is not None and s.combat.step == "round"
                and s.combat.round >= 2 and len(s.combat.groups) >= 4):
            return s
        if ENGINE.is_over(s):
            if kind == "over":
                return s
            s = ENGINE.new_game(n, seed := seed + 1000)
            continue
        seat = min(ENGINE.active_players(s))
        s = ENGINE.apply_unchecked(s, seat, pick(rng, s, seat))
    raise AssertionError(f"no {kind} state")


def view_at(kind: str, n: int, seed: int, seat: int | None = None) -> dict[str, Any]:
    return ENGINE.view(play_until(kind, n, seed), seat)
