"""Havana-specific invariants over many seeded random games.

The contract checks (round trip, replay, the offer, views, hostile input, playouts ending)
are in tests/engines/test_conformance.py, for every game. Here: what only Havana conserves
(80 cubes, 15 workers, no negative stock) at every step, and that a hidden move is still
announced publicly without naming the card.
"""

from __future__ import annotations

import random

import pytest

from engines.havana import ENGINE
from engines.havana.data import TOTAL_CUBES, TOTAL_WORKERS
from engines.havana.state import State

MAX_STEPS = 5000


def _check_counts(s: State) -> None:
    cubes = sum(s.bag) + sum(s.box) + sum(s.centre) + sum(sum(p.materials) for p in s.players)
    assert cubes == TOTAL_CUBES
    assert s.bank_workers + sum(p.workers for p in s.players) == TOTAL_WORKERS
    assert s.bank_workers >= 0 and s.centre_pesos >= 0
    assert min(s.bag) >= 0 and min(s.box) >= 0 and min(s.centre) >= 0
    for p in s.players:
        assert p.pesos >= 0 and p.workers >= 0 and min(p.materials) >= 0


def play(seed: int, n: int) -> State:
    rng = random.Random(seed)
    s = ENGINE.new_game(n, seed)
    for _ in range(MAX_STEPS):
        if ENGINE.is_over(s):
            return s
        seat = rng.choice(sorted(ENGINE.active_players(s)))
        legal = ENGINE.legal_actions(s, seat)
        action = legal[rng.randrange(len(legal))]
        out = ENGINE.apply(s, seat, action)
        for e in out.events:
            if e.key.startswith("havana.ev.you_"):
                assert e.to == seat
        if any(e.to is not None for e in out.events):  # a hidden move is still announced
            assert any(e.to is None for e in out.events), action
        s = out.state
        _check_counts(s)
    raise AssertionError("game does not end")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_conserve_cubes_workers_and_announce_hidden_moves(n: int) -> None:
    for seed in range(n * 1000, n * 1000 + 120):
        play(seed, n)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_soak(n: int) -> None:
    for seed in range(100_000, 101_000):
        play(seed, n)
