"""``python -m bot.bench_shards``: the figures of docs/DEPLOY.md, measured on SQLite and on
PostgreSQL.

* throughput: moves per second with 1 and then 2 processes over one database. Each process
  (a fresh interpreter, like a bot process) plays random AI moves through the real service —
  load, check, apply, durable save with its outbox row, as a click does — round-robin over
  its own games, all in the guilds of its shard; the processes start together and the
  figure is all their moves over the wall time until the last one is done;
* stored games: the cost of one such move when the database already holds 10³, 10⁴ and
  10⁵ games (copied in bulk from a played template game: its row, seats and log), p50 and
  p99 ms.

Each run gets a fresh database: a new SQLite file; on PostgreSQL a new database
(``ludo_bench_…``, dropped at the end) on the server of ``LUDO_DATABASE`` when that is a
PostgreSQL address (its role needs ``CREATEDB``; the database it names is never written), else
on a real server the bench starts itself (:mod:`bot.postgres_server`, with the server's
durable defaults). ``--tiny`` runs in seconds (tests); ``--backend`` limits the run to one.
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
from collections.abc import Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiosqlite

from bot.core.service import GameService
from bot.core.storage import is_postgres, open_repository
from bot.postgres_server import PostgresServer, find_bindir
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
BACKENDS = ("sqlite", "postgresql")
STORED_CHANNELS = 100_000_000  # channel ids of the stored copies (each its own channel)
REPLACED = 10_000_000  # channel ranges of the games replacing finished ones (see play)


def guild_on(shard: int, count: int, n: int) -> int:
    """A guild id that Discord places on ``shard`` of ``count`` (bot.core.shards rule)."""
    return ((n * count + shard) << 22) | 1


async def open_service(target: str) -> GameService:
    repo = await open_repository(target)
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


async def play(service: GameService, games: list[int], moves: int,
               channels: int) -> list[float]:
    """``moves`` AI moves, one per game in turn; ms each. A finished game is replaced by a
    new one in channel ``channels + 1``, ``+ 2``, …: each caller on a database (each
    process) passes its own range, so no two ever open a game in the same channel."""
    spent: list[float] = []
    streams = {g: service.ai_moves(g) for g in games}
    channel = channels
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
    try:  # closed even on a failure, else its connection's thread keeps the process alive
        games = [await new_game(service, guild_on(shard, count, n), 1_000 * (shard + 1) + n)
                 for n in range(GAMES_PER_PROCESS)]
        print("ready", flush=True)
        sys.stdin.readline()
        t0 = time.perf_counter()
        spent = await play(service, games, moves, REPLACED * (shard + 1))
        print(json.dumps({"moves": len(spent), "seconds": time.perf_counter() - t0}),
              flush=True)
    finally:
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


def copies(template: int, base: int, series: str) -> list[str]:
    """The SQL (the same on both backends) copying the ``template`` game — its row, seats
    and log — as finished game ``base + k`` for each ``k`` of ``series``, a FROM item named
    ``n(k)``."""
    return [
        "INSERT INTO games (id, guild_id, channel_id, game_key, status, creator_id, options, "
        "seed, max_seats, state, version, moves, ai_level, reminder_hours, created_at, "
        f"updated_at, finished_at) SELECT {base} + n.k, guild_id, {STORED_CHANNELS} + n.k, "
        "game_key, 'finished', creator_id, options, seed, max_seats, state, version, moves, "
        "ai_level, reminder_hours, created_at, updated_at, updated_at "
        f"FROM games, {series} WHERE id = {template}",
        "INSERT INTO seats (game_id, seat, user_id, name, ai_level) "
        f"SELECT {base} + n.k, seat, user_id, name, ai_level FROM seats, {series} "
        f"WHERE game_id = {template}",
        "INSERT INTO actions (game_id, seq, seat, action, public_events, private_events, "
        f"turn_end, irreversible, rewind_to, created_at) SELECT {base} + n.k, seq, seat, "
        "action, public_events, private_events, turn_end, irreversible, rewind_to, created_at "
        f"FROM actions, {series} WHERE game_id = {template}",
    ]


async def copy_sqlite(target: str, template: int, stored: int) -> None:
    """:func:`copies` in one transaction; SQLite has no ``generate_series``: a recursive
    common table expression counts instead."""
    series = (f"(WITH RECURSIVE s(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM s "
              f"WHERE k < {stored}) SELECT k FROM s) AS n")
    async with aiosqlite.connect(target) as db:
        (base,) = await (await db.execute("SELECT MAX(id) FROM games")).fetchone() or (0,)
        for sql in copies(template, base, series):
            await db.execute(sql)
        await db.commit()


async def copy_postgres(target: str, template: int, stored: int) -> None:
    """:func:`copies` in one transaction over ``generate_series``; the ids are explicit, so
    the games' identity sequence is moved past them (the next game the bench creates takes
    the next free id). ANALYZE then gives the planner the statistics autovacuum would
    gather soon after such a load in a deployment."""
    import asyncpg

    conn = await asyncpg.connect(target)
    try:
        async with conn.transaction():
            base = int(await conn.fetchval("SELECT MAX(id) FROM games"))
            for sql in copies(template, base, f"generate_series(1, {stored}) AS n(k)"):
                await conn.execute(sql)
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), MAX(id)) FROM games")
        await conn.execute("ANALYZE games, seats, actions")
    finally:
        await conn.close()


async def seed(backend: Backend, target: str, stored: int) -> None:
    """Fill the database with ``stored`` finished games, copies of one played template."""
    service = await open_service(target)
    template = await new_game(service, guild_on(0, 1, 0), 1)
    await play(service, [template], TEMPLATE_MOVES, REPLACED)
    await service.repo.close()
    await backend.copy(target, template, stored)


async def cost_with_stored(backend: Backend, stored: int, moves: int) -> dict[str, float]:
    """p50/p99 ms of a move on a database already holding ``stored`` games."""
    target = await backend.fresh(f"stored{stored}")
    t0 = time.perf_counter()
    await seed(backend, target, stored)
    seeded = time.perf_counter() - t0
    service = await open_service(target)
    games = [await new_game(service, guild_on(0, 1, n), 2_000 + n) for n in range(4)]
    spent = sorted(await play(service, games, moves, 2 * REPLACED))
    await service.repo.close()
    return {"stored": stored, "moves": len(spent), "seed_s": seeded,
            "p50_ms": statistics.median(spent), "p99_ms": spent[int(0.99 * (len(spent) - 1))],
            "mean_ms": statistics.fmean(spent)}


async def open_and_close(target: str) -> None:
    """Create (SQLite) and migrate the database: once, before the workers open it."""
    await (await open_repository(target)).close()


@dataclass
class Backend:
    """Where a run's fresh databases come from, and how stored games are copied in."""

    label: str  # the figures' name for it
    fresh: Callable[[str], Coroutine[Any, Any, str]]  # name -> a new, migrated database
    copy: Callable[[str, int, int], Coroutine[Any, Any, None]]  # address, template, copies
    runs: list[dict[str, float]] = field(default_factory=list)
    costs: list[dict[str, float]] = field(default_factory=list)


