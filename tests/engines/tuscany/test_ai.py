"""AI seats in Tuscany's set-up: turning and reordering the region parts can go on without
end (a normal seat did it 400 times in a row, 2 seats, seed 1001), so every level above
random keeps the dealt arrangement and confirms it (``Spec.back_kinds``)."""

from __future__ import annotations

import pytest

from engines.ai import choose
from engines.tuscany import ENGINE as E
from engines.tuscany import ai

from .helpers import grab, ready


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_ai_seats_confirm_the_dealt_arrangement(level: str) -> None:
    s = E.new_game(2, 1001)
    assert s.phase == "arrange"
    for seat in sorted(E.active_players(s)):
        assert any(a.kind == "arrange" for a in E.legal_actions(s, seat))  # it could turn
        assert choose(E, s, seat, level, 1001, 0).kind == "confirm"


def test_the_seed_1001_game_of_the_loop_ends() -> None:
    s, moves = E.new_game(2, 1001), 0
    levels = ("easy", "normal")  # seed % 2 == 1: the normal seat is seat 1, as in the bench
    while not E.is_over(s):
        assert moves < 1000, "the game went round"
        seat = min(E.active_players(s))
        s = E.apply(s, seat, choose(E, s, seat, levels[seat], 1001, moves)).state
        moves += 1
    assert E.result(s) is not None


def test_a_stored_tile_that_fits_the_region_is_worth_more() -> None:
    """A stored tile with no free space of its colour by the region may never be placed:
    valued like any other, it kept an easy seat taking tiles (and boxing one for another)
    while it placed one tile in a game (3 seats, seed 1008; easy then won 6 of 10 games
    against random seats)."""
    s = ready()
    fits, stuck = s.clone(), s.clone()
    fits.players[0].storage[0] = grab(fits, "F")  # light-green spaces touch the castle
    stuck.players[0].storage[0] = grab(stuck, "M")  # no yellow space does
    worth = ai.projected(s, s.players[0])
    assert ai.projected(fits, fits.players[0]) > ai.projected(stuck, stuck.players[0]) > worth
