"""Río's AI: the easy level plays the game, not the menus, and finishes a game.

Placing a worker pays off a phase later, so ``evaluate`` counts what placed workers will
bring; the trade menu (``Spec.free_kinds``) and the Back moves are never wandered into while
a game move is offered (docs/AI.md)."""

from __future__ import annotations

import itertools
import random

import pytest

from engines.ai import choose, random_action
from engines.ai.greedy import only_generators_differ
from engines.base import Action, offered
from engines.rio import ENGINE, ai, rules, trades
from engines.rio.data import BOARD
from engines.rio.state import ROLE_STAY, State
from engines.rng import Rng

from .helpers import do, game, run, workers


def test_the_ai_never_opens_the_trade_menu_while_it_has_a_game_move() -> None:
    s = ENGINE.new_game(3, 4)
    rng = random.Random(4)
    for move in range(120):
        seat = min(ENGINE.active_players(s))
        if move % 10 == 0 and not s.players[seat].trade_sub:
            for level in ("easy", "normal"):
                action = choose(ENGINE, s, seat, level, 4, move)
                assert action.kind not in trades.KINDS and action.kind != "back", (move, action)
                assert offered(ENGINE, s, seat, action)
        s = ENGINE.apply(s, seat, random_action(ENGINE, s, seat, rng)).state


def test_a_seat_left_in_the_trade_menu_plays_the_deadline_default() -> None:
    """A human opened a draft, then an AI took the seat over: the menu offers trade moves
    and the default only, and the AI takes the default, as a missed deadline would."""
    s = do(game(2, 1), 0, "trade", "tnew")
    assert choose(ENGINE, s, 0, "easy", 1, 0) == ENGINE.skip_action(s, 0)


def test_easy_places_its_workers_where_random_passes() -> None:
    """Placing pays in phase B: the first move of a round is a placement, not "done"."""
    s = game(2, 3)
    assert choose(ENGINE, s, 0, "easy", 3, 0) != Action("done")


def test_worlds_differ_only_in_the_dice() -> None:
    """Río hides nothing but the dice to come: easy scores a move that rolls nothing once."""
    s = game(3, 2)
    worlds = [ENGINE.determinize(s, 0, Rng(k)) for k in range(3)]
    assert only_generators_differ(worlds)
    worlds[1].players[1].silver += 1
    assert not only_generators_differ(worlds)


def test_an_easy_game_against_random_ends_and_easy_wins() -> None:
    """A 2-seat short game, bounded by steps: easy must make progress (no menu loops)."""
    s = ENGINE.new_game(2, 5, {"short_game": True})
    levels = ["random", "easy"]
    for move in range(1500):  # finished games of this kind take ~600 moves
        if ENGINE.is_over(s):
            break
        seat = min(ENGINE.active_players(s))
        s = ENGINE.apply(s, seat, choose(ENGINE, s, seat, levels[seat], 5, move)).state
    result = ENGINE.result(s)
    assert result is not None, "the game did not end within 1,500 moves"
    assert result.winners == frozenset({1}) and result.scores[1] > result.scores[0]


def test_a_placed_worker_is_worth_what_it_will_bring() -> None:
    """Production pays a good in phase B: placing there raises the seat's worth now."""
    s = game(2, 3)
    before = ai.worths(s)[0]
    after = ai.worths(do(s, 0, "prod"))[0]
    assert after > before


def _with_huts(s: State, seat: int, n: int) -> State:
    out = s.clone()
    empty = [i for i in range(len(out.bld)) if not out.bld[i] and not out.cw[i]
             and BOARD.quarter_of[i] > 0]
    for i in empty[:n]:
        out.bld[i], out.bown[i] = "hut", seat
    return out


def test_a_hut_is_worth_the_house_it_may_become() -> None:
    """A hut scores nothing at the end: its worth is the house it may become, so a few
    waiting huts count and more count less, and none in the last round. Valued flat, huts
    drew a normal seat's every worker (13 by round 12, then 26 VP against 109; 3 seats,
    seed 1000)."""
    s = game(2, 3)
    first = ai.worths(_with_huts(s, 0, 1))[0] - ai.worths(s)[0]
    fifth = ai.worths(_with_huts(s, 0, 5))[0] - ai.worths(_with_huts(s, 0, 4))[0]
    assert first > 0 and 0 < fifth < first / 2
    s.round = s.rounds
    assert ai.worths(_with_huts(s, 0, 5))[0] < ai.worths(s)[0] + first


def test_a_worker_that_can_build_nothing_is_a_loss() -> None:
    """One worker on an empty cell and no goods builds nothing: it waits there for good."""
    s = game(2, 3)
    where = next(i for i in range(len(s.bld)) if not s.bld[i] and not s.cw[i]
                 and BOARD.quarter_of[i] > 0)
    s.players[0].wood = s.players[0].stone = 0
    alone = s.clone()
    workers(alone, 0, where, 1, ROLE_STAY)
    pair = s.clone()
    workers(pair, 0, where, 2, ROLE_STAY)
    assert ai.worths(alone)[0] < ai.worths(s)[0] < ai.worths(pair)[0]
    s.players[0].wood = 2  # a stonecutter: 1 worker and 2 wood
    stocked = s.clone()
    workers(stocked, 0, where, 1, ROLE_STAY)
    assert ai.worths(stocked)[0] > ai.worths(s)[0]


