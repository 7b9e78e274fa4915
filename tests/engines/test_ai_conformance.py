"""Every registered game against the AI contract (docs/AI.md), parametrised over
``engines.registry.games()`` so a new game is checked as soon as it is registered:

* ``determinize`` keeps the seat's view and is canonical: two states the seat cannot tell
  apart give the same world for the same generator;
* ``evaluate`` is in [0, 1] and reads only what the seat may see;
* the AI's move does not change when only information hidden from its seat changes, and
  every level returns an offered move;
* ``easy`` beats ``random`` in a handful of seeded games.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import registry
from engines.ai import choose, random_action
from engines.base import Engine, offered
from engines.rng import Rng

GAMES = sorted(registry.games())
CHECK_POINTS = (0, 3, 9, 25, 60, 140)  # random moves played before a state is checked


def _states(engine: Engine[Any], players: int, seed: int) -> list[tuple[Any, int]]:
    """(state, awaited seat) pairs along one seeded random game, including simultaneous
    steps where other seats have already made their hidden choice."""
    state = engine.new_game(players, seed)
    rng = random.Random(seed)
    out: list[tuple[Any, int]] = []
    for move in range(max(CHECK_POINTS) + 1):
        if engine.is_over(state):
            break
        active = sorted(engine.active_players(state))
        if move in CHECK_POINTS:
            out.extend((state, seat) for seat in active)
        seat = active[-1] if len(active) > 1 else active[0]  # others wait: hidden picks
        state = engine.apply(state, seat, random_action(engine, state, seat, rng)).state
    return out


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_determinize_keeps_the_view_and_is_canonical(game: str) -> None:
    engine = registry.get(game)
    for players in range(engine.spec.min_players, engine.spec.max_players + 1):
        for state, seat in _states(engine, players, seed=11 * players):
            world = engine.determinize(state, seat, Rng(1))
            assert engine.view(world, seat) == engine.view(state, seat)
            assert engine.to_dict(engine.from_dict(engine.to_dict(world))) == \
                engine.to_dict(world)  # a consistent state of the game
            other = engine.determinize(state, seat, Rng(2))
            assert engine.to_dict(engine.determinize(other, seat, Rng(1))) == \
                engine.to_dict(world), "determinize must read only what the seat sees"


def test_determinize_hides_the_future_and_resamples(game: str) -> None:
    """The generator is always reseeded, and hidden parts do change between samples."""
    engine = registry.get(game)
    state = engine.new_game(engine.spec.max_players, 5)
    worlds = [engine.to_dict(engine.determinize(state, 0, Rng(k))) for k in range(4)]
    assert all(w["rng"] != engine.to_dict(state)["rng"] for w in worlds)
    assert len({str(w) for w in worlds}) == 4


def test_evaluate_is_a_standing_from_visible_information(game: str) -> None:
    engine = registry.get(game)
    for state, seat in _states(engine, engine.spec.max_players, seed=3):
        value = engine.evaluate(state, seat)
        assert 0.0 <= value <= 1.0
        for k in range(3):
            world = engine.determinize(state, seat, Rng(k))
            for viewer in range(engine.spec.max_players):
                if engine.view(world, viewer) == engine.view(state, viewer):
                    assert engine.evaluate(world, viewer) == engine.evaluate(state, viewer)


@pytest.mark.parametrize("level", ["random", "easy", "normal"])
def test_choice_ignores_hidden_information(game: str, level: str) -> None:
    engine = registry.get(game)
    states = _states(engine, 3, seed=21)
    worlds = 2
    if level != "random":  # a lookahead or a search per state: fewer states, fewer worlds
        states, worlds = states[::2 if level == "easy" else 4], 1
    for move_number, (state, seat) in enumerate(states):
        action = choose(engine, state, seat, level, 99, move_number)
        assert offered(engine, state, seat, action)
        for k in range(worlds):
            world = engine.determinize(state, seat, Rng(100 + k))
            assert choose(engine, world, seat, level, 99, move_number) == action


def test_strong_returns_an_offered_move(game: str) -> None:
    engine = registry.get(game)
    state, seat = _states(engine, 2, seed=8)[2]
    action = choose(engine, state, seat, "strong", 8, 2)
    assert offered(engine, state, seat, action)
    assert choose(engine, state, seat, "strong", 8, 2) == action  # reproducible


def _play(engine: Engine[Any], levels: list[str], seed: int) -> Any:
    state = engine.new_game(len(levels), seed)
    for move in range(5000):
        if engine.is_over(state):
            return engine.result(state)
        seat = min(engine.active_players(state))
        action = choose(engine, state, seat, levels[seat], seed, move)
        state = engine.apply(state, seat, action).state
    raise AssertionError("game did not end")


# Random games of Río and Minos run to 1,300+ moves: their easy-vs-random games are a soak.
LONG_GAMES = {"rio", "minos"}


@pytest.mark.parametrize("key", [pytest.param(k, marks=pytest.mark.slow) if k in LONG_GAMES
                                 else k for k in GAMES])
def test_easy_beats_random(key: str) -> None:
    engine = registry.get(key)
    wins = 0.0
    for seed in range(4):
        levels = ["easy", "random"] if seed % 2 == 0 else ["random", "easy"]
        result = _play(engine, levels, seed)
        easy = levels.index("easy")
        if easy in result.winners:
            wins += 1.0 / len(result.winners)
    assert wins >= 3
