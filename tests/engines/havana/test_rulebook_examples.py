"""The French rulebook's own worked examples, one test each."""

from __future__ import annotations

from engines.havana import ENGINE

from .helpers import actions_state, blank, do, give, keys, legal, mats, set_rows, to_centre


def test_turn_numbers_07_24_26_set_the_order() -> None:
    # Mathilde (seat 2) 7+0, Christophe (seat 0) 2+4, Martin (seat 1) 2+6.
    s = blank(3)
    s, _ = do(s, 0, "pick worker", "pick protection")
    s, _ = do(s, 1, "pick material_thief", "pick protection")
    s, _ = do(s, 2, "pick black_market", "pick siesta")
    view = ENGINE.view(s, None)
    assert [p["turn_number"] for p in view["players"]] == ["24", "26", "07"]
    assert view["players"][2]["face_up"] == ["siesta", "black_market"]  # lower value left
    assert view["turn_order"] == [2, 0, 1]
    assert view["current"] == 2


def test_covering_siesta_with_pesos_makes_78() -> None:
    s = actions_state([("protection", "worker"), ("protection", "material_thief"),
                       ("siesta", "black_market")], order=[2, 0, 1])
    s.phase, s.step = "cover", None
    s, _ = do(s, 2, "pick pesos", "cover siesta")
    s, _ = do(s, 0, "pick mama", "cover worker")
    s, _ = do(s, 1, "pick siesta", "cover material_thief")
    assert ENGINE.view(s, 2)["players"][2]["turn_number"] == "78"
    assert s.players[2].face_up == ["black_market", "pesos"]
    assert s.players[2].discard == ["siesta"]


def test_peso_thief_takes_3_of_7() -> None:
    # Mathilde robs Martin, who acts later and has 7 pesos: 3.5 rounded down.
    s = actions_state([("siesta", "peso_thief"), ("siesta", "debris"), ("siesta", "worker")])
    give(s, 2, pesos=7)
    s, _ = do(s, 0, "play peso_thief")
    assert legal(s, 0) == ["target 1", "target 2"]  # Sophie/Christophe/Martin: later players
    s, _ = do(s, 0, "target 2")
    assert s.players[0].pesos == 3 and s.players[2].pesos == 4


def test_two_pesos_cards_with_10_in_the_centre_take_5_then_3() -> None:
    s = actions_state([("siesta", "pesos"), ("siesta", "pesos")])
    to_centre(s, pesos=10)
    s, _ = do(s, 0, "play pesos")  # Siesta then follows on its own; nothing to buy
    assert s.players[0].pesos == 5 and s.current == 1
    s, _ = do(s, 1, "play pesos")
    assert s.players[1].pesos == 3
    assert s.phase == "cover" and s.centre_pesos == 2 + 3  # then the supply adds 3


def test_mama_with_6_coloured_and_5_rubble_takes_3_and_3() -> None:
    s = actions_state([("siesta", "mama"), ("siesta", "debris")])
    to_centre(s, clay=1, sandstone=2, brick=3, rubble=5)
    s, _ = do(s, 0, "play mama")
    assert mats(s, 0)["rubble"] == 3 and s.step == "mama_take"
    s, _ = do(s, 0, "take sandstone", "take sandstone", "take clay")
    assert mats(s, 0) == {"brick": 0, "sandstone": 2, "clay": 1, "glass": 0, "rubble": 3}
    assert s.centre == [3, 0, 0, 0, 2]


def test_material_thief_against_4_coloured_and_3_rubble_takes_2() -> None:
    # Martin robs Sophie: 1 sandstone, 1 clay, 2 brick, 3 rubble -> 2 of his choice.
    s = actions_state([("siesta", "material_thief"), ("siesta", "debris")])
    give(s, 1, sandstone=1, clay=1, brick=2, rubble=3)
    s, _ = do(s, 0, "play material_thief")  # only one later player: chosen automatically
    assert s.step == "material_thief_take"
    s, _ = do(s, 0, "take clay", "take rubble")
    assert mats(s, 0) == {"brick": 0, "sandstone": 0, "clay": 1, "glass": 0, "rubble": 1}
    assert mats(s, 1) == {"brick": 2, "sandstone": 1, "clay": 0, "glass": 0, "rubble": 2}


def test_debris_takes_all_4_rubble() -> None:
    s = actions_state([("siesta", "debris"), ("siesta", "worker")])
    to_centre(s, rubble=4, brick=1)
    s, _ = do(s, 0, "play debris")
    assert mats(s, 0)["rubble"] == 4 and s.centre == [1, 0, 0, 0, 0]


def test_conservation_by_three_players_only_the_first_removes() -> None:
    s = actions_state([("siesta", "conservation")] * 3)
    before = len(s.rows[0]) + len(s.rows[1])
    left = s.rows[0][0]
    s, _ = do(s, 0, "play conservation", "remove 0:left")
    assert left not in s.rows[0] and s.removed_this_round
    s, out1 = do(s, 1, "play conservation")
    s, out2 = do(s, 2, "play conservation")
    assert keys(out1).count("havana.ev.conservation_blocked") == 1
    assert keys(out2).count("havana.ev.conservation_blocked") == 1
    assert len(s.rows[0]) + len(s.rows[1]) == before - 1


def test_mathilde_pays_1_brick_and_2_pesos_for_a_2_vp_building() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [25, 2, 3, 4, 6, 5], [32, 7, 8, 9, 10, 35])  # Beach café at the top right
    give(s, 0, brick=1, pesos=2)
    s, _ = do(s, 0, "play siesta")  # Protection, the last card, is carried out at once
    assert "build 5" in legal(s, 0)
    s, outs = do(s, 0, "build 5")
    p = s.players[0]
    assert p.buildings == [5] and p.vp == 2
    assert p.pesos == 0 and p.materials[0] == 0
    assert s.box[0] == 1  # the brick goes to the box
    assert "havana.ev.built" in keys(outs)
