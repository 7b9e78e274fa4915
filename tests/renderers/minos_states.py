"""Real Minos states for the renderer tests: seeded games of the playout policy stopped at a
chosen moment (the start, a rich middle game, a conflict, the end).

The golden fixtures are built from these (``regenerate --fixtures``) and saved as JSON, so a
golden does not move when the engine's move order changes; the smoke tests draw them live.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engines.minos import ENGINE
from engines.minos.state import State
from engines.rng import Rng
from tests.engines.minos.test_playout import choose

Stop = Callable[[State], bool]
MAX_MOVES = 20_000


def play_until(num_players: int, seed: int, stop: Stop) -> State | None:
    """A game of ``seed`` stopped where ``stop`` first holds; None if never."""
    s = ENGINE.new_game(num_players, seed)
    rng, bits = random.Random(f"render:minos:{num_players}:{seed}"), Rng(seed)
    for _ in range(MAX_MOVES):
        if stop(s):
            return s
        if ENGINE.is_over(s):
            return None
        (seat,) = ENGINE.active_players(s)
        s = ENGINE.apply(s, seat, choose(s, seat, rng, bits)).state
    return None


def start(s: State) -> bool:
    return s.round == 1 and s.current != s.first and s.phase == "act"


def rich(s: State) -> bool:
    """Several colonies, a combination used this turn, pieces on sites and dots."""
    return (s.round >= 6 and len(s.buildings) >= 5 and s.phase == "act" and bool(s.uses)
            and any(len(t) >= 3 for t in s.buildings.values()))


def conflict(s: State) -> bool:
    """The defender answers, knowing the attacker's value."""
    return s.phase == "defend"


def order(s: State) -> bool:
    return s.phase == "order"


def over(s: State) -> bool:
    return s.phase == "over"


STOPS: dict[str, Stop] = {"start": start, "rich": rich, "conflict": conflict,
                          "order": order, "over": over}


def view_at(stop: str, num_players: int, seed: int, seat: int | None = None) -> dict[str, Any]:
    """The view at the first state of ``seed`` where ``stop`` holds (searching on from
    ``seed`` when that game never gets there, so a fixture can always be rebuilt)."""
    for candidate in range(seed, seed + 200):
        state = play_until(num_players, candidate, STOPS[stop])
        if state is not None:
            return ENGINE.view(state, seat)
    raise LookupError(f"no game reaches {stop} with {num_players} players")
