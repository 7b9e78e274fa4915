"""The rulebook's worked examples (1–26) and the reference's derived checks (27–51), each a
named test, numbered as in the reference."""

from __future__ import annotations

import pytest

from engines.base import Action
from engines.rio import ENGINE, city, combat, rules
from engines.rio.data import BOARD
from engines.rio.state import ROLE_ACT, ROLE_STAY, ROLE_UPGRADE

from .helpers import cell, combat_state, do, game, group, rng_for, run, workers

B = BOARD
GREEN, BLACK, RED = 0, 1, 2


# --- worked examples in the rules -----------------------------------------------------------
def test_01_eviction_double_minus_one() -> None:
    s = game(3)
    workers(s, GREEN, cell(5, 7), 2)
    s.cur = 1  # black places
    s = do(s, BLACK, "city", "quarter 6", "cell 5.7", "evict")
    assert s.cw[cell(5, 7)] == [[BLACK, 3, ROLE_STAY]]
    assert s.players[GREEN].supply == 9 and s.players[BLACK].placed == 4
    assert s.players[BLACK].supply == 9 - 3


def test_02_ladder_cost_paid_at_placement() -> None:
    s = game(3)
    s.players[0].wood = s.players[0].stone = 2
    s = do(s, 0, "ladder", "ladder fort", "space 0", "ladder", "ladder fort", "space 1")
    assert (s.players[0].wood, s.players[0].stone) == (0, 0)
    assert s.ladders["fort"][:2] == [0, 0]


def test_03_fort_payout_and_completer_bonus() -> None:
    s = game(3)
    yellow = 1
    s.ladders["fort"] = [GREEN, GREEN, GREEN, yellow, RED, RED]  # 5 5 4 / 4 4 3
    s.ladder_last["fort"] = RED
    for seat in (GREEN, yellow, RED):
        s.players[seat].supply -= s.ladders["fort"].count(seat)
    s, _ = run(s, rules.start_effects)
    assert [s.players[x].vp for x in (GREEN, yellow, RED)] == [14, 4, 11]
    assert all(p.supply == 9 for p in s.players)
    assert s.phase == "complete" and ENGINE.active_players(s) == {RED}
    s = do(s, RED, "site 7.6")
    assert s.bld[cell(7, 6)] == "fort" and "fort" in s.closed and s.phase == "effects"


def test_04_roads_filled_alone_score_4() -> None:
    s = game(3)
    s.ladders["roads"] = [GREEN] * 6
    s.ladder_last["roads"] = GREEN
    s.reserved["roads"] = 3
    s.players[GREEN].supply -= 6
    s, _ = run(s, rules.start_effects)
    assert s.players[GREEN].vp == 4 and s.queue == [["roads", GREEN, 3]]
    for _ in range(3):
        s = do(s, GREEN, "auto")
    assert len(s.roads) == 3 and s.pieces_used == 3 and s.phase == "effects"


def test_05_activation_needs_an_adjacent_house() -> None:
    s = game(4)
    yellow, black, red, green = 0, 1, 2, 3
    market = cell(8, 7)
    s.bld[market] = "market"
    for seat, where, kind in ((yellow, cell(7, 7), "house"), (black, cell(9, 8), "house"),
                              (red, cell(11, 7), "house"), (green, cell(8, 8), "hut")):
        s.bld[where], s.bown[where] = kind, seat
    can = {seat: Action("act") in rules.cell_actions(s, seat, market)
           for seat in (yellow, black, red, green)}
    assert can == {yellow: True, black: True, red: False, green: False}


def test_06_worker_effects_hut_and_stonecutter() -> None:
    s = game(3)
    workers(s, GREEN, cell(5, 7), 2)
    workers(s, GREEN, cell(9, 7), 1)
    s.players[GREEN].wood, s.players[GREEN].stone = 2, 0
    s.phase, s.cur = "effects", 0
    s = do(s, GREEN, "cell 5.7", "build hut", "cell 9.7", "build stonecutter")
    assert s.bld[cell(5, 7)] == "hut" and s.bown[cell(5, 7)] == GREEN
    assert s.bld[cell(9, 7)] == "stonecutter" and s.players[GREEN].wood == 0
    assert s.players[GREEN].supply == 9


