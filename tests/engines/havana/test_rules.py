"""Rules outside the cards: hidden picks, turn order, buying, payments, end, errors."""

from __future__ import annotations

import pytest

from engines.base import (
    TURN_END,
    Action,
    GameOver,
    IllegalAction,
    InvalidAction,
    Message,
    NotYourTurn,
)
from engines.havana import ENGINE
from engines.havana.rules import order_key
from engines.havana.state import Player, State

from .helpers import actions_state, blank, do, give, keys, legal, set_rows, to_centre


# --- hidden simultaneous picks --------------------------------------------------------------
def test_start_picks_are_private_until_everyone_has_chosen() -> None:
    s = blank(2)
    s, outs = do(s, 0, "pick mama", "pick siesta")
    public = [e for o in outs for e in o.events if e.to is None]
    assert public and all(e.params == {"seat": 0} for e in public)  # never the card
    assert ENGINE.active_players(s) == frozenset({1})
    other = ENGINE.view(s, 1)["players"][0]
    assert other["has_picked"] and other["face_up"] == [] and "pending_picks" not in other
    assert ENGINE.view(s, 0)["players"][0]["pending_picks"] == ["mama", "siesta"]
    s, outs = do(s, 1, "pick worker", "pick pesos")
    last = outs[-1]
    assert last.irreversible and TURN_END in [e.key for e in last.events if e.to is None]
    assert s.players[0].face_up == ["siesta", "mama"] and len(s.players[0].hand) == 11


def test_a_seat_cannot_pick_the_same_card_twice_or_a_third_card() -> None:
    s = blank(2)
    s, _ = do(s, 0, "pick mama")
    assert "pick mama" not in legal(s, 0)
    with pytest.raises(IllegalAction):
        do(s, 0, "pick mama")
    s, _ = do(s, 0, "pick siesta")
    with pytest.raises(NotYourTurn):
        do(s, 0, "pick pesos")


def test_cover_needs_a_pick_first_and_reveals_together() -> None:
    s = actions_state([("siesta", "debris"), ("worker", "mama")])
    s.phase, s.step = "cover", None
    with pytest.raises(IllegalAction) as err:
        do(s, 0, "cover siesta")
    assert err.value.key == "havana.error.pick_first"
    s, outs = do(s, 0, "pick pesos")
    assert legal(s, 0) == ["cover siesta", "cover debris"]
    s, outs = do(s, 0, "cover debris")
    assert s.players[0].face_up == ["siesta", "debris"]  # nothing revealed yet
    s, outs = do(s, 1, "pick siesta", "cover mama")
    assert outs[-1].irreversible and s.round == 2 and s.phase == "actions"
    assert s.players[0].face_up == ["siesta", "pesos"] and s.players[0].discard == ["debris"]
    assert s.players[1].face_up == ["siesta", "worker"]
    assert s.turn_order == [1, 0]  # 04 before 08


def test_hand_recovery_when_two_cards_or_fewer_remain() -> None:
    s = actions_state([("siesta", "debris"), ("worker", "mama")])
    p = s.players[0]
    p.discard = p.hand[:8]
    p.hand = p.hand[8:]  # 3 cards left in hand
    s.phase, s.step = "cover", None
    hand = p.hand[:]
    s, _ = do(s, 0, f"pick {hand[0]}", "cover debris")
    s, outs = do(s, 1, "pick siesta", "cover mama")
    p = s.players[0]
    assert not p.discard and len(p.hand) == 11 and "debris" in p.hand
    assert "havana.ev.hand_recovered" in keys(outs)
    assert len(s.players[1].hand) == 10  # 11 minus the new card: no recovery


def test_supply_adds_three_blind_cubes_and_three_pesos() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "protection")])
    to_centre(s, pesos=2, brick=1)
    s, _ = do(s, 0, "play siesta")
    s, outs = do(s, 1, "play siesta")
    assert s.phase == "cover" and ENGINE.active_players(s) == frozenset({0, 1})
    assert s.centre_pesos == 5 and sum(s.centre) == 4
    assert outs[-1].irreversible and "havana.ev.supply" in keys(outs)


