"""Rule tests: each symbol, the throws, joker and star limits, movement and blocking,
building costs and limits, recruiting, ownership and the track, conflicts, the end."""

from __future__ import annotations

import pytest

from engines.base import Action, GameError, IllegalAction, InvalidState, NotYourTurn, offered
from engines.minos import ENGINE as E
from engines.minos.data import (
    BUILDINGS_PER_TYPE,
    FACE_INDEX,
    FISH,
    GUARDS,
    LEVELS,
    RINGS,
    SHIPS,
)
from engines.minos.state import State, holder

from .helpers import (
    act,
    checked,
    events,
    game,
    put_colony,
    put_guards,
    put_ship,
    recount,
    run,
    set_dice,
)

REST = ("scales", "arrow", "seagull", "construction", "scales", "arrow")


# --- setup and throws ----------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n: int) -> None:
    s = E.new_game(n, 7)
    assert s.ships == {FISH: list(range(n))}
    assert all(p.talents == 25 and p.value == 0 and p.ships == SHIPS - 1
               and p.guards == GUARDS and p.rings == 0 for p in s.players)
    assert s.current == s.first and s.throws == 1 and len(s.dice) == 6
    assert E.active_players(s) == {s.first}
    checked(s)


def test_bad_player_count_and_option() -> None:
    for n in (1, 5, True):
        with pytest.raises(InvalidState):
            E.new_game(n, 1)  # type: ignore[arg-type]
    with pytest.raises(InvalidState):
        E.new_game(2, 1, {"max_rounds": -1})


def test_keep_rethrows_the_others_three_throws_at_most() -> None:
    s = game()
    kept = s.dice[:2]
    (sub,) = E.subsets(s, 0)
    assert sub.kind == "keep" and sub.max_values == 5
    out = act(s, "keep 0 1")
    assert out.irreversible and out.state.dice[:2] == kept and out.state.throws == 2
    s = run(out.state, "keep")
    assert s.throws == 3 and E.subsets(s, 0) == []
    with pytest.raises(IllegalAction) as err:
        act(s, "keep 0")
    assert err.value.key == "minos.error.no_more_throws"


def test_no_throw_after_a_die_is_used() -> None:
    s = set_dice(game(), "seagull", *REST[:5])
    s = run(s, "use seagull", "dice seagull 0")
    assert not [sub for sub in E.subsets(s, 0) if sub.kind == "keep"]
    with pytest.raises(IllegalAction) as err:
        act(s, "keep 1")
    assert err.value.key == "minos.error.dice_in_use"


def test_a_lone_star_forms_nothing_and_a_joker_forms_anything() -> None:
    s = set_dice(game(), "star", "star", "star", "star", "star", "star")
    assert [a.kind for a in E.legal_actions(s, 0)] == ["end"]
    s = set_dice(game(), "joker", "star", "star", "star", "star", "star")
    assert [a.args[0] for a in E.legal_actions(s, 0) if a.kind == "use"] == [
        "scales", "arrow", "seagull", "construction"]
    s = run(s, "use construction")
    (sub,) = E.subsets(s, 0)
    assert sub.fixed == ("construction", "0") and sub.options == ("1",)
    assert run(s, "dice construction 0 1").bp == 2


def test_a_die_of_another_symbol_cannot_join() -> None:
    s = run(set_dice(game(), "seagull", "arrow", *REST[:4]), "use seagull")
    with pytest.raises(IllegalAction) as err:
        act(s, "dice seagull 0 1")
    assert err.value.key == "minos.error.wrong_die"


def test_cancel_leaves_the_dice_unused() -> None:
    s = run(set_dice(game(), "seagull", *REST[:5]), "use seagull", "cancel")
    assert s.phase == "act" and not any(s.used)


def test_each_die_is_used_once_and_split_combinations_pay_at_their_time() -> None:
    s = set_dice(game(), "scales", "scales", "construction", "arrow", "seagull", "star")
    s = run(s, "use scales", "dice scales 0")
    assert s.players[0].talents == 30
    s.players[0].value = 9  # as if a colony had been built in between
    s = run(s, "use scales", "dice scales 1")
    assert s.players[0].talents == 39
    assert "scales" not in [a.args[0] for a in E.legal_actions(s, 0) if a.kind == "use"]