def test_07_mine_shared_production_ladder() -> None:
    s = game(4)
    white, green, yellow, red = 0, 1, 2, 3
    for seat in (white, green, yellow, red):
        s.cur = seat
        s = do(s, seat, "prod", "done")
    assert [p.placed for p in s.players] == [1, 1, 2, 2]
    s.phase, s.cur = "effects", 0
    for seat in (white, green, yellow, red):
        before = s.players[seat].stone
        s = do(s, seat, f"prod {seat}", "take stone", "done")
        assert s.players[seat].stone == before + 1


def test_08_agriculture_and_crafts() -> None:
    s = game(3)
    yellow = 1
    s = do(s, GREEN, "agri", "count 2", "done")
    s = do(s, yellow, "crafts", "count 1", "done")
    s.phase, s.cur = "effects", 0
    silver = s.players[GREEN].silver
    s = do(s, GREEN, "agri", "done")
    assert s.players[GREEN].silver == silver + 1
    wood, precious = s.players[yellow].wood, s.players[yellow].precious
    s = do(s, yellow, "crafts", "take wood")
    assert (s.players[yellow].wood, s.players[yellow].precious) == (wood - 1, precious + 1)


def test_09_ship_loading_three_per_worker() -> None:
    s = game(3)
    yellow = 1
    s.closed.append("port")
    s.quay_open = True
    s.quay = [1, 2, 0]
    s.players[GREEN].supply -= 1
    s.players[yellow].supply -= 2
    s.players[yellow].wood, s.players[yellow].stone = 4, 4
    s.phase, s.cur = "effects", 1
    s = do(s, yellow, "load", *["take wood"] * 3, *["take stone"] * 2)
    assert s.cargo[yellow] == [3, 2, 0] and rules.load_room(s, yellow) == 1
    s = do(s, yellow, "take stone", "done")
    assert rules.load_room(s, yellow) == 0
    s.cur = 0
    s = do(s, GREEN, "load", "take wood", "take stone")
    assert s.cargo[GREEN] == [1, 1, 0]


def test_10_ship_departure_order_and_capacity() -> None:
    s = game(3)
    s.round = 11  # 1590
    s.closed.append("port")
    s.quay_open = True
    s.cargo[GREEN] = [1, 0, 0]
    s = do(s, GREEN, "ship")
    assert s.ship_order == GREEN and s.players[GREEN].silver == 0
    s.phase, s.cur = "effects", 3
    s, _ = run(s, rules.start_turn)
    assert s.ship_at_sea and s.ship_return == 13  # 1592
    assert [rules.ship_capacity(game(n)) for n in (3, 4, 5)] == [21, 28, 35]
    full = game(3)
    full.cargo = [[7, 7, 7], [0, 0, 0], [0, 0, 0]]
    full.phase, full.cur = "effects", 3
    full, _ = run(full, rules.start_turn)
    assert full.ship_at_sea and all(p.silver == 2 for p in full.players[:2])


def test_11_turn_order_track() -> None:
    s = game(4)
    white, black, red, green = 0, 1, 2, 3
    s.order = [white, black, red, green]
    s.bids = [0, 0, 1, 1]
    s, _ = run(s, rules.update_order)
    assert s.order == [green, red, white, black]


def test_12_time_track_feather() -> None:
    s = game(3)
    s.round = 2  # 1581
    nat, pir = s.natives, s.pirates
    s, _ = run(s, rules.advance_time)
    assert (s.natives, s.pirates, s.round) == (nat + 1, pir, 3)


def test_13_enemy_track_reading() -> None:
    assert [combat.check_enemy(r, 5, 3) for r in range(2, 8)] == [
        "pirates", "pirates", "natives", "natives", "", ""]


