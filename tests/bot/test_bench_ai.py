"""The AI benchmark's pieces (the full run is ``make bench-ai``, figures in docs/AI.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.bench_ai import (
    Config,
    Game,
    GameRecord,
    chair,
    load,
    main,
    plan,
    play,
    save,
    speed_note,
    table,
    times_table,
    verdict,
    wilson,
)


def test_wilson_interval() -> None:
    lo, hi = wilson(7, 10)
    assert lo == pytest.approx(0.3968, abs=1e-3) and hi == pytest.approx(0.8922, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0  # never past the bounds


def test_one_seeded_game_is_recorded() -> None:
    record = play("havana", 2, "easy", "random", 1001)
    assert record.share in (0.0, 0.5, 1.0)
    assert set(record.times) == {"easy", "random"} and set(record.scores) == {"easy", "random"}
    assert play("havana", 2, "easy", "random", 1001).scores == record.scores  # seeded
    rows = table({("havana", 2, "easy", "random"): [record]})
    assert rows[2].startswith("| havana | 2 | easy vs random | 1 |")
    assert record.ref is not None and record.ref > 0  # the day's speed, beside its times
    assert record.played is not None and len(record.played) == len("2026-11-28 20:10")


def test_the_day_s_speed_is_kept_and_summed_up(tmp_path: Path) -> None:
    path = tmp_path / "bench.jsonl"
    config = ("havana", 2, "easy", "random")
    for seat, ref in ((0, 0.61), (1, None)):
        save(path, config, (1000, seat), GameRecord(1.0, ref=ref))
    recs = list(load(path)[config].values())
    assert [r.ref for r in recs] == [0.61, None]
    note = speed_note({config: recs})
    assert "p50 0.61 s" in note and "in 1 of the 2 games" in note
    assert "recorded for none" in speed_note({config: recs[1:]})
    assert speed_note({config: recs[:1]}).endswith("taken in every game.")


def test_results_file_resumes_and_rebuilds_the_table(tmp_path: Path) -> None:
    path = tmp_path / "bench.jsonl"
    config = ("havana", 2, "easy", "random")
    record = GameRecord(1.0, {"easy": [25], "random": [3]}, {"easy": [0.01], "random": [0.0]},
                        moves=2)
    save(path, config, (1000, 0), record)
    done = load(path)
    assert done[config][1000, 0] == record
    # a second run plays only the games the file lacks, round-robin over the match-ups
    other = ("havana", 2, "normal", "easy")
    jobs = plan([config, other], {config: 3, other: 1}, done)
    assert jobs == [(other, (1000, 0)), (config, (1000, 1)), (config, (1001, 1))]
    main(["--report", "--results", str(path), "--game", "havana", "--players", "2"])


def test_every_seed_is_played_from_every_chair() -> None:
    """Each seed once from each seat, beginning with seat ``seed % n`` (the one chair a
    seed was played from before): a seat the deal or the turn order favours favours both
    levels alike."""
    assert [chair(3, g) for g in range(6)] == [(1000, 1), (1000, 2), (1000, 0),
                                               (1001, 2), (1001, 0), (1001, 1)]
    # the same deal, easy in the other chair: another game
    assert (play("havana", 2, "easy", "random", 1001, high_seat=0).scores
            != play("havana", 2, "easy", "random", 1001).scores)


def test_a_row_without_a_seat_was_played_from_seed_mod_players(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_text('{"game":"havana","players":3,"high":"easy","low":"random","seed":1001,'
                    '"share":1.0,"scores":{},"times":{},"moves":1,"finished":true}\n',
                    encoding="utf-8")
    assert list(load(path)[("havana", 3, "easy", "random")]) == [(1001, 2)]


def test_verdict_reads_the_interval() -> None:
    assert verdict(20, 20, 2).startswith("**met**")  # CI 84–100 %
    assert verdict(16, 20, 2).startswith("met (rate")  # 80 %, CI 58–92 %: above 50 %
    assert verdict(8, 10, 2).startswith("rate only")  # 80 %, CI 49–94 %: reaches 50 %
    assert verdict(5, 10, 2) == "**not met**"
    assert verdict(3, 4, 4).startswith("met (rate")  # 75 %, CI 30–95 % > 25 %


def test_guarded_games_ask_the_bot_s_guard_and_keep_a_file_of_their_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.bench_ai as bench

    asked: list[str] = []

    def guard(level: str) -> None:
        asked.append(level)

    monkeypatch.setattr(bench, "time_guard", guard)
    play("havana", 2, "easy", "random", 1001, guard=True)
    assert set(asked) == {"easy", "random"}
    with pytest.raises(SystemExit):  # never mixed with the unguarded records
        main(["--guard", "--game", "havana", "--players", "2", "--games", "0"])


def test_times_are_told_apart_by_the_day_s_speed() -> None:
    """One row per kind of day: a slow day's moves take 2-3x longer, and over one p95 of
    every day they would hide a fast day's (or be hidden). Moves over each level's budget
    are counted (easy 0.1 s, normal 1 s, strong 3 s); random has none."""
    config = ("rio", 2, "strong", "normal")
    fast = GameRecord(1.0, times={"strong": [0.5, 2.9], "normal": [0.2, 0.4]}, ref=0.09,
                      played="2026-11-28 20:10")
    fast2 = GameRecord(0.0, times={"strong": [1.0], "normal": [1.2]}, ref=0.1,
                       played="2026-11-28 21:05")
    slow = GameRecord(0.0, times={"strong": [3.5, 4.0], "normal": [1.5]}, ref=0.3)
    unknown = GameRecord(1.0, times={"strong": [1.0], "normal": [0.5]})
    rows = times_table({config: [slow, unknown, fast2, fast]})[2:]
    assert rows == [
        "| rio | 2 | strong vs normal | fast (≤ 0.14 s) | 2 | 2026-11-28 20:10 – 21:05 "
        "| 2.90 / 2.90 | 0 of 3 | 1.20 / 1.20 | 1 of 3 |",
        "| rio | 2 | strong vs normal | slow (> 0.14 s) | 1 | – "
        "| 4.00 / 4.00 | 2 of 2 | 1.50 / 1.50 | 1 of 1 |",
        "| rio | 2 | strong vs normal | not taken | 1 | – "
        "| 1.00 / 1.00 | 0 of 1 | 0.50 / 0.50 | 0 of 1 |"]
    easy = times_table({("havana", 2, "easy", "random"): [
        GameRecord(1.0, times={"easy": [0.05, 0.2], "random": [0.0]}, played="2026-11-28 20:10")]})
    assert easy[2].endswith("| 2026-11-28 20:10 | 0.20 / 0.20 | 1 of 2 | 0.00 / 0.00 | – |")
    older = GameRecord(1.0, times={"strong": [1.0], "normal": [0.5]}, ref=0.09)
    assert "| 2026-11-28 20:10 – 21:05 (2 of 3 games) |" in times_table(
        {config: [fast, fast2, older]})[2]
    night = GameRecord(1.0, times={"strong": [1.0]}, ref=0.09, played="2026-11-27 23:50")
    assert "| 2026-11-27 23:50 – 2026-11-28 21:05 |" in times_table({config: [fast2, night]})[2]


@pytest.fixture(scope="module")
def records() -> dict[Config, dict[Game, GameRecord]]:
    """The benchmark's records (7 MB), read once for the replays below."""
    return load(Path(__file__).resolve().parents[2] / "docs" / "bench_ai.jsonl")


@pytest.mark.parametrize(("game", "players", "seed", "seat"), [
    ("havana", 2, 1006, 0), ("tuscany", 2, 1005, 0), ("rio", 2, 1009, 0), ("minos", 3, 1005, 0)])
def test_a_recorded_game_still_plays_as_recorded(
        records: dict[Config, dict[Game, GameRecord]], game: str, players: int, seed: int,
        seat: int) -> None:
    """The records stand only while the levels play as they did: a change meant to leave
    every move alone (a faster evaluation) must replay them. One easy-vs-random record a
    game (easy scores every offered move with ``evaluate``), chosen among the cheap ones
    where a small change of an evaluation's constant changes the game (in Minos most
    games against random seats play alike whatever the constants)."""
    recorded = records[game, players, "easy", "random"][seed, seat]
    replayed = play(game, players, "easy", "random", seed, high_seat=seat)
    assert (replayed.moves, replayed.scores, replayed.share) == (
        recorded.moves, recorded.scores, recorded.share)
