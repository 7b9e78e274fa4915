"""One test per action card effect, with the edge cases the rulebook names."""

from __future__ import annotations

from engines.base import Event, Message, Outcome
from engines.havana import ENGINE
from engines.havana.data import TOTAL_WORKERS

from .helpers import actions_state, do, give, keys, legal, mats, to_centre


def _events(outs: list[Outcome], key: str) -> list[Event]:
    return [e for o in outs for e in o.events if e.key == key]


def test_siesta_does_nothing() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    before = ENGINE.to_dict(s)
    s, outs = do(s, 0, "play siesta")
    after = ENGINE.to_dict(s)
    assert after["players"][0]["materials"] == before["players"][0]["materials"]
    assert after["players"][0]["pesos"] == before["players"][0]["pesos"]
    assert "havana.ev.siesta" in keys(outs)


def test_refreshment_takes_a_discard_back_without_telling_which() -> None:
    s = actions_state([("siesta", "refreshment"), ("siesta", "debris")])
    s.players[0].hand.remove("mama")
    s.players[0].discard = ["mama"]
    s, _ = do(s, 0, "play refreshment")
    assert legal(s, 0) == ["recover mama", "pass"]
    s, outs = do(s, 0, "recover mama")
    assert "mama" in s.players[0].hand and not s.players[0].discard
    public = [e for o in outs for e in o.events if e.to is None]
    assert all("mama" not in str(e.params) for e in public)
    assert _events(outs, "havana.ev.you_recovered")[0].to == 0


def test_refreshment_is_optional() -> None:
    s = actions_state([("siesta", "refreshment"), ("siesta", "debris")])
    s.players[0].hand.remove("mama")
    s.players[0].discard = ["mama"]
    s, outs = do(s, 0, "play refreshment", "pass")
    assert s.players[0].discard == ["mama"]
    assert "havana.ev.refreshment_pass" in keys(outs)


def test_refreshment_with_an_empty_discard_does_nothing() -> None:
    s = actions_state([("siesta", "refreshment"), ("siesta", "debris")])
    s, outs = do(s, 0, "play refreshment")
    assert "havana.ev.refreshment_empty" in keys(outs) and s.current == 1


def test_debris_with_no_rubble_takes_nothing() -> None:
    s = actions_state([("siesta", "debris"), ("siesta", "worker")])
    to_centre(s, brick=2)
    s, _ = do(s, 0, "play debris")
    assert mats(s, 0)["rubble"] == 0 and s.centre[0] == 2


def test_conservation_is_optional() -> None:
    s = actions_state([("siesta", "conservation"), ("siesta", "conservation")])
    rows = [r[:] for r in s.rows]
    s, _ = do(s, 0, "play conservation", "pass")
    assert s.rows == rows and not s.removed_this_round
    s, _ = do(s, 1, "play conservation")
    assert s.step == "conservation"  # still available to the next player


def test_conservation_offers_the_four_row_ends() -> None:
    s = actions_state([("siesta", "conservation"), ("siesta", "debris")])
    s, _ = do(s, 0, "play conservation")
    assert legal(s, 0) == ["remove 0:left", "remove 0:right", "remove 1:left",
                           "remove 1:right", "pass"]
    s, outs = do(s, 0, "remove 1:right")
    assert 35 not in s.rows[1] and 35 not in s.pile
    assert _events(outs, "havana.ev.removed")[0].params["building"] == Message("havana.building.35")


def test_conservation_refills_a_row_down_to_two() -> None:
    s = actions_state([("siesta", "conservation"), ("siesta", "debris")])
    s.rows[0] = [25, 2, 29]
    top4 = s.pile[-4:]
    s, _ = do(s, 0, "play conservation", "remove 0:left")
    assert s.rows[0][0] == 2 and s.rows[0][-1] == 29 and len(s.rows[0]) == 6
    assert sorted(s.rows[0][1:5]) == sorted(top4)