def test_14_attacker_is_latest_in_turn_order() -> None:
    s = game(4)
    s.order = [3, 1, 0, 2]
    assert combat.designate(s) == 2
    s.players[2].attacks = 1
    assert combat.designate(s) == 0


def test_15_enemy_count() -> None:
    s = game(5)
    s.natives = 1  # bonus 0
    workers(s, 0, cell(5, 7), 2)
    workers(s, 1, cell(9, 8), 1)
    workers(s, 4, cell(10, 8), 2)  # the attacker's own workers do not count
    s.ladders["fort"][0] = 0  # nor workers on ladders
    assert combat.enemy_count(s, 4, "natives") == 3 + 4 * 2


def test_16_enemy_bonus_and_reduction() -> None:
    s = game(5)
    s.natives, s.pirates = 6, 2
    assert (combat.enemy_bonus(s, "natives"), combat.enemy_bonus(s, "pirates")) == (3, 1)
    s.options["bonus_reduction"] = True
    assert (combat.enemy_bonus(s, "natives"), combat.enemy_bonus(s, "pirates")) == (1, 0)


def test_17_enemy_placement_and_first_move_split() -> None:
    s = combat_state(3, attacker=RED)
    c = s.combat
    assert c is not None
    c.first = True
    c.stacks = [["h.2.0", 4], ["h.8.0", 2], ["h.12.0", 1], ["v.0.2", 1]]
    s = do(s, RED, "stacks", "side n", "stack h.2.0", "size 1", "enter", "step s", "step s")
    s = do(s, RED, "stacks", "side n", "stack h.2.0", "size 1", "enter", "step e", "stop")
    assert Action("end") not in ENGINE.legal_actions(s, RED)  # the rest must come in
    s = do(s, RED, "stacks", "side n", "stack h.2.0", "size 2", "enter", "stop")
    s = do(s, RED, "stacks", "side n", "stack h.8.0", "size 1", "enter", "step s", "stop")
    s = do(s, RED, "stacks", "side n", "stack h.8.0", "size 1", "enter", "stop")
    s = do(s, RED, "stacks", "side n", "stack h.12.0", "size 1", "enter", "step s", "step s",
           "stop")
    s = do(s, RED, "stacks", "side w", "stack v.0.2", "size 1", "enter", "step e", "step s",
           "stop")
    c = s.combat
    assert c is not None and not c.stacks
    sizes = sorted(len(g.pawns) for g in c.groups)
    assert sizes == [1, 1, 1, 1, 1, 1, 2]
    cells = sorted(B.token(g.cell) for g in c.groups)
    assert cells == sorted(["2.2", "3.0", "2.0", "8.1", "8.0", "12.2", "1.3"])
    assert [g.moves for g in c.groups if g.cell in (cell(2, 2), cell(12, 2))] == [0, 0]
    assert Action("end") in ENGINE.legal_actions(s, RED)


def _cannon_state(roll: int, cannoneer: bool) -> tuple[object, int]:
    s = combat_state(3, attacker=RED)
    c = s.combat
    assert c is not None
    c.step, c.first = "stage", True
    c.stacks = [["h.2.0", 3], ["h.8.0", 2]]
    s.bld[cell(7, 6)] = "fort"
    shooter = GREEN
    if cannoneer:
        s.chars["cannoneer"] = [GREEN, 0]
    s.players[1].vp = 5
    s, _ = run(s, combat.end_staging)
    s.rng = rng_for(roll)
    return s, shooter


def test_18_cannons_cannoneer_bets_three() -> None:
    s, shooter = _cannon_state(8, cannoneer=True)
    assert ENGINE.active_players(s) == {shooter}
    s = do(s, shooter, "fire 3")
    assert s.combat.step == "cannon_kill"
    s = do(s, shooter, "side n", "kill h.2.0", "side n", "kill h.2.0", "side n", "kill h.8.0")
    assert s.combat.stacks == [["h.2.0", 1], ["h.8.0", 1]] and s.players[shooter].vp == 6
    assert s.combat.step == "recruit"