# --- turn order -----------------------------------------------------------------------------
def _tie_state() -> tuple[State, Player, Player]:
    s = actions_state([("siesta", "black_market"), ("siesta", "black_market")])
    return s, s.players[0], s.players[1]


@pytest.mark.parametrize("field", ["vp", "coloured", "pesos", "workers", "rubble"])
def test_turn_order_tie_breaks(field: str) -> None:
    s, p0, p1 = _tie_state()
    # Seat 1 gets less of one thing: it must go first despite the higher seat.
    for p, value in ((p1, 1), (p0, 2)):
        if field == "vp":
            p.buildings = [1] if value == 1 else [5]
        elif field == "coloured":
            p.materials[0] = value
        elif field == "rubble":
            p.materials[4] = value
        else:
            setattr(p, field, value)
    assert order_key(p1, 1) < order_key(p0, 0)


def test_turn_order_full_tie_falls_back_to_seat_order() -> None:
    s, p0, p1 = _tie_state()
    assert order_key(p0, 0) < order_key(p1, 1)


def test_turn_order_tie_breaks_come_in_the_rulebook_order() -> None:
    s, p0, p1 = _tie_state()
    p0.buildings = [1]  # 1 VP
    p1.buildings = [5]  # 2 VP but no materials
    p0.materials[0] = 0
    p1.materials[0] = 0
    p0.pesos, p1.pesos = 0, 0
    p1.materials[4] = 0
    p0.materials[4] = 9
    assert order_key(p0, 0) < order_key(p1, 1)  # VP decides before rubble


# --- buying -----------------------------------------------------------------------------------
def test_only_row_ends_are_buyable_and_several_per_turn() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [2, 1, 3, 4, 6, 29], [32, 7, 8, 9, 10, 35])
    give(s, 0, rubble=6, pesos=10)
    s, _ = do(s, 0, "play siesta")
    assert legal(s, 0) == ["build 2", "end"]  # Beach hut (1) sits behind the Street
    with pytest.raises(IllegalAction) as err:
        do(s, 0, "build 1")
    assert err.value.key == "havana.error.not_buyable"
    s, _ = do(s, 0, "build 2")
    assert "build 1" in legal(s, 0)
    s, _ = do(s, 0, "build 1")
    assert s.players[0].buildings == [2, 1] and s.current == 0


def test_refill_after_a_purchase_leaves_two_in_a_row() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [2, 29, 25], [32, 7, 8, 9, 10, 35])
    give(s, 0, rubble=2)
    top = s.pile[-4:]
    s, outs = do(s, 0, "play siesta", "build 2")
    assert s.rows[0][0] == 29 and s.rows[0][-1] == 25 and len(s.rows[0]) == 6
    assert sorted(s.rows[0][1:5]) == sorted(top) and len(s.pile) == 36 - 9 - 4
    assert "havana.ev.refill" in keys(outs)


def test_the_architect_must_be_face_up() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "architect")])
    set_rows(s, [25, 2, 3, 4, 6, 29], [32, 7, 8, 9, 10, 35])  # Theatre: 1G 1S 1P + A
    give(s, 0, glass=1, sandstone=1, pesos=1)
    give(s, 1, glass=1, sandstone=1, pesos=1)
    s, _ = do(s, 0, "play siesta")
    assert s.current == 1  # the Theatre was not offered to seat 0
    s.turn_index, s.step = 0, "build"
    with pytest.raises(IllegalAction) as err:
        do(s, 0, "build 25")
    assert err.value.key == "havana.error.need_architect"
    s.turn_index, s.step = 1, "choose_card"
    s, _ = do(s, 1, "play siesta")  # then the Architect
    s, _ = do(s, 1, "build 25")
    assert s.players[1].buildings == [25]
    assert "architect" in s.players[1].face_up  # never spent


