"""A crash between a move's commit and its turn message: the message still arrives, once.

The bot runs in a child process (``tests/e2e/crash_child.py``) that SIGKILLs itself at one
point between the commit of a move and the outbox row being marked sent: no clean close,
nothing flushed. The test then starts the bot again on the same database and checks that
the turn message of that move arrives exactly once, pinging the player it names. The same
holds for the notice a missed deadline owes, written with the miss.
"""

from __future__ import annotations

import asyncio
import random
import signal
import sys
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.core.i18n import t
from bot.core.service.outbox import ANNOUNCEMENT
from bot.core.storage import SqliteRepository
from tests.e2e.conftest import RunBot
from tests.e2e.fake_discord import HANG, FakeDiscord, InteractionRecord, StoredMessage
from tests.e2e.test_async_e2e import HOUR, FakeClock, open_game, wait_public
from tests.e2e.test_async_e2e import make_bot as make_async_bot
from tests.e2e.test_havana_e2e import Table as HavanaTable
from tests.e2e.test_tuscany_e2e import Table, make_bot

T = TypeVar("T")
MAX_CLICKS = 200  # the first turn message that pings Alice comes within a few
DYING = 30.0  # seconds a SIGKILLed child may take to be reaped (only a failure waits it)


class Died(Exception):
    """The child process is gone."""


async def unless_dead(child: asyncio.subprocess.Process, work: Awaitable[T]) -> T:
    """``work``'s result, or :class:`Died` as soon as the child exits.

    The child's socket closes before its exit is reaped, so work that failed (no bot to
    receive an interaction) is a death when the child exits soon after; only a child
    still alive then lets the failure through."""
    task = asyncio.ensure_future(work)
    death = asyncio.ensure_future(child.wait())
    await asyncio.wait({task, death}, timeout=HANG, return_when=asyncio.FIRST_COMPLETED)
    if task.done() and task.exception() is not None:
        await asyncio.wait({death}, timeout=DYING)
    if task.done() and not death.done():
        death.cancel()
        return task.result()  # the answer, or the work's failure while the child lives
    if death.done():
        task.cancel()
        raise Died()
    task.cancel()
    death.cancel()
    raise TimeoutError("the child neither answered nor died")


async def answered(fake: FakeDiscord, payload: dict[str, Any]) -> InteractionRecord:
    record = await fake.send_interaction(payload)
    await record.wait()
    await fake.settled(record)
    return record


def with_nonce(fake: FakeDiscord, nonce: str) -> list[StoredMessage]:
    return [m for m in fake.public_messages() if m.data.get("nonce") == nonce]


@pytest.mark.parametrize("point", ["committed", "before_post", "posted"])
async def test_turn_message_survives_a_crash_between_commit_and_post(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, point: str) -> None:
    fake = fake_discord
    database = tmp_path / "db.sqlite3"
    alice = str(fake.user_id("alice"))
    async with run_bot(await make_bot(fake, database)):
        table = Table(fake)
        await table.open()  # Alice and one AI seat; the start message went out

    connections = fake.identify_count
    errors = tmp_path / "child.err"  # a file, not a pipe: a full pipe would block the child
    with errors.open("wb") as err_file:
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.crash_child", fake.api_base, fake.gateway_url,
            fake.token, str(database), point, cwd=Path(__file__).resolve().parents[2],
            stdout=asyncio.subprocess.DEVNULL, stderr=err_file)
    try:
        await unless_dead(child, fake.wait_until(
            lambda: fake.identify_count > connections, HANG))
        await unless_dead(child, fake.idle(quiet=0.2))
        rng = random.Random(11)
        with pytest.raises(Died):  # Alice plays until the child dies at ``point``
            for _ in range(MAX_CLICKS):
                record = await unless_dead(child, answered(fake, fake.slash("game hand")))
                (panel,) = fake.interaction_messages(record)
                if not panel.interactive():
                    await unless_dead(child, fake.idle(quiet=0.1))  # the AI is moving
                    continue
                await unless_dead(child, answered(fake, table.decision(panel, rng)))
    finally:
        if child.returncode is None:
            child.kill()
        await child.wait()
    assert child.returncode == -signal.SIGKILL, errors.read_text(errors="replace")[-2000:]

    # The move is saved and its turn message still owed (with any queued behind it).
    repo = await SqliteRepository.open(database)
    try:
        owed_rows = await repo.pending_outbox()
    finally:
        await repo.close()
    owed = next(r for r in owed_rows if 0 in r.payload["awaited"])  # the one pinging Alice
    posted_before = with_nonce(fake, owed.nonce)
    assert len(posted_before) == (1 if point == "posted" else 0)

    mark = len(fake.calls)
    async with run_bot(await make_bot(fake, database)):
        # The restarted bot posts every owed message (again, when it was posted before)...
        await fake.wait_until(lambda: {r.nonce for r in owed_rows} <= {
            c.json.get("nonce") for c in fake.calls[mark:]
            if c.status == 200 and c.method == "POST" and isinstance(c.json, dict)}, HANG)
        repo = await SqliteRepository.open(database)
        try:
            for _ in range(int(HANG / 0.05)):  # ...and marks them sent
                pending = {r.id for r in await repo.pending_outbox()}
                if not pending & {r.id for r in owed_rows}:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the outbox rows were never marked sent")
        finally:
            await repo.close()
    for row in owed_rows:
        assert len(with_nonce(fake, row.nonce)) == 1  # each exactly once
    (message,) = with_nonce(fake, owed.nonce)
    assert f"<@{alice}>" in message.content
    assert [u["id"] for u in message.data["mentions"]] == [alice]  # the ping
    assert message.attachments and message.attachments[0].filename == "tuscany.png"