# --- arrows and rings ----------------------------------------------------------------------

def test_arrow_gives_rings_and_offers_to_buy_more_at_10() -> None:
    s = set_dice(game(), "arrow", "arrow", "star", *REST[2:5])
    s = run(s, "use arrow", "dice arrow 0 1 2")
    assert s.players[0].rings == 4 and s.rings == RINGS - 4 and s.phase == "buy"
    assert [a.args[0] for a in E.legal_actions(s, 0)] == ["0", "1", "2"]
    s = run(s, "buy 2")
    assert s.players[0].rings == 6 and s.players[0].talents == 5 and s.phase == "act"


def test_buying_24_rings_offers_another_menu() -> None:
    s = set_dice(game(), "arrow", *REST[2:6], "scales")
    s.players[0].talents = 400
    s = run(s, "use arrow", "dice arrow 0")
    assert len(E.legal_actions(s, 0)) == 25
    s = run(s, "buy 24")
    assert s.phase == "buy" and s.players[0].rings == 25
    s = run(s, "buy 0")
    assert s.phase == "act"


def test_free_rings_stop_when_the_supply_is_empty() -> None:
    s = set_dice(game(), "arrow", "arrow", *REST[2:6])
    s.players[1].rings = RINGS - 1
    s.rings = 1
    s = run(s, "use arrow", "dice arrow 0 1")
    assert s.players[0].rings == 1 and s.rings == 0 and s.phase == "act"


# --- movement ---------------------------------------------------------------------------

def test_moving_costs_one_mp_a_step_and_needs_mp() -> None:
    s = game()
    assert not [a for a in E.legal_actions(s, 0) if a.kind == "piece"]
    s = run(set_dice(s, "seagull", *REST[:5]), "use seagull", "dice seagull 0",
            "piece ship:k5")
    assert sorted(a.args[0] for a in E.legal_actions(s, 0) if a.kind == "step") == [
        "j5", "k4", "k6", "l5"]
    s = run(s, "step k4", "step k3", "step l3", "step l4", "step l5")
    assert s.mp == 0 and s.selected == "ship:l5"
    assert not [a for a in E.legal_actions(s, 0) if a.kind in ("step", "piece")]


def test_no_ship_enters_the_fish_space_while_two_ships_are_on_it() -> None:
    s = game(n=3)
    put_ship(s, 0, "k4")
    s.mp = 5
    s = run(s, "piece ship:k4")
    assert Action("step", ("k5",)) not in E.legal_actions(s, 0)
    s.ships[FISH].remove(1)
    s.ships["l5"] = [1]
    assert Action("step", ("k5",)) not in E.legal_actions(s, 0)  # Blue's ship: round 1
    s.round = 2
    assert Action("step", ("k5",)) in E.legal_actions(s, 0)  # now an attack


def test_own_pieces_block_too() -> None:
    s = game()
    put_ship(s, 0, "k4")
    s.players[0].ships -= 1
    s.ships["k3"] = [0]
    s.mp = 5
    s = run(s, "piece ship:k4")
    assert Action("step", ("k3",)) not in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as err:
        act(s, "step k3")
    assert err.value.key == "minos.error.blocked"
    with pytest.raises(IllegalAction) as far:
        act(s, "step k2")
    assert far.value.key == "minos.error.not_adjacent"


def test_guards_one_per_dot_several_of_one_colour_on_a_site() -> None:
    s = game()
    put_guards(s, 0, "ost", 2)
    put_guards(s, 0, "ost-tar.1")
    s.mp = 5
    s = run(s, "piece guard:ost")
    steps = sorted(a.args[0] for a in E.legal_actions(s, 0) if a.kind == "step")
    assert steps == ["mas-ost.4", "ost-ath.1"]  # its own guard blocks ost-tar.1
    s = run(s, "piece guard:ost-tar.1", "step ost")
    assert s.guards["ost"] == [0, 3]
    s = run(s, "step ost-tar.1", "step ost-tar.2", "step ost-tar.3", "step tar")
    assert s.guards["tar"] == [0, 1] and s.mp == 0


