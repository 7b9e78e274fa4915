"""Fixtures for end-to-end tests: a fake Discord and a way to run a real bot against it."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import discord
import pytest
import yarl
from discord.ext import commands
from discord.gateway import DiscordWebSocket

from tests.e2e.fake_discord import HANG, FakeDiscord

# discord.py waits this long after the last GUILD_CREATE before "ready"; 2 s by default.
GUILD_READY_TIMEOUT = 0.05


class _ErrorRecords(logging.Handler):
    """Collects ERROR logs while a bot runs: a traceback swallowed by discord.py
    ("Ignoring exception in command ...") must fail the test, not pass silently."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def report(self) -> str:
        lines = []
        for record in self.records:
            lines.append(f"{record.name}: {record.getMessage()}")
            if record.exc_info and record.exc_info[1] is not None:
                lines.append(f"    {record.exc_info[0].__name__}: {record.exc_info[1]}")
        return "\n".join(lines)


async def _wait_ready(bot: commands.Bot, task: asyncio.Task[None], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not bot.is_ready():
        if task.done():
            task.result()
            raise RuntimeError("the bot stopped before it was ready")
        if time.monotonic() > deadline:
            raise TimeoutError(f"the bot was not ready within {timeout} s")
        await asyncio.sleep(0.01)


@asynccontextmanager
async def running_bot(fake: FakeDiscord, bot: commands.Bot, *, expect_sync: bool = False,
                      timeout: float = HANG, allow_errors: bool = False
                      ) -> AsyncIterator[commands.Bot]:
    """Start ``bot`` against the fake, wait until ready (and synced), always close it cleanly.

    ``expect_sync``: also wait for a command-tree PUT made during this start (for bots that
    sync in ``on_ready`` rather than in ``setup_hook``).
    """
    bot._connection.guild_ready_timeout = GUILD_READY_TIMEOUT
    errors = _ErrorRecords()
    logging.getLogger().addHandler(errors)
    since = len(fake.calls)
    task = asyncio.create_task(bot.start(fake.token), name="bot.start")
    try:
        await _wait_ready(bot, task, timeout)
        if expect_sync:
            await fake.wait_for_call("PUT", r"/commands$", since=since, timeout=timeout)
        yield bot
        if task.done():
            task.result()
            raise RuntimeError("the bot stopped while the test was running")
    finally:
        await bot.close()
        try:
            await asyncio.wait_for(task, timeout)
        finally:
            logging.getLogger().removeHandler(errors)
    if errors.records and not allow_errors:
        raise AssertionError("the bot logged errors:\n" + errors.report())


RunBot = Callable[..., AbstractAsyncContextManager[commands.Bot]]


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """A fake Discord on an ephemeral 127.0.0.1 port; discord.py points at it for the test."""
    fake = FakeDiscord()
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
def run_bot(fake_discord: FakeDiscord) -> RunBot:
    """``async with run_bot(bot) as bot:`` runs a bot against ``fake_discord``."""

    def run(bot: commands.Bot, **options: object) -> AbstractAsyncContextManager[commands.Bot]:
        return running_bot(fake_discord, bot, **options)  # type: ignore[arg-type]

    return run