def _on_ladders(s: State, seat: int, n: int) -> State:
    """``s`` with ``n`` of ``seat``'s workers on open ladders (none of them filled)."""
    out = s.clone()
    left = n
    for spaces in out.ladders.values():
        k = min(left, len(spaces) - 1)
        spaces[:k] = [seat] * k
        left -= k
    out.players[seat].supply -= n
    return out


def test_workers_held_on_open_ladders_past_a_rounds_placements_cost_every_round() -> None:
    """Up to what a round places, a worker held on an open ladder costs the flat ``LOCKED``;
    each one past it costs a placement every round it may stay (``HELD_ROUNDS`` at most):
    against random seats, which fill no ladder, easy held 6 workers on ladders from round 3
    and ended at 0 VP (4 seats, seed 1002)."""
    s = game(4, 3)
    spare = BOARD.workers - BOARD.per_round  # held without a placement lost
    locked = [ai.terms(_on_ladders(s, 0, n))[0][ai.T_LADDER_LOCKED] for n in range(spare + 3)]
    assert [b - a for a, b in itertools.pairwise(locked)] == pytest.approx(
        [-ai.LOCKED] * spare + [-ai.LOCKED - ai.SHORT * ai.HELD_ROUNDS] * 2)
    s.round = s.rounds - 1  # one round left to lose
    late = [ai.terms(_on_ladders(s, 0, n))[0][ai.T_LADDER_LOCKED] for n in (spare, spare + 1)]
    assert late[1] - late[0] == pytest.approx(-ai.LOCKED - ai.SHORT)


@pytest.mark.parametrize("name", ["fort", "port", "palace"])
def test_a_full_ladder_is_worth_its_payout_before_it_pays(name: str) -> None:
    """A full ladder pays for certain when the placements end: counted at a discount, it
    made ending them ("done") worth the completer's bonus, and a normal seat's every
    placement gave way to "done" (3 seats, seed 1000, move 75)."""
    s = game(2, 3)
    s.ladders[name] = [0] * len(s.ladders[name])
    s.ladder_last[name] = 0
    s.players[0].supply -= len(s.ladders[name])
    before = ai.worths(s)
    after, _ = run(s, rules.complete_ladder, name)
    assert ai.worths(after) == pytest.approx(before)


def test_building_a_hut_on_a_waiting_pair_always_gains() -> None:
    """Pairs of workers waiting on empty cells are worth the seat's next huts in turn:
    valued each as the next hut, building one lowered the others' worth, and an easy seat
    left 8 workers waiting for 16 rounds (2 seats, seed 1005)."""
    s = game(2, 3)
    cells = [i for i in range(len(s.bld)) if not s.bld[i] and not s.cw[i]
             and BOARD.quarter_of[i] > 0][:5]
    s.bld[cells[0]], s.bown[cells[0]] = "hut", 0
    for i in cells[1:]:
        workers(s, 0, i, 2, ROLE_STAY)
    built = s.clone()
    built.cw[cells[1]] = []
    built.bld[cells[1]], built.bown[cells[1]] = "hut", 0
    built.players[0].supply += 2
    assert ai.worths(built)[0] > ai.worths(s)[0]


def test_producing_a_good_never_loses_worth() -> None:
    """A pending production space is worth less than the good it brings, as the terms are
    weighted (``ai.WEIGHTS``): the search would otherwise leave it unresolved."""
    s = game(2, 3)
    placed = do(s, 0, "prod")
    pending = ai.worths(placed)[0]
    placed.phase, placed.cur, placed.order = "effects", 0, [0, 1]
    done = do(placed, 0, "prod 0", "take wood")
    assert done.players[0].wood == s.players[0].wood + 1
    assert ai.worths(done)[0] >= pending


def test_a_better_place_in_turn_order_is_worth_its_rounds() -> None:
    """The first to place takes what the others then cannot: the place the bids so far
    will give is worth up to ``ai.ORDER`` VP, less as the rounds run out. Without it seats
    seldom bid, and the seat the seed put first won 47 of 60 two-seat easy games."""
    s = game(2, 3)  # seat 0 first
    first = ai.worths(s)
    s.bids[1] = 1  # seat 1's bid will put it first next round
    assert rules.next_order(s) == [1, 0]
    bid = ai.worths(s)
    gain = ai.ORDER * (s.rounds - s.round) / s.rounds
    assert bid[1] - first[1] == pytest.approx(gain) and first[0] - bid[0] == pytest.approx(gain)
    s.round = s.rounds  # the last round: no placement left to be first in
    assert ai.terms(s)[1][ai.T_ORDER] == 0.0


def test_every_term_of_a_worth_has_its_weight() -> None:
    """``worths`` multiplies each seat's terms by ``WEIGHTS`` pairwise: fitted weights
    pasted in with one too few would silently drop the last term."""
    s = game(3)
    assert len(ai.WEIGHTS) == len(ai.TERMS) == len(ai.terms(s)[0])
