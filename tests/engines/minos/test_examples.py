"""The reference's examples (its last table), one named test each, in its order."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable

import pytest

from engines.base import Action, IllegalAction, Outcome, offered
from engines.minos import ENGINE as E
from engines.minos.data import (
    COMBAT,
    FACE_INDEX,
    FISH,
    GUARDS,
    PORT_OF,
    SEA,
    SITES,
    connected,
)
from engines.minos.rules import combat_value
from engines.minos.state import State, holder

from .helpers import act, game, put_colony, put_guards, put_ship, recount, run, set_dice


def faces(*names: str) -> list[int]:
    return [FACE_INDEX[n] for n in names]


def first_outcome(s: State, text: str, wanted: Callable[[Outcome[State]], bool]) -> Outcome[State]:
    """Apply ``text`` from successive generator states until the (random) outcome is the one a
    test needs: the rules run for real, only the dice are chosen by trying seeds."""
    for rng in range(2000):
        s.rng = rng
        out = act(s, text)
        if wanted(out):
            return out
    raise AssertionError("no seed gives the wanted throw")


# 1-4, 24: combinations -------------------------------------------------------------------

def test_01_two_seagulls_and_joker_make_15_mp() -> None:
    s = set_dice(game(), "seagull", "seagull", "joker", "scales", "arrow", "construction")
    s = run(s, "use seagull", "dice seagull 0 1 2")
    assert s.mp == 15


def test_02_two_seagulls_joker_and_star_make_18_mp() -> None:
    s = set_dice(game(), "seagull", "seagull", "joker", "star", "arrow", "construction")
    s = run(s, "use seagull", "dice seagull 0 1 2 3")
    assert s.mp == 18


def test_03_two_constructions_and_star_make_4_bp_enough_for_a_level_2_wall() -> None:
    s = set_dice(game(), "construction", "construction", "star", "scales", "arrow", "seagull")
    put_ship(s, 0, "tar")
    put_colony(s, "tar", ["trading"])
    s = run(s, "use construction", "dice construction 0 1 2")
    assert s.bp == 4
    s = run(s, "build tar", "type wall")
    assert s.buildings["tar"] == ["trading", "wall"] and s.bp == 0
    assert s.players[0].talents == 25 - 10


def test_04_a_combination_with_two_jokers_or_two_stars_is_refused() -> None:
    s = set_dice(game(), "seagull", "joker", "joker", "star", "star", "arrow")
    s = run(s, "use seagull")
    (sub,) = E.subsets(s, 0)
    assert sub.options.count("1") + sub.options.count("2") == 1  # one joker offered
    assert sub.options.count("3") + sub.options.count("4") == 1  # one star offered
    with pytest.raises(IllegalAction) as jokers:
        act(s, "dice seagull 0 1 2")
    assert jokers.value.key == "minos.error.two_jokers"
    with pytest.raises(IllegalAction) as stars:
        act(s, "dice seagull 0 3 4")
    assert stars.value.key == "minos.error.two_stars"
    assert run(s, "dice seagull 0 1 3").mp == 2 * (5 + 1)


def test_24_symbol_seagull_then_two_seagull_dice_and_the_star_make_12_mp() -> None:
    s = set_dice(game(), "seagull", "seagull", "star", "scales", "arrow", "construction")
    s = run(s, "use seagull")
    (sub,) = E.subsets(s, 0)
    assert sub.fixed == ("seagull", "0") and sub.options == ("1", "2")
    s = run(s, str(sub.action(["1", "2"])))
    assert s.mp == 12 and s.used == [True, True, True, False, False, False]


# 5-6, 19, 22: combat values and throws ----------------------------------------------------

def test_05_joker_star_arrow_score_10_against_6_alone() -> None:
    assert combat_value(faces("joker", "star", "arrow", "scales", "scales", "scales")) == 10
    alone = COMBAT["joker_alone"] + COMBAT["star_alone"] + COMBAT["arrow"]
    assert alone == 6


def test_06_best_throws_and_the_bounds_over_all_46656_throws() -> None:
    assert combat_value(faces(*["arrow"] * 6)) == 20
    assert combat_value(faces(*["arrow"] * 5, "joker")) == 20
    assert combat_value(faces(*["arrow"] * 4, "joker", "star")) == 19
    assert combat_value(faces(*["scales"] * 6)) == 0
    values = [combat_value(list(t)) for t in itertools.product(range(6), repeat=6)]
    assert max(values) == 20 and min(values) == 0
    assert values.count(20) == 7
    assert sum(values) == 610_230


def _combat_state(attack: list[int], defence: list[int], *, rings: int = 0) -> State:
    """Blue (1) attacks Red's (0) guard on the Tarentum dot with a guard, in round 2."""
    s = game(first=1)
    s.round = 2
    put_guards(s, 0, "ost-tar.2")
    put_guards(s, 1, "ost-tar.1")
    s.players[0].rings = rings
    s.rings -= rings
    s.mp = 5
    s.selected = "guard:ost-tar.1"
    return s


