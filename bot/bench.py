"""``python -m bot.bench``: the performance figures of docs/PERFORMANCE.md, measured.

* engine: complete random games per second, per registered game (rules only);
* render: drawing + PNG encoding of spectator boards, p50/p99 ms and bytes;
* service: one full move (load, check, apply, durable save, turn batch, board image) on a
  real SQLite file, p50/p99 ms;
* memory: resident set size of a fresh process holding 1,000 stored games (measured in a
  child process so the other phases do not inflate it);
* long games (:mod:`bot.bench_history`): panel, stale click, undo and replay frame at log
  lengths 10, 1,000 and 5,000, and the import of the largest accepted file;
* crowd: a burst of 200 interactions at once (panel opens, board requests, moves) against the
  real bot through the fake Discord (``tests/e2e/crowd.py``, run in a fresh interpreter):
  how many were acknowledged, and how fast they were acknowledged and answered.

``--tiny`` runs every phase in a few seconds (used by the test suite).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot import bench_history
from bot.core.render import render_board, render_sync
from bot.core.service import GameService
from bot.core.storage import SqliteRepository
from engines import registry
from engines.ai import random_action
from engines.base import TURN_END, Engine

log = logging.getLogger("bot.bench")
AI_SECTION = "## AI players"  # written by make bench-ai (bot/bench_ai.py), kept here
TARGETS = {
    "move_p99_ms": 150.0,
    "render_p50_ms": 60.0,
    "image_max_bytes": 1_500_000,
    "first_game_ms": 50.0,  # the first registered game, engine only
    "rss_1000_games_mb": 200.0,
    "crowd_ack_p99_ms": 500.0,
    "crowd_answer_p99_ms": 5000.0,
}


@dataclass(frozen=True, slots=True)
class Mode:
    engine_seconds: float
    engine_min_games: int
    render_samples: int
    service_moves: int
    stored_games: int


FULL = Mode(engine_seconds=5.0, engine_min_games=20, render_samples=60, service_moves=800,
            stored_games=1000)
TINY = Mode(engine_seconds=0.0, engine_min_games=1, render_samples=3, service_moves=15,
            stored_games=10)


@dataclass(slots=True)
class GameFigures:
    key: str
    seats: int
    games_per_second: float = 0.0
    game_ms_mean: float = 0.0
    game_ms_max: float = 0.0
    moves_per_game: float = 0.0
    render_p50_ms: float | None = None
    render_p99_ms: float | None = None
    image_max_bytes: int | None = None
    image_mean_bytes: float | None = None
    image_size: tuple[int, int] | None = None
    move_p50_ms: float | None = None
    move_p99_ms: float | None = None
    turn_move_p50_ms: float | None = None
    turn_move_p99_ms: float | None = None
    moves_measured: int = 0
    notes: list[str] = field(default_factory=list)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


def random_game(engine: Engine[Any], seats: int, seed: int,
                on_turn_end: Callable[[Any], None] | None = None) -> tuple[Any, int]:
    """Play one complete game with uniformly random offered actions; (final state, moves)."""
    rng = random.Random(seed)
    state = engine.new_game(seats, seed)
    moves = 0
    while not engine.is_over(state):
        seat = min(engine.active_players(state))
        action = random_action(engine, state, seat, rng)
        outcome = engine.apply(state, seat, action)
        state = outcome.state
        moves += 1
        if on_turn_end is not None and any(e.key == TURN_END for e in outcome.events):
            on_turn_end(state)
        if moves > 100_000:
            raise RuntimeError(f"{engine.spec.key}: a random game did not end")
    return state, moves


def bench_engine(engine: Engine[Any], seats: int, mode: Mode, figures: GameFigures) -> None:
    durations: list[float] = []
    moves: list[int] = []
    started = time.perf_counter()
    seed = 0
    while (len(durations) < mode.engine_min_games
           or time.perf_counter() - started < mode.engine_seconds):
        t0 = time.perf_counter()
        _, n = random_game(engine, seats, seed)
        durations.append(time.perf_counter() - t0)
        moves.append(n)
        seed += 1
    figures.games_per_second = len(durations) / sum(durations)
    figures.game_ms_mean = 1000 * statistics.fmean(durations)
    figures.game_ms_max = 1000 * max(durations)
    figures.moves_per_game = statistics.fmean(moves)


def bench_render(engine: Engine[Any], seats: int, mode: Mode, figures: GameFigures) -> None:
    views: list[dict[str, Any]] = [engine.view(engine.new_game(seats, 1), None)]
    random_game(engine, seats, 1, lambda s: views.append(engine.view(s, None)))
    step = max(1, len(views) // mode.render_samples)
    sample = views[::step][:mode.render_samples]
    names = [f"Player {i + 1}" for i in range(seats)]
    render_sync(engine.spec.key, sample[0], names, "en")  # fonts and sprites load once
    times, sizes = [], []
    for view in sample:
        t0 = time.perf_counter()
        data = render_sync(engine.spec.key, view, names, "en")
        times.append(1000 * (time.perf_counter() - t0))
        sizes.append(len(data))
    import io

    from PIL import Image  # only to read the size back; rendering itself is in renderers/

    figures.image_size = Image.open(io.BytesIO(data)).size
    figures.render_p50_ms = percentile(times, 50)
    figures.render_p99_ms = percentile(times, 99)
    figures.image_max_bytes = max(sizes)
    figures.image_mean_bytes = statistics.fmean(sizes)


async def bench_service(engine: Engine[Any], seats: int, mode: Mode, figures: GameFigures) -> None:
    """Full service moves (AI seats, same path as a click) with real rendering and SQLite."""
    key = engine.spec.key
    all_ms: list[float] = []
    turn_ms: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        repo = await SqliteRepository.open(Path(tmp) / "bench.sqlite3")
        service = GameService(repo, render=render_board)
        channel = 0
        while len(all_ms) < mode.service_moves:
            channel += 1
            game = await service.create(guild_id=1, channel_id=channel, game_key=key,
                                        creator_id=1, creator_name="Bench", seats=seats,
                                        seed=channel)
            for _ in range(seats - 1):
                await service.add_ai(game.id, 1, "random")
            await service.start(game.id, 1)
            # seat 0 is handed to a random AI too (the takeover level is ``normal`` by
            # default, whose search time is no part of a move's cost)
            await service.set_ai_level(game.id, "random", 1)
            await service.remove_seat(game.id, 0, by_user_id=1, is_admin=True)
            moves = service.ai_moves(game.id)
            while len(all_ms) < mode.service_moves:
                t0 = time.perf_counter()
                try:
                    result = await anext(moves)
                except StopAsyncIteration:
                    break
                ms = 1000 * (time.perf_counter() - t0)
                all_ms.append(ms)
                if result.turn_completed:
                    turn_ms.append(ms)
            await moves.aclose()
        await repo.close()
    figures.moves_measured = len(all_ms)
    figures.move_p50_ms = percentile(all_ms, 50)
    figures.move_p99_ms = percentile(all_ms, 99)
    if turn_ms:
        figures.turn_move_p50_ms = percentile(turn_ms, 50)
        figures.turn_move_p99_ms = percentile(turn_ms, 99)


def rss_mb() -> tuple[float, float]:
    """(current, peak) resident set size in MB, from /proc/self/status."""
    fields: dict[str, float] = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]


async def store_games(count: int, path: Path) -> dict[str, float]:
    """Create ``count`` started games of the first registered game at its most seats and
    load them all back."""
    key = registry.entries()[0].key
    seats = registry.get(key).spec.max_players

    async def no_image(*_: object) -> bytes:
        return b""

    before, _ = rss_mb()
    repo = await SqliteRepository.open(path)
    service = GameService(repo, render=no_image)
    t0 = time.perf_counter()
    for channel in range(1, count + 1):
        game = await service.create(guild_id=1, channel_id=channel, game_key=key, creator_id=1,
                                    creator_name="Bench", seats=seats, seed=channel)
        for _ in range(seats - 1):
            await service.add_ai(game.id, 1, "random")
        await service.start(game.id, 1)
    stored_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    awaiting = await service.games_awaiting_ai()  # loads every state back
    mine = await service.mine(1)
    load_s = time.perf_counter() - t0
    await repo.close()
    after, peak = rss_mb()
    return {"games": count, "game_key_seats": seats, "rss_before_mb": before,
            "rss_after_mb": after, "rss_peak_mb": peak, "store_s": stored_s, "load_all_s": load_s,
            "db_mb": sum(p.stat().st_size for p in path.parent.iterdir()) / 2 ** 20,
            "awaiting_ai": len(awaiting), "mine": len(mine)}


def measure_rss(count: int) -> dict[str, float]:
    """Run :func:`store_games` in a fresh interpreter so its RSS is its own."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [sys.executable, "-m", "bot.bench", "--store-games", str(count), "--db",
             str(Path(tmp) / "rss.sqlite3")],
            check=True, capture_output=True, text=True,
            cwd=Path(__file__).resolve().parent.parent)
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def measure_crowd(tiny: bool) -> dict[str, Any]:
    """Run the crowd burst (``python -m tests.e2e.crowd``) in a fresh interpreter: the fake
    Discord it needs lives with the end-to-end tests."""
    out = subprocess.run(
        [sys.executable, "-m", "tests.e2e.crowd", *(["--tiny"] if tiny else [])],
        check=True, capture_output=True, text=True,
        cwd=Path(__file__).resolve().parent.parent)
    figures: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def crowd_section(crowd: Mapping[str, Any], render_p50_ms: float | None = None) -> list[str]:
    """The crowd burst's figures as Markdown."""
    mix, every = crowd["mix"], crowd["all"]
    scale = ("" if render_p50_ms is None else
             f" For scale, drawing and encoding one board took {render_p50_ms:.0f} ms at the "
             "median in this same run (Per game, above).")
    load = crowd["load_average"]
    lines = [
        "## A crowd at once",
        "",
        f"{crowd['interactions']} interactions sent at once — {mix['panels']} \"My panel\" "
        f"clicks, {mix['boards']} `/game board`, {mix['moves']} moves on private panels — "
        f"to the real bot (discord.py, SQLite, Pillow) through the fake Discord, at "
        f"{crowd['setting']}. Discord drops an interaction not acknowledged within 3 s.",
        "",
        f"**{every['acked']} of {every['count']} acknowledged**, "
        f"{every['answered']} answered. The machine's 1-minute load average was "
        f"{load[0]:.1f} before and {load[1]:.1f} after, on {crowd['cpus']} CPUs: "
        "it was shared with other work while this was measured." + scale,
        "",
        "| Interactions | Count | Acknowledged | Refused | Ack p50 / p99 / max | "
        "Answer seen p50 / p99 / max |",
        "|---|---|---|---|---|---|",
    ]
    for kind in crowd["kinds"]:
        f = crowd.get(kind)
        if f is None or not f["count"]:
            continue
        lines.append(
            f"| {kind} | {f['count']} | {f['acked']} | {f.get('refused', '—')} | "
            f"{_fmt(f['ack_p50_ms'], ' ms', 0)} / "
            f"{_fmt(f['ack_p99_ms'], ' ms', 0)} / {_fmt(f['ack_max_ms'], ' ms', 0)} | "
            f"{_fmt(f['answer_p50_ms'], ' ms', 0)} / {_fmt(f['answer_p99_ms'], ' ms', 0)} / "
            f"{_fmt(f['answer_max_ms'], ' ms', 0)} |")
    cache = crowd["image_cache"]
    lines += [
        "",
        f"Images drawn during the whole run (tables' set-up included): {cache['draws']}; "
        f"served from the image cache without drawing: {cache['hits']} "
        f"({cache['entries']} kept, {cache['bytes'] / 2 ** 20:.1f} MiB). "
        f"Errors logged by the bot: {len(crowd['bot_errors'])}.",
        "",
        "- *Acknowledged*: the bot's first answer reached the fake Discord (a deferral "
        "\"thinking…\" or a message), timed from the moment the interaction was sent.",
        "- *Answer seen*: the first message, edit or followup the user could read; "
        "*Refused*: answers that were a refusal (⚠️), e.g. a click on a panel made out of "
        "date by another player's move.",
        "- The fake Discord and the crowd run in a child process (Discord is another "
        "machine); both share the same CPUs as the bot here.",
        "",
    ]
    return lines