def test_tax_collector_takes_a_peso_then_from_each_later_player() -> None:
    s = actions_state([("siesta", "debris"), ("siesta", "tax_collector"),
                       ("siesta", "worker"), ("siesta", "mama")])
    give(s, 0, workers=1, brick=1)  # acted before: untouched
    give(s, 2, workers=1, glass=1)
    give(s, 3, rubble=2)
    s, _ = do(s, 0, "play debris")
    s, _ = do(s, 1, "play tax_collector")
    assert s.players[1].pesos == 1
    assert legal(s, 1) == ["take worker", "take glass"]  # seat 2 first
    bank = s.bank_workers
    s, _ = do(s, 1, "take worker")
    # seat 3 holds only rubble: the single choice is made at once (rubble counts)
    assert s.players[2].workers == 0 and s.bank_workers == bank + 1
    assert mats(s, 3)["rubble"] == 1 and s.box[4] == 1
    assert s.players[0].workers == 1 and mats(s, 0)["brick"] == 1


def test_tax_collector_spares_protected_and_empty_players() -> None:
    s = actions_state([("siesta", "tax_collector"), ("siesta", "protection"),
                       ("siesta", "debris")])
    give(s, 1, brick=3)
    s, outs = do(s, 0, "play tax_collector")
    assert mats(s, 1)["brick"] == 3
    assert [e.params["target"] for e in _events(outs, "havana.ev.tax_protected")] == [1]
    assert [e.params["target"] for e in _events(outs, "havana.ev.tax_nothing")] == [2]
    assert s.players[0].pesos == 1 and s.current == 1


def test_tax_collector_acting_last_only_takes_the_peso() -> None:
    s = actions_state([("siesta", "debris"), ("siesta", "tax_collector")])
    give(s, 0, brick=2)
    s, _ = do(s, 0, "play debris")
    s, _ = do(s, 1, "play tax_collector")
    assert s.players[1].pesos == 1 and mats(s, 0)["brick"] == 2


def test_worker_first_takes_two_later_ones_take_one() -> None:
    s = actions_state([("siesta", "worker"), ("siesta", "worker")])
    s, _ = do(s, 0, "play worker")
    s, _ = do(s, 1, "play worker")
    assert s.players[0].workers == 2 and s.players[1].workers == 1


def test_worker_with_too_few_in_the_bank_gets_nothing_and_keeps_the_bonus_open() -> None:
    s = actions_state([("siesta", "worker"), ("siesta", "worker")])
    give(s, 1, workers=TOTAL_WORKERS - 1)  # 1 left in the bank
    s, outs = do(s, 0, "play worker")
    assert s.players[0].workers == 0 and "havana.ev.no_workers" in keys(outs)
    assert not s.worker_done
    s.bank_workers, s.players[1].workers = 3, TOTAL_WORKERS - 3
    s, _ = do(s, 1, "play worker")
    assert s.players[1].workers == TOTAL_WORKERS - 1  # still the first to carry it out: 2


def test_worker_with_an_empty_bank() -> None:
    s = actions_state([("siesta", "worker"), ("siesta", "debris")])
    give(s, 1, workers=TOTAL_WORKERS)
    s, outs = do(s, 0, "play worker")
    assert s.players[0].workers == 0 and s.bank_workers == 0
    assert "havana.ev.no_workers" in keys(outs)


def test_architect_takes_one_worker_or_nothing_from_an_empty_bank() -> None:
    s = actions_state([("siesta", "architect"), ("siesta", "architect")])
    give(s, 1, workers=TOTAL_WORKERS - 1)
    s, _ = do(s, 0, "play architect")
    assert s.players[0].workers == 1 and s.bank_workers == 0
    s, outs = do(s, 1, "play architect")
    assert s.players[1].workers == TOTAL_WORKERS - 1
    assert "havana.ev.no_workers" in keys(outs)


def test_peso_thief_chooses_among_later_players_only() -> None:
    s = actions_state([("siesta", "debris"), ("siesta", "peso_thief"), ("siesta", "mama"),
                       ("siesta", "worker")])
    for seat in range(4):
        give(s, seat, pesos=4)
    s, _ = do(s, 0, "play debris")
    s, _ = do(s, 1, "play peso_thief")
    assert legal(s, 1) == ["target 2", "target 3"]


def test_peso_thief_acting_last_may_rob_any_opponent() -> None:
    s = actions_state([("siesta", "debris"), ("siesta", "worker"), ("siesta", "peso_thief")])
    give(s, 0, pesos=5)
    give(s, 1, pesos=9)
    s, _ = do(s, 0, "play debris")
    s, _ = do(s, 1, "play worker")
    s, _ = do(s, 2, "play peso_thief")
    assert legal(s, 2) == ["target 0", "target 1"]
    s, _ = do(s, 2, "target 1")
    assert s.players[2].pesos == 4 and s.players[1].pesos == 5