def test_19_battle_equal_pairs_and_pirate_dominance() -> None:
    yellow = 0
    for enemy, survivors, vp in (("natives", 0, 8), ("pirates", 1, 6)):
        s = combat_state(3, attacker=RED, enemy=enemy)
        d = group(s, cell(5, 3), [yellow, yellow])
        a = group(s, cell(5, 2), [-1, -1])
        s, _ = run(s, lambda ctx: combat.step_to(ctx, RED, ctx.s.combat.groups[1],
                                                 cell(5, 3), ""))
        assert s.players[yellow].vp == vp and s.players[RED].vp == 0
        left = [g for g in s.combat.groups if g.pawns[0] == -1]
        assert sum(len(g.pawns) for g in left) == survivors
        assert all(g.pawns[0] == -1 for g in s.combat.groups)
        del d, a


def test_20_battle_pair_on_a_defended_hut() -> None:
    s = combat_state(3, attacker=RED)
    s.bld[cell(5, 3)], s.bown[cell(5, 3)] = "hut", GREEN
    group(s, cell(5, 3), [GREEN])
    group(s, cell(5, 2), [-1, -1])
    s, _ = run(s, lambda ctx: combat.step_to(ctx, RED, ctx.s.combat.groups[1], cell(5, 3), ""))
    assert s.players[GREEN].vp == 2 and s.players[RED].vp == 2
    assert s.bld[cell(5, 3)] == "" and [g.pawns for g in s.combat.groups] == [[-1]]


def test_21_single_enemy_against_an_undefended_building() -> None:
    s = combat_state(3, attacker=RED)
    s.bld[cell(5, 3)] = "market"
    group(s, cell(5, 2), [-1])
    s, _ = run(s, lambda ctx: combat.step_to(ctx, RED, ctx.s.combat.groups[0], cell(5, 3), ""))
    assert s.players[RED].vp == 6 and s.bld[cell(5, 3)] == "" and not s.combat.groups


@pytest.mark.parametrize("att, dfd, att_left, dfd_left", [
    (2, 1, 2, 0), (3, 2, 3, 0), (3, 1, 3, 0), (1, 2, 0, 2), (1, 3, 0, 3)])
def test_22_bigger_group_wins_without_loss(att: int, dfd: int, att_left: int,
                                           dfd_left: int) -> None:
    s = combat_state(3, attacker=RED)
    group(s, cell(5, 3), [GREEN] * dfd)
    group(s, cell(5, 2), [-1] * att)
    s, _ = run(s, lambda ctx: combat.step_to(ctx, RED, ctx.s.combat.groups[1], cell(5, 3), ""))
    sizes = {("a" if g.pawns[0] == -1 else "d"): len(g.pawns) for g in s.combat.groups}
    assert sizes.get("a", 0) == att_left and sizes.get("d", 0) == dfd_left


def test_23_mixed_group_shares_vp_by_pawns() -> None:
    s = game(3)
    s, _ = run(s, lambda ctx: combat.share(ctx, [RED, RED, GREEN], 6, "enemies"))
    assert (s.players[RED].vp, s.players[GREEN].vp) == (4, 2)


def test_24_quarter_scoring() -> None:
    s = game(3)
    q6 = B.quarter_cells[6]
    kinds = ["market", "stonecutter", "barracks", "monument"]
    for where, kind in zip(q6[:4], kinds, strict=True):
        s.bld[where] = kind
    houses = {GREEN: 1, RED: 3, BLACK: 1}
    spots = iter(q6[4:])
    for seat, count in houses.items():
        for _ in range(count):
            where = next(spots)
            s.bld[where], s.bown[where] = "house", seat
    hut = next(spots)
    s.bld[hut], s.bown[hut] = "hut", GREEN
    assert city.quarter_modifier(s, 6) == 1
    assert [city.house_score(s, x) for x in (GREEN, RED, BLACK)] == [3, 9, 3]


def test_25_character_end_vp() -> None:
    s = game(3)
    assert rules.character_vp(s, "master_carpenter", set()) == 5
    assert rules.character_vp(s, "cannoneer", set()) == 5