def test_islands_have_no_paths_and_ships_reach_sites_by_their_port() -> None:
    s = game()
    put_guards(s, 0, "kno")
    put_ship(s, 0, "n5")
    s.mp = 5
    assert Action("piece", ("guard:kno",)) not in E.legal_actions(s, 0)
    s = run(s, "piece ship:n5", "step kno")
    assert s.ships["kno"] == [0] and holder(s, "kno") == 0
    assert [a.args[0] for a in E.legal_actions(s, 0) if a.kind == "step"] == ["n5"]


def test_passing_through_an_unowned_colony_gains_and_loses_its_value() -> None:
    s = game()
    put_colony(s, "ost", ["trading", "dwelling"])
    put_guards(s, 0, "mas-ost.4")
    s.mp = 5
    out = act(run(s, "piece guard:mas-ost.4"), "step ost")
    assert out.state.players[0].value == 3 and "minos.ev.colony_taken" in events(out)
    out = act(out.state, "step ost-tar.1")
    assert out.state.players[0].value == 0 and holder(out.state, "ost") is None


# --- building -----------------------------------------------------------------------------

@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_each_level_costs_its_talents_and_bp(level: int) -> None:
    s = game()
    put_ship(s, 0, "tar")
    below = ["trading", "wall", "dwelling"][:level - 1]
    if below:
        put_colony(s, "tar", below)
    cost = LEVELS[level - 1]
    s.bp = cost.bp
    s.players[0].talents = cost.talents
    s = run(s, "build tar")
    assert Action("type", ("trading",)) in E.legal_actions(s, 0)
    s = run(s, "type trading")
    assert s.players[0].talents == 0 and s.bp == 0
    assert s.stock["trading"] == BUILDINGS_PER_TYPE - 1 - below.count("trading")


def test_a_wall_always_costs_4_bp() -> None:
    s = game()
    put_ship(s, 0, "tar")
    put_colony(s, "tar", ["trading"])
    s.bp = 3
    s = run(s, "build tar")
    assert Action("type", ("wall",)) not in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as err:
        act(s, "type wall")
    assert err.value.key == "minos.error.no_bp" and err.value.params["need"] == 4


def test_building_needs_a_piece_there_and_the_talents() -> None:
    s = game()
    s.bp = 5
    assert not [a for a in E.legal_actions(s, 0) if a.kind == "build"]
    with pytest.raises(IllegalAction) as err:
        act(s, "build tar")
    assert err.value.key == "minos.error.not_held"
    put_ship(s, 0, "tar")
    s.players[0].talents = 4
    assert not [a for a in E.legal_actions(s, 0) if a.kind == "build"]


def test_the_first_building_brings_a_free_guard_and_the_track_moves() -> None:
    s = game()
    put_ship(s, 0, "tar")
    s.bp = 1
    out = act(run(s, "build tar"), "type trading")
    s = out.state
    assert s.guards["tar"] == [0, 1] and s.players[0].guards == GUARDS - 1
    assert s.players[0].value == 2 and s.players[0].talents == 20
    assert "minos.ev.free_guard" in events(out)
    checked(s)


def test_buildings_are_limited_by_the_supply() -> None:
    s = game()
    put_ship(s, 0, "tar")
    s.stock["trading"] = 0
    s.bp = 1
    s = run(s, "build tar")
    assert Action("type", ("trading",)) not in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as err:
        act(s, "type trading")
    assert err.value.key == "minos.error.no_stock"


# --- recruiting ---------------------------------------------------------------------------

def test_two_harbours_recruit_a_ship_into_an_empty_port() -> None:
    s = game()
    put_guards(s, 0, "tar")
    put_colony(s, "tar", ["harbour", "harbour"])
    s = run(s, "recruit tar")
    assert s.ships["tar"] == [0] and s.players[0].ships == SHIPS - 2
    assert s.players[0].talents == 20
    checked(s)


def test_no_ship_recruit_when_the_port_is_taken_nor_without_stock() -> None:
    s = game()
    put_ship(s, 0, "tar")
    put_colony(s, "tar", ["harbour", "harbour"])
    assert Action("recruit", ("tar",)) not in E.legal_actions(s, 0)
    s = game()
    put_guards(s, 0, "syr", GUARDS)
    put_colony(s, "syr", ["dwelling", "dwelling"])
    assert Action("recruit", ("syr",)) not in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as err:
        act(s, "recruit syr")
    assert err.value.key == "minos.error.recruit_needs"