def _fmt(value: float | None, unit: str = "", digits: int = 1) -> str:
    return "—" if value is None else f"{value:,.{digits}f}{unit}"


def _verdict(ok: bool | None) -> str:
    return "—" if ok is None else ("✅" if ok else "❌")


def report(games: Sequence[GameFigures], memory: Mapping[str, float], *, tiny: bool,
           crowd: Mapping[str, Any] | None = None) -> str:
    """The Markdown of docs/PERFORMANCE.md."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    cpus = os.cpu_count()
    lines = [
        "# Performance",
        "",
        "Measured by `python -m bot.bench` (regenerates this file; `make bench`). "
        "Machine: " f"{platform.machine()}, {cpus} CPU(s), Python {platform.python_version()}, "
        f"SQLite file on local disk; {when}; 1-minute load average at the end "
        f"{os.getloadavg()[0]:.1f} (the times are wall-clock: they grow with the load)."
        + (" **Tiny run (not representative).**" if tiny else ""),
        "",
        "## Targets",
        "",
        "| Figure | Target | Measured | |",
        "|---|---|---|---|",
    ]
    first = next((g for g in games if g.key == registry.entries()[0].key), None)
    moves_p99 = [g.move_p99_ms for g in games if g.move_p99_ms is not None]
    renders_p50 = [g.render_p50_ms for g in games if g.render_p50_ms is not None]
    images = [g.image_max_bytes for g in games if g.image_max_bytes is not None]
    rows = [
        ("Full service move, p99", f"≤ {TARGETS['move_p99_ms']:.0f} ms",
         max(moves_p99, default=None), " ms", TARGETS["move_p99_ms"]),
        ("Render + PNG encode, p50", f"≤ {TARGETS['render_p50_ms']:.0f} ms",
         max(renders_p50, default=None), " ms", TARGETS["render_p50_ms"]),
        ("Largest board image", "≤ 1.5 MB",
         None if not images else max(images) / 1e6, " MB", TARGETS["image_max_bytes"] / 1e6),
        (f"Whole random {registry.entries()[0].key} game (engine)",
         f"≤ {TARGETS['first_game_ms']:.0f} ms", first.game_ms_mean if first else None, " ms",
         TARGETS["first_game_ms"]),
        (f"RSS with {int(memory['games']):,} stored games",
         f"< {TARGETS['rss_1000_games_mb']:.0f} MB", memory["rss_peak_mb"], " MB",
         TARGETS["rss_1000_games_mb"]),
    ]
    if crowd is not None:
        every = crowd["all"]
        lines.append(f"| Crowd of {every['count']}: acknowledged within 3 s | all | "
                     f"{every['acked']} | {_verdict(every['acked'] == every['count'])} |")
        rows += [
            ("Crowd: acknowledgement, p99", f"≤ {TARGETS['crowd_ack_p99_ms']:.0f} ms",
             every["ack_p99_ms"], " ms", TARGETS["crowd_ack_p99_ms"]),
            ("Crowd: answer seen, p99", f"≤ {TARGETS['crowd_answer_p99_ms']:.0f} ms",
             every["answer_p99_ms"], " ms", TARGETS["crowd_answer_p99_ms"]),
        ]
    for name, target, value, unit, limit in rows:
        ok = None if value is None else value <= limit
        lines.append(f"| {name} | {target} | {_fmt(value, unit, 2 if unit == ' MB' else 1)} "
                     f"| {_verdict(ok)} |")
    lines += [
        "",
        "## Per game",
        "",
        "| Game | Seats | Random games/s | ms/game (mean, max) | Moves/game | "
        "Render p50 / p99 | Image bytes (mean, max) | Move p50 / p99 | "
        "Turn-ending move p50 / p99 | Moves timed |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for g in games:
        image = ("—" if g.image_max_bytes is None else
                 f"{g.image_mean_bytes or 0:,.0f}, {g.image_max_bytes:,}"
                 f" ({g.image_size[0]}×{g.image_size[1]})" if g.image_size else "")
        lines.append(
            f"| {g.key} | {g.seats} | {g.games_per_second:,.1f} | "
            f"{g.game_ms_mean:,.1f}, {g.game_ms_max:,.1f} | {g.moves_per_game:,.0f} | "
            f"{_fmt(g.render_p50_ms, ' ms')} / {_fmt(g.render_p99_ms, ' ms')} | {image} | "
            f"{_fmt(g.move_p50_ms, ' ms')} / {_fmt(g.move_p99_ms, ' ms')} | "
            f"{_fmt(g.turn_move_p50_ms, ' ms')} / {_fmt(g.turn_move_p99_ms, ' ms')} | "
            f"{g.moves_measured}{' — ' + '; '.join(g.notes) if g.notes else ''} |")
    if crowd is not None:
        lines += ["", *crowd_section(crowd, max(renders_p50, default=None))]
    lines += [
        "",
        "## Memory",
        "",
        f"A fresh process created {int(memory['games']):,} started {int(memory['game_key_seats'])}"
        f"-seat games ({memory['store_s']:.1f} s), then loaded every one back "
        f"({memory['load_all_s']:.1f} s). RSS {memory['rss_before_mb']:.0f} MB after imports, "
        f"{memory['rss_after_mb']:.0f} MB after (peak {memory['rss_peak_mb']:.0f} MB); "
        f"database {memory['db_mb']:.1f} MB. Games live in SQLite, not in memory: the "
        "service keeps no per-game state beyond a lock, so RSS is that of the interpreter and "
        "its libraries plus SQLite's page cache.",
        "",
        "## How the figures are taken",
        "",
        "- *Random games/s*: `engine.new_game` then uniformly random legal actions through the "
        "checked `apply` until the end, in one thread.",
        "- *Render*: `renderers.<game>.render` + `renderers.common.encode_png` on spectator "
        "views sampled across a random game (the bot runs this in a thread, 2 at a time).",
        "- *Full service move*: one `GameService.ai_moves` step — the same path as a player's "
        "click: load the snapshot, apply, one SQLite transaction (log row + "
        "`UPDATE … WHERE version = ?`), the turn's public events and, when a turn ends, the "
        "board image. Most moves do not end a turn; the turn-ending column shows those alone.",
        "",
    ]
    return "\n".join(lines)


async def run(mode: Mode) -> tuple[list[GameFigures], dict[str, float]]:
    """Every phase but the crowd (which runs in its own interpreter, see :func:`main`)."""
    figures = []
    for key, engine in sorted(registry.games().items()):
        seats = engine.spec.max_players
        g = GameFigures(key, seats)
        bench_engine(engine, seats, mode, g)
        log.info("%s engine: %.1f games/s, %.1f ms/game", key, g.games_per_second,
                 g.game_ms_mean)
        bench_render(engine, seats, mode, g)
        log.info("%s render: p50 %s ms, p99 %s ms, max %s bytes", key, _fmt(g.render_p50_ms),
                 _fmt(g.render_p99_ms), g.image_max_bytes)
        await bench_service(engine, seats, mode, g)
        log.info("%s service move: p50 %s ms, p99 %s ms (%d moves)", key,
                 _fmt(g.move_p50_ms), _fmt(g.move_p99_ms), g.moves_measured)
        figures.append(g)
    memory = measure_rss(mode.stored_games)
    log.info("memory: %d games, RSS peak %.0f MB", memory["games"], memory["rss_peak_mb"])
    return figures, memory


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench", description=__doc__)
    parser.add_argument("--tiny", action="store_true", help="a few seconds, for tests")
    parser.add_argument("--output", type=Path, default=Path("docs/PERFORMANCE.md"))
    parser.add_argument("--store-games", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.store_games is not None:  # the child process of measure_rss
        figures = asyncio.run(store_games(args.store_games, args.db))
        sys.stdout.write(json.dumps(figures) + "\n")
        return 0
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    for noisy in ("bot.core.service", "bot.core.storage.sqlite", "bot.core.undo",
                  "bot.core.history"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    games, memory = asyncio.run(run(TINY if args.tiny else FULL))
    lengths, imported, key = asyncio.run(bench_history.run(tiny=args.tiny))
    crowd = measure_crowd(args.tiny)
    every = crowd["all"]
    log.info("crowd: %d/%d acknowledged, ack p99 %s ms, answer p99 %s ms", every["acked"],
             every["count"], _fmt(every["ack_p99_ms"]), _fmt(every["answer_p99_ms"]))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    text = (report(games, memory, tiny=args.tiny, crowd=crowd)
            + bench_history.section(lengths, imported, key))
    old = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
    if AI_SECTION in old:  # the AI figures come from make bench-ai: keep them
        text = text.rstrip("\n") + "\n\n" + old[old.index(AI_SECTION):]
    args.output.write_text(text, encoding="utf-8")
    log.info("wrote %s", args.output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
