"""Fit Río's evaluation weights to self-play outcomes (``engines/rio/ai.py``, ``WEIGHTS``).

``collect`` plays seeded games between AI levels and writes, every few moves, each seat's
evaluation terms (``ai.terms``, unweighted) with the round, then the final scores, one
game a JSON line. ``fit`` reads such files and reports, by stage of the game, how well
the current worth predicts the final score (margin over the table's mean), then fits one
weight per term by least squares on those margins, pulled towards the current weights
(ridge): a learned evaluation from self-play outcomes, as in Buro's Logistello.

Deterministic: the games are seeded, the fit is closed-form. Run from the repository root:

    python tools/rio_fit.py collect --players 2 --games 20 --out /tmp/rio_fit.jsonl
    python tools/rio_fit.py fit /tmp/rio_fit.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.ai import choose  # noqa: E402
from engines.rio import ENGINE, ai  # noqa: E402

EVERY = 4  # moves between recorded positions (neighbouring ones are nearly the same)
RIDGE = 30.0  # pull towards the current weights, in units of squared VP per weight step
STAGES = ((0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.0))  # shares of the game elapsed


def collect(players: int, seeds: range, levels: list[str], out: Path) -> None:
    """Play one game a seed, ``levels`` round the table rotated by the seed, and append
    it: its positions (round, phase, every seat's terms) and its final scores."""
    for seed in seeds:
        state = ENGINE.new_game(players, seed)
        table = [levels[(i + seed) % len(levels)] for i in range(players)]
        rows = []
        move = 0
        while not ENGINE.is_over(state) and move < 8000:
            seat = min(ENGINE.active_players(state))
            if move % EVERY == 0:
                rows.append({"round": state.round, "rounds": state.rounds,
                             "phase": state.phase, "terms": ai.terms(state)})
            action = choose(ENGINE, state, seat, table[seat], seed, move)
            state = ENGINE.apply(state, seat, action).state
            move += 1
        result = ENGINE.result(state)
        if result is None:
            continue
        scores = [result.scores[i] for i in range(players)]
        with out.open("a") as f:
            f.write(json.dumps({"seed": seed, "players": players, "levels": table,
                                "scores": scores, "positions": rows}) + "\n")
        print(seed, table, scores, flush=True)


def _margins(values: list[float]) -> list[float]:
    """Each seat's value minus the table's mean: what decides a game is the difference."""
    mean = sum(values) / len(values)
    return [v - mean for v in values]


def samples(paths: list[Path], lo: float = 0.0, hi: float = 1.0,
            level: str = "") -> list[tuple[list[float], float]]:
    """(term margins, final score margin) per seat and recorded position where the share
    of the game's rounds elapsed is in [``lo``, ``hi``) (the last round: ``hi`` 1); with
    ``level``, only the seats of that level."""
    out = []
    for path in paths:
        for line in path.read_text().splitlines():
            game = json.loads(line)
            final = _margins([float(x) for x in game["scores"]])
            for pos in game["positions"]:
                elapsed = (pos["round"] - 1) / pos["rounds"]
                if not lo <= elapsed < hi and not (hi == 1.0 and elapsed >= 1.0):
                    continue
                cols = list(zip(*pos["terms"], strict=True))
                margins = list(zip(*[_margins(list(c)) for c in cols], strict=True))
                for seat, x in enumerate(margins):
                    if not level or game["levels"][seat] == level:
                        out.append((list(x), final[seat]))
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (no numpy in the project)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit(data: list[tuple[list[float], float]], prior: list[float],
        ridge: float = RIDGE) -> list[float]:
    """Least squares of the final margin on the term margins, pulled towards ``prior``:
    minimises |y - Xw|^2 + ridge * |w - prior|^2."""
    k = len(prior)
    xtx = [[sum(x[i] * x[j] for x, _ in data) + (ridge if i == j else 0.0) for j in range(k)]
           for i in range(k)]
    xty = [sum(x[i] * y for x, y in data) + ridge * prior[i] for i in range(k)]
    return _solve(xtx, xty)


def report(data: list[tuple[list[float], float]], weights: list[float]) -> tuple[float, float]:
    """Correlation and RMS error of the weighted worth margin against the final margin."""
    pred = [sum(w * t for w, t in zip(weights, x, strict=True)) for x, _ in data]
    ys = [y for _, y in data]
    n = len(ys)
    mp, my = sum(pred) / n, sum(ys) / n
    cov = sum((p - mp) * (y - my) for p, y in zip(pred, ys, strict=True))
    vp = sum((p - mp) ** 2 for p in pred)
    vy = sum((y - my) ** 2 for y in ys)
    corr = cov / math.sqrt(vp * vy) if vp and vy else 0.0
    rms = math.sqrt(sum((p - y) ** 2 for p, y in zip(pred, ys, strict=True)) / n)
    return corr, rms


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--players", type=int, default=2)
    c.add_argument("--games", type=int, default=10)
    c.add_argument("--first-seed", type=int, default=5000)
    c.add_argument("--levels", default="easy", help="comma-separated, round the table")
    c.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("files", type=Path, nargs="+")
    f.add_argument("--ridge", type=float, default=RIDGE)
    args = parser.parse_args(argv)
    if args.cmd == "collect":
        collect(args.players, range(args.first_seed, args.first_seed + args.games),
                args.levels.split(","), args.out)
        return
    current = list(ai.WEIGHTS)
    everything = samples(args.files)
    fitted = fit(everything, current, args.ridge)
    print(f"{len(everything)} samples; ridge {args.ridge}")
    print(f"{'term':16}{'current':>9}{'fitted':>9}" + "".join(
        f"{f'{lo:.2f}-{hi:.2f}':>11}" for lo, hi in STAGES))
    parts = [samples(args.files, lo, hi) for lo, hi in STAGES]
    staged = [fit(part, current, args.ridge) if part else current for part in parts]
    for i, name in enumerate(ai.TERMS):
        print(f"{name:16}{current[i]:9.2f}{fitted[i]:9.2f}"
              + "".join(f"{w[i]:11.2f}" for w in staged))
    for (lo, hi), part in zip(STAGES, parts, strict=True):
        if part:
            now, new = report(part, current), report(part, fitted)
            print(f"game {lo:.2f}-{hi:.2f}: {len(part)} samples; corr/rms current "
                  f"{now[0]:.3f}/{now[1]:.1f}, fitted {new[0]:.3f}/{new[1]:.1f}")
    for level in sorted({lv for p in args.files for line in p.read_text().splitlines()
                         for lv in json.loads(line)["levels"]}):
        part = samples(args.files, level=level)
        resid = [y - sum(w * t for w, t in zip(current, x, strict=True)) for x, y in part]
        print(f"{level}: {len(part)} samples; mean final margin "
              f"{sum(y for _, y in part) / len(part):+.1f}, predicted by current worth "
              f"{sum(y for _, y in part) / len(part) - sum(resid) / len(resid):+.1f}")


if __name__ == "__main__":
    main()