# --- conflicts ----------------------------------------------------------------------------

def _attack_site(defender_ship: bool = True) -> State:
    s = game(first=1)
    s.round = 2
    put_colony(s, "tar", ["trading"])
    put_guards(s, 0, "tar", 2)
    if defender_ship:
        put_ship(s, 0, "tar")
    put_guards(s, 1, "ost-tar.3")
    recount(s)
    s.mp = 5
    s.selected = "guard:ost-tar.3"
    return s


def test_the_defender_orders_his_pieces_ship_first_by_default() -> None:
    s = _attack_site()
    out = act(s, "step tar")
    s2 = out.state
    assert s2.phase == "order" and E.active_players(s2) == {0}
    assert E.skip_action(s2, 0) == Action("face", ("ship",))
    with pytest.raises(NotYourTurn):
        act(s2, "stand", seat=1)
    out3 = act(s2, "face guard", seat=0)
    s3 = out3.state
    assert "minos.ev.attack" in events(out)
    assert s3.ships["tar"] == [0]  # the ship was not fought
    if "minos.ev.conflict_won" in events(out3):  # one guard beaten; both kinds left: ask again
        assert s3.guards["tar"] == [0, 1] and s3.phase == "order" and s3.combat is not None
        assert s3.combat.won == 1
    else:
        assert s3.guards["tar"] == [0, 2] and s3.combat is None and s3.phase == "act"


def test_entering_costs_mp_and_fighting_none() -> None:
    s = _attack_site(defender_ship=False)
    out = act(s, "step tar")
    assert out.state.mp == 4


def _stand_out(s: State) -> tuple[State, list[str]]:
    """Both sides stand until the conflict is decided; the events seen on the way."""
    keys: list[str] = []
    while s.phase in ("attack", "defend"):
        out = act(s, "stand")
        keys += events(out)
        s = out.state
    return s, keys


def _ship_duel(n: int, rng: int) -> tuple[State, list[str]]:
    """Blue's (1) only ship attacks Red's (0) only ship; both hold 2 rings."""
    s = game(n=n, first=1)
    s.round = 2
    s.ships[FISH] = [1]
    for seat in range(n):
        if seat != 1:
            s.players[seat].ships += 1
    put_ship(s, 0, "k4")
    if n == 3:
        put_ship(s, 2, "a5")
    for seat in (0, 1):
        s.players[seat].rings = 2
        s.rings -= 2
    s.mp = 5
    s.selected = "ship:k5"
    s.rng = rng
    out = act(s, "step k4")
    s, keys = _stand_out(out.state)
    return s, events(out) + keys


def test_a_player_without_pieces_is_out_and_returns_rings() -> None:
    s, keys = next((s, k) for s, k in (_ship_duel(2, r) for r in range(500))
                   if s.players[0].out)
    assert "minos.ev.out" in keys and s.players[0].talents == 0 and s.players[0].rings == 0
    assert s.rings == RINGS - s.players[1].rings
    assert s.winners == [1] and s.end_reason == "last" and s.ships["k4"] == [1]
    result = E.result(s)
    assert result is not None and [list(p) for p in result.ranking] == [[1], [0]]
    assert E.active_players(s) == frozenset()


def test_an_attacker_who_loses_his_last_piece_ends_his_turn_and_is_skipped() -> None:
    s, keys = next((s, k) for s, k in (_ship_duel(3, r) for r in range(500))
                   if s.players[1].out)
    assert s.phase == "act" and s.current == 2 and "turn_end" in keys
    s = run(s, "end")
    assert s.current == 0 and s.round == 2
    s = run(s, "end")
    assert s.current == 2 and s.round == 3  # Blue's turns are skipped


def test_no_conflict_in_round_1_but_from_the_first_players_second_turn() -> None:
    s = game()
    assert s.round == 1
    s = run(s, "end")
    assert s.round == 1 and s.current == 1
    s = run(s, "end")
    assert s.round == 2 and s.current == 0


# --- the end -----------------------------------------------------------------------------