def test_thief_against_a_protected_player_is_not_allowed() -> None:
    s = actions_state([("siesta", "peso_thief"), ("siesta", "protection"),
                       ("siesta", "debris")])
    give(s, 1, pesos=10)
    give(s, 2, pesos=2)
    s, _ = do(s, 0, "play peso_thief")  # only seat 2 is eligible: chosen at once
    assert s.players[1].pesos == 10 and s.players[0].pesos == 1 and s.players[2].pesos == 1


def test_thief_with_no_eligible_target_does_nothing() -> None:
    s = actions_state([("siesta", "material_thief"), ("siesta", "protection")])
    give(s, 1, brick=5)
    s, outs = do(s, 0, "play material_thief")
    assert "havana.ev.no_target" in keys(outs) and mats(s, 1)["brick"] == 5


def test_last_thief_cannot_rob_protected_opponents() -> None:
    s = actions_state([("protection", "debris"), ("siesta", "peso_thief")])
    give(s, 0, pesos=8)
    s, _ = do(s, 0, "play debris")
    s, outs = do(s, 1, "play peso_thief")
    assert "havana.ev.no_target" in keys(outs) and s.players[0].pesos == 8


def test_material_thief_takes_one_when_the_victim_has_3_coloured_or_fewer() -> None:
    s = actions_state([("siesta", "material_thief"), ("siesta", "debris")])
    give(s, 1, brick=2, glass=1, rubble=4)
    s, _ = do(s, 0, "play material_thief", "take glass")
    assert mats(s, 0)["glass"] == 1 and sum(s.players[0].materials) == 1
    assert s.current == 1


def test_material_thief_chooses_the_target_first() -> None:
    s = actions_state([("siesta", "material_thief"), ("siesta", "debris"),
                       ("siesta", "worker")])
    give(s, 1, brick=1)
    give(s, 2, clay=1, glass=1)
    s, _ = do(s, 0, "play material_thief")
    assert s.step == "material_thief_target" and legal(s, 0) == ["target 1", "target 2"]
    s, _ = do(s, 0, "target 2")
    assert legal(s, 0) == ["take clay", "take glass"]


def test_material_thief_against_a_player_with_nothing() -> None:
    s = actions_state([("siesta", "material_thief"), ("siesta", "debris")])
    s, outs = do(s, 0, "play material_thief")
    assert "havana.ev.thief_nothing" in keys(outs) and s.current == 1


def test_black_market_first_draws_two_later_one() -> None:
    s = actions_state([("siesta", "black_market"), ("siesta", "black_market")])
    s, outs = do(s, 0, "play black_market")
    assert sum(s.players[0].materials) == 2 and outs[0].irreversible
    s, _ = do(s, 1, "play black_market")
    assert sum(s.players[1].materials) == 1


def test_black_market_with_an_empty_bag() -> None:
    s = actions_state([("siesta", "black_market"), ("siesta", "debris")])
    for m in range(5):
        s.box[m] += s.bag[m] - (1 if m == 4 else 0)
        s.bag[m] = 1 if m == 4 else 0
    s, outs = do(s, 0, "play black_market")
    assert mats(s, 0)["rubble"] == 1 and sum(s.bag) == 0
    assert "havana.ev.black_market" in keys(outs)


def test_pesos_takes_half_rounded_up() -> None:
    s = actions_state([("siesta", "pesos"), ("siesta", "debris")])
    to_centre(s, pesos=7)
    s, _ = do(s, 0, "play pesos")
    assert s.players[0].pesos == 4


def test_mama_rounds_up_and_lets_you_choose_colours() -> None:
    s = actions_state([("siesta", "mama"), ("siesta", "debris")])
    to_centre(s, glass=1, clay=2, rubble=1)
    s, _ = do(s, 0, "play mama")
    assert mats(s, 0)["rubble"] == 1
    assert legal(s, 0) == ["take clay", "take glass"]
    s, _ = do(s, 0, "take glass")
    assert s.current == 1  # the second cube could only be clay: taken at once
    assert mats(s, 0)["glass"] == 1 and mats(s, 0)["clay"] == 1


def test_mama_with_nothing_coloured_in_the_centre() -> None:
    s = actions_state([("siesta", "mama"), ("siesta", "debris")])
    to_centre(s, rubble=3)
    s, _ = do(s, 0, "play mama")
    assert mats(s, 0)["rubble"] == 2 and s.current == 1
