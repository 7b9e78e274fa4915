"""Benchmark of the costs that used to grow with a game (part of ``python -m bot.bench``).

A table of the first registered game (by key), every seat human and as many seats as it
takes, is driven through the real service on a SQLite file
until its log holds 10, 1,000 and 5,000 entries: real moves first, then a move and its
take-back over and over (a game ends long before 5,000 effective moves, but its log does
not). At each length it times what a player's click costs — opening a panel, a stale click,
an undo, a replay frame — and, for comparison, what reading the whole log or replaying from
the setup costs (the way these worked before snapshots). Then it imports the largest file
``/game import`` accepts: time, peak memory and the longest event-loop stall meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import logging
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.core.history import MAX_IMPORT_BYTES, History, sign
from bot.core.replay import effective, state_at
from bot.core.service import GameService
from bot.core.storage import SqliteRepository
from bot.core.undo import plan_undo
from engines import registry
from engines.base import Action

log = logging.getLogger("bot.bench")
USERS = (101, 102, 103, 104)
REAL_MOVES = 120  # real moves before the take-backs start (well before a game's end)


@dataclass(slots=True)
class LengthFigures:
    entries: int
    moves: int  # effective moves
    panel_ms: float = 0.0
    panel_full_log_ms: float = 0.0
    stale_ms: float = 0.0
    undo_ms: float = 0.0
    frame_ms: float = 0.0
    frame_from_setup_ms: float = 0.0
    rows_read: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class ImportFigures:
    bytes: int = 0
    entries: int = 0
    seconds: float = 0.0
    peak_mib: float = 0.0
    stall_ms: float = 0.0


async def _no_image(*_: object) -> bytes:
    return b""


async def _timed(fn: Callable[[], Awaitable[Any]], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


class LongGame:
    """A table whose log is grown to a given length."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.game_id = 0
        self.key = sorted(registry.games())[0]

    async def start(self) -> None:
        service = self.service
        seats = min(len(USERS), registry.get(self.key).spec.max_players)
        game = await service.create(guild_id=1, channel_id=1, game_key=self.key,
                                    creator_id=USERS[0], creator_name="P0", seats=seats, seed=3)
        for n in USERS[1:seats]:
            await service.join(game.id, n, f"P{n}")
        await service.start(game.id, USERS[0])
        self.game_id = game.id

    async def awaited(self) -> tuple[int, Any, Any]:
        game, engine, state = await self.service.load(self.game_id)
        seat = min(engine.active_players(state))
        return seat, engine, state

    async def move(self) -> int:
        seat, engine, state = await self.awaited()
        await self.service.act(self.game_id, USERS[seat], str(engine.legal_actions(state, seat)[0]))
        return seat

    async def take_back(self, seat: int) -> None:
        """The seat's last move taken back, by vote when it needs the others' consent."""
        asked = await self.service.request_undo(self.game_id, USERS[seat])
        if not asked.applied:
            assert asked.request is not None
            for voter in asked.request.voters:
                done = await self.service.vote_undo(asked.request.id, voter, True)
            assert done.applied

    async def grow(self, entries: int) -> None:
        while (game := await self.service.get(self.game_id)).version < entries:
            if game.moves < REAL_MOVES or entries - game.version < 2:
                await self.move()
            else:
                await self.take_back(await self.move())


async def measure(game: LongGame, repo: SqliteRepository, repeat: int) -> LengthFigures:
    service, game_id = game.service, game.game_id
    info = await service.get(game_id)
    figures = LengthFigures(info.version, info.moves)
    seat, engine, state = await game.awaited()
    user = USERS[seat]

    async def panel() -> None:
        await service.panel(game_id, user)
        plan_undo(await repo.undo_tail(game_id, seat), seat)

    async def panel_full_log() -> None:
        await service.panel(game_id, user)
        plan_undo(await repo.history(game_id), seat)

    async def stale() -> None:  # what a click on an older panel costs before the engine
        await service.panel_current(game_id, seat, info.version - 1)

    async def frame() -> None:  # a frame nobody has asked for yet: rebuilt and drawn
        service.images.clear()
        await History(service).frame(game_id, None, "en")

    async def frame_from_setup() -> None:
        current = await service.get(game_id)
        moves = effective(await repo.history(game_id))
        await asyncio.to_thread(state_at, engine, current, moves, len(moves))

    before = repo.rows_read
    figures.panel_ms = await _timed(panel, repeat)
    figures.rows_read["panel"] = (repo.rows_read - before) // repeat
    figures.panel_full_log_ms = await _timed(panel_full_log, repeat)
    figures.stale_ms = await _timed(stale, repeat)
    before = repo.rows_read
    figures.frame_ms = await _timed(frame, repeat)
    figures.rows_read["frame"] = (repo.rows_read - before) // repeat
    figures.frame_from_setup_ms = await _timed(frame_from_setup, repeat)
    undo_samples = []
    for _ in range(repeat):
        moved = await game.move()
        started = time.perf_counter()
        before = repo.rows_read
        await game.take_back(moved)
        undo_samples.append((time.perf_counter() - started) * 1000)
        figures.rows_read["undo"] = repo.rows_read - before
    figures.undo_ms = statistics.median(undo_samples)
    return figures


