"""Rule tests per building, character, ladder, the ship, each combat rule, scoring,
tie-breaks, trades and options."""

from __future__ import annotations

import pytest

from engines.base import Action, GameError, IllegalAction, NotYourTurn
from engines.rio import ENGINE, city, combat, rules, state
from engines.rio.data import BOARD
from engines.rio.state import ROLE_ACT, ROLE_STAY, ROLE_UPGRADE

from .helpers import cell, combat_state, do, game, group, run, workers

B = BOARD
A0, A1, A2 = 0, 1, 2
HERE = cell(6, 7)


def effects_on(s, seat: int = A0):  # type: ignore[no-untyped-def]
    s.phase, s.cur = "effects", s.order.index(seat)
    return s


def rich(s, seat: int = A0):  # type: ignore[no-untyped-def]
    p = s.players[seat]
    p.wood = p.stone = p.precious = p.silver = 20
    return s


# --- minor buildings ------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["hut", "stonecutter", "carpenter", "market", "barracks",
                                  "church"])
def test_each_base_building_costs_its_workers_and_resources(kind: str) -> None:
    s = rich(game(3))
    m = B.minor[kind]
    workers(s, A0, HERE, m.workers)
    s = do(effects_on(s), A0, "cell 6.7", f"build {kind}")
    p = s.players[A0]
    assert s.bld[HERE] == kind and p.vp == m.vp
    assert (p.wood, p.stone, p.precious) == (20 - m.cost["wood"], 20 - m.cost["stone"],
                                             20 - m.cost["precious"])
    assert p.supply == 9


def test_too_few_workers_limit_the_choice() -> None:
    s = rich(game(3))
    workers(s, A0, HERE, 1)
    opts = rules.build_options(s, A0, HERE)
    assert "stonecutter" in opts and "hut" not in opts and "market" not in opts


@pytest.mark.parametrize("base, top, workers_needed", [
    ("hut", "house", 1), ("market", "company", 2), ("square", "monument", 2),
    ("square", "garden", 2)])
def test_upgrades(base: str, top: str, workers_needed: int) -> None:
    s = rich(game(3))
    s.bld[HERE] = base
    s.bown[HERE] = A0 if base == "hut" else -1
    s.bld[cell(6, 8)], s.bown[cell(6, 8)] = "hut", A0
    s = do(s, A0, "city", "quarter 6", "cell 6.7", "upgrade")
    assert s.cw[HERE] == [[A0, workers_needed, ROLE_UPGRADE]]
    s = do(effects_on(s), A0, "cell 6.7", f"build {top}")
    assert s.bld[HERE] == top and s.players[A0].vp == B.minor[top].vp
    assert s.bown[HERE] == (A0 if top == "house" else -1)


def test_only_the_owner_upgrades_his_hut() -> None:
    s = game(3)
    s.bld[HERE], s.bown[HERE] = "hut", A1
    assert Action("upgrade") not in rules.cell_actions(s, A0, HERE)
    assert Action("upgrade") in rules.cell_actions(s, A1, HERE)


def test_square_needs_five_surroundings() -> None:
    s = rich(game(3))
    workers(s, A0, HERE, 1)
    assert "square" not in rules.build_options(s, A0, HERE)
    for j in B.nb8[HERE][:5]:
        s.bld[j] = "market"
    assert "square" in rules.build_options(s, A0, HERE)
    corner = cell(0, 0)  # two walls on its own edges count too
    s.walls = ["h.0.0", "v.0.0"]
    s.pieces_used = 2
    for j in B.nb8[corner]:
        s.bld[j] = "market"
    assert city.surroundings(s, corner) == 5


def test_one_noble_building_per_quarter_and_tile_caps() -> None:
    s = rich(game(3))
    workers(s, A0, HERE, 2)
    s.bld[cell(4, 9)] = "church"  # quarter 6 already has a church
    opts = rules.build_options(s, A0, HERE)
    assert "church" not in opts and "barracks" in opts
    for i, where in enumerate(B.quarter_cells[1][:4] + B.quarter_cells[4][:0]):
        s.bld[where] = "barracks" if i % 2 else "church"
    assert city.count_type(s, ("church", "barracks")) == 5
    assert "barracks" not in rules.build_options(s, A0, HERE)