def test_26_money_three_silver_one_vp() -> None:
    s = game(3)
    for p in s.players:
        p.silver = 3
    s, _ = run(s, rules.final_scoring)
    assert all(p.vp == 1 and p.silver == 0 for p in s.players)


# --- derived checks -------------------------------------------------------------------------
def test_27_round_one_placement_in_the_start_zone() -> None:
    s = game(3)
    assert city.reachable(s, GREEN) == set(B.start_zone) and len(B.start_zone) == 12
    s.bld[cell(5, 7)], s.bown[cell(5, 7)] = "hut", GREEN
    extra = city.reachable(s, GREEN) - set(B.start_zone)
    assert extra == {cell(4, 6), cell(5, 6), cell(6, 6), cell(4, 7), cell(4, 8)}


def test_28_eviction_limits() -> None:
    s = game(3)
    workers(s, GREEN, cell(5, 7), 3)
    s.cur = 1
    assert rules.cell_actions(s, BLACK, cell(5, 7)) == []
    s.bld[cell(6, 7)] = "market"
    workers(s, GREEN, cell(6, 7), 1, ROLE_ACT)
    assert Action("evict") not in rules.cell_actions(s, BLACK, cell(6, 7))


def test_29_roads_connection_and_legal_segments() -> None:
    s = game(3)
    legal = city.legal_roads(s)
    assert len(legal) == 52
    plaza = [e for e in legal if any(v in B.plaza_vertices for v in B.edge_vertices(e))]
    assert len(plaza) == 20
    s.roads = ["v.6.3", "h.6.4"]
    s.pieces_used = 2
    assert city.connected_quarters(s) == {2}
    assert city.activation_limit(s, cell(5, 1)) == 2
    s.roads += ["h.2.3", "h.3.3", "h.4.3", "h.5.3"]
    assert city.connected_quarters(s) == {1, 2}
    assert "h.6.6" in city.legal_roads(game(3))


def test_30_palace_on_a_full_site_removes_a_building() -> None:
    s = game(3)
    for i, where in enumerate(B.sites):
        s.bld[where] = "house" if i == 0 else "market"
        s.bown[where] = RED if i == 0 else -1
    s.queue = [["palace", GREEN, 1]]
    s.phase = "complete"
    assert len(rules.legal_complete(s, GREEN)) == 10
    s = do(s, GREEN, f"site {B.token(B.sites[0])}")
    assert s.bld[B.sites[0]] == "palace" and s.bown[B.sites[0]] == -1
    assert city.quarter_modifier(s, 2) == 3 - 1  # +3 Palace, -1 for the two markets left


def test_31_ship_payout() -> None:
    s = game(3)
    s.cargo[GREEN] = [2, 1, 2]
    silver = s.players[GREEN].silver
    s, _ = run(s, rules.ship_payout)
    assert s.players[GREEN].silver - silver == 9 and s.players[GREEN].vp == 7


def test_32_ship_timing() -> None:
    s = game(3)
    s.closed.append("port")
    s.ship_at_sea, s.ship_return = True, 13
    s.cargo[GREEN] = [1, 0, 0]
    s.round = 12
    s, _ = run(s, rules.start_round)
    assert not s.quay_open and Action("quay") not in ENGINE.legal_actions(s, s.order[0])
    s.round = 13
    s, _ = run(s, rules.start_round)
    assert not s.quay_open
    s, _ = run(s, rules.start_effects)
    assert not s.ship_at_sea and s.players[GREEN].vp == 1
    assert not s.quay_open  # no loading in the return round
    t = game(3)
    t.quay = [2, 0, 0]
    t.players[GREEN].wood = 7
    t.phase = "effects"
    t.sub = "load"
    for _ in range(6):
        t = do(t, GREEN, "take wood")
    assert Action("take", ("wood",)) not in ENGINE.legal_actions(t, GREEN)


def test_33_enemy_track_after_a_pirate_combat() -> None:
    assert combat.check_enemy(2, 5, 3) == "pirates"
    s = game(3)
    s.natives, s.pirates = 5, 3
    combat.retreat(s, "pirates")
    assert (s.natives, s.pirates) == (5, 0)


