"""Two bot processes, one shard each, over one database (a SQLite file; a PostgreSQL database
on the real server the tests start): each serves its shards' guilds and
does their periodic work only; one is killed (SIGKILL) and restarted mid-game.

The processes are real children (``tests/e2e/shard_child.py``) against this test's fake
Discord, which routes each guild's events to the connection holding its shard. Checked from
the outside, as Discord would see it: every message in a guild's channel comes from the
process holding that guild; while one process is down the other's games go on and it does
not take over the dead one's reminders; after the restart the pending reminder is sent
once, no move the players saw acknowledged is lost, every turn message is posted exactly
once and the outbox is empty.
"""

from __future__ import annotations

import asyncio
import random
import re
import signal
import sys
import time
from pathlib import Path
from typing import IO

import pytest

from bot.core.i18n import t
from bot.core.storage import open_repository
from tests.e2e.fake_discord import HANG, FakeDiscord, InteractionRecord, StoredMessage
from tests.e2e.test_tuscany_e2e import Table

COUNT = 2
MAX_WAITS = 200  # panel looks while the AI moves (each waits for the fake to be idle)
VERSION = re.compile(r"^ludo:(?:do|sel|sub):\d+:(\d+):")
REMINDER = t("ui.reminder", "en", player="@@", game="@@", link="@@").split("@@")[0]


class Process:
    """One ``shard_child`` process holding ``shard`` of COUNT."""

    def __init__(self, fake: FakeDiscord, database: Path | str, shard: int, logs: Path) -> None:
        self.fake, self.database, self.shard, self.logs = fake, database, shard, logs
        self.child: asyncio.subprocess.Process | None = None
        self.agent = f"shard-child/{shard}"
        self._err: IO[bytes] | None = None

    async def start(self) -> None:
        fake = self.fake
        since = fake.identify_count
        self._err = self.logs.open("ab")  # a file, not a pipe: a full pipe blocks the child
        self.child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.shard_child", fake.api_base, fake.gateway_url,
            fake.token, str(self.database), str(self.shard), str(COUNT),
            cwd=Path(__file__).resolve().parents[2], stdout=asyncio.subprocess.DEVNULL,
            stderr=self._err)
        connected = asyncio.ensure_future(fake.wait_until(
            lambda: fake.identify_count > since
            and any(c.shard == (self.shard, COUNT) for c in fake.connections), HANG))
        died = asyncio.ensure_future(self.child.wait())
        await asyncio.wait({connected, died}, return_when=asyncio.FIRST_COMPLETED)
        if died.done():
            connected.cancel()
            raise AssertionError(f"shard {self.shard} died:\n{self.log_tail()}")
        died.cancel()
        connected.result()
        await fake.idle(quiet=0.3)  # the command tree synced, the start-up pass done

    async def kill(self) -> None:
        assert self.child is not None
        self.child.send_signal(signal.SIGKILL)
        assert await self.child.wait() == -signal.SIGKILL
        await self.fake.wait_until(
            lambda: not any(c.shard == (self.shard, COUNT) for c in self.fake.connections), HANG)
        self.child = None

    async def stop(self) -> None:
        if self.child is not None and self.child.returncode is None:
            self.child.terminate()
            await self.child.wait()
        if self._err is not None:
            self._err.close()

    def log_tail(self) -> str:
        return self.logs.read_text(errors="replace")[-3000:]