def test_one_building_per_cell_per_round_and_thirteen_dwellings() -> None:
    s = rich(game(3))
    workers(s, A0, HERE, 3)
    s = do(effects_on(s), A0, "cell 6.7", "build hut")
    assert rules.build_options(s, A0, HERE) == []
    t = rich(game(3))
    for where in B.quarter_cells[1][:13]:
        t.bld[where], t.bown[where] = "hut", A0
    workers(t, A0, HERE, 2)
    assert "hut" not in rules.build_options(t, A0, HERE)


@pytest.mark.parametrize("building, conv, paid, got", [
    ("stonecutter", "stone", ("stone", 1), ("stone", 3)),
    ("carpenter", "wood", ("wood", 1), ("wood", 3)),
    ("market", "wood", ("wood", 1), ("silver", 1)),
    ("market", "precious", ("precious", 1), ("silver", 2)),
    ("company", "stone", ("stone", 1), ("silver", 2)),
    ("company", "precious", ("precious", 1), ("silver", 3)),
    ("church", "vp", ("silver", 1), ("vp", 2))])
def test_conversions(building: str, conv: str, paid: tuple[str, int],
                     got: tuple[str, int]) -> None:
    s = rich(game(3))
    s.bld[HERE] = building
    s.bld[cell(6, 8)], s.bown[cell(6, 8)] = "house", A0
    s = do(s, A0, "city", "quarter 6", "cell 6.7", "act")
    before = {k: getattr(s.players[A0], k) for k in ("wood", "stone", "precious", "silver",
                                                     "vp")}
    s = do(effects_on(s), A0, "cell 6.7", f"convert {conv}")
    after = {k: getattr(s.players[A0], k) for k in before}
    delta = {k: after[k] - before[k] for k in before}
    expected = {k: 0 for k in before}
    expected[paid[0]] -= paid[1]
    expected[got[0]] += got[1]
    assert delta == expected


def test_church_gives_three_with_the_cathedral() -> None:
    s = rich(game(3))
    s.bld[HERE] = "church"
    s.bld[B.sites[0]] = "cathedral"
    s.bld[cell(6, 8)], s.bown[cell(6, 8)] = "house", A0
    workers(s, A0, HERE, 1, ROLE_ACT)
    s = do(effects_on(s), A0, "cell 6.7", "convert vp")
    assert s.players[A0].vp == 3


def test_activation_limit_two_with_a_road_and_two_colours() -> None:
    s = game(3)
    s.bld[HERE] = "market"
    for seat, where in ((A0, cell(5, 8)), (A1, cell(7, 8))):
        s.bld[where], s.bown[where] = "house", seat
    workers(s, A0, HERE, 1, ROLE_ACT)
    assert Action("act") not in rules.cell_actions(s, A1, HERE)
    s.roads = ["v.6.6", "h.6.6"]  # quarter 6 connected
    s.pieces_used = 2
    assert city.connected_quarters(s) == {6}
    assert Action("act") in rules.cell_actions(s, A1, HERE)


def test_build_and_activate_in_one_round() -> None:
    s = rich(game(3))
    s.bld[cell(6, 8)], s.bown[cell(6, 8)] = "house", A0
    workers(s, A0, HERE, 2)
    s = do(effects_on(s), A0, "cell 6.7", "build stonecutter", "convert stone")
    assert s.players[A0].stone == 20 + 2 and s.cw[HERE] == []


# --- ladders --------------------------------------------------------------------------------
def _complete(s, name: str, seat: int = A0):  # type: ignore[no-untyped-def]
    s.ladders[name] = [seat] * len(s.ladders[name])
    s.ladder_last[name] = seat
    s.players[seat].supply -= len(s.ladders[name])
    if name in ("walls", "roads"):
        s.reserved[name] = 3
    s, _ = run(s, rules.start_effects)
    return s