async def run_child_until_killed(fake: FakeDiscord, database: Path, point: str,
                                 errors: Path) -> None:
    """Start the bot in a child process armed at ``point`` and wait for its SIGKILL."""
    with errors.open("wb") as err_file:
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.crash_child", fake.api_base, fake.gateway_url,
            fake.token, str(database), point, cwd=Path(__file__).resolve().parents[2],
            stdout=asyncio.subprocess.DEVNULL, stderr=err_file)
    try:
        await asyncio.wait_for(child.wait(), HANG)
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
    assert child.returncode == -signal.SIGKILL, errors.read_text(errors="replace")[-2000:]


@pytest.mark.parametrize("point", ["deadline_committed", "deadline_before_post",
                                   "deadline_posted"])
async def test_deadline_notice_survives_a_crash_between_commit_and_post(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, point: str) -> None:
    """Issue 13 §1 for the deadline pass: the "ran out of time" notice is written to the
    outbox with the miss; killed between that commit and the post (or just after the post),
    the restarted bot posts it exactly once, and the miss is counted once."""
    fake, database = fake_discord, tmp_path / "db.sqlite3"
    # The game is opened two hours in the past with a one-hour deadline: when the child
    # starts (reading the real clock) Alice's deadline has passed.
    clock = FakeClock()
    clock.now -= 2 * HOUR
    table = HavanaTable(fake)
    async with run_bot(await make_async_bot(fake, database, clock)):
        await open_game(table, deadline_hours=1, on_timeout="ai", abandon_after=0)
        await table.stable_panel("alice")  # alice is awaited, nothing expired yet
    assert not [m for m in fake.public_messages() if "⌛" in m.content]

    await run_child_until_killed(fake, database, point, tmp_path / "child.err")
    repo = await SqliteRepository.open(database)
    try:
        (owed,) = [r for r in await repo.pending_outbox() if r.kind == ANNOUNCEMENT]
    finally:
        await repo.close()
    assert owed.payload["key"] == "deadline.expired_ai"
    assert len(with_nonce(fake, owed.nonce)) == (1 if point == "deadline_posted" else 0)

    clock.now = float(int(time.time()))
    bot = await make_async_bot(fake, database, clock)
    async with run_bot(bot):
        await wait_public(fake, lambda m: m.data.get("nonce") == owed.nonce)
        await table.stable_panel("alice")  # the AI played her turn; she is awaited again
        await bot.deadlines.run_due()  # one more pass: nothing is owed twice
        await fake.idle(quiet=0.2)
        assert (await bot.service.reliability(fake.user_id("alice"))).timeouts == 1
        assert all(r.id != owed.id for r in await bot.repo.pending_outbox())
    (notice,) = [m for m in fake.public_messages() if "⌛" in m.content]  # exactly once
    assert notice.data.get("nonce") == owed.nonce
    assert notice.content == t("deadline.expired_ai", "en",
                               player=f"<@{fake.user_id('alice')}>", misses=1)
    assert notice.data["mentions"] == []  # a notice, not a ping
