"""Rulebook audit: one test per rule the other suites did not pin down, named after the rule.

Each test cites the French rulebook section (``shared/seeds/001_…``) or the numbered decision
of ``docs/rules/tuscany.md`` it checks.
"""

from __future__ import annotations

import json

import pytest

from engines.base import Action, IllegalAction, InvalidState
from engines.tuscany import ENGINE as E
from engines.tuscany.board import LABEL_INDEX
from engines.tuscany.data import JOKER, TILES
from engines.tuscany.state import Frame, State, validate

from .helpers import display, do, grab, hand, my_turn, put, ready, run

FRESH = "tuscany.error.joker_fresh"


def legal(s: State, seat: int = 0) -> list[str]:
    return [str(a) for a in E.legal_actions(s, seat)]


# --- "Mise en place" --------------------------------------------------------------------

def test_start_castle_has_no_other_effect() -> None:
    # "Chaque joueur place ensuite son château de départ ... sans autre effet."
    s = E.new_game(2, 11)
    for seat in (0, 1):
        s = do(s, seat, "confirm").state
    out = do(s, 0, legal(s, 0)[0])
    p = out.state.players[0]
    assert p.green == 0 and p.red == 0 and out.state.bonus == [[] for _ in range(8)]
    assert [e.key for e in out.events] == ["tuscany.ev.start_castle"]


# --- "Poser une tuile Domaine" ----------------------------------------------------------

def test_two_workers_place_a_tile_without_cards() -> None:
    # "Village": "S'il en dépense 2, il peut poser n'importe quelle tuile sans défausser de
    # cartes."
    s = ready()
    s.players[0].storage[0] = grab(s, "F")
    s.players[0].workers = 2
    hand(s, 0)
    s, _ = run(s, 0, "place", "tile 0", "space b1")
    assert legal(s) == ["pay worker worker"]
    s, _ = run(s, 0, "pay worker worker")
    assert s.players[0].workers == 0 and s.players[0].board[LABEL_INDEX["b1"]] is not None


def test_zone_of_two_spaces_scores_three() -> None:
    # "Points de Victoire": "zone de 1 case : 1 PV ; 2 cases : 3 PV ; 3 cases : 6 PV".
    s = ready()
    put(s, 0, "a2", "F")
    put(s, 0, "a3", "V")  # the orange zone a3-a4 (2 spaces)
    s.players[0].storage[0] = grab(s, "V")
    hand(s, 0, v=2)
    s, keys = run(s, 0, "place", "tile 0", "space a4", "pay v v")
    assert s.players[0].green == 3 and "tuscany.ev.zone" in keys


def test_joker_on_light_green_never_blocks_an_agriculture_type() -> None:
    # "Auberge": a joker on light green "est considéré comme un type d'agriculture
    # supplémentaire"; "Agriculture": 1 VP per type not yet in the zone.
    s = ready()
    s.players[0].board[LABEL_INDEX["b1"]] = JOKER
    s.players[0].storage[0] = grab(s, "F", ("wine",))
    hand(s, 0, f=2)
    s, _ = run(s, 0, "place", "tile 0", "space b2", "pay f f")
    assert s.players[0].green == 1  # wine is new; the zone (a2 empty) is still open


def test_colour_bonus_first_value_then_nothing_for_a_third_player() -> None:
    # "Tuiles Bonus de Couleur": the first gets side I, the second side II, then the tile
    # goes back to the box.
    for claimed, bonus in (([], 2), ([1, 2], 0)):
        s = ready(3)
        put(s, 0, "b1", "F")
        put(s, 0, "b2", "F")
        put(s, 0, "e4", "I")  # the other turquoise space
        s.players[0].storage[0] = grab(s, "I")
        s.bonus[2] = claimed[:]
        hand(s, 0, i=2)
        s, keys = run(s, 0, "place", "tile 0", "space b3", "pay i i")
        assert s.players[0].green == 1 + bonus  # a one-space zone, then the bonus
        assert ("tuscany.ev.bonus" in keys) == bool(bonus)
        assert s.bonus[2] == (claimed or []) + ([0] if bonus else [])


