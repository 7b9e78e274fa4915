"""The demo and the benchmark run end to end (tiny modes, a few seconds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import bench, demo
from engines import registry
from tests.e2e import crowd as crowd_bench

pytest.importorskip("engines.havana")


async def test_demo_writes_boards_and_the_move_log(tmp_path: Path) -> None:
    summaries = await demo.run(tmp_path, games=["havana"], seats=2, max_turns=3)
    [summary] = summaries
    assert summary.turns == 3 and summary.moves >= 3
    files = sorted(p.name for p in (tmp_path / "havana").iterdir())
    assert "moves.log" in files
    log = (tmp_path / "havana" / "moves.log").read_text(encoding="utf-8")
    assert log.count("\n") > summary.moves  # one line per move, plus events and a header
    assert "AI level normal)" in log.splitlines()[0]  # make demo shows the default level
    if summary.images:
        pngs = [name for name in files if name.endswith(".png")]
        assert pngs == [f"turn_{i:03d}.png" for i in range(summary.images)]
        assert (tmp_path / "havana" / "turn_001.png").read_bytes().startswith(b"\x89PNG")


async def test_demo_plays_a_whole_game(tmp_path: Path) -> None:
    """At ``easy`` (at most 0.1 s a move, normal up to 1 s): the level is not checked here."""
    [summary] = await demo.run(tmp_path, games=["havana"], seats=2, seed=5, level="easy")
    assert summary.ranking and sorted(sum(summary.ranking, [])) == sorted(summary.scores)
    log = (tmp_path / "havana" / "moves.log").read_text(encoding="utf-8")
    assert "AI level easy)" in log.splitlines()[0] and "# result:" in log


def test_percentile_is_nearest_rank() -> None:
    values = list(range(1, 101))
    assert bench.percentile(values, 50) == 50
    assert bench.percentile(values, 99) == 99
    assert bench.percentile([3.0], 99) == 3.0
    with pytest.raises(ValueError):
        bench.percentile([], 50)


def test_bench_tiny_writes_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "PERFORMANCE.md"
    assert bench.main(["--tiny", "--output", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    for key in registry.games():
        assert f"| {key} |" in text
    assert "Full service move, p99" in text and "RSS with 10 stored games" in text
    assert "## Long games" in text and "| 40 |" in text and "Import of the largest" in text
    targets = text.split("## Targets")[1].split("## Per game")[0]
    rows = [line.split("|") for line in targets.splitlines() if line.startswith("| ")][1:]
    assert len(rows) == 8
    assert all(row[3].strip() not in ("", "—") for row in rows)  # every target was measured
    crowd = text.split("## A crowd at once")[1].split("## Memory")[0]
    total = crowd_bench.TINY.total
    assert f"**{total} of {total} acknowledged**" in crowd  # the tiny crowd, every one acked
    assert "Errors logged by the bot: 0." in crowd
    assert f"| all | {total} | {total} | 0 |" in crowd  # none refused: real panels and moves
