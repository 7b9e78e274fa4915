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
from engines.base import Action
from engines.minos import ENGINE as E
from engines.minos import ai
from engines.minos.state import State

from .helpers import checked, game, put_colony, put_guards, put_ship, run

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


# --- the evaluation: what a position can still turn into V ------------------------------
# Each test below is a position the old evaluation (V + talents/20 + rings/4 + pieces/2
# + 0.75 a held site) judged the wrong way round.

T, W = "trading", "wall"


def _three_seats() -> State:
    s = game(3)
    s.used = [True] * 6  # the throw is spent: nothing but building and ending is left
    return s


def test_hoarded_talents_do_not_outweigh_the_value_track() -> None:
    """1,400 talents bought nothing more than 100 do: V decides the game (the old
    talents/20 made seat 0 worth 70 V more, and every seat hoarded)."""
    s = _three_seats()
    put_colony(s, "syr", [T, T, T])  # V 6, and nothing more to build but the wall
    put_guards(s, 0, "syr")
    put_colony(s, "tar", [T, T, T])
    put_colony(s, "kno", [T])  # V 8, and Knossos can still grow
    put_guards(s, 1, "tar")
    put_guards(s, 1, "kno")
    s.players[0].talents, s.players[1].talents = 1400, 100
    s = checked(s)
    assert (s.players[0].value, s.players[1].value) == (6, 8)
    assert ai.evaluate(s, 1) > 0.5 > ai.evaluate(s, 0)


def test_a_ring_hoard_does_not_outweigh_the_value_track() -> None:
    """Rings pay a conflict's re-throws, two at most: 20 of them are not worth 2 V."""
    s = _three_seats()
    put_colony(s, "syr", [T, T])
    put_guards(s, 0, "syr")
    put_colony(s, "tar", [T, T, T])
    put_guards(s, 1, "tar")
    s.players[0].rings, s.players[1].rings = 20, 4
    s.rings -= 24
    s = checked(s)
    assert ai.evaluate(s, 1) > 0.5 > ai.evaluate(s, 0)


def test_the_wall_goes_second_where_what_follows_counts_double() -> None:
    """On a trading house, with 4 BP: the wall (0 V now, the next two buildings count
    double: T,W,T,T = 10) beats a second trading house (+2 V now, T,T,W,T = 8 at most).
    The old evaluation never built a wall, so colonies stopped at three buildings, no
    city stood and the game always ran to its round limit."""
    s = _three_seats()
    put_colony(s, "syr", [T])
    put_guards(s, 0, "syr")
    s.players[0].talents = 100
    s.bp = 4
    s = checked(run(s, "build syr"))
    assert {a.args[0] for a in E.legal_actions(s, 0) if a.kind == "type"} >= {T, W}
    assert choose(E, s, 0, "easy", 1000, 0) == Action("type", (W,))


def test_a_ship_nearer_a_free_site_is_worth_more() -> None:
    """Sailing towards a free port is progress: the old evaluation saw a ship one step
    from Syracusae and one on the fish space as equal, so easy seats rarely sailed."""
    near, far = _three_seats(), _three_seats()
    put_ship(near, 0, "j5")  # Syracusae's port is one MP away
    put_ship(far, 0, "k6")  # three from the nearest
    assert ai.evaluate(checked(near), 0) > ai.evaluate(checked(far), 0)


SWITCHED = Path(__file__).with_name("guards_switched.json")


def test_easy_commits_rather_than_switch_pieces_for_ever() -> None:
    """Judged each by the turn it completes, selecting one guard, then another, looked
    best in turn: an easy seat switched between three guards for 6,000 moves and the game
    was cut (3 seats, seed 1000, normal against easy; the position in
    ``guards_switched.json``, round 38, move 2,000). A move that commits and gains comes
    first; the seat ends its turn."""
    s = E.from_dict(json.loads(SWITCHED.read_text()))
    assert (s.round, s.current) == (38, 0)
    for move in range(40):
        if s.current != 0:
            break
        s = E.apply(s, 0, choose(E, s, 0, "easy", 1000, 2000 + move)).state
    assert s.current != 0, "the seat switched pieces instead of playing its turn"


PIECES = Path(__file__).with_name("pieces_switched.json")


def test_normal_ends_a_lost_last_turn_with_three_pieces() -> None:
    """In a lost last turn every line ends the game alike, so normal's candidates tied and
    it played easy's first, selecting another piece, for ever: it switched between a ship
    and two guards 6,000 times and the game was cut (4 seats, seed 1000, normal in seat 3
    against easy, with the draw rule; the position in ``pieces_switched.json``, round 40 of
    40, move 2,200, 8 against 14). Where every candidate ties, a move that commits is
    played; the seat ends its turn."""
    s = E.from_dict(json.loads(PIECES.read_text()))
    assert (s.round, s.max_rounds, s.current, s.selected) == (40, 40, 3, "ship:d6")
    for move in range(30):
        if E.is_over(s):
            break
        s = E.apply(s, 3, choose(E, s, 3, "normal", 1000, 2200 + move)).state
    assert E.is_over(s), "the seat switched pieces instead of ending its turn"