def test_19_scales_are_locked_and_at_most_two_rethrows_of_one_ring_each() -> None:
    s = _combat_state([], [])
    s.players[1].rings = 3
    s.rings -= 3
    out = first_outcome(s, "step ost-tar.2",
                        lambda o: o.state.phase == "attack"
                        and FACE_INDEX["scales"] in o.state.combat.attack)  # type: ignore[union-attr]
    s = out.state
    assert s.combat is not None
    (sub,) = E.subsets(s, 1)
    locked = [str(i) for i, f in enumerate(s.combat.attack) if f == FACE_INDEX["scales"]]
    assert locked and not set(locked) & set(sub.options)
    with pytest.raises(IllegalAction) as err:
        act(s, f"rethrow {locked[0]}")
    assert err.value.key == "minos.error.scales_locked"
    s = act(s, str(sub.action(sub.options[:1]))).state
    assert s.players[1].rings == 2 and s.phase == "attack"
    (sub,) = E.subsets(s, 1)
    s = act(s, str(sub.action(sub.options[:1]))).state
    # the second re-throw is the last: the value is final and the defender has thrown
    assert s.players[1].rings == 1 and s.phase != "attack"
    assert s.rings == 50 - 1 - s.players[0].rings


def _single_duel_win_probability() -> float:
    counts = Counter(combat_value(list(t)) for t in itertools.product(range(6), repeat=6))
    total = 6 ** 6
    below = 0
    p = 0.0
    for value in sorted(counts):
        p += counts[value] / total * below / total
        below += counts[value]
    return p


def test_22_three_guards_hold_about_91_percent_one_conflict_per_guard() -> None:
    p = _single_duel_win_probability()
    assert p == pytest.approx(0.453, abs=0.001)
    assert 1 - p ** 3 == pytest.approx(0.907, abs=0.001)
    s = game(first=1)
    s.round = 2
    put_colony(s, "tar", ["trading"])
    put_guards(s, 0, "tar", 3)
    put_guards(s, 1, "ost-tar.3")
    s.mp = 5
    s.selected = "guard:ost-tar.3"
    recount(s)
    out = first_outcome(s, "step tar", lambda o: holder(o.state, "tar") == 1)
    fights = [e for e in out.events if e.key in ("minos.ev.conflict_won",
                                                  "minos.ev.conflict_lost")]
    assert [e.key for e in fights] == ["minos.ev.conflict_won"] * 3
    assert out.state.players[0].guards == GUARDS  # all three back in Red's stock
    out = first_outcome(s, "step tar", lambda o: holder(o.state, "tar") == 0)
    keys = [e.key for e in out.events if e.key.startswith("minos.ev.conflict")]
    assert keys[-1] == "minos.ev.conflict_lost" and len(keys) <= 3
    assert out.state.guards["tar"] == [0, 3 - (len(keys) - 1)]


# 7-10, 23: building --------------------------------------------------------------------

def _builder(types: list[str], bp: int = 20, talents: int = 100) -> State:
    s = game()
    put_ship(s, 0, "tar")
    if types:
        put_colony(s, "tar", types)
    s.bp = bp
    s.players[0].talents = talents
    return run(s, "build tar")


def test_07_the_first_building_on_an_empty_site_is_never_a_wall() -> None:
    s = _builder([])
    assert Action("type", ("wall",)) not in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as err:
        act(s, "type wall")
    assert err.value.key == "minos.error.wall_first"


