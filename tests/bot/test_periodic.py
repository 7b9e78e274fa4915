"""The one periodic loop (bot/adapter/periodic.py, discord.ext.tasks): every job runs at
start and again each interval, in order; a failing job is logged and neither stops the others
nor the loop; start and stop are idempotent. Bounded by steps, never by a wall clock."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.adapter.periodic import Periodic


async def _until(predicate: object, steps: int = 2000) -> None:
    for _ in range(steps):
        if predicate():  # type: ignore[operator]
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the periodic loop did not get there")


async def test_jobs_run_in_order_every_interval_and_a_failure_is_contained(
        caplog: pytest.LogCaptureFixture) -> None:
    runs: list[str] = []

    async def first() -> None:
        runs.append("first")

    async def broken() -> None:
        runs.append("broken")
        raise RuntimeError("a pass fails")

    async def last() -> int:
        runs.append("last")
        return 0

    periodic = Periodic((("first", first), ("broken", broken), ("last", last)),
                        seconds=0.01)
    with caplog.at_level(logging.ERROR, logger="bot.adapter.periodic"):
        periodic.start()
        periodic.start()  # idempotent: one loop
        await _until(lambda: runs.count("last") >= 3)
        await periodic.stop()
    assert not periodic.running
    passes = len(runs) // 3
    assert runs[: 3 * passes] == ["first", "broken", "last"] * passes
    assert any("periodic broken pass failed" in r.getMessage() for r in caplog.records)
    await periodic.stop()  # stopping twice is harmless
    settled = len(runs)
    await asyncio.sleep(0.05)
    assert len(runs) == settled  # nothing runs once stopped


async def test_the_first_pass_runs_at_start_and_the_interval_can_change() -> None:
    runs: list[int] = []

    async def job() -> None:
        runs.append(1)

    periodic = Periodic((("job", job),), seconds=3600)
    periodic.start()
    await _until(lambda: len(runs) == 1)  # at once, not after the hour
    periodic.change_interval(0.01)
    await _until(lambda: len(runs) >= 3)
    await periodic.stop()
