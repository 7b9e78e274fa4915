"""Past positions rebuilt from a game's seed and its effective log (pure, but for reading the
nearest snapshot): same seed + same effective log = same game.

The storage keeps a snapshot every few moves, so a position is replayed from the nearest
one (:func:`rebuild_position`), in a worker thread: its cost does not grow with the game.
The service rewinds an undo with it; :mod:`bot.core.history` draws replays with it.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from bot.core.models import GameInfo
from bot.core.storage.base import LogRow, ReplayBase, Repository
from engines.base import Action, Engine


def effective(rows: Sequence[LogRow]) -> list[LogRow]:
    """The moves that count, in order (undo entries and taken-back moves left out)."""
    return [r for r in rows if r.effective]


def initial_state(engine: Engine[Any], game: GameInfo) -> Any:
    return engine.new_game(len(game.seats), game.seed, game.options)


def states(engine: Engine[Any], game: GameInfo, moves: Sequence[LogRow]) -> Iterator[Any]:
    """Position 0 (the setup) then the state after each move."""
    state = initial_state(engine, game)
    yield state
    for row in moves:
        state = engine.apply(state, row.seat, Action.parse(row.action)).state
        yield state


def state_at(engine: Engine[Any], game: GameInfo, moves: Sequence[LogRow], position: int) -> Any:
    """The state after the first ``position`` effective moves."""
    return deque(states(engine, game, moves[:position]), maxlen=1)[0]


def replay_from(engine: Engine[Any], game: GameInfo, base: ReplayBase) -> Any:
    """The state at ``base``'s last move: its snapshot (or the setup), then its moves."""
    state = initial_state(engine, game) if base.state is None else engine.from_dict(base.state)
    for row in base.moves:
        state = engine.apply(state, row.seat, Action.parse(row.action)).state
    return state


async def rebuild_position(repo: Repository, engine: Engine[Any], game: GameInfo,
                           position: int) -> Any:
    """The state after ``position`` effective moves, from the nearest stored snapshot
    (at most :data:`~bot.core.storage.base.SNAPSHOT_EVERY` moves replayed, in a worker thread)."""
    base = await repo.replay_base(game.id, position)
    return await asyncio.to_thread(replay_from, engine, game, base)