def test_the_game_ends_when_every_site_is_built_and_two_cities_stand() -> None:
    s = game()
    from engines.minos.data import SITES
    sites = list(SITES)
    for site in sites[2:]:
        put_colony(s, site, ["harbour"])
    put_colony(s, sites[0], ["harbour", "dwelling", "trading", "wall"])
    put_colony(s, sites[1], ["harbour", "dwelling", "trading"])
    put_ship(s, 0, sites[1])
    s.bp = 4
    s.players[0].talents = 20
    s = run(s, "build " + sites[1], "type wall")
    assert s.phase == "act"
    s = run(s, "end")
    assert s.phase == "over" and s.end_reason == "built"
    assert s.winners == [0]  # Red holds a colony, Blue nothing


def test_max_rounds_ends_the_game_and_talents_break_a_tie() -> None:
    s = E.new_game(2, 3, {"max_rounds": 20})
    s.max_rounds = 1
    s.first = s.current = 0
    s.players[1].talents = 30
    s = run(s, "end", "end")
    assert s.phase == "over" and s.end_reason == "rounds" and s.winners == [1]
    assert s.round == 1
    s = E.new_game(2, 3)
    s.max_rounds = 1
    s = run(s, "end", "end")
    assert sorted(s.winners or []) == [0, 1]
    result = E.result(s)
    assert result is not None and [sorted(p) for p in result.ranking] == [[0, 1]]
    with pytest.raises(GameError):
        act(s, "end", seat=0)


# --- the state ------------------------------------------------------------------------------

def test_round_trip_and_load_checks() -> None:
    s = game()
    assert checked(s) == s
    data = E.to_dict(s)
    bad = dict(data, players=[dict(data["players"][0], value=3), data["players"][1]])
    with pytest.raises(InvalidState):
        E.from_dict(bad)
    bad = dict(data, ships={"k5": [0, 1], "k4": [0]})
    with pytest.raises(InvalidState):
        E.from_dict(bad)
    bad = dict(data, buildings={"tar": ["wall"]})
    with pytest.raises(InvalidState):
        E.from_dict(bad)
    for junk in ({}, {"game": "minos"}, {"game": "minos", "num_players": "x"}, None):
        with pytest.raises(InvalidState):
            E.from_dict(junk)  # type: ignore[arg-type]


def test_what_is_accepted_is_what_is_offered() -> None:
    s = set_dice(game(), "seagull", "joker", "star", "arrow", "scales", "construction")
    for a in E.legal_actions(s, 0):
        assert offered(E, s, 0, a)
    with pytest.raises(GameError):
        act(s, "dice seagull 0")  # the symbol comes first
    with pytest.raises(GameError):
        act(s, "fly k4")
    assert FACE_INDEX["seagull"] == 2


def test_determinize_reseeds_and_evaluate_is_in_range() -> None:
    from engines.rng import Rng
    s = game()
    d = E.determinize(s, 1, Rng(5))
    assert d.rng != s.rng and E.to_dict(d) | {"rng": 0} == E.to_dict(s) | {"rng": 0}
    assert E.evaluate(s, 0) == pytest.approx(0.5)
    put_ship(s, 0, "tar")
    put_colony(s, "tar", ["trading", "wall", "trading"])
    assert 0.5 < E.evaluate(s, 0) <= 1 and 0 <= E.evaluate(s, 1) < 0.5


def test_load_refuses_half_made_choices_and_missing_pieces() -> None:
    s = game()
    data = E.to_dict(s)
    for bad in ({"selected": "ship:k4"}, {"selected": "guard:tar"}, {"symbol": "arrow"},
                {"site": "tar"}, {"recruited": ["atlantis"]}, {"phase": "defend"}):
        with pytest.raises(InvalidState):
            E.from_dict(data | bad)
    assert E.from_dict(data | {"selected": "ship:k5"}).selected == "ship:k5"


def test_a_combination_with_nothing_to_add_is_one_button() -> None:
    s = run(set_dice(game(), "seagull", "scales", "arrow", "arrow", "construction", "scales"),
            "use seagull")
    assert E.subsets(s, 0) == []
    assert E.legal_actions(s, 0) == [Action("dice", ("seagull", "0")), Action("cancel")]
    assert run(s, "dice seagull 0").mp == 5