@pytest.mark.parametrize("name, vp", [("palace", 27), ("cathedral", 24), ("fort", 29),
                                      ("port", 18), ("walls", 4), ("roads", 4)])
def test_each_ladder_completes(name: str, vp: int) -> None:
    s = _complete(game(3), name)
    assert s.players[A0].vp == vp and s.players[A0].supply == 9
    if name == "port":
        assert s.bld[B.port_cell] == "port" and s.phase == "effects"
    elif name in ("walls", "roads"):
        for _ in range(3):
            s = do(s, A0, "auto")
        assert len(s.walls if name == "walls" else s.roads) == 3
        assert not s.closed
    else:
        s = do(s, A0, str(ENGINE.legal_actions(s, A0)[0]))
        assert name in s.bld and name in s.closed
        assert not rules.ladder_open(s, A1, name)


def test_walls_picker_side_then_edge() -> None:
    s = _complete(game(3), "walls")
    assert {a.kind for a in ENGINE.legal_actions(s, A0)} == {"side", "auto", "trade"}
    s = do(s, A0, "side w", "edge v.0.3")
    assert s.walls == ["v.0.3"] and s.queue == [["walls", A0, 2]]


def test_roads_picker_quarter_cell_side() -> None:
    s = _complete(game(3), "roads")
    s = do(s, A0, "quarter 2", "cell 6.3", "side s")
    assert s.roads == ["h.6.4"]


def test_fort_site_is_one_of_the_two_fort_cells() -> None:
    s = _complete(game(3), "fort")
    assert ENGINE.legal_actions(s, A0)[:2] == [Action("site", ("7.6",)), Action("site", ("8.6",))]


# --- production, agriculture, crafts ---------------------------------------------------------
def test_agriculture_odd_worker_gives_nothing() -> None:
    s = game(3)
    s = do(s, A0, "agri", "count 3", "done")
    s = effects_on(s)
    silver = s.players[A0].silver
    s = do(s, A0, "agri")
    assert s.players[A0].silver == silver + 1


def test_crafts_may_buy_its_input() -> None:
    s = game(3)
    s.players[A0].wood = 0
    s.crafts[A0] = 1
    s.players[A0].supply -= 1
    s = do(effects_on(s), A0, "crafts", "take wood")
    assert s.players[A0].precious == 1 and s.players[A0].silver == 1


# --- characters ------------------------------------------------------------------------------
def test_character_bought_and_its_ability_from_the_next_round() -> None:
    s = game(3)
    s.players[A0].silver, s.players[A0].vp = 5, 10
    s = do(s, A0, "chars", "claim master_carpenter", "done")
    assert Action("chars") not in ENGINE.legal_actions(do(game(3), A0, "chars", "claim general"),
                                                       A0)
    s = do(s, A1, "done")
    s = do(s, A2, "done")
    wood = s.players[A0].wood
    s = do(s, A0, "claim")
    assert s.chars["master_carpenter"] == [A0, 1] and s.players[A0].silver == 0
    s = do(s, A0, "done")
    assert s.players[A0].wood == wood  # not this round
    s.round = 2
    s.cur = 0
    s, _ = run(s, rules.start_turn)
    assert s.players[A0].wood == wood + 1


@pytest.mark.parametrize("char, res", [("master_stonecutter", "stone"),
                                       ("master_craftsman", "precious")])
def test_income_characters(char: str, res: str) -> None:
    s = game(3)
    s.chars[char] = [A0, 0]
    s.phase, s.cur = "effects", 0
    before = getattr(s.players[A0], res)
    s, _ = run(s, rules.start_turn)
    assert getattr(s.players[A0], res) == before + 1


def test_master_merchant_chooses() -> None:
    s = game(3)
    s.chars["master_merchant"] = [A0, 0]
    s.phase, s.cur = "effects", 0
    s, _ = run(s, rules.start_turn)
    s = do(s, A0, "income", "take precious")
    assert s.players[A0].precious == 1