@contextmanager
def sqlite_backend() -> Iterator[Backend]:
    """A new SQLite file per run (WAL, as the bot opens it), deleted at the end."""
    with tempfile.TemporaryDirectory() as tmp:
        async def fresh(name: str) -> str:
            target = str(Path(tmp) / f"{name}.sqlite3")
            await open_and_close(target)
            return target

        yield Backend("SQLite (one file, WAL)", fresh, copy_sqlite)


@contextmanager
def postgres_backend() -> Iterator[Backend]:
    """A new database per run on the server of ``LUDO_DATABASE``, else on a server started
    here; every database made is dropped at the end (and the server stopped)."""
    given = os.environ.get("LUDO_DATABASE", "")
    server: PostgresServer | None = None
    if is_postgres(given):
        admin, where = given, "the server of LUDO_DATABASE"
    else:
        bindir = find_bindir()
        if bindir is None:
            raise SystemExit("PostgreSQL is not installed (no initdb/pg_ctl/postgres): set "
                             "LUDO_DATABASE to a PostgreSQL server, or use --backend sqlite")
        server = PostgresServer(bindir)
        try:
            server.start(durable=True)
        except BaseException:
            server.stop()
            raise
        admin, where = server.dsn(), "a local server started by the bench, default settings"
    made: list[str] = []

    async def fresh(name: str) -> str:
        database = f"ludo_bench_{name}"
        await _admin(admin, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)",
                     f"CREATE DATABASE {database}")
        made.append(database)
        target = urlunsplit(urlsplit(admin)._replace(path=f"/{database}"))
        await open_and_close(target)
        return target

    try:
        yield Backend(f"PostgreSQL ({where})", fresh, copy_postgres)
    finally:
        try:
            asyncio.run(_admin(admin, *(f"DROP DATABASE IF EXISTS {d} WITH (FORCE)"
                                        for d in made)))
        finally:
            if server is not None:
                server.stop()


