"""Real Castles of Tuscany states for the renderer tests: seeded random games stopped at a
chosen moment.

The golden fixtures are built from these (``regenerate --fixtures``) and saved as JSON, so a
golden does not move when the engine's move order changes; the smoke tests draw them live.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.tuscany.engine import ENGINE
from engines.tuscany.state import State
from tests.renderers import random_play

Stop = Callable[[State], bool]
MAX_MOVES = 20_000


def play_until(num_players: int, seed: int, stop: Stop) -> State | None:
    """A random game of ``seed`` stopped where ``stop`` first holds; None if never."""
    return random_play.play_until(ENGINE, num_players, seed, stop,
                                  rng_key=f"render:tuscany:{num_players}:{seed}",
                                  max_moves=MAX_MOVES)


def _placed(s: State) -> int:
    return sum(1 for p in s.players for t in p.board if t is not None)


def arranging_half(s: State) -> bool:
    """Setup: one seat has kept its region, the others are still arranging."""
    return s.phase == "arrange" and any(p.confirmed for p in s.players) and not all(
        p.confirmed for p in s.players)


def rich_mid_game(s: State) -> bool:
    """A colour bonus claimed, a marble and a worker on some region, a turn under way."""
    return (s.phase == "play" and any(s.bonus[c] for c in range(8))
            and any(p.marbles for p in s.players) and any(p.workers for p in s.players))


def choosing_space(s: State) -> bool:
    """A seat is choosing the space of a tile on a well-filled table."""
    return (s.phase == "play" and bool(s.stack) and s.stack[-1].kind == "space"
            and _placed(s) >= 6 * s.num_players)


def over(s: State) -> bool:
    return s.phase == "over"


def view_at(stop: str, num_players: int, seed: int, seat: int | None = None) -> dict[str, Any]:
    """The view (of ``seat``, default a spectator's) at the first state where ``stop`` holds."""
    state = play_until(num_players, seed, STOPS[stop])
    if state is None:
        raise LookupError(f"seed {seed} never reaches {stop} with {num_players} players")
    return ENGINE.view(state, seat)


STOPS: dict[str, Stop] = {"arrange": arranging_half, "rich": rich_mid_game,
                          "space": choosing_space, "over": over}