def test_08_on_h_d_t_the_fourth_must_be_the_wall_which_makes_a_city() -> None:
    s = _builder(["harbour", "dwelling", "trading"])
    with pytest.raises(IllegalAction) as err:
        act(s, "type trading")
    assert err.value.key == "minos.error.city_needs_wall"
    out = act(s, "type wall")
    assert out.state.buildings["tar"] == ["harbour", "dwelling", "trading", "wall"]
    assert "minos.ev.city" in [e.key for e in out.events]


def test_09_on_h_w_d_a_trading_house_counts_double_then_nothing_more() -> None:
    s = _builder(["harbour", "wall", "dwelling"])
    before = s.players[0].value
    s = run(s, "type trading")
    assert before == 1 + 0 + 2
    assert s.players[0].value == 1 + 0 + 2 + 4 == 7
    assert Action("build", ("tar",)) not in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as err:
        act(s, "build tar")
    assert err.value.key == "minos.error.city_full"


def test_10_a_second_wall_in_one_colony_is_refused() -> None:
    s = _builder(["trading", "wall"])
    with pytest.raises(IllegalAction) as err:
        act(s, "type wall")
    assert err.value.key == "minos.error.second_wall"


def test_23_t_w_t_t_is_worth_10_and_a_fourth_wall_adds_nothing() -> None:
    s = _builder(["trading", "wall", "trading"])
    s = run(s, "type trading")
    assert s.players[0].value == 10
    s = _builder(["harbour", "dwelling", "trading"])
    before = s.players[0].value
    s = run(s, "type wall")
    assert s.players[0].value == before == 4


# 11-14: conflicts and ownership ----------------------------------------------------------

def test_11_a_tie_goes_to_the_defender_and_the_attacker_goes_back_to_stock() -> None:
    s = _combat_state([], [])
    s.players[0].rings = 1
    s.rings -= 1
    out = first_outcome(s, "step ost-tar.2", lambda o: o.state.phase == "defend")
    s = out.state
    assert s.combat is not None
    thirteen = faces("arrow", "arrow", "arrow", "star", "scales", "scales")
    assert combat_value(thirteen) == 13
    s.combat.attack = thirteen[:]
    s.combat.defence = thirteen[:]
    out = act(s, "stand", seat=0)
    s = out.state
    assert "minos.ev.conflict_lost" in [e.key for e in out.events]
    assert s.guards["ost-tar.2"] == [0, 1] and "ost-tar.1" not in s.guards
    assert s.players[1].guards == GUARDS


def test_12_blue_takes_reds_colony_and_the_track_moves_both_ways() -> None:
    s = game(first=1)
    s.round = 2
    put_colony(s, "tar", ["trading", "wall", "dwelling"])  # 4
    put_colony(s, "kar", ["trading", "wall", "trading"])  # 6
    put_colony(s, "syr", ["trading"])  # 2
    put_colony(s, "car", ["harbour", "trading"])  # 3
    for site in ("tar", "kar", "syr"):
        put_guards(s, 0, site)
    put_guards(s, 1, "car")
    put_guards(s, 1, "ost-tar.3")
    recount(s)
    assert (s.players[0].value, s.players[1].value) == (12, 3)
    s.mp = 5
    s.selected = "guard:ost-tar.3"
    out = first_outcome(s, "step tar", lambda o: holder(o.state, "tar") == 1)
    s = out.state
    assert (s.players[0].value, s.players[1].value) == (8, 7)
    assert s.guards["tar"] == [1, 1] and s.mp == 4 and s.phase == "act"


def test_13_an_abandoned_colony_is_taken_in_round_1_without_combat() -> None:
    s = game()
    put_ship(s, 0, "tar")
    put_colony(s, "tar", ["trading", "wall", "dwelling"])
    assert s.players[0].value == 4
    s.mp = 5
    s = run(s, "piece ship:tar", "step k3")
    assert s.players[0].value == 0 and holder(s, "tar") is None
    s = run(s, "step l3", "end")
    assert s.current == 1 and s.round == 1
    put_ship(s, 1, "k4")
    s.mp = 5
    out = act(run(s, "piece ship:k4", "step k3"), "step tar")
    assert out.state.players[1].value == 4 and out.state.players[0].value == 0
    assert holder(out.state, "tar") == 1
    assert not [e for e in out.events if e.key.startswith("minos.ev.conflict")]


