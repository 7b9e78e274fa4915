"""``python -m bot.bench_ai`` (``make bench-ai``): how strong each AI level is, measured.

For every registered game and player count it plays seeded games between neighbouring
levels (easy vs random, normal vs easy, strong vs normal): one seat of the higher level
against lower-level seats, each seed played once from every chair (:func:`chair`), so the
seat a deal favours, or the place a game's turn order gives it, favours each level alike.
Every finished game is appended at once to a JSON-lines file (``docs/bench_ai.jsonl`` by
default), so a run cut short keeps its games and a later run adds games instead of
replaying them; ``--report`` rebuilds the table from that file alone.

The table gives the higher level's win share (ties split) with a 95 % Wilson interval
against the target (2 seats: ≥ 70 %; more seats: ≥ twice the fair share), the CPU time per
move of each level (p50/p95, ``time.process_time`` of this process, so other work on the
machine does not inflate it) and each level's average final score. Games run one after
another in this process (``--jobs`` for a pool), round-robin over the match-ups so every
match-up gets games early. Each game also records how fast the machine ran that day
(:func:`reference_seconds`) and when it ended: on this machine the same move has taken
3-4x longer on one day than on another, so a second table (:func:`times_table`) gives each
match-up's times by the day's speed, with the moves over each level's budget.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bot.core.thinker import time_guard
from engines import registry
from engines.ai import SECONDS, choose

MATCHUPS = (("easy", "random"), ("normal", "easy"), ("strong", "normal"))
START, END = "<!-- bench-ai:start -->", "<!-- bench-ai:end -->"
TIMES_START, TIMES_END = "<!-- bench-ai-times:start -->", "<!-- bench-ai-times:end -->"
WRITE_TO = (Path("docs/AI.md"), Path("docs/PERFORMANCE.md"))
TIMES_TO = Path("docs/PERFORMANCE.md")  # where --write puts the times by day's speed
RESULTS = Path("docs/bench_ai.jsonl")
# A game longer than this is cut and counted as a loss of the higher seat: a stall guard.
# A 4-seat game of 40 rounds reached the former 5,000 in its last round, its higher seat
# leading 27 to 13.
MAX_MOVES = 8000
FIRST_SEED = 1000

Config = tuple[str, int, str, str]  # game, players, higher level, lower level
Game = tuple[int, int]  # seed, the higher level's seat


@dataclass
class GameRecord:
    share: float  # the higher level's share of the win (ties split)
    scores: dict[str, list[int]] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)  # CPU s per move, by level
    moves: int = 0
    finished: bool = True
    ref: float | None = None  # CPU s of the reference loop before the game (None: not taken)
    played: str | None = None  # when the game ended, UTC "YYYY-MM-DD HH:MM" (None: not kept)


REFERENCE_LOOPS = 2_000_000
# A day whose reference loop took more than this ran slow: on this machine fast days give
# 0.07-0.13 s and slow ones 0.15-0.37 s, the same moves then taking 2-3x longer.
SLOW_DAY = 0.14
# CPU seconds a move of each level should take (docs/AI.md, *Levels*): the bot guards
# normal's and strong's (``SECONDS``); easy's lookahead is bounded by the offered moves.
BUDGETS = {"easy": 0.1, **SECONDS}


def reference_seconds() -> float:
    """CPU seconds of a fixed pure-Python loop, independent of the project's code: the
    speed of the machine on the day a game was played."""
    cpu = time.process_time()
    total = 0
    for i in range(REFERENCE_LOOPS):
        total += i * i % 7
    return round(time.process_time() - cpu, 3)


def chair(players: int, g: int) -> Game:
    """A match-up's game number ``g`` (from 0): seeds from ``FIRST_SEED``, each played from
    every seat in turn. A seed's first chair is seat ``seed % players``, the one seat the
    benchmark played each seed from until 2026-11-24, so those records still count: one
    chair per seed let the turn order Río draws from the seed decide more games than the
    levels did (docs/AI.md)."""
    seed = FIRST_SEED + g // players
    return seed, (seed + g % players) % players


def play(game: str, players: int, high: str, low: str, seed: int, high_seat: int | None = None,
         max_moves: int = MAX_MOVES, guard: bool = False) -> GameRecord:
    """One seeded game: seat ``high_seat`` (default ``seed % players``) plays ``high``, the
    others ``low``; with ``guard``, every search under the bot's time guard
    (:func:`bot.core.thinker.time_guard`), as the bot plays on a machine too slow for the
    budgets: its moves then depend on the machine's speed."""
    engine = registry.get(game)
    state = engine.new_game(players, seed)
    high_seat = seed % players if high_seat is None else high_seat
    levels = [high if i == high_seat else low for i in range(players)]
    record = GameRecord(0.0, ref=reference_seconds())
    while not engine.is_over(state) and record.moves < max_moves:
        seat = min(engine.active_players(state))
        cpu = time.process_time()
        action = choose(engine, state, seat, levels[seat], seed, record.moves,
                        time_guard(levels[seat]) if guard else None)
        record.times.setdefault(levels[seat], []).append(
            round(time.process_time() - cpu, 4))
        state = engine.apply(state, seat, action).state
        record.moves += 1
    result = engine.result(state)
    record.finished = result is not None
    record.played = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    if result is not None:
        if high_seat in result.winners:
            record.share = 1.0 / len(result.winners)
        for seat, score in sorted(result.scores.items()):
            record.scores.setdefault(levels[seat], []).append(score)
    return record