# --- tile effects -----------------------------------------------------------------------

def _castle_pick_state(free_storage: bool) -> State:
    """Seat 0 is about to use a castle's direct placement; an inn is on display (slot 0)."""
    s = ready()
    p = s.players[0]
    put(s, 0, "b1", "F")
    put(s, 0, "b2", "F")
    display(s, "iqqmmtvr")
    p.storage[0] = None if free_storage else grab(s, "Q")
    s.stack = [Frame("done"), Frame("castle")]
    return s


def test_inn_placed_by_a_castle_gives_a_joker_to_a_free_storage_space() -> None:
    # Decision 5 ("Auberge" has no freed space here): a free storage space takes the joker.
    s, keys = run(_castle_pick_state(True), 0, "pick 0", "space b3")
    assert s.players[0].storage == [JOKER] and "tuscany.ev.joker" in keys
    validate(s)


def test_inn_placed_by_a_castle_with_full_storage_gives_two_red() -> None:
    # Decision 5, by analogy with "Commerce": no free storage space -> 2 red VP instead.
    s, keys = run(_castle_pick_state(False), 0, "pick 0", "space b3")
    p = s.players[0]
    assert p.red == 2 and JOKER not in p.storage and "tuscany.ev.joker_red" in keys


def test_inn_joker_waits_for_a_later_turn_even_with_a_marble_action() -> None:
    # "Auberge" (seeds/001_…, line 303): "Lors d'un tour ultérieur, il pourra placer ce
    # Joker sur *n'importe quelle* case de son plateau" (decision 13: strict).
    s = ready()
    put(s, 0, "b1", "F")
    put(s, 0, "b2", "F")
    p = s.players[0]
    p.storage[0] = grab(s, "I")
    p.marbles = 1
    s.players[1].marbles = 0
    hand(s, 0, i=2, f=2)
    s, _ = run(s, 0, "place", "tile 0", "space b3", "pay i i", "marble")
    assert s.players[0].storage == [JOKER] and s.players[0].fresh_jokers == [0]
    assert s.stack[-1].kind == "main" and "place" not in legal(s)
    with pytest.raises(IllegalAction) as err:
        do(s, 0, "place")
    assert err.value.key == FRESH
    assert all(str(c.action) != "place" for c in E.choices(s, 0))
    s, _ = run(s, 0, "draw")
    assert s.current == 1 and s.players[0].fresh_jokers == []
    s, _ = run(s, 1, "draw")
    assert s.current == 0 and "place" in legal(s)
    s, _ = run(s, 0, "place", "tile 0", "space a2", "pay f f")
    assert s.players[0].board[LABEL_INDEX["a2"]] == JOKER and s.players[0].storage == [None]


def test_castle_chained_inn_joker_is_not_offered_in_the_marble_action() -> None:
    # "Auberge", "Lors d'un tour ultérieur": a joker from an inn placed by a castle too.
    s = _castle_pick_state(True)
    p = s.players[0]
    p.imps[1] = 1  # a second storage space holding a tile placeable now
    p.storage.append(grab(s, "F"))
    p.marbles = 1
    hand(s, 0, f=2)
    s, _ = run(s, 0, "pick 0", "space b3", "marble", "place")
    assert s.players[0].fresh_jokers == [0] and legal(s) == ["tile 1"]
    with pytest.raises(IllegalAction) as err:
        do(s, 0, "tile 0")
    assert err.value.key == FRESH
    assert E.view(s, 1)["players"][0]["fresh_jokers"] == [0]


