"""``tools/rio_fit.py``: the fit recovers the weights that made the outcomes, and the
samples are margins over the table, by stage of the game."""

from __future__ import annotations

import json
import random
from pathlib import Path

from engines.rio import ai
from tools import rio_fit


def test_the_fit_recovers_the_weights_behind_the_outcomes() -> None:
    rng = random.Random(7)
    truth = [1.0 + (i % 3) for i in range(len(ai.TERMS))]
    data = []
    for _ in range(400):
        x = [rng.uniform(-5, 5) for _ in truth]
        data.append((x, sum(w * t for w, t in zip(truth, x, strict=True))))
    fitted = rio_fit.fit(data, [1.0] * len(truth), ridge=1e-6)
    assert all(abs(f - w) < 1e-3 for f, w in zip(fitted, truth, strict=True))
    corr, rms = rio_fit.report(data, fitted)
    assert corr > 0.9999 and rms < 1e-2
    _, rms_unit = rio_fit.report(data, [1.0] * len(truth))
    assert rms_unit > 1.0  # the unit weights do not explain these outcomes


def test_samples_are_margins_over_the_table_by_stage(tmp_path: Path) -> None:
    terms = [[float(seat + k) for k in range(len(ai.TERMS))] for seat in range(2)]
    game = {"seed": 1, "players": 2, "levels": ["easy", "normal"], "scores": [30, 10],
            "positions": [{"round": 1, "rounds": 8, "phase": "p", "terms": terms},
                          {"round": 8, "rounds": 8, "phase": "p", "terms": terms}]}
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(game) + "\n")
    early = rio_fit.samples([path], 0.0, 0.25)
    assert early == [([-0.5] * len(ai.TERMS), 10.0), ([0.5] * len(ai.TERMS), -10.0)]
    assert len(rio_fit.samples([path], 0.75, 1.0)) == 2  # the last round counts as late
    assert rio_fit.samples([path], level="normal") == [([0.5] * len(ai.TERMS), -10.0)] * 2