async def _admin(dsn: str, *statements: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        for sql in statements:
            await conn.execute(sql)
    finally:
        await conn.close()


BACKEND_OF = {"sqlite": sqlite_backend, "postgresql": postgres_backend}


def measure(backend: Backend, moves: int, stored: Sequence[int], repeats: int) -> None:
    """Both tables' figures for one backend, into ``backend.runs`` and ``backend.costs``."""
    for processes in (1, 2):
        tries = []
        for n in range(repeats):
            sample_load()
            target = asyncio.run(backend.fresh(f"throughput{processes}_{n}"))
            tries.append(throughput(target, processes, moves))
        backend.runs.append(sorted(tries, key=lambda r: r["moves_per_second"])[len(tries) // 2]
                            | {"low": min(r["moves_per_second"] for r in tries),
                               "high": max(r["moves_per_second"] for r in tries)})
    for count in stored:
        sample_load()
        backend.costs.append(asyncio.run(cost_with_stored(backend, count, moves // 3)))


LOADS: list[float] = []  # the 1-minute load average, sampled at each measurement's start


def sample_load() -> None:
    LOADS.append(os.getloadavg()[0])


def machine() -> str:
    low, high = min(LOADS), max(LOADS)
    return (f"{platform.machine()}, {os.cpu_count()} CPUs, Python "
            f"{platform.python_version()}; the machine is shared: its 1-minute load average "
            f"was {low:.1f}–{high:.1f} during the run (sampled at each measurement)")


def section(backends: Sequence[Backend], setting: str) -> str:
    lines = [
        FIGURES, "",
        f"Measured on {setting}. Moves are random AI moves of "
        f"{registry.get(GAME).spec.key} through the service (load, check, apply, durable save "
        "with the turn message's outbox row; no image, as in the bot, where the deliverer "
        "draws it). Databases: " + "; ".join(b.label for b in backends) + ".", "",
        "| backend | processes | moves | seconds | moves per second | range of the runs |",
        "|---|---|---|---|---|---|",
    ]
    lines += [f"| {b.label.split(' (')[0]} | {r['processes']:.0f} | {r['moves']:.0f} | "
              f"{r['seconds']:.1f} | {r['moves_per_second']:.0f} | "
              f"{r['low']:.0f}–{r['high']:.0f} |" for b in backends for r in b.runs]
    lines += ["", "| backend | stored games | seeding (s) | move p50 (ms) | move p99 (ms) "
              "| mean (ms) |", "|---|---|---|---|---|---|"]
    lines += [f"| {b.label.split(' (')[0]} | {c['stored']:,.0f} | {c['seed_s']:.1f} | "
              f"{c['p50_ms']:.1f} | {c['p99_ms']:.1f} | {c['mean_ms']:.1f} |"
              for b in backends for c in b.costs]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help="a few seconds, for tests")
    parser.add_argument("--backend", choices=BACKENDS, action="append",
                        help="measure only this backend (default: both; the doc is written "
                             "only when both are measured)")
    parser.add_argument("--worker", nargs=4, metavar=("TARGET", "SHARD", "COUNT", "MOVES"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        target, shard, count, moves = args.worker
        asyncio.run(worker(target, int(shard), int(count), int(moves)))
        return 0
    moves, stored, repeats = (20, (100,), 1) if args.tiny else (1500, STORED, REPEATS)
    LOADS.clear()
    measured = []
    for name in args.backend or BACKENDS:
        with BACKEND_OF[name]() as backend:
            measure(backend, moves, stored, repeats)
        measured.append(backend)
    sample_load()
    text = section(measured, machine())
    print(text)
    if not args.tiny and len(measured) == len(BACKENDS):
        write_section(text)
    return 0


def write_section(text: str) -> None:
    """Replace the figures section of docs/DEPLOY.md (up to the next section) with ``text``."""
    doc = Path(__file__).resolve().parent.parent / "docs" / "DEPLOY.md"
    before, _, after = doc.read_text(encoding="utf-8").partition(FIGURES)
    rest = after.find("\n## ")
    doc.write_text(before + text + ("" if rest < 0 else after[rest:]), encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