def test_road_builder_free_road() -> None:
    s = game(3)
    s.chars["road_builder"] = [A0, 0]
    s.phase, s.cur = "effects", 0
    s, _ = run(s, rules.start_turn)
    s = do(s, A0, "free_road", "quarter 6", "cell 6.6", "side e")
    assert s.roads == ["v.7.6"] and "road" not in s.incomes


def test_shipowner_silver_and_vp() -> None:
    s = game(3)
    s.chars["shipowner"] = [A1, 0]
    s.round = 2
    s.closed.append("port")
    s.quay_open = True
    s.cargo[A0] = [1, 0, 0]
    s = do(s, A0, "ship")
    assert s.players[A1].silver == 3
    t = game(3)
    t.chars["shipowner"] = [A1, 0]
    t.round, t.ship_at_sea, t.ship_return = 3, True, 3
    t.cargo[A0] = [0, 0, 1]
    t, _ = run(t, rules.start_effects)
    assert t.players[A1].vp == 3 and t.players[A0].vp == 2


def test_end_vp_characters() -> None:
    s = game(3)
    s.bld[cell(0, 0)] = "church"
    s.bld[cell(5, 0)] = "church"
    s.bld[B.sites[0]] = "cathedral"
    s.bld[B.port_cell] = "port"
    assert rules.character_vp(s, "bishop", set()) == 12
    assert rules.character_vp(s, "architect", set()) == 14
    for where, kind in zip(B.quarter_cells[1], ["square", "monument", "garden", "church"],
                           strict=False):
        s.bld[where] = kind
    assert rules.character_vp(s, "governor", set()) == 12 + 6
    assert rules.character_vp(s, "road_builder", {1, 2}) == 4
    s.walls = [e for e in B.quarter_perimeter[6] if e not in B.prebuilt_walls]
    s.pieces_used = len(s.walls)
    assert city.closed_quarters(s) == [6]
    assert rules.character_vp(s, "defender_char", set()) == 3


# --- the ship ---------------------------------------------------------------------------------
def test_empty_ordered_ship_stays() -> None:
    s = game(3)
    s.ship_order = A0
    s.phase, s.cur = "effects", 3
    s, events = run(s, rules.start_turn)
    assert not s.ship_at_sea and any(e.key == "rio.ev.ship_empty" for e in events)


def test_ship_at_sea_is_paid_at_the_end_and_docked_cargo_returns() -> None:
    s = game(3)
    s.ship_at_sea, s.cargo[A0] = True, [1, 1, 1]
    s, _ = run(s, rules.final_scoring)
    assert s.final["0"][0] == (2 + 6) // 3 and s.players[A0].vp >= 4
    t = game(3)
    t.cargo[A0] = [2, 0, 0]
    t, _ = run(t, rules.final_scoring)
    assert t.players[A0].wood == 2 + 2


# --- combat -----------------------------------------------------------------------------------
@pytest.mark.parametrize("size, steps", [(1, 3), (2, 2), (3, 1)])
def test_movement_by_group_size(size: int, steps: int) -> None:
    s = combat_state(3, attacker=A2)
    g = group(s, cell(3, 3), [A0] * size)
    group(s, cell(14, 8), [-1])  # an enemy far away keeps the combat going
    s.combat.turn = 1
    s = do(s, A0, "group 3.3")
    moved = 0
    while Action("step", ("e",)) in ENGINE.legal_actions(s, A0):
        s = do(s, A0, "step e")
        moved += 1
    assert moved == steps and s.combat.groups[0].cell == cell(3 + steps, 3)
    assert not {a.args[0] for a in ENGINE.legal_actions(s, A0) if a.kind == "step"} - set("nesw")
    del g


def test_no_leaving_the_city_and_frozen_cells() -> None:
    s = combat_state(3, attacker=A2)
    s.combat.frozen = [cell(1, 0)]
    group(s, cell(0, 0), [A0])
    s.combat.turn = 1
    s = do(s, A0, "group 0.0")
    steps = {a.args[0] for a in ENGINE.legal_actions(s, A0) if a.kind == "step"}
    assert steps == {"s"}


