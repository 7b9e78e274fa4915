"""``python -m bot.bench_ai`` (``make bench-ai``): how strong each AI level is, measured.

For every registered game and player count it plays seeded games between neighbouring
levels (easy vs random, normal vs easy, strong vs normal): one seat of the higher level
against lower-level seats, the higher seat rotated round the table. It prints Markdown:
the higher level's win share with a 95 % Wilson interval against the target (2 seats:
≥ 70 %; more seats: ≥ twice the fair share), the time per move of each level (p50/p95)
and each level's average final score. ``--games`` sets the games per match-up (fewer for
strong), ``--tiny`` a quick smoke run used by the test suite, ``--write`` puts the
table into docs/AI.md and docs/PERFORMANCE.md (between the ``bench-ai`` markers).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from engines import registry
from engines.ai import choose

MATCHUPS = (("easy", "random"), ("normal", "easy"), ("strong", "normal"))
START, END = "<!-- bench-ai:start -->", "<!-- bench-ai:end -->"
WRITE_TO = (Path("docs/AI.md"), Path("docs/PERFORMANCE.md"))
MAX_MOVES = 5000  # a game longer than this is a bug; it is counted as a loss


@dataclass
class GameRecord:
    share: float  # the higher level's share of the win (ties split)
    scores: dict[str, list[int]] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)  # wall clock, s
    cpu: dict[str, list[float]] = field(default_factory=dict)  # this process's CPU time, s


def play(game: str, players: int, high: str, low: str, seed: int) -> GameRecord:
    """One seeded game: seat ``seed % players`` plays ``high``, the others ``low``."""
    engine = registry.get(game)
    state = engine.new_game(players, seed)
    high_seat = seed % players
    levels = [high if i == high_seat else low for i in range(players)]
    record = GameRecord(0.0)
    moves = 0
    while not engine.is_over(state) and moves < MAX_MOVES:
        seat = min(engine.active_players(state))
        started, cpu = time.perf_counter(), time.process_time()
        action = choose(engine, state, seat, levels[seat], seed, moves)
        record.times.setdefault(levels[seat], []).append(time.perf_counter() - started)
        record.cpu.setdefault(levels[seat], []).append(time.process_time() - cpu)
        state = engine.apply(state, seat, action).state
        moves += 1
    result = engine.result(state)
    if result is not None:
        if high_seat in result.winners:
            record.share = 1.0 / len(result.winners)
        for seat, score in result.scores.items():
            record.scores.setdefault(levels[seat], []).append(score)
    return record


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (ties count as fractional wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return ((centre - margin) / (1 + z * z / n), (centre + margin) / (1 + z * z / n))


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def replace_block(path: Path, text: str) -> None:
    """Put ``text`` between the bench-ai markers of ``path`` (what ``make bench`` keeps)."""
    old = path.read_text(encoding="utf-8")
    start, end = old.index(START) + len(START), old.index(END)
    path.write_text(old[:start] + "\n" + text + "\n" + old[end:], encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench_ai", description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="games per match-up")
    parser.add_argument("--strong-games", type=int, default=4,
                        help="games per strong-vs-normal match-up (slow)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="only this count")
    parser.add_argument("--four-seat-games", type=int, default=4,
                        help="at most this many games per match-up with 3+ seats")
    parser.add_argument("--matchup", action="append", help="e.g. normal:easy (repeatable)")
    parser.add_argument("--tiny", action="store_true", help="2 easy-vs-random games each")
    parser.add_argument("--write", action="store_true",
                        help="also put the table into docs/AI.md and docs/PERFORMANCE.md")
    args = parser.parse_args(argv)
    matchups = [tuple(m.split(":", 1)) for m in args.matchup] if args.matchup else \
        list(MATCHUPS)
    if args.tiny:
        matchups, args.games = [("easy", "random")], 2
    jobs = []
    for key in args.game or sorted(registry.games()):
        spec = registry.get(key).spec
        for n in args.players or range(spec.min_players, spec.max_players + 1):
            for high, low in matchups:
                count = args.strong_games if high == "strong" else args.games
                if n > 2:
                    count = min(count, args.four_seat_games)
                jobs += [(key, n, high, low, 1000 + g) for g in range(count)]
    started = time.perf_counter()
    by_config: dict[tuple[str, int, str, str], list[GameRecord]] = defaultdict(list)
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for job, record in zip(jobs, pool.map(play, *zip(*jobs, strict=True)), strict=True):
            by_config[job[:4]].append(record)
            print(f"# {job}: higher level's share {record.share:g}", file=sys.stderr,
                  flush=True)  # progress, and figures of a run cut short
    lines = table(by_config)
    lines.append(f"\n{len(jobs)} games in {time.perf_counter() - started:.0f} s "
                 f"({max(1, args.jobs)} worker process(es)), "
                 f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC.")
    text = "\n".join(lines)
    print(text)
    if args.write:
        for path in WRITE_TO:
            replace_block(path, text)
    return 0


def table(by_config: dict[tuple[str, int, str, str], list[GameRecord]]) -> list[str]:
    """The Markdown table of every match-up."""
    lines = [
        "| Game | Seats | Match-up | Games | Win share of the higher level (95 % CI) "
        "| Target | Met | Higher s/move p50/p95 (CPU p95) | Lower s/move p50/p95 (CPU p95) "
        "| Avg score higher / lower |",
        "|---|---|---|---|---|---|---|---|---|---|"]
    for (key, n, high, low), recs in by_config.items():
        wins = sum(r.share for r in recs)
        lo, hi = wilson(wins, len(recs))
        target = 0.7 if n == 2 else 2.0 / n
        times = {lv: [t for r in recs for t in r.times.get(lv, [])] for lv in (high, low)}
        cpu = {lv: [t for r in recs for t in r.cpu.get(lv, [])] for lv in (high, low)}
        scores = {lv: [s for r in recs for s in r.scores.get(lv, [])] for lv in (high, low)}
        avg = {lv: statistics.mean(v) if v else float("nan") for lv, v in scores.items()}
        met = "yes" if wins / len(recs) >= target else "no"
        lines.append(
            f"| {key} | {n} | {high} vs {low} | {len(recs)} | {wins / len(recs):.0%} "
            f"({lo:.0%}–{hi:.0%}) | ≥ {target:.0%} | {met}"
            f" | {_pct(times[high], .5):.3f}/{_pct(times[high], .95):.3f} "
            f"({_pct(cpu[high], .95):.3f}) "
            f"| {_pct(times[low], .5):.3f}/{_pct(times[low], .95):.3f} "
            f"({_pct(cpu[low], .95):.3f}) "
            f"| {avg[high]:.1f} / {avg[low]:.1f} |")
    return lines


if __name__ == "__main__":
    sys.exit(main())
