"""Random-playout invariants (OpenSpiel's random_sim_test) over many seeded games.

Checks are spread to keep the run short: conservation counts at every step of every game;
the JSON round trip, view leaks and "every legal action applies" at every step of one game
in ten and at a sampled step of the others.
"""

from __future__ import annotations

import random

import pytest

from engines.base import Action, GameError, NotYourTurn
from engines.havana import ENGINE
from engines.havana.data import TOTAL_CUBES, TOTAL_WORKERS
from engines.havana.state import State

MAX_STEPS = 5000
PRIVATE = ("hand", "discard", "pending_picks", "pending_cover")
PROBES = [Action.parse(t) for t in (
    "pick mama", "cover siesta", "play pesos", "recover worker", "pass", "remove 0:left",
    "target 0", "take brick", "take worker", "build 7", "pay none", "pay w1", "end")]


def _check_counts(s: State) -> None:
    cubes = sum(s.bag) + sum(s.box) + sum(s.centre) + sum(sum(p.materials) for p in s.players)
    assert cubes == TOTAL_CUBES
    assert s.bank_workers + sum(p.workers for p in s.players) == TOTAL_WORKERS
    assert s.bank_workers >= 0 and s.centre_pesos >= 0
    assert min(s.bag) >= 0 and min(s.box) >= 0 and min(s.centre) >= 0
    for p in s.players:
        assert p.pesos >= 0 and p.workers >= 0 and min(p.materials) >= 0


def _check_views(s: State) -> None:
    for viewer in (None, *range(s.num_players)):
        view = ENGINE.view(s, viewer)
        for entry in view["players"]:
            if entry["seat"] != viewer:
                assert not any(k in entry for k in PRIVATE), (viewer, entry)
                # Face-up cards only: an unrevealed pick is never among them.
                assert entry["face_up"] == s.players[entry["seat"]].face_up
                assert not set(s.players[entry["seat"]].picks) & set(entry["face_up"])


def _check_deep(s: State, seat: int, legal: list[Action]) -> None:
    assert ENGINE.from_dict(ENGINE.to_dict(s)) == s
    _check_views(s)
    for a in legal:
        ENGINE.apply(s, seat, a)
    for probe in PROBES:
        if probe not in legal:
            with pytest.raises(GameError):
                ENGINE.apply(s, seat, probe)
    for other in range(s.num_players):
        if other not in ENGINE.active_players(s):
            with pytest.raises(NotYourTurn):
                ENGINE.apply(s, other, legal[0])
    assert [c.action for c in ENGINE.choices(s, seat)] == legal


def play(seed: int, n: int, deep: bool) -> tuple[State, list[tuple[int, Action]]]:
    rng = random.Random(seed)
    s = ENGINE.new_game(n, seed)
    log: list[tuple[int, Action]] = []
    sample = rng.randrange(200)
    while not ENGINE.is_over(s):
        assert len(log) < MAX_STEPS, "game does not end"
        seats = sorted(ENGINE.active_players(s))
        seat = seats[rng.randrange(len(seats))]
        legal = ENGINE.legal_actions(s, seat)
        assert 0 < len(legal) <= 25
        if deep or len(log) == sample:
            _check_deep(s, seat, legal)
        action = legal[rng.randrange(len(legal))]
        out = ENGINE.apply(s, seat, action)
        for e in out.events:
            if e.key.startswith("havana.ev.you_"):
                assert e.to == seat
        if any(e.to is not None for e in out.events):  # a hidden move is still announced
            assert any(e.to is None for e in out.events), action
        s = out.state
        _check_counts(s)
        log.append((seat, action))
    assert ENGINE.active_players(s) == frozenset()
    assert ENGINE.result(s) is not None
    return s, log


def _replay(seed: int, n: int, log: list[tuple[int, Action]]) -> State:
    s = ENGINE.new_game(n, seed)
    for seat, action in log:
        s = ENGINE.apply(s, seat, action).state
    return s


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_keep_every_invariant(n: int) -> None:
    for seed in range(n * 1000, n * 1000 + 340):
        deep = seed % 10 == 0
        final, log = play(seed, n, deep)
        if deep or seed % 7 == 0:
            assert _replay(seed, n, log) == final
        assert ENGINE.from_dict(ENGINE.to_dict(final)) == final


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_soak(n: int) -> None:
    for seed in range(100_000, 101_000):
        final, log = play(seed, n, deep=True)
        assert _replay(seed, n, log) == final