def test_same_colour_merge_and_two_plus_two() -> None:
    s = combat_state(3, attacker=A2)
    group(s, cell(3, 3), [A0])
    group(s, cell(4, 3), [A0, A0])
    s.combat.turn = 1
    s = do(s, A0, "group 3.3", "step e")
    assert [len(g.pawns) for g in s.combat.groups] == [3]
    t = combat_state(3, attacker=A2)
    group(t, cell(3, 3), [A0, A0])
    group(t, cell(4, 3), [A0, A0])
    t.combat.turn = 1
    t = do(t, A0, "group 3.3", "step e")
    assert sorted((B.token(g.cell), len(g.pawns)) for g in t.combat.groups) == [
        ("3.3", 1), ("4.3", 3)]


def test_mixed_merge_accepted_and_refused() -> None:
    for answer, groups in (("accept", 1), ("refuse", 2)):
        s = combat_state(3, attacker=A2)
        group(s, cell(3, 3), [A0])
        group(s, cell(4, 3), [A1])
        s.combat.turn = 1
        s = do(s, A0, "group 3.3", "merge e them")
        assert ENGINE.active_players(s) == {A1} and s.combat.step == "merge"
        assert ENGINE.skip_action(s, A1) == Action("refuse")
        s = do(s, A1, answer)
        assert len(s.combat.groups) == groups and ENGINE.active_players(s) == {A0}
        if answer == "accept":
            assert s.combat.groups[0].pawns == [A1, A0]  # the commander on top


def test_a_refused_merge_is_not_asked_again_this_combat_round() -> None:
    """A refusal is final for the round: the same group may not ask the same neighbour
    again (docs/rules/rio.md), which once let a bot ask and be refused for ever."""
    s = combat_state(3, attacker=A2)
    group(s, cell(3, 3), [A0])
    group(s, cell(4, 3), [A1])
    group(s, cell(14, 8), [-1])
    s.combat.turn = 1
    s = do(s, A0, "group 3.3", "merge e me")
    s = do(s, A1, "refuse")
    assert s.combat.refused == [[s.combat.groups[0].gid, s.combat.groups[1].gid]]
    kinds = {a.kind for a in ENGINE.legal_actions(s, A0)}
    assert "merge" not in kinds and "stop" in kinds
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(s, A0, Action.parse("merge e them"))
    assert refused.value.key == "rio.error.merge_refused"
    s = do(s, A0, "end")
    s = do(s, A1, "end")
    assert s.combat.round == 2 and s.combat.refused == []  # a new round may ask again
    s = do(s, A2, "end")
    s = do(s, A0, "group 3.3")
    assert Action.parse("merge e me") in ENGINE.legal_actions(s, A0)


def test_a_version_1_save_in_combat_loads_with_no_refused_merges() -> None:
    s = combat_state(3, attacker=A2)
    data = state.to_dict(s)
    assert data["version"] == 2
    del data["combat"]["refused"]
    data["version"] = 1
    assert state.from_dict(data).combat.refused == []
    data["version"] = 2
    with pytest.raises(GameError):
        state.from_dict(data)


def test_bonus_step_discards_a_group() -> None:
    s = combat_state(3, attacker=A2)
    group(s, cell(3, 3), [A0, A0, A0])
    group(s, cell(10, 3), [A0])
    group(s, cell(14, 8), [-1])
    s.combat.turn = 1
    s = do(s, A0, "group 3.3", "step e", "bonus 10.3", "step e")
    assert [B.token(g.cell) for g in s.combat.groups if g.pawns[0] == A0] == ["5.3"]
    assert s.players[A0].supply == 9 - 3


def test_combat_ends_after_three_quiet_rounds_and_keep_choice() -> None:
    s = combat_state(3, attacker=A2)
    group(s, cell(3, 3), [A0, A0])
    group(s, cell(12, 9), [-1])
    for _ in range(3):
        s = do(s, A2, "end")
        s = do(s, A0, "end")
    c = s.combat
    assert c is not None and c.step == "keep" and ENGINE.active_players(s) == {A0}
    sub = ENGINE.subsets(s, A0)
    assert sub[0].options == ("3.3",)
    s = ENGINE.apply(s, A0, sub[0].action(["3.3"])).state
    assert s.combat is None and s.cw[cell(3, 3)] == [[A0, 2, ROLE_STAY]]