def test_34_barracks_dominance() -> None:
    for enemy, defender_left in (("natives", 1), ("pirates", 0)):
        s = combat_state(3, attacker=RED, enemy=enemy)
        s.bld[cell(6, 2)] = "barracks"
        group(s, cell(5, 3), [GREEN])
        group(s, cell(5, 2), [-1])
        s, _ = run(s, lambda ctx: combat.step_to(ctx, RED, ctx.s.combat.groups[1], cell(5, 3),
                                                 ""))
        assert sum(len(g.pawns) for g in s.combat.groups if g.pawns[0] == GREEN) == \
            defender_left
        assert not [g for g in s.combat.groups if g.pawns[0] == -1]


def test_35_mixed_rounding_and_top_pawn_first() -> None:
    s = game(3)
    s, _ = run(s, lambda ctx: combat.share(ctx, [RED, RED, GREEN], 2, "enemies"))
    assert (s.players[RED].vp, s.players[GREEN].vp) == (1, 1)
    t = combat_state(3, attacker=BLACK)
    t.bld[cell(6, 2)] = "barracks"  # defenders dominate: one of theirs survives a tie
    group(t, cell(5, 3), [GREEN, RED, RED])
    group(t, cell(5, 2), [-1, -1, -1], moves=1)
    t, _ = run(t, lambda ctx: combat.step_to(ctx, BLACK, ctx.s.combat.groups[1], cell(5, 3),
                                             ""))
    assert [g.pawns for g in t.combat.groups] == [[RED]]  # green, on top, fell first
    assert (t.players[GREEN].vp, t.players[RED].vp) == (2 + 2, 2 + 4)


def test_36_cannon_failure_and_fewest_vp_shooter() -> None:
    s, shooter = _cannon_state(7, cannoneer=True)
    s = do(s, shooter, "fire 3")
    assert s.combat.step == "recruit" and len(s.combat.stacks) == 2
    t, shooter = _cannon_state(9, cannoneer=False)
    assert ENGINE.active_players(t) == {GREEN}  # 0 VP, fewer than seat 1's 5
    assert t.combat.cannon_cap == 5
    t = do(t, GREEN, "fire 3", "auto")
    assert t.players[GREEN].vp == 0


def test_37_character_fine() -> None:
    s = game(3)
    p = s.players[GREEN]
    p.silver, p.vp, p.claim = 12, 45, "architect"
    s.claims["architect"] = GREEN
    p.supply -= 1
    s, _ = run(s, rules.resolve_claim, GREEN)
    assert (s.players[GREEN].silver, s.players[GREEN].vp) == (9, 40)
    assert "architect" not in s.chars
    t = game(3)
    p = t.players[GREEN]
    p.silver, p.vp, p.claim, p.wood, p.precious = 2, 45, "architect", 3, 1
    t.claims["architect"] = GREEN
    p.supply -= 1
    t, _ = run(t, rules.resolve_claim, GREEN)
    q = t.players[GREEN]
    assert (q.silver, q.wood, q.stone, q.precious, q.vp) == (0, 0, 0, 0, 40)


def test_38_money_remainder_kept_for_the_tie_break() -> None:
    s = game(3)
    s.players[GREEN].silver = 8
    s, _ = run(s, rules.final_scoring)
    assert (s.players[GREEN].vp, s.players[GREEN].silver) == (2, 2)


def test_39_no_check_once_everyone_has_attacked() -> None:
    for n, need in ((3, 1), (2, 2)):
        s = game(n)
        for p in s.players:
            p.attacks = need
        s.phase = "effects"
        s, events = run(s, combat.phase_c)
        assert not any(e.key == "rio.ev.check" for e in events)
        assert s.phase == "place" and s.round == 2