def test_income_joker_waits_for_a_later_turn() -> None:
    # "Commerce" gives the joker of "Auberge", placed "lors d'un tour ultérieur".
    s = ready()
    for label, c in (("b1", "F"), ("a2", "F"), ("a3", "V"), ("a4", "V")):
        put(s, 0, label, c)
    p = s.players[0]
    p.storage[0] = grab(s, "T")
    p.marbles = 1
    s.income.remove("joker")
    s.income.append("joker")
    hand(s, 0, t=2, f=2)
    s, _ = run(s, 0, "place", "tile 0", "space a5", "pay t t", "marble")
    assert s.players[0].storage == [JOKER] and "place" not in legal(s)


def test_discarding_a_fresh_joker_for_a_display_tile_forgets_it() -> None:
    # "Prendre une tuile": a full storage boxes a stored item, a joker gained this turn too.
    s = _castle_pick_state(True)
    s.players[0].marbles = 1
    s, _ = run(s, 0, "pick 0", "space b3", "marble", "take", "pick 1", "discard 0")
    p = s.players[0]
    assert p.fresh_jokers == [] and p.storage[0] not in (None, JOKER)
    validate(s)


def test_fresh_jokers_survive_a_round_trip_and_are_checked_on_load() -> None:
    s = _castle_pick_state(True)
    s.players[0].marbles = 1
    s, _ = run(s, 0, "pick 0", "space b3")
    data = json.loads(json.dumps(E.to_dict(s)))
    assert data["players"][0]["fresh_jokers"] == [0] and E.from_dict(data) == s
    del data["players"][0]["fresh_jokers"]  # a game saved before the field existed
    assert E.from_dict(data).players[0].fresh_jokers == []
    for bad in ([1], [0, 0], ["0"]):
        data["players"][0]["fresh_jokers"] = bad
        with pytest.raises(InvalidState):
            E.from_dict(data)
    data["players"][0]["fresh_jokers"] = []
    data["players"][1]["storage"][0] = JOKER
    assert E.from_dict(data).players[1].storage[0] == JOKER
    data["players"][1]["fresh_jokers"] = [0]  # not seat 1's turn
    with pytest.raises(InvalidState):
        E.from_dict(data)


def test_income_card_draws_ignore_the_card_improvement() -> None:
    # Decision 7: "+1 carte Domaine" belongs to the Draw action ("Piocher des cartes").
    s = ready()
    for label, c in (("b1", "F"), ("a2", "F"), ("a3", "V"), ("a4", "V")):
        put(s, 0, label, c)
    p = s.players[0]
    p.imps[0] = 2
    p.storage[0] = grab(s, "T")
    s.income.remove("cards2")
    s.income.append("cards2")
    hand(s, 0, t=2)
    s, _ = run(s, 0, "place", "tile 0", "space a5", "pay t t")
    assert sum(s.players[0].hand) == 2


def test_card_draws_from_tiles_are_public_only_as_a_count() -> None:
    # "Mise en place": hands are hidden ("sans les montrer aux autres"); a monastery's 3
    # cards ("Monastère") reach the drawer alone.
    s = ready()
    for label, c in (("b1", "F"), ("c1", "V"), ("c2", "V")):
        put(s, 0, label, c)
    s.players[0].storage[0] = grab(s, "M")
    hand(s, 0, m=2)
    s, _ = run(s, 0, "place", "tile 0")
    out = do(s, 0, "space d2")
    out = do(out.state, 0, "pay m m")
    public = [e for e in out.events if e.to is None]
    assert [e.params["count"] for e in public if e.key == "tuscany.ev.draw"] == [3]
    assert all("cards" not in e.params for e in public)
    private = [e for e in out.events if e.key == "tuscany.ev.draw_private"]
    assert [e.to for e in private] == [0] and len(private[0].params["cards"]) == 3


# --- "Trop de tuiles Domaine disponibles de même couleur ?" -----------------------------

def test_five_light_green_tiles_reset_whatever_their_agriculture_types() -> None:
    # "(y compris les tuiles vert clair, même si les types d'agricultures représentées sont
    # différentes)".
    s = ready()
    display(s, "ffffqmvt")
    farm = grab(s, "F", owner=0)
    s.players[0].piles[0].append(farm)
    s, keys = run(s, 0, "take", "pick 7")
    assert "tuscany.ev.reset" in keys
    assert farm in s.neutral_discard
    assert sum(1 for t in s.display if t is not None and TILES[t].colour == 3) < 5
    validate(s)