class ShardTable:
    """A Tuscany table (Alice and a random AI) in one guild's channel."""

    def __init__(self, fake: FakeDiscord, channel: int, seed: int) -> None:
        self.fake, self.channel = fake, channel
        self.rng = random.Random(seed)
        self.chooser = Table(fake)  # its random decision on a panel
        self.seen = 0  # the highest version a panel showed Alice

    async def open(self) -> None:
        fake = self.fake
        record = await fake.interact(fake.slash("game new", {"game": "tuscany", "seats": 2},
                                                channel=self.channel))
        (lobby,) = fake.interaction_messages(record)
        await fake.interact(fake.button(lobby.find(label="Add bot")["custom_id"], lobby))
        await fake.interact(fake.button(lobby.find(label="Start")["custom_id"], lobby))
        await fake.wait_until(lambda: self.turn_messages(), HANG)

    async def panel(self) -> StoredMessage:
        """Alice's panel once she is awaited (the AI moves in between)."""
        for _ in range(MAX_WAITS):
            record = await self.fake.interact(self.fake.slash("game hand", channel=self.channel),
                                              settle=False)
            await record.wait_answer()
            (panel,) = self.fake.interaction_messages(record)
            versions = [int(m[1]) for c in panel.interactive()
                        if (m := VERSION.match(c["custom_id"]))]
            if versions:
                self.seen = max(self.seen, *versions)
                return panel
            await self.fake.idle(quiet=0.1)
        raise AssertionError(f"Alice was never awaited in channel {self.channel}")

    async def click(self) -> InteractionRecord:
        """One decision on Alice's panel, sent (the answer is not awaited)."""
        panel = await self.panel()
        return await self.fake.send_interaction(self.chooser.decision(panel, self.rng))

    async def move(self) -> None:
        record = await self.click()
        await record.wait_answer()
        await self.fake.settled(record)

    def turn_messages(self) -> list[StoredMessage]:
        return [m for m in self.fake.channel_messages(self.channel, ephemeral=False)
                if m.data.get("nonce")]

    def reminders(self) -> list[StoredMessage]:
        return [m for m in self.fake.channel_messages(self.channel, ephemeral=False)
                if m.content.startswith(REMINDER)]


async def force_reminders(database: Path | str, channel: int) -> int:
    """Make every reminder of the channel's game due now (as if its hours had passed)."""
    repo = await open_repository(database)
    try:
        game = await repo.open_game_in_channel(channel)
        assert game is not None
        rows = await repo.reminders(game.id)
        for row in rows:
            await repo.reschedule_reminder(game.id, row.seat, time.time() - 1)
        return len(rows)
    finally:
        await repo.close()


async def version_of(database: Path | str, channel: int) -> int:
    repo = await open_repository(database)
    try:
        game = await repo.latest_game_in_channel(channel)
        assert game is not None
        return game.version
    finally:
        await repo.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_two_shard_processes_one_killed_and_restarted(
        fake_discord: FakeDiscord, tmp_path: Path, backend: str,
        request: pytest.FixtureRequest) -> None:
    fake = fake_discord
    database: Path | str = tmp_path / "db.sqlite3"
    if backend == "postgresql":  # a fresh database on the session's real server
        server = request.getfixturevalue("postgres_server")
        database = await server.create_database()
    try:
        await _two_processes(fake, database, tmp_path)
    finally:
        if backend == "postgresql":
            await server.drop_database(str(database))


async def _two_processes(fake: FakeDiscord, database: Path | str, tmp_path: Path) -> None:
    channels = [fake.add_channel(fake.add_guild(f"shard {k}", owner="alice", shard=(k, COUNT)),
                                 "games") for k in range(COUNT)]
    processes = [Process(fake, database, k, tmp_path / f"child{k}.err") for k in range(COUNT)]
    try:
        for process in processes:  # one after the other: the first one migrates
            await process.start()
        tables = [ShardTable(fake, channels[k], seed=k) for k in range(COUNT)]
        for table in tables:
            await table.open()
        for _ in range(3):  # both games under way
            for table in tables:
                await table.move()
        for table in tables:
            await table.panel()  # Alice is awaited in both: each has a reminder row

        # Process 1 dies hard while Alice is awaited in its game.
        await processes[1].kill()
        assert await force_reminders(database, channels[1]) == 1
        for passes in (1, 2):  # two passes of process 0: the first one saw both rows due
            assert await force_reminders(database, channels[0]) == 1
            await fake.wait_until(lambda n=passes: len(tables[0].reminders()) >= n, HANG)
        assert tables[1].reminders() == []  # process 0 left process 1's job alone
        version = await version_of(database, channels[0])
        for _ in range(2):  # and its own game goes on
            await tables[0].move()
        assert await version_of(database, channels[0]) > version

        # Restarted, process 1 sends its pending reminder, once, and the game goes on.
        await processes[1].start()
        await fake.wait_until(lambda: tables[1].reminders(), HANG)
        assert await version_of(database, channels[1]) >= tables[1].seen
        await tables[1].move()
        await play_from_dm(fake, database, processes, tables[1])

        # Killed again mid-move: the click is acknowledged, its answer may never come.
        record = await tables[1].click()
        await record.wait()
        await processes[1].kill()
        await processes[1].start()
        assert await version_of(database, channels[1]) >= tables[1].seen  # nothing lost
        for _ in range(2):
            for table in tables:
                await table.move()
        await check_delivered(fake, database, processes, tables, channels)
        assert set(registrations(fake)) == {processes[0].agent}  # shard 0's process only
        assert len(tables[1].reminders()) == 1  # never sent twice
    finally:
        for process in processes:
            await process.stop()


