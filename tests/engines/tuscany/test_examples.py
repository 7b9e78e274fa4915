"""The rulebook's own examples, one test each (reference "Rulebook examples")."""

from __future__ import annotations

from engines.tuscany import ENGINE as E
from engines.tuscany.board import LABEL_INDEX
from engines.tuscany.data import JOKER, TILES

from .helpers import grab, hand, my_turn, put, ready, run


def test_anna_monastery_zone_scores_only_when_complete() -> None:
    s = ready()
    p = s.players[0]
    # Path from the castle: a1 - b1 - c1 - c2 - d2 (monastery, 1st of the 3-zone d2-d4).
    put(s, 0, "b1", "F", ("grain",))
    put(s, 0, "c1", "V")
    put(s, 0, "c2", "V")
    put(s, 0, "d2", "M")
    p.storage[0] = grab(s, "M")
    hand(s, 0, m=2)
    green = p.green
    s, keys = run(s, 0, "place", "tile 0", "space d3", "pay m m")
    assert s.players[0].green == green
    assert "tuscany.ev.zone" not in keys
    assert sum(s.players[0].hand) == 3  # the monastery drew 3 cards (no improvement)
    # The third monastery completes the zone of 3: 6 green VP.
    s.players[0].storage[0] = grab(s, "M")
    hand(s, 0, m=2)
    my_turn(s)
    s, keys = run(s, 0, "place", "tile 0", "space d4", "pay m m")
    assert s.players[0].green == green + 6
    assert "tuscany.ev.zone" in keys


def test_clara_boar_wine_next_to_wine_scores_one() -> None:
    s = ready()
    put(s, 0, "b1", "F", ("wine",))
    s.players[0].storage[0] = grab(s, "F", ("boar", "wine"))
    hand(s, 0, f=2)
    s, keys = run(s, 0, "place", "tile 0", "space b2", "pay f f")
    assert s.players[0].green == 1  # boar is new, wine is not; the zone (a2 empty) is open
    assert "tuscany.ev.zone" not in keys


def test_benoit_joker_on_light_green_always_scores_one() -> None:
    s = ready()
    put(s, 0, "b1", "F", ("wine", "grain"))
    put(s, 0, "b2", "F", ("boar", "olives"))  # every type already in the zone
    s.players[0].storage[0] = JOKER
    hand(s, 0, r=2, f=1)
    s, _ = run(s, 0, "place", "tile 0")
    assert "space a2" in [str(a) for a in E.legal_actions(s, 0)]
    s, _ = run(s, 0, "space a2")
    # 2 red cards (a pair) + 1 light-green card is the only payment.
    assert [str(a) for a in E.legal_actions(s, 0)] == ["pay f 2r"]
    s, keys = run(s, 0, "pay f 2r")
    p = s.players[0]
    assert sum(p.hand) == 0
    assert p.board[LABEL_INDEX["a2"]] == JOKER
    # +1 for the joker as a new type, +6 for completing the 3-space zone.
    assert p.green == 1 + 6
    assert "tuscany.ev.farm" in keys


def test_denis_worker_and_two_light_green_cards_place_a_city() -> None:
    s = ready()
    for label, colour in (("b1", "F"), ("b2", "F"), ("b3", "I")):
        put(s, 0, label, colour)
    p = s.players[0]
    p.storage[0] = grab(s, "R")
    p.workers = 1
    hand(s, 0, f=2)
    s, _ = run(s, 0, "place", "tile 0", "space b4")
    assert [str(a) for a in E.legal_actions(s, 0)] == ["pay worker 2f"]
    s, keys = run(s, 0, "pay worker 2f")
    p = s.players[0]
    assert p.workers == 0 and sum(p.hand) == 0
    assert TILES[p.board[LABEL_INDEX["b4"]] or 0].colour == 1
    assert s.stack[-1].kind == "improve"  # the city's improvement comes next


def test_anna_scoring_adds_green_to_red_twice() -> None:
    s = ready(2)
    p = s.players[0]
    p.green, p.red = 9, 4
    s.trigger = True
    s.current = 1  # the last seat of the rotation
    s, _ = run(s, 1, "draw")
    if s.stack and s.stack[-1].kind == "extra":
        s, _ = run(s, 1, "end")
    assert s.players[0].red == 13 and s.players[0].green == 9 and s.round == 2
    s.players[0].green = 22
    s.players[0].red += 2  # an income card
    s.trigger = True
    s.current = 1
    s.players[1].marbles = 0
    s, _ = run(s, 1, "draw")
    assert s.players[0].red == 37 and s.players[0].green == 22 and s.round == 3