# --- "Les 3 manches" --------------------------------------------------------------------

def test_round_two_ends_when_a_centre_pile_empties() -> None:
    # "La 2e manche s'arrête à la fin du tour où au moins un joueur a vidé sa pile de tuiles
    # centrale."
    s = ready(2)
    s.round = 2
    p = s.players[0]
    s.boxed += p.piles[0] + p.piles[1][:-1]
    p.piles[0], p.piles[1] = [], p.piles[1][-1:]
    s, keys = run(s, 0, "take", "pick 0")
    assert s.trigger and "tuscany.ev.round_trigger" in keys
    s, keys = run(s, 1, "draw")
    assert s.round == 3 and "tuscany.ev.round_end" in keys


def test_a_pile_already_empty_ends_the_next_round_with_its_first_rotation() -> None:
    # Decision 9 ("Les 3 manches"): a centre pile emptied during round 1 ends round 2 at the
    # end of round 2's first rotation, and the table is told so.
    s = ready(2)
    s.trigger = True
    p = s.players[0]
    s.boxed += p.piles[0] + p.piles[1]
    p.piles[0], p.piles[1] = [], []
    s.current = 1
    s, keys = run(s, 1, "draw")
    assert s.round == 2 and s.trigger and "tuscany.ev.round_trigger" in keys
    s, _ = run(s, 0, "draw")
    s, keys = run(s, 1, "draw")
    assert s.round == 3 and "tuscany.ev.round_end" in keys


def test_round_three_trigger_announces_the_extra_rotation() -> None:
    # "La 3e manche s'arrête ... + 1 tour supplémentaire": the announcement must not say the
    # round ends with this rotation.
    s = ready(2)
    s.round = 3
    p = s.players[0]
    s.boxed += p.piles[0] + p.piles[1] + p.piles[2][:-1]
    p.piles[0], p.piles[1], p.piles[2] = [], [], p.piles[2][-1:]
    s, keys = run(s, 0, "take", "pick 0")
    assert "tuscany.ev.round_trigger_last" in keys and "tuscany.ev.round_trigger" not in keys
    assert s.trigger


# --- "Fin de la partie" -----------------------------------------------------------------

def test_final_leftovers_count_jokers_and_marbles_too() -> None:
    # "chaque élément restant (tuiles Domaine, Joker, Marbre, Ouvrier), ainsi que chaque
    # groupe de 5 cartes en main, rapporte 1 PV".
    s = ready(2)
    s.round, s.trigger, s.extra = 3, True, True
    s.current = 1
    p = s.players[0]
    p.storage[0] = JOKER
    p.marbles, p.workers = 3, 0
    hand(s, 0, c=4)
    s.players[1].marbles = 0
    s, keys = run(s, 1, "draw")
    assert E.is_over(s) and s.players[0].red == 1 + 3


# --- skipped players (docs/rules/tuscany.md, "A skipped player") ------------------------

def test_skip_action_is_the_draw_action_or_declines_an_option() -> None:
    s = ready()
    s.players[0].imps[0] = 1
    assert E.skip_action(s, 0) == Action("draw")
    out = E.apply(s, 0, Action("draw"))
    draws = [e.params["count"] for e in out.events if e.key == "tuscany.ev.draw"]
    assert draws == [3 + 1]  # the rulebook's Draw action, not a reduced one
    s2, _ = run(ready(), 0, "take")
    assert E.skip_action(s2, 0) is None  # a started action: the AI completes it
    s3 = _castle_pick_state(True)
    assert E.skip_action(s3, 0) == Action("skip")
    s4 = my_turn(ready())
    s4.players[0].marbles = 1
    s4, _ = run(s4, 0, "draw")
    assert E.skip_action(s4, 0) == Action("end")