def test_unaffordable_building_names_the_missing_resource() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [15, 2, 3, 4, 6, 29], [32, 7, 8, 9, 10, 35])  # Tobacco warehouse 2C 2R
    give(s, 0, clay=1, rubble=2)
    s, _ = do(s, 0, "play siesta")
    assert s.current == 1  # nothing buyable: the turn ended by itself
    s.turn_index, s.step = 0, "build"
    with pytest.raises(IllegalAction) as err:
        do(s, 0, "build 15")
    assert str(err.value) == "You need 2 clay, you have 1"
    assert err.value.key == "havana.error.need"
    assert err.value.params == {"need": 2, "have": 1, "what": Message("havana.material.clay")}


def test_five_pesos_replace_a_worker_and_the_player_chooses() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [10, 2, 3, 4, 6, 29], [32, 7, 8, 9, 11, 35])  # Garden: 2W
    give(s, 0, workers=1, pesos=10)
    s, _ = do(s, 0, "play siesta", "build 10")
    assert s.step == "pay_workers" and legal(s, 0) == ["pay w1", "pay w2"]
    s, _ = do(s, 0, "pay w1")
    p = s.players[0]
    assert p.workers == 0 and p.pesos == 5 and p.buildings == [10]


def test_five_rubble_replace_a_coloured_cube() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [4, 2, 3, 5, 6, 29], [32, 7, 8, 9, 10, 35])  # Fountain: 1C
    give(s, 0, rubble=5)
    s, _ = do(s, 0, "play siesta", "build 4")  # only one way to pay: done at once
    assert s.players[0].buildings == [4] and s.players[0].materials[4] == 0
    assert s.box[4] == 5


def test_payment_choice_between_colour_and_rubble() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [4, 2, 3, 5, 6, 29], [32, 7, 8, 9, 10, 35])
    give(s, 0, clay=1, rubble=5)
    s, _ = do(s, 0, "play siesta", "build 4")
    assert s.step == "pay_materials" and legal(s, 0) == ["pay none", "pay clay1"]
    labels = [c.label.key for c in ENGINE.choices(s, 0)]
    assert labels == ["havana.choice.pay_colours", "havana.choice.pay_rubble"]
    s, _ = do(s, 0, "pay clay1")
    assert s.players[0].materials[2] == 1 and s.players[0].materials[4] == 0


def test_exchanges_are_never_reversed() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [3, 2, 1, 5, 6, 29], [32, 7, 8, 9, 10, 35])  # Fruit stall: 3P
    set_rows(s, [3, 2, 1, 5, 6, 29], [2 + 30, 7, 8, 9, 10, 35])
    give(s, 0, workers=5, brick=5)  # workers never pay pesos, colours never pay rubble
    s, _ = do(s, 0, "play siesta")
    assert s.current == 1 and s.players[0].buildings == []


def test_turn_end_is_emitted_once_when_the_turn_ends() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [2, 1, 3, 4, 6, 5], [32, 7, 8, 9, 10, 35])
    give(s, 0, rubble=2)
    s, outs = do(s, 0, "play siesta")
    assert TURN_END not in keys(outs)
    s, outs = do(s, 0, "end")
    assert keys(outs).count(TURN_END) == 1 and s.current == 1


# --- end of the game ---------------------------------------------------------------------------
def test_vp_threshold_is_checked_after_the_turn() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [2, 1, 3, 4, 6, 29], [32, 7, 8, 9, 10, 33])
    s.players[0].buildings = [36, 35, 34, 31]  # 25 VP: 2 players need 25
    s.pile = [b for b in s.pile if b not in (36, 35, 34, 31)]
    s, outs = do(s, 0, "play siesta")
    assert s.phase == "over" and s.winners == [0] and s.end_reason == "threshold"
    result = ENGINE.result(s)
    assert result is not None and result.winners == frozenset({0})
    assert result.scores[0] == 25
    with pytest.raises(GameOver):
        do(s, 1, "play siesta")


def test_game_ends_when_every_building_is_gone() -> None:
    s = actions_state([("siesta", "conservation"), ("siesta", "debris")])
    s.players[1].buildings = [b for b in range(1, 37) if b != 2]
    s.rows, s.pile = [[2], []], []
    s, outs = do(s, 0, "play conservation", "remove 0:left")
    assert s.phase == "over" and s.end_reason == "buildings"
    assert keys(outs)[-1] == TURN_END
    assert s.winners == [1]