def test_14_in_round_1_a_ship_cannot_enter_an_enemy_ships_space() -> None:
    s = game()
    put_ship(s, 0, "k4")
    put_ship(s, 1, "k3")
    s.mp = 5
    s = run(s, "piece ship:k4")
    assert Action("step", ("k3",)) not in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as err:
        act(s, "step k3")
    assert err.value.key == "minos.error.no_conflict_round1"
    s.round = 2
    assert offered(E, s, 0, Action("step", ("k3",)))


# 15-18: recruiting, stock, scales, distances ---------------------------------------------

def test_15_one_recruit_per_colony_per_turn_but_each_colony_may() -> None:
    s = game()
    for site in ("tar", "syr"):
        put_guards(s, 0, site)
        put_colony(s, site, ["dwelling", "dwelling"])
    s = run(s, "recruit tar")
    assert s.guards["tar"] == [0, 2] and s.players[0].talents == 20
    with pytest.raises(IllegalAction) as err:
        act(s, "recruit tar")
    assert err.value.key == "minos.error.recruit_once"
    s = run(s, "recruit syr")
    assert s.guards["syr"] == [0, 2] and s.players[0].talents == 15


def test_16_founding_with_all_guards_on_the_board_gives_no_free_guard() -> None:
    s = game()
    put_ship(s, 0, "tar")
    put_guards(s, 0, "syr", GUARDS)
    s.bp = 1
    out = act(run(s, "build tar"), "type trading")
    assert out.state.buildings["tar"] == ["trading"]
    assert "tar" not in out.state.guards and out.state.players[0].guards == 0
    assert "minos.ev.no_guard" in [e.key for e in out.events]


@pytest.mark.parametrize(("value", "dice", "talents"), [
    (3, ("scales",), 5),
    (9, ("scales",), 9),
    (27, ("scales", "star"), 28),
    (12, ("scales", "scales", "joker"), 36),
])
def test_17_scales_pay_the_track_value_at_least_5(value: int, dice: tuple[str, ...],
                                                  talents: int) -> None:
    rest = ["arrow", "seagull", "construction", "arrow", "seagull", "construction"]
    s = set_dice(game(), *dice, *rest[:6 - len(dice)])
    s.players[0].value = value
    s = run(s, "use scales", "dice scales " + " ".join(str(i) for i in range(len(dice))))
    assert s.players[0].talents == 25 + talents


def test_18_from_the_fish_space_syracusae_costs_2_mp_and_tarentum_3() -> None:
    s = game()
    s.mp = 5
    s = run(s, "piece ship:k5", "step j5", "step syr")
    assert s.mp == 3 and 0 in s.ships["syr"]
    s = game()
    s.mp = 5
    s = run(s, "piece ship:k5", "step k4", "step k3", "step tar")
    assert s.mp == 2 and 0 in s.ships["tar"]


# 20-21: the map ------------------------------------------------------------------------

def test_20_no_single_sea_space_cuts_a_port_off_from_the_fish() -> None:
    for gone in SEA:
        rest = set(SEA) - {gone}
        start = FISH if gone != FISH else "k4"
        assert connected(rest, SEA, start) == rest, gone
        for port, site in PORT_OF.items():
            assert (port in connected(rest, SEA, start)) == (port != gone), site


def test_21_the_adjacency_table() -> None:
    assert len(SEA) == 65
    assert all(a in SEA[b] for a in SEA for b in SEA[a])
    assert sum(len(v) for v in SEA.values()) == 2 * 96
    assert all(len(v) >= 2 for v in SEA.values())
    assert len(SITES) == 16


# 25: the defender's deadline -------------------------------------------------------------

def test_25_at_the_deadline_the_defender_stands_and_his_value_is_final() -> None:
    s = _combat_state([], [], rings=2)
    out = first_outcome(s, "step ost-tar.2", lambda o: o.state.phase == "defend")
    s = out.state
    assert s.combat is not None
    defence = s.combat.defence[:]
    assert E.active_players(s) == {0}
    default = E.skip_action(s, 0)
    assert default == Action("stand")
    out = E.apply(s, 0, default)
    done = [e for e in out.events if e.key.startswith("minos.ev.conflict_")]
    assert len(done) == 1 and done[0].params["defence"] == combat_value(defence)
    assert out.state.players[0].rings == 2 and out.state.combat is None
