"""The real bot in a child process, against the parent test's fake Discord, that kills itself
(SIGKILL: no clean close, nothing flushed) at one point between a move's commit and its turn
message being marked sent. Used by ``test_crash_e2e.py``.

``python -m tests.e2e.crash_child API_BASE GATEWAY_URL TOKEN DATABASE POINT`` where POINT is
``committed`` (the move and its outbox row are saved, nothing posted), ``before_post`` (the
message is built, its POST not made) or ``posted`` (Discord has the message; the outbox row
is not yet marked sent). Only a turn message that pings someone triggers the kill.

The ``deadline_*`` points do the same for the notice a missed deadline owes ("⌛ … let the
time run out"): ``deadline_committed`` (the miss and its outbox row are saved),
``deadline_before_post`` and ``deadline_posted``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from functools import wraps
from pathlib import Path
from typing import Any

import discord
import discord.abc
import yarl
from discord.gateway import DiscordWebSocket

from bot.adapter.app import build_bot
from bot.core.settings import Settings
from bot.core.storage.sqlite import SqliteRepository

POINTS = ("committed", "before_post", "posted", "deadline_committed", "deadline_before_post",
          "deadline_posted")
EXPIRED = "⌛"  # the notice of a missed deadline, in every language


def die() -> None:
    sys.stderr.write("crash_child: SIGKILL\n")
    sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def pings(kwargs: dict[str, Any]) -> bool:
    mentions = kwargs.get("allowed_mentions")
    return bool(kwargs.get("nonce")) and isinstance(mentions, discord.AllowedMentions) \
        and isinstance(mentions.users, list) and bool(mentions.users)


def expired_notice(kwargs: dict[str, Any]) -> bool:
    return bool(kwargs.get("nonce")) and EXPIRED in (kwargs.get("content") or "")


def arm(point: str) -> None:
    if point == "deadline_committed":
        claim = SqliteRepository.claim_timeout

        @wraps(claim)
        async def claim_then_die(self: SqliteRepository, *args: Any, **kwargs: Any) -> Any:
            misses = await claim(self, *args, **kwargs)
            if misses is not None and kwargs.get("owed"):
                die()
            return misses

        SqliteRepository.claim_timeout = claim_then_die  # type: ignore[method-assign]
        return
    if point == "committed":
        save = SqliteRepository.save_move

        @wraps(save)
        async def save_then_die(self: SqliteRepository, *args: Any, **kwargs: Any) -> Any:
            saved = await save(self, *args, **kwargs)
            if kwargs.get("outbox") and kwargs.get("awaited"):  # a human will be pinged
                die()
            return saved

        SqliteRepository.save_move = save_then_die  # type: ignore[method-assign]
        return
    send = discord.abc.Messageable.send

    @wraps(send)
    async def send_and_die(self: Any, *args: Any, **kwargs: Any) -> Any:
        owed = expired_notice(kwargs) if point.startswith("deadline_") else pings(kwargs)
        if owed and point.endswith("before_post"):
            die()
        message = await send(self, *args, **kwargs)
        if owed and point.endswith("posted"):
            die()
        return message

    discord.abc.Messageable.send = send_and_die  # type: ignore[method-assign,assignment]


async def run(token: str, database: Path) -> None:
    bot = await build_bot(Settings(discord_token=token, database=database, ai_delay=0,
                                   ai_level="random"))
    bot._connection.guild_ready_timeout = 0.05
    async with bot:
        await bot.start(token)


def main(argv: list[str]) -> None:
    api, gateway, token, database, point = argv
    if point not in POINTS:
        raise SystemExit(f"unknown point {point!r}: one of {POINTS}")
    discord.http.Route.BASE = api
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    arm(point)
    asyncio.run(run(token, Path(database)))


if __name__ == "__main__":
    main(sys.argv[1:])