def test_game_ends_when_every_cube_is_in_the_box() -> None:
    s = actions_state([("siesta", "tax_collector"), ("siesta", "debris")])
    for m in range(5):
        s.box[m] += s.bag[m]
        s.bag[m] = 0
    s.box[0] -= 1
    s.players[1].materials[0] = 1
    s.players[0].buildings = [5]
    s, outs = do(s, 0, "play tax_collector")
    assert s.phase == "over" and s.end_reason == "cubes" and s.winners == [0]


def test_final_ties_use_the_reversed_tie_breaks_then_share() -> None:
    s = actions_state([("siesta", "conservation"), ("siesta", "debris"), ("siesta", "worker")])
    s.players[0].buildings = [5]
    s.players[1].buildings = [6]
    s.players[2].buildings = [7]
    give(s, 1, pesos=3)
    give(s, 2, pesos=3)
    rest = [b for b in range(1, 37) if b not in (5, 6, 7, 2)]
    s.players[0].buildings += rest
    s.players[0].buildings.remove(36)
    s.players[1].buildings.append(36)
    s.players[0].buildings.remove(35)
    s.players[2].buildings.append(35)
    s.rows, s.pile = [[2], []], []
    vps = [p.vp for p in s.players]
    assert vps[1] == vps[2] < vps[0]
    s, _ = do(s, 0, "play conservation", "remove 0:left")
    result = ENGINE.result(s)
    assert result is not None and [list(x) for x in result.ranking] == [[0], [1, 2]]


def test_most_vp_wins_when_cubes_run_out_and_ties_share() -> None:
    s = actions_state([("siesta", "tax_collector"), ("siesta", "debris")])
    for m in range(5):
        s.box[m] += s.bag[m]
        s.bag[m] = 0
    s.box[4] -= 1
    s.players[1].materials[4] = 1
    s.players[0].buildings, s.players[1].buildings = [5], [6]
    s.players[0].pesos = 1  # the tax collector's peso is then matched
    s.players[1].pesos = 2
    s, _ = do(s, 0, "play tax_collector")
    assert s.winners == [0, 1]
    result = ENGINE.result(s)
    assert result is not None and [sorted(x) for x in result.ranking] == [[0, 1]]


# --- errors -------------------------------------------------------------------------------------
def test_errors_are_typed_and_translatable() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    with pytest.raises(NotYourTurn):
        ENGINE.apply(s, 1, Action("play", ("debris",)))
    with pytest.raises(InvalidAction):
        ENGINE.apply(s, 0, Action("fly", ()))
    with pytest.raises(InvalidAction):
        ENGINE.apply(s, 0, Action("play", ("joker",)))
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(s, 0, Action("play", ("mama",)))
    assert err.value.key == "havana.error.not_face_up"
    s, _ = do(s, 0, "play siesta")
    s.turn_index, s.step = 0, "choose_card"
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(s, 0, Action("play", ("siesta",)))
    assert err.value.key == "havana.error.already_used"
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(s, 0, Action("build", ("2",)))
    assert err.value.key == "havana.error.wrong_step"


def test_a_hidden_pick_is_announced_without_naming_the_card() -> None:
    # Mise en place: the two cards are placed "face cachée"; Phase 3: the new card is put
    # "face cachée" on a face-up card. Everyone sees a card being placed, nobody sees which.
    # (The bot's log shows a move's raw action text when it has no public event at all.)
    s = blank(2)
    s, outs = do(s, 0, "pick mama")
    public = [e for o in outs for e in o.events if e.to is None]
    assert [(e.key, e.params) for e in public] == [("havana.ev.picked", {"seat": 0})]
    s = actions_state([("siesta", "debris"), ("worker", "mama")])
    s.phase, s.step = "cover", None
    s, outs = do(s, 0, "pick pesos")
    public = [e for o in outs for e in o.events if e.to is None]
    assert [(e.key, e.params) for e in public] == [("havana.ev.picked", {"seat": 0})]
