"""Rulebook rules that no other test cited, one test each (section named in each test)."""

from __future__ import annotations

import pytest

from engines.base import Ctx
from engines.havana import ENGINE
from engines.havana.data import BUILDINGS, CARD_IDS, TOTAL_WORKERS
from engines.havana.rules import _fix_row_ends, order_key
from engines.havana.state import Player

from .helpers import actions_state, do, give, legal, set_rows, to_centre


# --- Mise en place ------------------------------------------------------------------------------
def test_setup_hands_rows_pile_and_bank() -> None:
    # "son set de 13 cartes Action qu'il prend en main"; "12 bâtiments ... 2 rangées de 6";
    # the rest face down; "Chaque joueur reçoit 1 peso et pioche ... 1 cube"; centre: 3 cubes
    # and 4 pesos.
    s = ENGINE.new_game(4, 11)
    assert all(sorted(p.hand) == sorted(CARD_IDS) for p in s.players)
    assert [len(r) for r in s.rows] == [6, 6] and len(s.pile) == 24
    assert s.bank_workers == TOTAL_WORKERS and sum(s.bag) == 80 - 4 - 3
    assert ENGINE.active_players(s) == frozenset(range(4))  # everyone picks at once


def test_setup_row_end_swap_brings_a_1_to_3_vp_building_from_the_pile() -> None:
    # Remarque: "au moins un bâtiment de valeur 1, 2 ou 3 à l'extrémité d'une des 2 rangées.
    # Si ce n'est pas le cas, ... [un] nouveau bâtiment ... échange avec un des 4 bâtiments
    # ... aux extrémités. Ensuite, la pioche est à nouveau mélangée."
    rows = [[20, 1, 2, 3, 4, 21], [22, 5, 6, 7, 8, 23]]  # ends all worth 4
    pile = [b for b in range(1, 37) if b not in rows[0] + rows[1]]
    before = sorted(rows[0] + rows[1] + pile)
    s = ENGINE.new_game(2, 3)
    s.rows, s.pile = rows, pile
    _fix_row_ends(Ctx(s))
    ends = [rows[r][i] for r in (0, 1) for i in (0, -1)]
    assert sum(BUILDINGS[b].vp <= 3 for b in ends) == 1
    assert len(set(ends) & {20, 21, 22, 23}) == 3  # exactly one end was exchanged
    assert [len(r) for r in rows] == [6, 6] and sorted(rows[0] + rows[1] + pile) == before


# --- Ordre de jeu en cas d'égalité ----------------------------------------------------------------
@pytest.mark.parametrize("first, then", [
    ("vp", "coloured"), ("coloured", "pesos"), ("pesos", "workers"), ("workers", "rubble")])
def test_each_tie_break_comes_before_the_next(first: str, then: str) -> None:
    # "le moins de points de victoire ... le moins de matériaux de construction (sans compter
    # les gravats) ... dans l'ordre le moins de pesos, puis le moins d'ouvriers, puis le moins
    # de gravats". Seat 1 has less of `first` but more of `then`: it still goes first.
    s = actions_state([("siesta", "black_market"), ("siesta", "black_market")])
    p0, p1 = s.players

    def put(p: Player, what: str, n: int) -> None:
        if what == "vp":
            p.buildings = [1] if n == 1 else [5]
        elif what == "coloured":
            p.materials[0] = n
        elif what == "rubble":
            p.materials[4] = n
        else:
            setattr(p, what, n)

    put(p1, first, 1)
    put(p0, first, 2)
    put(p1, then, 9)
    put(p0, then, 0)
    assert order_key(p1, 1) < order_key(p0, 0)


def test_rubble_is_not_counted_with_the_coloured_materials() -> None:
    # "(sans compter les gravats)": 3 rubble do not make a player richer in materials.
    s = actions_state([("siesta", "black_market"), ("siesta", "black_market")])
    give(s, 0, rubble=3)
    give(s, 1, brick=1)
    assert order_key(s.players[0], 0) < order_key(s.players[1], 1)


# --- Phase 1 ------------------------------------------------------------------------------------
def test_the_two_actions_may_come_in_either_order() -> None:
    # "réalise ... les actions correspondantes dans l'ordre de son choix"
    s = actions_state([("debris", "pesos"), ("siesta", "worker")])
    assert legal(s, 0) == ["play debris", "play pesos"]
    to_centre(s, pesos=4, rubble=2)
    s2, _ = do(s, 0, "play pesos")
    assert s2.players[0].pesos == 2 and s2.players[0].materials[4] == 2


@pytest.mark.parametrize("card, step", [("tax_collector", "tax_collector"),
                                        ("peso_thief", "peso_thief_target"),
                                        ("material_thief", "material_thief_target"),
                                        ("mama", "mama_take")])