def test_40_five_player_start() -> None:
    s = game(5)
    assert (s.natives, s.pirates) == (4, 2)
    assert [combat.check_enemy(r, 4, 2) for r in (2, 3, 4, 5)] == [
        "pirates", "natives", "natives", ""]
    t = game(3)
    assert all(combat.check_enemy(r, t.natives, t.pirates) == "" for r in range(2, 13))


def test_41_completion_in_phase_b_of_the_same_round() -> None:
    s = game(3)
    s.round = 6  # 1585
    s.ladders["fort"] = [GREEN] * 5 + [-1]
    s.players[GREEN].supply -= 5
    s.players[GREEN].wood = s.players[GREEN].stone = 1
    s = do(s, GREEN, "ladder", "ladder fort", "space 5", "done", )
    s = do(s, 1, "done")
    s = do(s, 2, "done")
    assert s.phase == "complete" and s.round == 6
    assert s.players[GREEN].vp == 25 + 4 and s.players[GREEN].supply == 9


def test_42_wall_and_road_pieces_run_out() -> None:
    s = game(3)
    s.walls = [e for e in list(B.perimeter)[:46] if e not in B.prebuilt_walls][:40]
    s.roads = city.legal_roads(s)[:15]
    s.pieces_used = 55
    s.ladders["walls"][0] = GREEN
    s.players[GREEN].supply -= 1
    s.reserved["walls"] = 3
    assert rules.unreserved(s) == 2 and not rules.ladder_open(s, BLACK, "roads")
    assert rules.ladder_open(s, BLACK, "walls")
    s.pieces_used, s.walls = 56, s.walls + [next(e for e in B.perimeter if e not in
                                                  s.walls and e not in B.prebuilt_walls)]
    s.chars["defender_char"] = [GREEN, 0]
    s.phase, s.cur = "effects", 0
    s, _ = run(s, rules.start_turn)
    assert "wall" in s.incomes
    s = do(s, GREEN, "free_wall")
    s = do(s, GREEN, str(ENGINE.legal_actions(s, GREEN)[0]))
    s = do(s, GREEN, str(ENGINE.legal_actions(s, GREEN)[0]))
    assert rules.unreserved(s) == 0
    s.cur, s.round = 0, s.round + 1
    s, _ = run(s, rules.start_turn)
    assert "wall" not in s.incomes


def test_43_no_open_entry_skips_the_combat() -> None:
    s = game(3)
    s.walls = [e for e in B.perimeter if e not in B.prebuilt_walls]
    s.pieces_used = len(s.walls)
    s.natives = 6
    started = run(s, lambda ctx: combat.start_combat(ctx, "natives", 2, False))
    s = started[0]
    assert s.combat is None and s.players[2].attacks == 1 and s.natives == 2


def test_44_palace_destroyed_for_good() -> None:
    s = combat_state(3, attacker=RED)
    s.bld[B.sites[0]] = "palace"
    s.closed.append("palace")
    s.chars["architect"] = [GREEN, 0]
    group(s, B.sites[0] - B.cols, [-1])
    s, _ = run(s, lambda ctx: combat.step_to(ctx, RED, ctx.s.combat.groups[0], B.sites[0], ""))
    assert s.players[RED].vp == 12 and "palace" not in s.bld
    assert not rules.ladder_open(s, GREEN, "palace")
    assert rules.character_vp(s, "architect", set()) == 0


def test_45_end_of_phase_b_sends_idle_building_workers_home() -> None:
    s = game(3)
    s.bld[cell(6, 7)] = "market"
    s.bld[cell(8, 7)], s.bown[cell(8, 7)] = "hut", RED
    workers(s, GREEN, cell(6, 7), 1, ROLE_ACT)
    workers(s, RED, cell(8, 7), 1, ROLE_UPGRADE)
    workers(s, 1, cell(10, 8), 2)
    s.phase, s.cur = "effects", 3
    s, _ = run(s, rules.start_turn)
    assert s.cw[cell(6, 7)] == [] and s.cw[cell(8, 7)] == []
    assert s.cw[cell(10, 8)] == [[1, 2, ROLE_STAY]]


