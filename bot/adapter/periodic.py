"""Everything periodic, on one ``discord.ext.tasks`` loop: the deadline pass, turn reminders
and the outbox's retry of messages a failure left pending.

The jobs themselves are Discord-free passes of the core (``run_due``: everything due now is
found in the database, so a pass after a restart catches up, and only once); this loop only
says when they run: once at start, then every ``seconds``, one after the other, never two
passes at a time. A failing job is logged and the others still run; the loop goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from discord.ext import tasks

log = logging.getLogger(__name__)

POLL_SECONDS = 60.0

Job = Callable[[], Awaitable[object]]


class Periodic:
    def __init__(self, jobs: Sequence[tuple[str, Job]], *,
                 seconds: float = POLL_SECONDS) -> None:
        self.jobs = tuple(jobs)
        self.loop: tasks.Loop[Callable[[], Coroutine[Any, Any, None]]] = tasks.loop(
            seconds=seconds)(self.run_once)

    async def run_once(self) -> None:
        """One pass of every job, in order."""
        for name, job in self.jobs:
            try:
                await job()
            except Exception:
                log.exception("periodic %s pass failed", name)

    @property
    def running(self) -> bool:
        return self.loop.is_running()

    def start(self) -> None:
        """Run now, then every interval, in the running event loop (idempotent)."""
        if not self.loop.is_running():
            self.loop.start()

    def change_interval(self, seconds: float) -> None:
        self.loop.change_interval(seconds=seconds)

    async def stop(self) -> None:
        """Stop the loop and wait for a pass under way to be cancelled (idempotent)."""
        task = self.loop.get_task()
        self.loop.cancel()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task