def inflate(document: dict[str, Any], limit: int) -> dict[str, Any]:
    """A cancelled game's export grown to ``limit`` bytes with moves and their take-backs
    appended at its end (its final position, and so its digest, unchanged)."""
    engine = registry.get(document["game"])
    state = engine.new_game(len(document["seats"]), document["seed"], document["options"])
    live = [(0, state)]
    for entry in document["log"]:  # the position at the end of the log
        if "undo_to" in entry:
            while live[-1][0] > entry["undo_to"]:
                live.pop()
        else:
            live.append((entry["seq"], engine.apply(live[-1][1], entry["seat"],
                                                     Action.parse(entry["action"])).state))
    top, state = live[-1]
    seat = min(engine.active_players(state))
    action = str(engine.legal_actions(state, seat)[0])
    log_entries = list(document["log"])
    pair = len(json.dumps(log_entries[-1], indent=1)) * 2 + 8
    size = len(json.dumps(document, indent=1))
    while size + pair < limit:
        seq = len(log_entries) + 1
        log_entries.append({"seq": seq, "seat": seat, "action": action, "at": 1.0})
        log_entries.append({"seq": seq + 1, "seat": seat, "undo_to": top, "at": 1.0})
        size += pair
    return {**document, "log": log_entries}


async def bench_import(service: GameService, game: LongGame) -> ImportFigures:
    history = History(service)
    await service.cancel(game.game_id, USERS[0], is_admin=True)
    document = json.loads(await history.export(game.game_id))
    key = await history.signing_key()
    unsigned = {k: v for k, v in document.items() if k != "signature"}
    target = MAX_IMPORT_BYTES - 32 * 1024
    while True:  # the pair estimate ignores indentation: shrink until the file fits
        big = sign(inflate(unsigned, target), key)
        data = json.dumps(big, indent=1, sort_keys=True).encode()
        if len(data) <= MAX_IMPORT_BYTES:
            break
        target -= len(data) - MAX_IMPORT_BYTES + 16 * 1024
    figures = ImportFigures(bytes=len(data), entries=len(big["log"]))
    stalls: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            stalls.append((now - last) * 1000)
            last = now

    ticking = asyncio.create_task(ticker())
    started = time.perf_counter()
    await history.import_game(data, guild_id=1, channel_id=2, user_id=USERS[0])
    figures.seconds = time.perf_counter() - started
    done.set()
    await ticking
    figures.stall_ms = max(stalls, default=0.0)
    tracemalloc.start()
    await history.import_game(data, guild_id=1, channel_id=3, user_id=USERS[0])
    figures.peak_mib = tracemalloc.get_traced_memory()[1] / 2 ** 20
    tracemalloc.stop()
    return figures


async def run(*, tiny: bool) -> tuple[list[LengthFigures], ImportFigures, str]:
    lengths = (10, 40) if tiny else (10, 1_000, 5_000)
    repeat = 3 if tiny else 15
    with tempfile.TemporaryDirectory() as tmp:
        repo = await SqliteRepository.open(Path(tmp) / "history.sqlite3")
        try:
            service = GameService(repo, render=_no_image)
            game = LongGame(service)
            await game.start()
            out = []
            for length in lengths:
                await game.grow(length)
                out.append(await measure(game, repo, repeat))
                log.info("history at %d entries: panel %.1f ms, frame %.1f ms", length,
                         out[-1].panel_ms, out[-1].frame_ms)
            imported = await bench_import(service, game)
            log.info("import of %d bytes: %.1f s", imported.bytes, imported.seconds)
        finally:
            await repo.close()
    return out, imported, game.key


def section(lengths: list[LengthFigures], imported: ImportFigures, key: str) -> str:
    """The Markdown section of docs/PERFORMANCE.md."""
    lines = [
        "",
        "## Long games",
        "",
        f"A table of {key} (every seat human) driven through the service (SQLite file, "
        "no images) until "
        "its log holds the given number of entries: real moves first, then a move and its "
        "take-back repeatedly. Medians in ms; *rows* = log rows and snapshots read from the "
        "database for one call. The columns in italics are the old way (reading the whole "
        "log, replaying from the setup), measured on the same table for comparison.",
        "",
        "| Log entries | Effective moves | Panel | *Panel, whole log* | Stale click | Undo | "
        "Replay frame | *Frame from setup* | Rows read (panel / undo / frame) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for f in lengths:
        rows = f.rows_read
        lines.append(
            f"| {f.entries:,} | {f.moves:,} | {f.panel_ms:.1f} | *{f.panel_full_log_ms:.1f}* | "
            f"{f.stale_ms:.1f} | {f.undo_ms:.1f} | {f.frame_ms:.1f} | "
            f"*{f.frame_from_setup_ms:.1f}* | {rows.get('panel', 0)} / {rows.get('undo', 0)}"
            f" / {rows.get('frame', 0)} |")
    lines += [
        "",
        f"Import of the largest accepted file ({imported.bytes / 2 ** 20:.2f} MiB, "
        f"{imported.entries:,} log entries, mostly take-backs): {imported.seconds:.2f} s, "
        f"peak Python memory {imported.peak_mib:.0f} MiB, longest event-loop stall meanwhile "
        f"{imported.stall_ms:.0f} ms (parsing, checking and replaying run in a worker "
        "thread).",
        "",
    ]
    return "\n".join(lines)