def test_compulsory_cards_offer_no_way_out(card: str, step: str) -> None:
    # "on ne peut pas renoncer à l'action d'une carte à moins que la carte ... ne l'indique"
    s = actions_state([("siesta", card), ("siesta", "debris"), ("siesta", "worker")])
    for seat in (1, 2):
        give(s, seat, pesos=4, brick=1, glass=1)
    to_centre(s, brick=1, glass=2)
    s, _ = do(s, 0, f"play {card}")
    assert s.step == step
    assert not {"pass", "end"} & set(legal(s, 0))


def test_round_limits_are_reset_each_round() -> None:
    # Arrêt des travaux "Par tour" one removal; Ouvrier / Marché noir "le premier ... durant
    # le tour": all three start again in the next round.
    s = actions_state([("conservation", "worker"), ("siesta", "black_market")])
    s, _ = do(s, 0, "play conservation", "remove 0:left")  # Worker follows by itself
    s, _ = do(s, 1, "play black_market")
    assert s.removed_this_round and s.worker_done and s.market_done
    s, _ = do(s, 0, "pick mama", "cover conservation")
    s, _ = do(s, 1, "pick mama", "cover siesta")
    assert s.round == 2 and not (s.removed_this_round or s.worker_done or s.market_done)


# --- Achat de bâtiments -------------------------------------------------------------------------
def test_pesos_and_workers_go_to_the_bank_cubes_to_the_box() -> None:
    # "Les matériaux de construction ... dans la boîte"; "Les pesos et ouvriers sont remis
    # dans la réserve commune"; the 5 rubble of an exchange "sont remis dans la boîte".
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [13, 2, 3, 4, 6, 29], [32, 7, 8, 9, 10, 35])  # Bakery: 1C 1W 2P
    give(s, 0, rubble=5, workers=1, pesos=2)
    bank = s.bank_workers
    s, _ = do(s, 0, "play siesta")
    s, _ = do(s, 0, "build 13")
    assert s.players[0].buildings == [13]
    assert s.bank_workers == bank + 1 and s.box == [0, 0, 0, 0, 5]


def test_refill_with_fewer_than_four_in_the_pile() -> None:
    # "il ne reste que 2 bâtiments dans une rangée, on pioche immédiatement 4 nouveaux
    # bâtiments": the pile may hold fewer; they all go in.
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [2, 29, 25], [32, 7, 8, 9, 10, 35])
    s.pile = s.pile[-2:]
    for p in s.players:
        p.buildings = []
    others = [b for b in range(1, 37) if b not in s.pile + s.rows[0] + s.rows[1]]
    s.players[1].buildings = others
    give(s, 0, rubble=2)
    s, _ = do(s, 0, "play siesta", "build 2")
    assert len(s.rows[0]) == 4 and s.pile == [] and s.rows[0][0] == 29


# --- Fin de partie -------------------------------------------------------------------------------
@pytest.mark.parametrize("n, vp", [(2, 25), (3, 20), (4, 15)])
def test_victory_threshold_by_player_count(n: int, vp: int) -> None:
    # "A 2 joueurs, 25 points de victoire. A 3 joueurs, 20 ... A 4 joueurs, 15"
    s = actions_state([("siesta", "protection")] + [("siesta", "debris")] * (n - 1))
    set_rows(s, [2, 1, 3, 4, 6, 29], [32, 7, 8, 9, 10, 33])
    pool = sorted(s.pile, key=lambda b: -BUILDINGS[b].vp)
    below: list[int] = []
    for b in pool:  # just under the threshold, one 1-VP Street away from it
        if sum(BUILDINGS[x].vp for x in below) + BUILDINGS[b].vp <= vp - 1:
            below.append(b)
    assert sum(BUILDINGS[x].vp for x in below) == vp - 1
    s.players[0].buildings = below
    s.pile = [b for b in s.pile if b not in below]
    give(s, 0, rubble=3, pesos=2)  # the Beach hut behind the Street stays affordable
    s, _ = do(s, 0, "play siesta", "build 2")
    assert s.phase == "actions" and s.step == "build"  # reached, but the turn goes on
    assert "build 1" in legal(s, 0)
    s, _ = do(s, 0, "end")
    assert s.phase == "over" and s.winners == [0] and s.players[0].vp == vp


def test_below_the_threshold_the_round_goes_on() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    s.players[0].buildings = [36, 34, 33, 30]  # 24 VP, one short of 25
    s.pile = [b for b in s.pile if b not in (36, 34, 33, 30)]
    s, _ = do(s, 0, "play siesta")
    assert s.phase == "actions" and s.current == 1


def test_hand_is_not_recovered_with_three_cards_left() -> None:
    # "n'a pas plus de 2 cartes en main": 3 is more than 2.
    s = actions_state([("siesta", "debris"), ("worker", "mama")])
    p = s.players[0]
    p.discard, p.hand = p.hand[:7], p.hand[7:]  # 4 in hand, 3 after the new card
    s.phase, s.step = "cover", None
    s, _ = do(s, 0, f"pick {p.hand[0]}", "cover debris")
    s, _ = do(s, 1, "pick siesta", "cover mama")
    assert len(s.players[0].hand) == 3 and len(s.players[0].discard) == 8
