"""Real Havana states for the renderer tests: seeded random games stopped at a chosen moment.

The golden fixtures are built from these (``regenerate --fixtures``) and saved as JSON, so a
golden does not move when the engine's move order changes; the smoke test draws them live.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.havana.engine import ENGINE
from engines.havana.state import State
from tests.renderers import random_play

Stop = Callable[[State], bool]
MAX_MOVES = 5000


def play_until(num_players: int, seed: int, stop: Stop) -> State | None:
    """A random game of ``seed`` stopped where ``stop`` first holds; None if never."""
    return random_play.play_until(ENGINE, num_players, seed, stop,
                                  rng_key=f"render:{num_players}:{seed}", max_moves=MAX_MOVES,
                                  step=ENGINE.apply_unchecked)


def _some_picked(s: State) -> bool:
    picked = [bool(p.picks) and (s.phase == "start_pick" and len(p.picks) == 2
                                 or s.phase == "cover" and p.cover is not None)
              for p in s.players]
    return any(picked) and not all(picked)


def start_pick_half(s: State) -> bool:
    """Start of the game, one seat has chosen its two hidden cards, the others not."""
    return s.phase == "start_pick" and _some_picked(s)


def actions_mid_turn(s: State) -> bool:
    """A later round, a seat to play with one of its cards already used, buildings built."""
    return (s.phase == "actions" and s.round >= 4 and s.current is not None
            and len(s.players[s.current].used) == 1
            and sum(len(p.buildings) for p in s.players) >= 4)


def cover_half(s: State) -> bool:
    """Phase 3 of a later round: some seats have chosen the card to cover, some not."""
    return s.phase == "cover" and s.round >= 3 and _some_picked(s)


def over(s: State) -> bool:
    return s.phase == "over"


STOPS: dict[str, Stop] = {
    "start_pick": start_pick_half,
    "actions": actions_mid_turn,
    "cover": cover_half,
    "over": over,
}


def state_at(phase: str, num_players: int, seed: int = 1, tries: int = 50) -> State:
    """The first seed from ``seed`` whose game reaches ``phase``'s stopping point."""
    for candidate in range(seed, seed + tries):
        s = play_until(num_players, candidate, STOPS[phase])
        if s is not None:
            return s
    raise LookupError(f"no game of {num_players} reached {phase} in {tries} seeds")


def view_at(phase: str, num_players: int, seed: int = 1,
            seat: int | None = None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator) at ``phase``'s stopping point."""
    return ENGINE.view(state_at(phase, num_players, seed), seat)
