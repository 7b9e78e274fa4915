"""Havana's AI: what its evaluation and lookahead must get right for this game.

The contract checks for every game (legal moves, hidden information, reproducibility) are in
tests/engines/test_ai_conformance.py and test_ai_search.py.
"""

from __future__ import annotations

import random
from typing import Any

from engines.ai import choose, greedy
from engines.havana import ENGINE

from .helpers import actions_state, do


def _count_playouts(monkeypatch: Any) -> list[int]:
    calls: list[int] = []
    real = greedy.playout

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(greedy, "playout", counted)
    return calls


def test_picks_and_covers_are_declared_hidden() -> None:
    assert ENGINE.spec.hidden_kinds == frozenset({"pick", "cover"})


def test_the_last_picker_judges_its_pick_after_the_round_is_played(monkeypatch: Any) -> None:
    """Judged at the reveal, a pick shows nothing unless it puts its seat first in turn
    order (its own actions then completed and seen): the last seat to pick took low cards
    that do little, and from the last chair of three-seat easy self-play won 5 of 60."""
    s = ENGINE.new_game(3, 1000)
    s, _ = do(s, 0, "pick debris", "pick worker")
    s, _ = do(s, 1, "pick black_market", "pick mama")
    assert ENGINE.active_players(s) == frozenset({2})
    calls = _count_playouts(monkeypatch)
    greedy.ranked(ENGINE, s, 2, random.Random(1))
    assert calls, "the last pick was judged at the reveal"
    first = choose(ENGINE, s, 2, "easy", 1000, 4)  # as in easy self-play, seed 1000
    s, _ = do(s, 2, str(first))
    second = choose(ENGINE, s, 2, "easy", 1000, 5)
    assert {first.args[0], second.args[0]} != {"worker", "siesta"}  # 04: first, for nothing


def test_a_turn_alone_is_judged_without_a_playout(monkeypatch: Any) -> None:
    s = actions_state([("worker", "pesos"), ("siesta", "mama"), ("debris", "architect")])
    calls = _count_playouts(monkeypatch)
    greedy.ranked(ENGINE, s, 0, random.Random(1))
    assert not calls
