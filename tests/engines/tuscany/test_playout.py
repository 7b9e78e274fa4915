"""Tuscany-specific invariants over random playouts with AI seats.

The contract checks (round trip, replay, the offer, views, hostile input, playouts ending)
are in tests/engines/test_conformance.py, for every game. Here, over 150 seeded games: the
game ends after exactly 3 scorings, cards and tiles are conserved, every tile lies on a
matching space connected to the region, and drawn cards are told only to the drawer.
"""

from __future__ import annotations

import random

import pytest

from engines.ai import random_action
from engines.base import Event
from engines.tuscany import ENGINE as E
from engines.tuscany.data import JOKER, TILES
from engines.tuscany.rules import geo
from engines.tuscany.state import State, validate

MAX_STEPS = 20_000


def _check_events(events: tuple[Event, ...]) -> None:
    for e in events:
        if e.key == "tuscany.ev.draw_private":
            assert e.to is not None
        if e.to is None:
            assert "cards" not in e.params


def _final_checks(s: State, round_ends: int) -> None:
    assert E.is_over(s) and round_ends == 3
    validate(s)
    for p in s.players:
        g = geo(p)
        occupied = [x for x in range(30) if p.board[x] is not None]
        for x in occupied:
            t = p.board[x]
            assert t == JOKER or TILES[t or 0].colour == g.colours[x]
        seen = {occupied[0]}
        todo = [occupied[0]]
        while todo:
            for y in g.adjacent[todo.pop()]:
                if p.board[y] is not None and y not in seen:
                    seen.add(y)
                    todo.append(y)
        assert seen == set(occupied)  # every tile touches the region by a side
    result = E.result(s)
    assert result is not None
    assert sorted(x for place in result.ranking for x in place) == list(range(s.num_players))


def play(seed: int) -> State:
    n = 2 + seed % 3
    s = E.new_game(n, seed)
    rng = random.Random(seed)
    round_ends = 0
    for _ in range(MAX_STEPS):
        if E.is_over(s):
            break
        seat = rng.choice(sorted(E.active_players(s)))
        out = E.apply(s, seat, random_action(E, s, seat, rng))
        round_ends += sum(1 for e in out.events if e.key == "tuscany.ev.round_end")
        _check_events(out.events)
        s = out.state
    _final_checks(s, round_ends)
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts(players: int) -> None:
    for seed in (seed for seed in range(150) if 2 + seed % 3 == players):
        play(seed)


@pytest.mark.slow
def test_soak_random_playouts() -> None:
    for seed in range(20_000, 25_000):
        play(seed)
