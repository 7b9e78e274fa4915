"""``python -m bot.bench_shards``: the figures of docs/DEPLOY.md, measured.

* throughput: moves per second with 1 and then 2 processes over one database. Each process
  (a fresh interpreter, like a bot process) plays random AI moves through the real service —
  load, check, apply, durable save with its outbox row, as a click does — round-robin over
  its own games, all in the guilds of its shard; the processes start together and the
  figure is all their moves over the wall time until the last one is done;
* stored games: the cost of one such move when the database already holds 10³, 10⁴ and
  10⁵ games (copied in bulk from a played template game: its row, seats and log), p50 and
  p99 ms.

The database is ``LUDO_DATABASE`` if it is a PostgreSQL address (each run works in tables it
empties first), else a fresh SQLite file per run. ``--tiny`` runs in seconds (tests).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import aiosqlite

from bot.core.service import GameService
from bot.core.storage import SqliteRepository
from engines import registry

# Any registered game will do (the bench measures the platform, not a game); the figures
# name the one they used.
GAME = registry.entries()[0].key
SEATS = 2
GAMES_PER_PROCESS = 8
STORED = (1_000, 10_000, 100_000)
REPEATS = 3  # throughput runs per process count; the median is shown, with the range
TEMPLATE_MOVES = 30  # the log length of each stored copy
FIGURES = "## Figures (make bench-shards)"  # the section of docs/DEPLOY.md it rewrites


def guild_on(shard: int, count: int, n: int) -> int:
    """A guild id that Discord places on ``shard`` of ``count`` (bot.core.shards rule)."""
    return ((n * count + shard) << 22) | 1


async def open_service(target: str) -> GameService:
    repo = await SqliteRepository.open(target)
    return GameService(repo, ai_delay=0, default_ai_level="random", render_turns=False)


async def new_game(service: GameService, guild_id: int, channel_id: int) -> int:
    """A started table of AI seats (the creator's seat given to the AI, as the bench's)."""
    game = await service.create(guild_id=guild_id, channel_id=channel_id, game_key=GAME,
                                creator_id=1, creator_name="Bench", seats=SEATS,
                                seed=channel_id)
    for _ in range(SEATS - 1):
        await service.add_ai(game.id, 1, "random")
    await service.start(game.id, 1)
    await service.remove_seat(game.id, 0, by_user_id=1, is_admin=True)
    return game.id


async def play(service: GameService, games: list[int], moves: int) -> list[float]:
    """``moves`` AI moves, one per game in turn (a finished game is replaced); ms each."""
    spent: list[float] = []
    streams = {g: service.ai_moves(g) for g in games}
    channel = 10_000_000 + max(games)
    while len(spent) < moves:
        for game_id in list(streams):
            t0 = time.perf_counter()
            try:
                await anext(streams[game_id])
            except StopAsyncIteration:
                info = await service.get(game_id)
                del streams[game_id]
                channel += 1
                new = await new_game(service, info.guild_id or 1, channel)
                streams[new] = service.ai_moves(new)
                continue
            spent.append(1000 * (time.perf_counter() - t0))
            if len(spent) >= moves:
                break
    for stream in streams.values():
        await stream.aclose()
    return spent


async def worker(target: str, shard: int, count: int, moves: int) -> None:
    """One process of the throughput run: set up, say ready, wait for "go", play, report."""
    service = await open_service(target)
    games = [await new_game(service, guild_on(shard, count, n), 1_000 * (shard + 1) + n)
             for n in range(GAMES_PER_PROCESS)]
    print("ready", flush=True)
    sys.stdin.readline()
    t0 = time.perf_counter()
    spent = await play(service, games, moves)
    print(json.dumps({"moves": len(spent), "seconds": time.perf_counter() - t0}), flush=True)
    await service.repo.close()


def throughput(target: str, processes: int, moves: int) -> dict[str, float]:
    """Moves per second of ``processes`` workers started together on ``target``."""
    root = Path(__file__).resolve().parent.parent
    children = [subprocess.Popen(
        [sys.executable, "-m", "bot.bench_shards", "--worker", target, str(k), str(processes),
         str(moves)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root)
        for k in range(processes)]
    for child in children:  # every worker has set up its games
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    t0 = time.perf_counter()
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    results = []
    for child in children:
        out, _ = child.communicate()
        if child.returncode:
            raise RuntimeError(f"worker failed ({child.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    wall = time.perf_counter() - t0
    total = sum(r["moves"] for r in results)
    return {"processes": processes, "moves": total, "seconds": wall,
            "moves_per_second": total / wall}


async def seed(target: str, stored: int) -> None:
    """Fill the database with ``stored`` finished games, copies of one played template."""
    service = await open_service(target)
    template = await new_game(service, guild_on(0, 1, 0), 1)
    await play(service, [template], TEMPLATE_MOVES)
    await service.repo.close()
    async with aiosqlite.connect(target) as db:
        base = int((await (await db.execute("SELECT MAX(id) FROM games")).fetchone())[0])
        ids = [(base + n, 100_000_000 + n, template) for n in range(1, stored + 1)]
        await db.executemany(
            "INSERT INTO games (id, guild_id, channel_id, game_key, status, creator_id, "
            "options, seed, max_seats, state, version, reminder_hours, created_at, "
            "updated_at, finished_at) SELECT ?, guild_id, ?, game_key, 'finished', creator_id, "
            "options, seed, max_seats, state, version, reminder_hours, created_at, updated_at, "
            "updated_at FROM games WHERE id = ?", ids)
        pairs = [(i, template) for i, _, _ in ids]
        await db.executemany("INSERT INTO seats (game_id, seat, user_id, name) "
                             "SELECT ?, seat, user_id, name FROM seats WHERE game_id = ?", pairs)
        await db.executemany(
            "INSERT INTO actions (game_id, seq, seat, action, public_events, private_events, "
            "turn_end, created_at) SELECT ?, seq, seat, action, public_events, private_events, "
            "turn_end, created_at FROM actions WHERE game_id = ?", pairs)
        await db.commit()


async def cost_with_stored(target: str, stored: int, moves: int) -> dict[str, float]:
    """p50/p99 ms of a move on a database already holding ``stored`` games."""
    t0 = time.perf_counter()
    await seed(target, stored)
    seeded = time.perf_counter() - t0
    service = await open_service(target)
    games = [await new_game(service, guild_on(0, 1, n), 2_000 + n) for n in range(4)]
    spent = sorted(await play(service, games, moves))
    await service.repo.close()
    return {"stored": stored, "moves": len(spent), "seed_s": seeded,
            "p50_ms": statistics.median(spent), "p99_ms": spent[int(0.99 * (len(spent) - 1))],
            "mean_ms": statistics.fmean(spent)}


def machine() -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{platform.machine()}, {os.cpu_count()} CPUs, Python "
            f"{platform.python_version()}, load average {load} (1/5/15 min) at the start")


def section(runs: Sequence[dict[str, float]], costs: Sequence[dict[str, float]], where: str,
            setting: str) -> str:
    lines = [
        FIGURES, "",
        f"Measured on {setting}; database: {where}. Moves are random AI moves of "
        f"{registry.get(GAME).spec.key} through the service (load, check, apply, durable save "
        "with the turn message's outbox row; no image, as in the bot, where the deliverer "
        "draws it).", "",
        "| processes | moves | seconds | moves per second | range of the runs |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {r['processes']:.0f} | {r['moves']:.0f} | {r['seconds']:.1f} | "
              f"{r['moves_per_second']:.0f} | {r['low']:.0f}–{r['high']:.0f} |" for r in runs]
    lines += ["", "| stored games | seeding (s) | move p50 (ms) | move p99 (ms) | mean (ms) |",
              "|---|---|---|---|---|"]
    lines += [f"| {c['stored']:,.0f} | {c['seed_s']:.1f} | {c['p50_ms']:.1f} | "
              f"{c['p99_ms']:.1f} | {c['mean_ms']:.1f} |" for c in costs]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help="a few seconds, for tests")
    parser.add_argument("--worker", nargs=4, metavar=("TARGET", "SHARD", "COUNT", "MOVES"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        target, shard, count, moves = args.worker
        asyncio.run(worker(target, int(shard), int(count), int(moves)))
        return 0
    setting = machine()
    moves, stored, repeats = (20, (100,), 1) if args.tiny else (1500, STORED, REPEATS)
    runs, costs = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for processes in (1, 2):
            tries = []
            for n in range(repeats):
                target = str(Path(tmp) / f"throughput{processes}-{n}.sqlite3")
                asyncio.run(open_and_close(target))  # migrated once, before the workers
                tries.append(throughput(target, processes, moves))
            runs.append(sorted(tries, key=lambda r: r["moves_per_second"])[len(tries) // 2]
                        | {"low": min(r["moves_per_second"] for r in tries),
                           "high": max(r["moves_per_second"] for r in tries)})
        for count in stored:
            target = str(Path(tmp) / f"stored{count}.sqlite3")
            costs.append(asyncio.run(cost_with_stored(target, count, moves // 3)))
    setting += f"; {os.getloadavg()[0]:.1f} at the end"
    text = section(runs, costs, "SQLite (one file, WAL)", setting)
    print(text)
    if not args.tiny:
        write_section(text)
    return 0


def write_section(text: str) -> None:
    """Replace the figures section (the end) of docs/DEPLOY.md with ``text``."""
    doc = Path(__file__).resolve().parent.parent / "docs" / "DEPLOY.md"
    kept = doc.read_text(encoding="utf-8").split(FIGURES)[0]
    doc.write_text(kept + text, encoding="utf-8")


async def open_and_close(target: str) -> None:
    await (await SqliteRepository.open(target)).close()


if __name__ == "__main__":
    raise SystemExit(main())
