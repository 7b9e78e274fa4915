"""make bench-shards runs end to end (tiny sizes): both tables of docs/DEPLOY.md come out."""

from __future__ import annotations

import pytest

from bot import bench_shards


def test_tiny_bench_measures_both_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_shards.main(["--tiny"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and line[2].isdigit()]
    processes = [int(r.split("|")[1]) for r in rows[:2]]
    assert processes == [1, 2]
    assert all(float(r.split("|")[4]) > 0 for r in rows[:2])  # moves per second
    assert rows[2].split("|")[1].strip() == "100"  # the stored-games row
