"""AI seats in a lost last turn of Minos: ending the turn ends the game, lost, and a
greedy seat rated any idle move (selecting one piece, then the other) above it. An easy
seat did so 4,000 times in a row (2 seats, seed 1000, against normal: the position in
``last_turn_lost.json``, round 40 of 40, 6 against 22). Every level above random must end
the game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.ai import choose
from engines.ai.greedy import reversible
from engines.minos import ENGINE as E

POSITION = Path(__file__).with_name("last_turn_lost.json")


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_a_lost_last_turn_is_played_to_the_end(level: str) -> None:
    s = E.from_dict(json.loads(POSITION.read_text()))
    assert (s.round, s.max_rounds, s.current, s.selected) == (40, 40, 1, "ship:l7")
    toggle = next(a for a in E.legal_actions(s, 1) if a.kind == "piece")
    assert reversible(E, s, 1, toggle)  # the idle move is offered
    for move in range(40):
        if E.is_over(s):
            break
        s = E.apply(s, 1, choose(E, s, 1, level, 1000, 870 + move)).state
    assert E.is_over(s), "the seat idled instead of ending its turn"