async def play_from_dm(fake: FakeDiscord, database: Path | str, processes: list[Process],
                       table: ShardTable) -> None:
    """Alice takes her reminders by DM; the DM's panel button reaches shard 0's process
    (Discord sends DMs to shard 0), which takes her move in shard 1's game; the turn message
    is then posted by shard 1's process, which polls its guilds' outbox."""
    await fake.interact(fake.slash("game settings", {"dm": True}, channel=table.channel))
    await table.panel()
    assert await force_reminders(database, table.channel) == 1
    await fake.wait_until(lambda: any(m.content.startswith(REMINDER)
                                       for m in fake.dm_messages("alice")), HANG)
    (reminder,) = [m for m in fake.dm_messages("alice") if m.content.startswith(REMINDER)]
    dm_posts = fake.calls_to("POST", rf"^/channels/{reminder.channel_id}/messages$")
    assert {c.user_agent.split()[-1] for c in dm_posts} == {processes[1].agent}
    turns = len(table.turn_messages())
    record = await fake.interact(fake.button(reminder.find(prefix="ludo:panel:")["custom_id"],
                                             reminder), settle=False)
    await record.wait_answer()
    for _ in range(MAX_WAITS):  # clicks in the DM panel until a turn message is owed
        panel = fake.interaction_messages(record)[-1]
        if len(table.turn_messages()) > turns or not panel.interactive():
            break
        record = await fake.interact(table.chooser.decision(panel, table.rng), settle=False)
        await record.wait_answer()
        await fake.settled(record)
    # Only shard 0's process had the DM clicks (the fake routes a DM there); the new turn
    # message is shard 1's to post (checked with the others in check_delivered).
    await fake.wait_until(lambda: len(table.turn_messages()) > turns, HANG)


async def check_delivered(fake: FakeDiscord, database: Path | str, processes: list[Process],
                          tables: list[ShardTable], channels: list[int]) -> None:
    """The outbox empties; each turn message is posted once, by its guild's process."""
    repo = await open_repository(database)
    try:
        for _ in range(int(HANG / 0.05)):
            if not await repo.pending_outbox():
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the outbox never emptied")
    finally:
        await repo.close()
    await fake.idle(quiet=0.3)
    nonces = [m.data["nonce"] for m in fake.public_messages() if m.data.get("nonce")]
    assert len(nonces) == len(set(nonces)), "a turn message was posted twice"
    for k, channel in enumerate(channels):
        assert len(tables[k].turn_messages()) >= 4
        posts = fake.calls_to("POST", rf"^/channels/{channel}/messages$")
        assert posts and {c.user_agent.split()[-1] for c in posts} == {processes[k].agent}


def registrations(fake: FakeDiscord) -> list[str]:
    """The processes that registered the command tree."""
    return [c.user_agent.split()[-1] for c in fake.calls_to("PUT", r"/commands$")]