def _play_job(job: tuple[str, int, str, str, int, int, int, bool]) -> GameRecord:
    return play(*job)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (ties count as fractional wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo, hi = (centre - margin) / (1 + z * z / n), (centre + margin) / (1 + z * z / n)
    return max(0.0, lo), min(1.0, hi)  # not "-0 %" where rounding crosses the bound


def target(players: int) -> float:
    """2 seats: 70 %; more: twice the fair share of one seat."""
    return 0.7 if players == 2 else 2.0 / players


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def load(path: Path) -> dict[Config, dict[Game, GameRecord]]:
    """Every game recorded in ``path``, by match-up, seed and higher seat (the last line of
    a game wins; a row without ``seat`` was played from seat ``seed % players``)."""
    out: dict[Config, dict[Game, GameRecord]] = defaultdict(dict)
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        config = (row["game"], row["players"], row["high"], row["low"])
        seat = row.get("seat", row["seed"] % row["players"])
        out[config][row["seed"], seat] = GameRecord(
            row["share"], row["scores"], row["times"], row["moves"], row["finished"],
            row.get("ref"), row.get("played"))
    return out


def save(path: Path, config: Config, game: Game, record: GameRecord) -> None:
    key, players, high, low = config
    seed, seat = game
    row = {"game": key, "players": players, "high": high, "low": low, "seed": seed,
           "seat": seat, **asdict(record)}
    data = (json.dumps(row, separators=(",", ":")) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:  # one write on an append-only descriptor: two runs may share the file
        os.write(fd, data)
    finally:
        os.close(fd)


def plan(configs: Sequence[Config], games: dict[Config, int],
         done: dict[Config, dict[Game, GameRecord]]) -> list[tuple[Config, Game]]:
    """Games still to play, round-robin over the match-ups (game by game, :func:`chair`)."""
    jobs = []
    for g in range(max(games.values(), default=0)):
        for config in configs:
            if g < games[config]:
                game = chair(config[1], g)
                if game not in done.get(config, {}):
                    jobs.append((config, game))
    return jobs


def run(jobs: list[tuple[Config, Game]], path: Path, workers: int,
        max_moves: int, guard: bool = False) -> None:
    flat = [(*config, seed, seat, max_moves, guard) for config, (seed, seat) in jobs]
    records: Iterable[GameRecord]
    if workers > 1:
        pool = ProcessPoolExecutor(max_workers=workers)
        records = pool.map(_play_job, flat)
    else:
        pool, records = None, map(_play_job, flat)
    try:
        for (config, game), record in zip(jobs, records, strict=True):
            save(path, config, game, record)
            cpu = sum(t for ts in record.times.values() for t in ts)
            print(f"# {config} seed {game[0]} seat {game[1]}: higher share {record.share:g}, "
                  f"{record.moves} moves, {cpu:.0f} s CPU", file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)


# What the rulebooks give as a good (winning) score, where they give one: data, kept by
# game key and player count beside the results (the bot's code names no game).
GOOD_SCORES = Path("docs/good_scores.json")


def good_score(key: str, players: int) -> str:
    known = json.loads(GOOD_SCORES.read_text(encoding="utf-8")) if GOOD_SCORES.exists() else {}
    return str(known.get(key, {}).get(str(players), "–"))


def verdict(wins: float, n: int, players: int) -> str:
    lo, _ = wilson(wins, n)
    goal, fair = target(players), 1.0 / players
    if lo >= goal:
        return "**met** (CI above target)"
    if wins / n >= goal and lo > fair:
        return "met (rate; CI above fair share)"
    if wins / n >= goal:
        return "rate only (CI reaches fair share)"
    if lo > fair:
        return "not met (better than fair share)"
    return "**not met**"


def in_order(by_config: dict[Config, list[GameRecord]]) -> list[Config]:
    """The match-ups as the tables list them: by game, seats, then the level pair."""
    order = {g: i for i, g in enumerate(("easy", "normal", "strong"))}
    return sorted(by_config, key=lambda c: (c[0], c[1], order.get(c[2], 9)))


def table(by_config: dict[Config, list[GameRecord]]) -> list[str]:
    """The Markdown table of every match-up."""
    lines = [
        "| Game | Seats | Match-up | n | Wins | Rate (95 % CI) | Target | Verdict "
        "| Higher CPU s/move p50/p95 | Lower CPU s/move p50/p95 "
        "| Avg score higher / lower | Good score |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for config in in_order(by_config):
        key, n, high, low = config
        recs = by_config[config]
        if not recs:
            continue
        wins = sum(r.share for r in recs)
        lo, hi = wilson(wins, len(recs))
        times = {lv: [t for r in recs for t in r.times.get(lv, [])] for lv in (high, low)}
        scores = {lv: [s for r in recs for s in r.scores.get(lv, [])] for lv in (high, low)}
        avg = {lv: f"{statistics.mean(v):.1f}" if v else "–" for lv, v in scores.items()}
        cut = sum(1 for r in recs if not r.finished)
        lines.append(
            f"| {key} | {n} | {high} vs {low} | {len(recs)}"
            f"{f' ({cut} cut)' if cut else ''} | {wins:g} | {wins / len(recs):.0%} "
            f"({lo:.0%}–{hi:.0%}) | ≥ {target(n):.0%} | {verdict(wins, len(recs), n)}"
            f" | {_pct(times[high], .5):.3f}/{_pct(times[high], .95):.3f} "
            f"| {_pct(times[low], .5):.3f}/{_pct(times[low], .95):.3f} "
            f"| {avg[high]} / {avg[low]} | {good_score(key, n)} |")
    return lines


def speed_note(by_config: dict[Config, list[GameRecord]]) -> str:
    """One line under the table: how fast the machine ran on the days of its games."""
    refs = sorted(r.ref for recs in by_config.values() for r in recs if r.ref is not None)
    games = sum(len(recs) for recs in by_config.values())
    if not refs:
        return ("The machine's speed was recorded for none of the games above "
                "(`bot.bench_ai.reference_seconds`).")
    before = (f", taken in {len(refs)} of the {games} games (the others were played before "
              f"it was recorded)" if len(refs) < games else ", taken in every game")
    return (f"Reference loop (`bot.bench_ai.reference_seconds`: {REFERENCE_LOOPS:,} "
            f"iterations, CPU s; lower is a faster day): p50 {_pct(refs, .5):.2f} s, range "
            f"{refs[0]:.2f}–{refs[-1]:.2f} s{before}.")


DAYS = (f"fast (≤ {SLOW_DAY:g} s)", f"slow (> {SLOW_DAY:g} s)", "not taken")


def day(record: GameRecord) -> str:
    """How fast the machine ran on the day of ``record`` (one of ``DAYS``), by its
    reference loop."""
    if record.ref is None:
        return DAYS[2]
    return DAYS[1] if record.ref > SLOW_DAY else DAYS[0]


def _over(level: str, times: list[float]) -> str:
    budget = BUDGETS.get(level)
    if budget is None or not times:
        return "–"
    return f"{sum(1 for t in times if t > budget):,} of {len(times):,}"


def _span(recs: list[GameRecord]) -> str:
    """When the games of ``recs`` ended (UTC), as far as their records keep it."""
    played = sorted(r.played for r in recs if r.played)
    if not played:
        return "–"
    first, last = played[0], played[-1]
    span = first if first == last else \
        f"{first} – {last[11:] if last[:10] == first[:10] else last}"  # one date said once
    kept = "" if len(played) == len(recs) else f" ({len(played)} of {len(recs)} games)"
    return span + kept


def times_table(by_config: dict[Config, list[GameRecord]]) -> list[str]:
    """CPU time per move of every match-up, by the speed of the days its games were played
    on: the same moves take 2-3x longer on a slow day, so one p95 over all days says little."""
    lines = [
        "| Game | Seats | Match-up | Day (reference loop) | Games | Played (UTC) "
        "| Higher p95 / max | Higher moves over budget | Lower p95 / max "
        "| Lower moves over budget |",
        "|---|---|---|---|---|---|---|---|---|---|"]
    for config in in_order(by_config):
        key, n, high, low = config
        by_day: dict[str, list[GameRecord]] = defaultdict(list)
        for record in by_config[config]:
            by_day[day(record)].append(record)
        for when in sorted(by_day, key=DAYS.index):
            recs = by_day[when]
            cells = []
            for level in (high, low):
                times = [t for r in recs for t in r.times.get(level, [])]
                cells.append(f"{_pct(times, .95):.2f} / {max(times, default=0.0):.2f} "
                             f"| {_over(level, times)}")
            lines.append(f"| {key} | {n} | {high} vs {low} | {when} | {len(recs)} "
                         f"| {_span(recs)} | {cells[0]} | {cells[1]} |")
    return lines


def replace_block(path: Path, text: str, start_mark: str = START,
                  end_mark: str = END) -> None:
    """Put ``text`` between the given markers of ``path`` (by default the table's)."""
    old = path.read_text(encoding="utf-8")
    start, end = old.index(start_mark) + len(start_mark), old.index(end_mark)
    path.write_text(old[:start] + "\n" + text + "\n" + old[end:], encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench_ai", description=__doc__)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="only this count")
    parser.add_argument("--matchup", action="append",
                        help="e.g. normal:easy (repeatable; default: all three)")
    parser.add_argument("--games", type=int, default=30,
                        help="games per match-up, counting those already in the file")
    parser.add_argument("--strong-games", type=int, default=None,
                        help="games per strong-vs-normal match-up (default: --games)")
    parser.add_argument("--max-moves", type=int, default=MAX_MOVES)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--results", type=Path, default=RESULTS, help="JSON-lines file")
    parser.add_argument("--guard", action="store_true",
                        help="play under the bot's time guard (moves then depend on the "
                             "machine's speed: keep such games in a --results file of their "
                             "own)")
    parser.add_argument("--report", action="store_true",
                        help="play nothing: print the tables of the games in the file")
    parser.add_argument("--write", action="store_true",
                        help="also put the tables into docs/AI.md and docs/PERFORMANCE.md")
    args = parser.parse_args(argv)
    matchups = [tuple(m.split(":", 1)) for m in args.matchup] if args.matchup else \
        list(MATCHUPS)
    configs: list[Config] = []
    for key in args.game or sorted(registry.games()):
        spec = registry.get(key).spec
        for n in args.players or range(spec.min_players, spec.max_players + 1):
            if spec.min_players <= n <= spec.max_players:
                configs += [(key, n, high, low) for high, low in matchups]
    games = {c: (args.strong_games if c[2] == "strong" and args.strong_games is not None
                 else args.games) for c in configs}
    if not args.report:
        jobs = plan(configs, games, load(args.results))
        print(f"# {len(jobs)} games to play", file=sys.stderr, flush=True)
        if args.guard and args.results == RESULTS:
            parser.error("--guard needs a --results file of its own")
        run(jobs, args.results, max(1, args.jobs), args.max_moves, args.guard)
    done = load(args.results)
    selected = {c: list(done[c].values()) for c in configs if done.get(c)}
    print("\n".join([*table(selected), "", speed_note(selected), "",
                     *times_table(selected)]))
    if args.write:  # the tables of every game in the file, not only this selection
        every = {c: list(v.values()) for c, v in done.items()}
        text = "\n".join([*table(every), "", speed_note(every)])
        for path in WRITE_TO:
            replace_block(path, text)
        replace_block(TIMES_TO, "\n".join(times_table(every)), TIMES_START, TIMES_END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