def test_46_attacker_scores_nothing_for_his_own_hut() -> None:
    s = combat_state(3, attacker=RED)
    s.bld[cell(5, 3)], s.bown[cell(5, 3)] = "hut", RED
    s.bld[cell(9, 3)], s.bown[cell(9, 3)] = "hut", GREEN
    group(s, cell(5, 2), [-1])
    group(s, cell(9, 2), [-1])
    s, _ = run(s, lambda ctx: combat.step_to(ctx, RED, ctx.s.combat.groups[0], cell(5, 3), ""))
    assert s.players[RED].vp == 0
    s, _ = run(s, lambda ctx: combat.step_to(ctx, RED, ctx.s.combat.groups[0], cell(9, 3), ""))
    assert s.players[RED].vp == 2


def test_47_cannon_cap() -> None:
    s, _ = _cannon_state(9, cannoneer=False)
    assert s.combat.cannon_cap == 5  # 5 staged
    t = combat_state(3, attacker=RED)
    t.combat.step = "stage"
    t.combat.stacks = [["h.2.0", 20]]
    t.bld[cell(7, 6)] = "fort"
    u, _ = run(t, combat.end_staging)
    assert u.combat.cannon_cap == 6
    t.chars["cannoneer"] = [GREEN, 0]
    u, _ = run(t, combat.end_staging)
    assert u.combat.cannon_cap == 7


def test_48_production_spaces_and_choice() -> None:
    assert [rules.prod_need(k) for k in range(10)] == [1, 1, 2, 2, 2, 2, 2, 2, 3, 3]
    s = game(3)
    s = do(s, GREEN, "prod")
    s = do(s, GREEN, "done")
    s = do(s, 1, "prod", "done")
    s.cur = 0
    s.players[GREEN].placed = 1
    s = do(s, GREEN, "prod")
    assert s.prod == [GREEN, 1, GREEN] and s.players[GREEN].placed == 3
    s.phase, s.cur = "effects", 0
    stone, wood = s.players[GREEN].stone, s.players[GREEN].wood
    s = do(s, GREEN, "prod 0", "take stone", "prod 2", "take wood")
    assert (s.players[GREEN].stone, s.players[GREEN].wood) == (stone + 1, wood + 1)


def test_49_buying_inside_a_payment_only() -> None:
    s = game(3)
    p = s.players[GREEN]
    p.wood = p.stone = 0
    p.silver = 5
    s = do(s, GREEN, "ladder", "ladder walls", "space 0 wood")
    assert (s.players[GREEN].silver, s.players[GREEN].bought) == (4, 1)
    assert rules.purchase(s.players[GREEN], 0, 1) == (1, 2)
    assert not any(a.kind == "buy" for a in ENGINE.legal_actions(s, GREEN))
    s, _ = run(s, rules.start_round)
    assert rules.purchase(s.players[GREEN], 1, 0) == (1, 1)


def test_50_general_recruits_on_any_minor_building() -> None:
    s = combat_state(3, attacker=RED)
    s.chars["general"] = [GREEN, 0]
    s.bld[cell(5, 7)], s.bown[cell(5, 7)] = "hut", BLACK
    s.bld[cell(9, 7)] = "church"
    s.bld[B.sites[0]] = "palace"
    s.bld[cell(7, 6)] = "fort"
    cells = combat.recruit_cells(s, s.combat, GREEN)
    assert cell(5, 7) in cells and cell(9, 7) in cells
    assert B.sites[0] not in cells and cell(7, 6) not in cells
    assert combat.recruit_cells(s, s.combat, BLACK) == [cell(5, 7)]


def test_51_fought_groups_neither_merge_nor_feed_a_bonus_step() -> None:
    s = combat_state(3, attacker=RED)
    pair = group(s, cell(5, 3), [GREEN, GREEN])
    single = group(s, cell(5, 4), [GREEN])
    pair.fought = True
    assert combat.can_enter(s, s.combat, single, cell(5, 3)) == ""
    mover = group(s, cell(10, 3), [GREEN])
    assert pair not in combat._discardable(s.combat, GREEN, mover)
