"""One bot process holding one shard, against the parent test's fake Discord, over a database
shared with the other processes. Used by ``test_shards_e2e.py``, which kills it (SIGKILL) and
starts it again.

``python -m tests.e2e.shard_child API_BASE GATEWAY_URL TOKEN DATABASE SHARD_ID SHARD_COUNT``

Its HTTP requests carry ``shard-child/<SHARD_ID>`` in their User-Agent, so the test can tell
which process sent what. Its periodic passes (reminders, deadlines, the outbox) run every
``POLL_SECONDS`` (5 s in production when sharded), so the test needs no long wait.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import discord
import yarl
from discord.gateway import DiscordWebSocket

from bot.adapter.app import build_bot
from bot.core.settings import Settings
from bot.core.storage import is_postgres

POLL_SECONDS = 0.2


async def run(token: str, database: str, shard_id: int, shard_count: int) -> None:
    target = database if is_postgres(database) else Path(database)  # PostgreSQL or a file
    bot = await build_bot(Settings(discord_token=token, database=target, ai_delay=0,
                                   ai_level="random", shard_count=shard_count,
                                   shard_ids=(shard_id,)))
    bot._connection.guild_ready_timeout = 0.05
    bot.http.user_agent += f" shard-child/{shard_id}"
    bot.periodic.change_interval(POLL_SECONDS)
    async with bot:
        await bot.start(token)


def main(argv: list[str]) -> None:
    api, gateway, token, database, shard_id, shard_count = argv
    discord.http.Route.BASE = api
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    asyncio.run(run(token, database, int(shard_id), int(shard_count)))


if __name__ == "__main__":
    main(sys.argv[1:])
