"""``python -m tests.e2e.crowd``: a burst of interactions at once against the real bot (issue 13.2).

A benchmark, not a test (``make bench`` runs it through ``bot/bench.py``, which publishes the
figures in docs/PERFORMANCE.md). The real application (discord.py, SQLite, Pillow) runs in
this process; the fake Discord (``tests/e2e/fake_discord.py``) and the crowd run in a child
process, as Discord is another machine: its own work does not slow the bot's event loop.

Set-up (not timed): tables of four human players, opened through the fake like any user would
(``/game new``, Join, Start). Then every interaction of the burst is sent at once, shuffled:

* *panel*: "My panel" on a table's turn message (*panel:tuscany*: the region set-up draws a
  private region image for each player; *panel:havana*: the first pick has none);
* *board*: ``/game board`` in a table's channel (the spectator board, public);
* *move*: a click on a player's private panel opened before the burst (Tuscany's region
  set-up, all four players of a table at once).

For each interaction the fake records when the bot acknowledged it (Discord drops it after
3 s) and when the user first saw an answer (a message, an edit or a followup; "thinking…" is
not one). The figures are printed as one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import math
import multiprocessing
import os
import random
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

HANG = 300.0  # only to catch a hang
SEATS = 4
GUILD_READY_TIMEOUT = 0.05


@dataclass(frozen=True, slots=True)
class Mix:
    panels: int
    boards: int
    moves: int

    @property
    def total(self) -> int:
        return self.panels + self.boards + self.moves


KINDS = ("all", "panel", "panel:tuscany", "panel:havana", "board", "move")
FULL = Mix(panels=128, boards=16, moves=56)
TINY = Mix(panels=8, boards=2, moves=4)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100), as in bot/bench.py."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


# ------------------------------------------------------------------ the child: Discord + crowd

def _crowd_process(mix: dict[str, int], inbox: Any, outbox: Any) -> None:
    logging.basicConfig(level=logging.WARNING)
    try:
        asyncio.run(_crowd(Mix(**mix), inbox, outbox))
    except BaseException as err:  # the parent must not wait forever
        outbox.put({"error": repr(err)})
        raise


async def _crowd(mix: Mix, inbox: Any, outbox: Any) -> None:
    from tests.e2e.fake_discord import FakeDiscord

    fake = FakeDiscord()
    panel_tables = math.ceil(mix.panels / SEATS)
    move_tables = math.ceil(mix.moves / SEATS)
    # Three Tuscany tables (a region image per panel) for one Havana table (no image).
    games = ["havana" if i % 4 == 1 else "tuscany" for i in range(panel_tables)]
    games += ["tuscany"] * move_tables
    members = fake.guilds[fake.guild_id]["member_names"]
    tables: list[dict[str, Any]] = []
    for number, key in enumerate(games):
        users = [fake.add_user(f"p{number:03d}{seat}")["username"] for seat in range(SEATS)]
        members.extend(users)
        tables.append({"game": key, "users": users,
                       "channel": fake.add_channel(fake.guild_id, f"table-{number}")})
    await fake.start()
    try:
        outbox.put({"api_base": fake.api_base, "gateway": fake.gateway_url,
                    "token": fake.token})
        await asyncio.to_thread(inbox.get, True, HANG)  # the bot is ready
        setup_started = time.monotonic()
        for table in tables:
            table["turn"] = await _open_table(fake, table)
        movers = []
        for table in tables[panel_tables:]:
            for user in table["users"]:
                movers.append((user, await _open_panel(fake, user, table["channel"])))
        setup_s = time.monotonic() - setup_started
        await fake.idle(quiet=0.5, timeout=HANG)
        burst = _burst(fake, mix, tables[:panel_tables], movers)
        figures = await _run_burst(fake, burst)
        figures["setup_s"] = setup_s
        figures["tables"] = {"panel": panel_tables, "move": move_tables,
                             "tuscany": games.count("tuscany"),
                             "havana": games.count("havana")}
        figures["kinds"] = list(KINDS)
        figures["setting"] = (
            f"{games.count('tuscany')} Tuscany and {games.count('havana')} Havana tables of "
            "four human players in their first step (Tuscany's region set-up: one private "
            "region image per player)")
        outbox.put(figures)
        await asyncio.to_thread(inbox.get, True, HANG)  # the bot has closed
    finally:
        await fake.stop()


async def _open_table(fake: Any, table: dict[str, Any]) -> Any:
    """``/game new``, three Joins and Start, as the players would; the turn message."""
    channel, users = table["channel"], table["users"]
    record = await fake.interact(
        fake.slash("game new", {"game": table["game"], "seats": SEATS}, user=users[0],
                   channel=channel), timeout=HANG, quiet=0.01)
    (lobby,) = fake.interaction_messages(record)
    for user in users[1:]:
        await fake.interact(fake.button(lobby.find(label="Join")["custom_id"], lobby,
                                        user=user), timeout=HANG, quiet=0.01)
    mark = len(fake.calls)
    await fake.interact(fake.button(lobby.find(label="Start")["custom_id"], lobby,
                                    user=users[0]), timeout=HANG, quiet=0.01)
    await fake.wait_for_call("POST", rf"^/channels/{channel}/messages$", since=mark,
                             timeout=HANG)
    return fake.last_message(channel)


async def _open_panel(fake: Any, user: str, channel: int) -> Any:
    record = await fake.interact(fake.slash("game hand", user=user, channel=channel),
                                 settle=False, timeout=HANG)
    await record.wait_answer(HANG)
    (panel,) = fake.interaction_messages(record)
    if not panel.interactive():
        raise RuntimeError(f"{user} has no move to make: {panel.content!r}")
    return panel


def _move(fake: Any, user: str, panel: Any) -> dict[str, Any]:
    """The panel's first move: its first action button, else its first select's first option."""
    for component in panel.interactive():
        if component["type"] == 2 and component["custom_id"].startswith("ludo:do:"):
            return fake.button(component["custom_id"], panel, user=user)  # type: ignore[no-any-return]
    for component in panel.interactive():
        if component["type"] == 3:
            value = component["options"][0]["value"]
            return fake.select(component["custom_id"], [value], panel,  # type: ignore[no-any-return]
                               user=user)
    raise RuntimeError(f"no move on the panel of {user}")


def _burst(fake: Any, mix: Mix, tables: list[dict[str, Any]],
           movers: list[tuple[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    burst: list[tuple[str, dict[str, Any]]] = []
    seated = [(user, table) for table in tables for user in table["users"]]
    for user, table in seated[:mix.panels]:
        turn = table["turn"]
        burst.append((f"panel:{table['game']}",
                      fake.button(turn.find(label="My panel")["custom_id"], turn, user=user)))
    for i in range(mix.boards):
        table = tables[i % min(4, len(tables))]  # several people ask in the same channels
        burst.append(("board", fake.slash("game board", user=table["users"][i % SEATS],
                                          channel=table["channel"])))
    for user, panel in movers[:mix.moves]:
        burst.append(("move", _move(fake, user, panel)))
    random.Random(13).shuffle(burst)
    return burst


async def _run_burst(fake: Any, burst: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    sent = time.monotonic()
    records = []  # Discord's clock of each starts as it is sent; none waits for another
    for kind, payload in burst:
        records.append((kind, await fake.send_interaction(payload)))
    sent = time.monotonic() - sent
    for _, record in records:
        with contextlib.suppress(TimeoutError):
            await record.wait_answer(60.0)  # unanswered ones are counted, not waited for
    await fake.idle(quiet=0.5, timeout=HANG)
    figures: dict[str, Any] = {"interactions": len(records), "send_s": sent}
    for kind in KINDS:
        chosen = [r for k, r in records if kind == "all" or k.split(":")[0] == kind
                  or k == kind]
        acks = [r.ack_latency * 1000 for r in chosen if r.ack_latency is not None]
        answers = [r.answer_latency * 1000 for r in chosen if r.answer_latency is not None]
        refused = sum(1 for r in chosen
                      if any("⚠️" in m.content for m in fake.interaction_messages(r)))
        figures[kind] = {
            "count": len(chosen), "acked": len(acks), "answered": len(answers),
            "refused": refused,
            "ack_p50_ms": percentile(acks, 50) if acks else None,
            "ack_p99_ms": percentile(acks, 99) if acks else None,
            "ack_max_ms": max(acks, default=None),
            "answer_p50_ms": percentile(answers, 50) if answers else None,
            "answer_p99_ms": percentile(answers, 99) if answers else None,
            "answer_max_ms": max(answers, default=None),
        }
    return figures


# ------------------------------------------------------------------ the parent: the real bot

class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}")


async def run(mix: Mix) -> dict[str, Any]:
    """Start the crowd process, run the bot against its fake Discord, return the figures."""
    import discord
    import yarl
    from discord.gateway import DiscordWebSocket

    from bot.adapter.app import build_bot
    from bot.core.settings import Settings

    context = multiprocessing.get_context("spawn")
    inbox, outbox = context.Queue(), context.Queue()
    child = context.Process(target=_crowd_process, args=(asdict(mix), inbox, outbox),
                            name="crowd")
    child.start()
    errors = _Errors()
    logging.getLogger().addHandler(errors)
    load_before = os.getloadavg()[0]
    try:
        where: dict[str, Any] = await asyncio.to_thread(outbox.get, True, HANG)
        if "error" in where:
            raise RuntimeError(f"the crowd process failed: {where['error']}")
        discord.http.Route.BASE = where["api_base"]
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(where["gateway"])
        with tempfile.TemporaryDirectory() as tmp:
            bot = await build_bot(Settings(discord_token=where["token"],
                                           database=Path(tmp) / "crowd.sqlite3", ai_delay=0))
            bot._connection.guild_ready_timeout = GUILD_READY_TIMEOUT
            task = asyncio.create_task(bot.start(where["token"]), name="bot.start")
            try:
                deadline = time.monotonic() + HANG
                while not bot.is_ready():
                    if task.done():
                        task.result()
                    if time.monotonic() > deadline:
                        raise TimeoutError("the bot was not ready")
                    await asyncio.sleep(0.01)
                inbox.put("ready")
                figures: dict[str, Any] = await asyncio.to_thread(outbox.get, True, 2 * HANG)
                if "error" in figures:
                    raise RuntimeError(f"the crowd process failed: {figures['error']}")
                cache = bot.service.images
                figures["image_cache"] = {"draws": cache.draws, "hits": cache.hits,
                                          "entries": len(cache), "bytes": cache.size}
            finally:
                await bot.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, HANG)
                inbox.put("closed")  # the fake Discord may stop now
    finally:
        logging.getLogger().removeHandler(errors)
        child.join(HANG)
        if child.is_alive():
            child.terminate()
    figures["bot_errors"] = errors.messages
    figures["load_average"] = [load_before, os.getloadavg()[0]]  # the machine's 1-min load
    figures["cpus"] = os.cpu_count()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.crowd", description=__doc__)
    parser.add_argument("--tiny", action="store_true", help="a few interactions, for tests")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    mix = TINY if args.tiny else FULL
    figures = asyncio.run(run(mix))
    figures["mix"] = asdict(mix)
    sys.stdout.write(json.dumps(figures) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
