"""``python -m bot.demo``: one complete game of every registered game, AI seats only.

Each game goes through the real :class:`GameService` on a temporary SQLite file, exactly as
in the bot: lobby, start, durable moves, turn batching, spectator boards. The boards (after
the start and after each completed turn) and the move log are written to ``demo/<game>/``,
so a newcomer can look at a whole game without a Discord server.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.core.i18n import t
from bot.core.messages import event_text
from bot.core.models import MoveResult
from bot.core.render import render_board
from bot.core.service import GameService
from bot.core.service.base import RenderFn
from bot.core.storage import SqliteRepository
from bot.core.thinker import Thinker
from engines import registry
from engines.ai import DEFAULT_LEVEL, LEVELS
from engines.base import TURN_END

log = logging.getLogger("bot.demo")
DEMO_USER = 1


@dataclass(frozen=True, slots=True)
class DemoSummary:
    game_key: str
    seats: int
    moves: int
    turns: int
    images: int
    ranking: list[list[str]]
    scores: dict[str, int]
    seconds: float


async def play_one(game_key: str, out_dir: Path, *, seed: int = 1, max_turns: int | None = None,
                   seats: int | None = None, locale: str = "en",
                   level: str = DEFAULT_LEVEL) -> DemoSummary:
    """Play ``game_key`` between AI seats at ``level`` and write its boards and log to
    ``out_dir``."""
    engine = registry.get(game_key)
    render: RenderFn = render_board
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    count = seats or engine.spec.max_players
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        repo = await SqliteRepository.open(Path(tmp) / "demo.sqlite3")
        thinker = Thinker()
        try:
            service = GameService(repo, ai_delay=0.0, render=render, default_locale=locale,
                                  thinker=thinker, default_ai_level=level)
            game = await service.create(guild_id=None, channel_id=1, game_key=game_key,
                                        creator_id=DEMO_USER, creator_name="Demo", seats=count,
                                        seed=seed)
            for _ in range(count - 1):
                await service.add_ai(game.id, DEMO_USER)
            start = await service.start(game.id, DEMO_USER)
            # The creator's seat goes to the AI too, as an admin would do for an absent player.
            game = await service.remove_seat(game.id, 0, by_user_id=DEMO_USER, is_admin=True)
            names = await service.names(game)
            images = _write_image(out_dir / "turn_000.png", start.image)
            moves, turns = 0, 0
            last: MoveResult | None = None
            lines = [f"# {t(f'{game_key}.name', 'en')}: {', '.join(names)} "
                     f"(seed {seed}, AI level {level})"]
            async for result in service.ai_moves(game.id):
                moves += 1
                last = result
                entry = (await service.log(game.id, limit=1))[0]
                lines.append(f"{entry.seq:5d}  {names[entry.seat]:<6} {entry.action}")
                if result.turn_completed:
                    turns += 1
                    images += _write_image(out_dir / f"turn_{turns:03d}.png", result.image)
                    lines += ["         - " + event_text(e, engine.spec, names, "en", bold=False)
                              for e in result.public_events if e.key != TURN_END]
                if max_turns is not None and turns >= max_turns:
                    break
        finally:
            thinker.close()
            await repo.close()
    ranking: list[list[str]] = []
    scores: dict[str, int] = {}
    if last is not None and last.result is not None:
        ranking = [[names[s] for s in place] for place in last.result.ranking]
        scores = {names[s]: v for s, v in last.result.scores.items()}
        lines.append(f"# result: {ranking} scores {scores}")
    (out_dir / "moves.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return DemoSummary(game_key, count, moves, turns, images, ranking, scores,
                       time.perf_counter() - started)


def _write_image(path: Path, data: bytes | None) -> int:
    if not data:
        return 0
    path.write_bytes(data)
    return 1


async def run(out: Path, *, games: Sequence[str] | None = None, seed: int = 1,
              max_turns: int | None = None, seats: int | None = None,
              level: str = DEFAULT_LEVEL) -> list[DemoSummary]:
    summaries = []
    for key in games or sorted(registry.games()):
        summary = await play_one(key, out / key, seed=seed, max_turns=max_turns, seats=seats,
                                 level=level)
        log.info("%s: %d seats, %d moves, %d turns, %d images in %.1fs; ranking %s, scores %s",
                 key, summary.seats, summary.moves, summary.turns, summary.images,
                 summary.seconds, summary.ranking or "(stopped early)", summary.scores)
        summaries.append(summary)
    return summaries


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.demo", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("demo"))
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, help="default: the most the game allows")
    parser.add_argument("--max-turns", type=int, help="stop after this many turns")
    parser.add_argument("--level", choices=LEVELS, default=DEFAULT_LEVEL,
                        help=f"the AI seats' level (default: {DEFAULT_LEVEL})")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    for noisy in ("bot.core.service", "bot.core.storage.sqlite"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    asyncio.run(run(args.out, games=args.game, seed=args.seed, max_turns=args.max_turns,
                    seats=args.seats, level=args.level))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
