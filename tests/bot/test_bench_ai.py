"""The AI benchmark's pieces (the full run is ``make bench-ai``, figures in docs/AI.md)."""

from __future__ import annotations

import pytest

from bot.bench_ai import play, table, wilson


def test_wilson_interval() -> None:
    lo, hi = wilson(7, 10)
    assert lo == pytest.approx(0.3968, abs=1e-3) and hi == pytest.approx(0.8922, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_one_seeded_game_is_recorded() -> None:
    record = play("havana", 2, "easy", "random", 1001)
    assert record.share in (0.0, 0.5, 1.0)
    assert set(record.times) == {"easy", "random"} and set(record.scores) == {"easy", "random"}
    assert play("havana", 2, "easy", "random", 1001).scores == record.scores  # seeded
    rows = table({("havana", 2, "easy", "random"): [record]})
    assert rows[2].startswith("| havana | 2 | easy vs random | 1 |")