def test_combat_ends_when_the_attackers_are_gone() -> None:
    s = combat_state(3, attacker=A2)
    group(s, cell(3, 3), [A0, A0])
    group(s, cell(3, 2), [-1])
    s = do(s, A2, "group 3.2", "step s")
    assert s.combat is None or s.combat.step == "keep"


def test_general_bonus_vp_per_enemy() -> None:
    s = combat_state(3, attacker=A2)
    s.chars["general"] = [A0, 0]
    group(s, cell(3, 3), [A0, A0])
    group(s, cell(3, 2), [-1])
    s, _ = run(s, lambda ctx: combat.step_to(ctx, A2, ctx.s.combat.groups[1], cell(3, 3), ""))
    assert s.players[A0].vp == 2 + 1


def test_recruits_free_bought_and_deadline_default() -> None:
    s = combat_state(3, attacker=A2)
    s.bld[cell(5, 7)], s.bown[cell(5, 7)] = "hut", A0
    s.combat.step = "stage"
    s.combat.stacks = [["h.2.0", 3]]
    s, _ = run(s, combat.end_staging)
    assert ENGINE.active_players(s) == {A0}
    s = do(s, A0, "recruit", "quarter 6", "cell 5.7", "recruit", "quarter 6", "cell 5.7")
    silver = s.players[A0].silver
    s = do(s, A0, "buy", "quarter 6", "cell 5.7")
    assert s.players[A0].silver == silver - 1 and len(s.combat.groups[0].pawns) == 3
    s = do(s, A0, "done")
    assert ENGINE.active_players(s) == {A1}
    assert ENGINE.skip_action(s, A1) == Action("auto")


# --- scoring and tie-breaks -------------------------------------------------------------------
def test_house_value_never_below_zero() -> None:
    s = game(3)
    q = B.quarter_cells[5]
    for where in q[:5]:
        s.bld[where] = "market"
    s.bld[q[5]], s.bown[q[5]] = "house", A0
    assert city.quarter_modifier(s, 5) == -4 and city.house_score(s, A0) == 0


def test_tie_breaks() -> None:
    s = game(4)
    s.phase = "over"
    for x, (vp, silver, precious, rest) in enumerate([(10, 1, 0, 0), (10, 2, 0, 0),
                                                       (10, 2, 1, 0), (10, 2, 1, 0)]):
        p = s.players[x]
        p.vp, p.silver, p.precious, p.wood, p.stone = vp, silver, precious, rest, 0
    result = ENGINE.result(s)
    assert result is not None and [list(r) for r in result.ranking] == [[2, 3], [1], [0]]


# --- trades -----------------------------------------------------------------------------------
def test_trade_offer_accepted_at_any_time() -> None:
    """§1.13: trades "à n'importe quel moment de la partie": the recipient, not awaited,
    is offered the trade menu (and nothing else) and accepts while A0 is still awaited."""
    s = game(3)
    w0, w1 = s.players[A0].wood, s.players[A1].wood
    s = do(s, A0, "trade", "tnew", "tgive wood", "tamount 2", "twant silver", "tamount 1",
           "tto 1", "tsend")
    assert ENGINE.active_players(s) == {A0} and len(s.trades) == 1
    assert ENGINE.legal_actions(s, A1) == [Action("trade")]  # not awaited: trades only
    with pytest.raises(NotYourTurn):
        ENGINE.apply(s, A1, Action.parse("done"))
    s = do(s, A1, "trade", "taccept 1")
    assert ENGINE.active_players(s) == {A0}  # nobody waited for the trade
    assert (s.players[A0].wood, s.players[A0].silver) == (w0 - 2, 3)
    assert (s.players[A1].wood, s.players[A1].silver) == (w1 + 2, 1) and not s.trades
    assert ENGINE.legal_actions(s, A1)[0] == Action("tnew")  # his menu stays open
    with pytest.raises(NotYourTurn):
        ENGINE.apply(s, A1, Action.parse("city"))


