"""AI moves computed off the event loop, in worker processes.

A search is CPU-bound for up to a few seconds: run on the loop it would freeze every board
and button. :class:`Thinker` keeps a small :class:`~concurrent.futures.ProcessPoolExecutor`
(spawned once, on first use) and the bot awaits each move with ``run_in_executor``. At
shutdown pending searches are cancelled and the pool is shut down. A move depends only on
(game seed, seat, move number, level), so a search lost to a restart is recomputed equal —
on a machine fast enough for the level's budget. On a slower one the worker keeps the
level's time (``engines.ai.SECONDS``, in CPU seconds of the worker): past ``GUARD`` of it
no playout decision is begun, and the search plays the best of what it has played out.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engines import registry
from engines.ai import SECONDS, choose
from engines.base import Action, Engine

# Share of a level's time past which no playout decision is begun: what follows (the
# decision under way, the choice) fits in the rest.
GUARD = 0.8


def time_guard(level: str, clock: Callable[[], float] = time.process_time
               ) -> Callable[[], bool] | None:
    """Whether this move's CPU time is up, for a level with a time budget."""
    seconds = SECONDS.get(level)
    if seconds is None:
        return None
    limit = clock() + GUARD * seconds
    return lambda: clock() >= limit


def _think(game_key: str, data: dict[str, Any], seat: int, level: str, seed: int,
           move_number: int) -> str:
    """In the worker: rebuild the state and choose (strings cross the process boundary)."""
    stop = time_guard(level)
    engine = registry.get(game_key)
    return str(choose(engine, engine.from_dict(data), seat, level, seed, move_number, stop))


class Thinker:
    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def choose(self, engine: Engine[Any], game_key: str, state: Any, seat: int,
                     level: str, seed: int, move_number: int) -> Action:
        """The AI move; ``random`` is instant and stays in-process. An engine the registry
        does not hold (a test double) cannot be rebuilt in a worker: it thinks in a thread."""
        if self._closed:
            raise asyncio.CancelledError("the thinker is shut down")
        if level == "random":
            return choose(engine, state, seat, level, seed, move_number)
        if registry.games().get(game_key) is not engine:
            return await asyncio.to_thread(choose, engine, state, seat, level, seed,
                                           move_number)
        loop = asyncio.get_running_loop()
        text = await loop.run_in_executor(self._executor(), _think, game_key,
                                          engine.to_dict(state), seat, level, seed,
                                          move_number)
        return Action.parse(text)

    def close(self) -> None:
        """Cancel pending searches and shut the pool down (a running search ends within
        its budget; nothing waits for it)."""
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
