"""Discord faults never lose or half-apply a move: a refused or rate-limited channel post
is logged or retried, and the game goes on from the saved state."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from tests.e2e.conftest import RunBot
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_havana_e2e import Table, make_bot

CHANNEL_POST = r"^/channels/\d+/messages$"


async def _turn_posts(fake: FakeDiscord, since: int) -> list[int]:
    return [c.status for c in fake.calls[since:] if c.method == "POST"
            and c.path.startswith("/channels/") and c.path.endswith("/messages")]


async def test_forbidden_and_rate_limited_channel_posts_keep_every_move(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    fake = fake_discord
    rng = random.Random(5)
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")) as bot:
        table = Table(fake)
        await table.open()

        # The next channel posts are refused (permission removed), then rate limited.
        before = len(await bot.service.log(table.game_id, limit=10_000))
        mark = len(fake.calls)
        fake.fail_next("POST", CHANNEL_POST, status=403, code=50013, times=2)
        fake.fail_next("POST", CHANNEL_POST, status=429, retry_after=0.05, times=1)
        # Play on until the faults have been met and a post went through (the 429 one is
        # retried after retry_after); bounded in moves.
        statuses: list[int] = []
        for _ in range(40):
            await table.play(rng, moves=1)
            await asyncio.sleep(0.06)
            await fake.idle()
            statuses = await _turn_posts(fake, mark)
            if 200 in statuses or table.over():
                break
        assert 403 in statuses and 429 in statuses and 200 in statuses

        # Every click was saved although its turn message could not be posted.
        after = len(await bot.service.log(table.game_id, limit=10_000))
        assert after > before
        panel = await table.stable_panel("alice")
        assert panel.ephemeral and panel.interactive()
        await table.play(rng)  # and the game still reaches its end
        assert table.over()