def test_trade_declined_withdrawn_and_expired() -> None:
    s = game(3)
    s = do(s, A0, "trade", "tnew", "twant stone", "tamount 1", "tsend", "twithdraw 1")
    assert not s.trades
    s = do(s, A0, "tnew", "twant stone", "tamount 1", "tsend", "trade", "done")
    s = do(s, A1, "trade", "tdecline 2")
    assert Action("taccept", ("2",)) not in ENGINE.legal_actions(s, A1)
    s = do(s, A1, "done")
    assert len(s.trades) == 1
    s = do(s, A2, "done")
    assert not s.trades  # expired with phase A


def test_trade_needs_the_goods() -> None:
    s = game(3)
    s = do(s, A0, "trade", "tnew", "twant silver", "tamount 9", "tsend", "trade", "done")
    s = do(s, A1, "trade")
    assert Action("taccept", ("1",)) not in ENGINE.legal_actions(s, A1)


# --- options -----------------------------------------------------------------------------------
def test_short_game_and_start_values() -> None:
    s = ENGINE.new_game(3, 1, {"short_game": True})
    assert (s.rounds, s.natives, s.pirates) == (15, 3, 2)
    t = ENGINE.new_game(5, 1, {"short_game": True})
    assert (t.natives, t.pirates) == (4, 2)


def test_experience_levels() -> None:
    s = ENGINE.new_game(3, 1, {"experience_level": "beginner"})
    s.natives = 8
    assert combat.enemy_bonus(s, "natives") == 2
    s.options["experience_level"] = "intermediate"
    assert combat.enemy_bonus(s, "natives") == 3


def test_forced_final_combat_option() -> None:
    s = game(3)
    s.round = s.rounds
    s.phase = "effects"
    s.cur = 3
    s.pirates = 0
    s.natives = 0
    s, _ = run(s, rules.start_turn)
    assert s.phase == "combat" and s.combat is not None and s.combat.forced
    t = ENGINE.new_game(3, 1, {"final_forced_combats": False})
    t.round, t.phase, t.cur, t.natives, t.pirates = t.rounds, "effects", 3, 0, 0
    t, _ = run(t, rules.start_turn)
    assert t.phase == "over"


def test_setup_last_player_bonus() -> None:
    s = ENGINE.new_game(4, 3)
    last = s.order[-1]
    assert (s.players[last].wood, s.players[last].stone) == (3, 3)
    assert all((p.wood, p.stone, p.silver, p.supply) == (2, 2, 2, 9)
               for x, p in enumerate(s.players) if x != last)


def test_trusted_merge_is_accepted_at_once() -> None:
    s = combat_state(3, attacker=A2)
    group(s, cell(3, 3), [A0])
    group(s, cell(4, 3), [A1])
    group(s, cell(14, 8), [-1])
    s.combat.turn = 2  # settings are changed in one's own turn
    s = do(s, A1, "trade", "trust 0", "trade")
    s.combat.turn = 1
    s = do(s, A0, "group 3.3", "merge e me")
    assert s.combat.step == "round" and [g.pawns for g in s.combat.groups][0] == [A0, A1]


def test_refusals_are_typed_and_name_the_reason() -> None:
    from engines.base import GameError, InvalidAction, NotYourTurn

    s = game(3)
    cases = [(A1, "done", NotYourTurn, "error.not_your_turn"),
             (A0, "fly", InvalidAction, "rio.error.unknown"),
             (A0, "ship", IllegalAction, "rio.error.ship")]
    for seat, text, error, key in cases:
        with pytest.raises(error) as info:
            ENGINE.apply(s, seat, Action.parse(text))
        assert info.value.key == key
    s = do(s, A0, "chars")
    s.chars["general"] = [A1, 0]
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(s, A0, Action.parse("claim general"))
    assert caught.value.key == "rio.error.character_taken"
    with pytest.raises(GameError):
        ENGINE.apply(s, A0, Action.parse("put 99999999999999999999"))
