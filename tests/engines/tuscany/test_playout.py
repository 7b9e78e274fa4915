"""Random playouts with AI seats (OpenSpiel ``random_sim_test`` style invariants).

The default suite plays 1,002 seeded games over 2, 3 and 4 players; every game gets the cheap
checks (ends after 3 scorings, conservation of cards and tiles, tiles on matching adjacent
spaces, menus of at most 25 entries); one game in twenty also gets the expensive ones at
every other step (JSON round trip, spectator view without hidden information, every legal action
applies) and an exact replay from the seed.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engines.ai import random_action
from engines.base import Action, Event
from engines.tuscany import ENGINE as E
from engines.tuscany.data import JOKER, TILES
from engines.tuscany.rules import geo
from engines.tuscany.state import State, validate

MAX_STEPS = 20_000


def _walk(obj: Any) -> list[str]:
    """Every dict key in a view."""
    if isinstance(obj, dict):
        return [k for k in obj] + [x for v in obj.values() for x in _walk(v)]
    if isinstance(obj, list):
        return [x for v in obj for x in _walk(v)]
    return []


def _deep_checks(s: State, events: tuple[Event, ...]) -> None:
    data = json.loads(json.dumps(E.to_dict(s)))
    assert E.from_dict(data) == s
    spectator = E.view(s, None)
    keys = _walk(spectator)
    assert "hand" not in keys and "deck_order" not in keys
    json.dumps(spectator)
    for seat in range(s.num_players):
        v = E.view(s, seat)
        assert all(("hand" in p) == (p["seat"] == seat) for p in v["players"])
    for e in events:
        if e.key == "tuscany.ev.draw_private":
            assert e.to is not None
        if e.to is None:
            assert "cards" not in e.params


def _all_legal_apply(s: State, seat: int, legal: list[Action]) -> None:
    for a in legal:
        E.apply(s, seat, a)


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


def play(seed: int, deep: bool) -> tuple[State, list[tuple[int, str]]]:
    n = 2 + seed % 3
    s = E.new_game(n, seed)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    round_ends = 0
    for step in range(MAX_STEPS):
        if E.is_over(s):
            break
        seat = rng.choice(sorted(E.active_players(s)))
        legal = E.legal_actions(s, seat)
        assert 1 <= len(legal) <= 25, (seed, step, s.stack[-1:] if s.stack else s.phase)
        action = random_action(E, s, seat, rng)
        if deep and step % 9 == 0:
            _all_legal_apply(s, seat, legal)
        out = E.apply(s, seat, action)
        log.append((seat, str(action)))
        round_ends += sum(1 for e in out.events if e.key == "tuscany.ev.round_end")
        if deep and step % 2 == 0:
            _deep_checks(out.state, out.events)
        s = out.state
    _final_checks(s, round_ends)
    return s, log


def replay(seed: int, log: list[tuple[int, str]]) -> State:
    s = E.new_game(2 + seed % 3, seed)
    for seat, text in log:
        s = E.apply(s, seat, Action.parse(text)).state
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts(players: int) -> None:
    seeds = [seed for seed in range(1002) if 2 + seed % 3 == players]
    for seed in seeds:
        deep = seed % 20 == 0
        s, log = play(seed, deep)
        if deep:
            assert E.to_dict(replay(seed, log)) == E.to_dict(s)


@pytest.mark.slow
def test_soak_random_playouts() -> None:
    for seed in range(20_000, 25_000):
        play(seed, deep=seed % 7 == 0)
