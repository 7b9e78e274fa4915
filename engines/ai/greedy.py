"""The ``easy`` level: one-move lookahead on the engine's ``evaluate``.

Each offered move is applied to a few determinizations (so a move that draws is scored over
several outcomes, and hidden cards are never peeked at). A game's turn is often several
atomic steps (choose a card, then its target, then pay): after the move, the seat's own
following steps of the same turn are completed greedily before scoring, so "build" is
judged with its payment, not half-way. A move in a simultaneous step that other seats have
still to play (a hidden pick) changes nothing visible until the step resolves: it is scored
after a short playout instead (the step's last move, its mover alone awaited, is scored as
any other), where a choice made while other seats are still to choose is random, and every
other decision, the step's last choice too, is the mover's greedy best.
"""

from __future__ import annotations

import dataclasses
import random
from statistics import fmean
from typing import Any

from engines.base import Action, Engine
from engines.rng import Rng

from .moves import applied, candidates, check_time, determinize, forward, share, step

BLIND_DRAWS = 4  # other draws a step that draws is judged by (:func:`blinded`)
TURN_STEPS = 6  # own follow-up steps completed greedily before a move is scored
PLAYOUT_STEPS = 24  # steps played after a simultaneous move before it is scored
TURN_PLAYOUT_STEPS = 200  # bound on a turn playout's steps (hidden picks are not turns)


def _greedy(engine: Engine[Any], state: Any, who: int, rng: random.Random,
            seen: list[Any] | None = None) -> Action | None:
    """``who``'s move with the best one-step ``evaluate``; with ``seen`` (the positions of
    this turn so far), never a move back to one of them."""
    moves = candidates(engine, state, who, rng, subset_samples=3)
    best, best_value = None, -1.0
    blind = None
    for move in moves:
        after = step(engine, state, who, move)
        if seen is not None and after in seen:
            continue
        if threw(state, after):  # judged by draws it will not get (:func:`blinded`)
            blind = blinded(state, rng) if blind is None else blind
            value = fmean(share(engine, step(engine, other, who, move), who) for other in blind)
        else:
            value = share(engine, after, who)
        if value > best_value:
            best, best_value = move, value
    return best


def _finish_turn(engine: Engine[Any], state: Any, seat: int, rng: random.Random,
                 seen: list[Any] | None = None) -> Any:
    """Complete the seat's own follow-up steps, each the best by one-step ``evaluate``
    (and, with ``seen``, never back to a position of this turn; ``seen`` grows)."""
    for _ in range(TURN_STEPS):
        if engine.is_over(state) or engine.active_players(state) != frozenset({seat}):
            break
        move = _greedy(engine, state, seat, rng, seen)
        if move is None:
            break
        state = step(engine, state, seat, move)
        if seen is not None:
            seen.append(state)
    return state


def playout(engine: Engine[Any], state: Any, rng: random.Random,
            steps: int = PLAYOUT_STEPS) -> Any:
    """A short playout: a choice made while several seats are awaited at random, the rest
    greedy (the simultaneous step's last choice too, its mover then alone awaited)."""
    for _ in range(steps):
        active = engine.active_players(state)
        if engine.is_over(state) or not active:
            break
        who = min(active)
        if len(active) > 1:
            moves = candidates(engine, state, who, rng, subset_samples=1)
            move = moves[rng.randrange(len(moves))] if moves else None
        else:
            move = _greedy(engine, state, who, rng)
        if move is None:
            break
        state = step(engine, state, who, move)
    return state


def only_generators_differ(worlds: list[Any]) -> bool:
    """The worlds are one state but for their generator (``rng``): the game hides nothing
    from the seat but the dice to come (Río, Minos). A move, with the turn's follow-up
    steps, that leaves the generator untouched drew nothing, so it ends the same in every
    world and is scored once."""
    first = worlds[0]
    if not dataclasses.is_dataclass(first) or not hasattr(first, "rng"):
        return False
    bare = dataclasses.replace(first, rng=0)  # type: ignore[type-var]
    return all(dataclasses.replace(w, rng=0) == bare for w in worlds[1:])


def threw(state: Any, after: Any) -> bool:
    """Whether the step from ``state`` to ``after`` drew from the position's generator
    (``rng``: the dice of Río and Minos)."""
    return (dataclasses.is_dataclass(state) and hasattr(state, "rng")
            and bool(getattr(state, "rng") != getattr(after, "rng")))  # noqa: B009


def blinded(state: Any, rng: random.Random) -> list[Any]:
    """``state`` with other generators: where a step draws (a die, a bag), the seat judges
    it by its mean over these, then plays it on ``state``. Judged on ``state`` itself, a
    move was chosen knowing the throw it would get: an easy Minos seat's lookahead won an
    attack with its last ship in 46 of 60 sampled worlds (seed 1008, move 29; a fair throw
    wins 45 %), so it attacked, lost it and was out, and a rollout's seats chose their
    attacks knowing the dice. Judged on one other throw, a choice is as good as a coin's:
    an attack is made whenever that throw wins."""
    return [dataclasses.replace(state, rng=rng.getrandbits(64)) for _ in range(BLIND_DRAWS)]


def threw_nothing(world: Any, after: Any) -> bool:
    """Whether the line from ``world`` to ``after`` left the generator untouched: where the
    worlds differ only in it (:func:`only_generators_differ`), it ends alike in all."""
    return bool(getattr(world, "rng") == getattr(after, "rng"))  # noqa: B009


def ranked(engine: Engine[Any], state: Any, seat: int, rng: random.Random,
           samples: int = 3) -> list[Action]:
    """The seat's candidate moves, best first by the lookahead above (mean ``evaluate``
    over ``samples`` determinizations); ties keep a seeded random order."""
    moves = candidates(engine, state, seat, rng)
    if not moves:
        raise RuntimeError(f"seat {seat} is awaited but has no legal action")
    if len(moves) == 1:
        return moves
    simultaneous = len(engine.active_players(state)) > 1
    rng.shuffle(moves)  # ties broken by the seeded generator, not by the engine's order
    worlds = [determinize(engine, state, seat, Rng(rng.getrandbits(64)))
              for _ in range(samples)]
    dice_only = not simultaneous and only_generators_differ(worlds)
    values: list[float] = []
    for move in moves:
        total = 0.0
        for world in worlds:
            after = step(engine, world, seat, move)
            after = (playout(engine, after, rng) if simultaneous
                     else _finish_turn(engine, after, seat, rng))
            total += share(engine, after, seat)
            if dice_only and threw_nothing(world, after):
                total *= len(worlds)  # nothing drawn: every world would end the same
                break
        values.append(total)
    order = sorted(range(len(moves)), key=lambda i: -values[i])  # stable: ties keep order
    # A move the seat could undo next (select a piece, then another) that gains nothing is
    # dropped unless nothing else is offered: a greedy player otherwise idles for ever
    # rather than take a turn's bitter end (an easy Minos seat toggled two pieces 4,000
    # times rather than end a lost last turn), and so does a rollout given it as a
    # candidate (normal toggled three pieces, seed 1001).
    now = sum(share(engine, world, seat) for world in worlds)
    idle = {i for i in order if values[i] <= now + 1e-9
            and reversible(engine, worlds[0], seat, moves[i])}
    if len(idle) < len(order):
        order = [i for i in order if i not in idle]
    # Nor is such a move played while a move that commits (one it cannot undo) gains:
    # judged each by the turn it completes, selecting one piece, then another, could each
    # look best in turn, and an easy Minos seat switched between three guards for 6,000
    # moves (3 seats, seed 1000, normal against easy).
    if reversible(engine, worlds[0], seat, moves[order[0]]):
        committing = [i for i in order if not reversible(engine, worlds[0], seat, moves[i])]
        if committing and values[committing[0]] > now + 1e-9:
            order = committing + [i for i in order if i not in committing]
    return [moves[i] for i in order]


MENU_DEPTH = 1  # levels of menus a root candidate is judged through (:func:`through_menus`)


def _behind(engine: Engine[Any], state: Any, seat: int, move: Action, rng: random.Random,
            depth: int) -> float:
    """``move``'s one-move lookahead value; where it opens a menu (the seat moves on and a
    Back is offered), the best of its entries' instead."""
    after = step(engine, state, seat, move)
    if depth > 0 and not engine.is_over(after) and (
            engine.active_players(after) == frozenset({seat})) and any(
            a.kind in engine.spec.back_kinds for a in engine.legal_actions(after, seat)):
        entries = forward(engine, after, seat)
        if entries:
            return max(_behind(engine, after, seat, entry, rng, depth - 1) for entry in entries)
    return share(engine, _finish_turn(engine, after, seat, rng), seat)


def through_menus(engine: Engine[Any], state: Any, seat: int, rng: random.Random,
                  moves: list[Action]) -> list[Action]:
    """``moves`` (easy's ranking) reordered by what lies behind each menu. One step into a
    menu its entries often look alike (Río's "ladder", then which ladder), so the turn
    completed greedily takes the first and the menu is judged by it: a seat held 5 of the
    fort ladder's 6 spaces for ten rounds, goods in hand, and never took the sixth. Judged
    by its best entry, a menu is among the rollout's candidates where what it holds is
    worth it; the playouts then judge it (``Rollout.menus``)."""
    if len(moves) == 1 or len(engine.active_players(state)) > 1:
        return moves
    world = determinize(engine, state, seat, Rng(rng.getrandbits(64)))
    values = [_behind(engine, world, seat, move, random.Random(rng.getrandbits(32)), MENU_DEPTH)
              for move in moves]
    order = sorted(range(len(moves)), key=lambda i: -values[i])  # stable: ties keep easy's
    return [moves[i] for i in order]


def reversible(engine: Engine[Any], state: Any, seat: int, move: Action) -> bool:
    """Whether ``seat`` can undo ``move`` with a next move of its own other than a menu's
    Back (``Spec.back_kinds``, which the AI does not take): selecting one piece, then
    another. Such a move makes no progress by itself and, unlike opening a menu (left only
    by Back, so the seat goes on inside it), can be undone for ever."""
    after = step(engine, state, seat, move)
    if engine.is_over(after) or engine.active_players(after) != frozenset({seat}):
        return False
    back_kinds = engine.spec.back_kinds
    return any(step(engine, after, seat, undo) == state
               for undo in engine.legal_actions(after, seat) if undo.kind not in back_kinds)


def turn_playout(engine: Engine[Any], state: Any, rng: random.Random, turns: int,
                 seen: list[Any] | None = None, seat: int | None = None,
                 limit: int | None = None) -> Any:
    """``turns`` decisions of the easy policy for whoever moves: each candidate move is
    applied, the mover's own follow-up steps completed greedily, and the best completed
    turn is kept. A hidden pick made while several seats are awaited stays random and does
    not count: what it does shows only once the step resolves (Havana's action cards). The
    step's last pick, its mover alone awaited, is a decision as any other, made once the
    others have picked (tried at random instead: docs/AI-LOG.md). Judging a move with
    its turn completed matters: one step alone ("take", then "pick" a tile) often shows
    nothing, and a one-step greedy player can stall (in Tuscany every seat drew cards
    forever).

    No move goes back to a position already seen in the mover's turn (``seen``: those
    before the playout, while the same seats are to move): in Minos, selecting one piece,
    then another and back, costs nothing and keeps the position as it is, and a playout
    that idles so never lets the other seats play.

    With ``seat``, the playout goes on past ``turns`` until ``seat`` is to move again, so
    that every line is judged at the same point of the seat's rhythm (the odd-even effect
    of a fixed search depth): counted in decisions alone, a move that ends the seat's turn
    at once ("done") reached one more of its own turns within the horizon than a move
    that uses it, and won the Río comparisons inspected for it. It waits ``turns`` more
    decisions at most (a combat that ends the seat's part of a phase made a Río move
    cost 5 s of CPU, waiting for the next phase).

    With ``limit``, no decision is begun once the playout has applied that many moves
    (counted by :func:`engines.ai.moves.counting`): it caps the one line that would run
    for seconds (a Río effects turn with four seats to wait for took 3,500 moves a line).
    Before each decision it asks the search's time guard (:func:`engines.ai.moves.check_time`)."""
    start = applied()
    done = 0
    trail = list(seen) if seen else [state]
    last = engine.active_players(state)
    for _ in range(TURN_PLAYOUT_STEPS):
        check_time()
        active = engine.active_players(state)
        if engine.is_over(state) or not active or (
                done >= turns and (seat is None or seat in active or done >= 2 * turns)) or (
                limit is not None and applied() - start >= limit):
            break
        if active != last:
            trail, last = [state], active
        who = min(active)
        moves = candidates(engine, state, who, rng, subset_samples=1 if len(active) > 1 else 3)
        if not moves:
            break
        if len(active) > 1:  # a hidden pick: random, and not counted as a turn
            state = step(engine, state, who, moves[rng.randrange(len(moves))])
            continue
        done += 1
        if len(moves) == 1:
            state = step(engine, state, who, moves[0])
            trail.append(state)
            continue
        chosen = None  # the best move's first step, completed turn (None: judged blind), trail
        best_value, blind = -1.0, None
        for move in moves:
            first = step(engine, state, who, move)
            if first in trail:
                continue
            path = [*trail, first]
            after = None
            if threw(state, first):  # judged by draws it will not get (:func:`blinded`)
                blind = blinded(state, rng) if blind is None else blind
                value = fmean(share(engine, _finish_turn(engine, step(engine, other, who, move),
                                                         who, rng, list(path)), who)
                              for other in blind)
            else:
                after = _finish_turn(engine, first, who, rng, path)
                value = share(engine, after, who)
            if value > best_value:
                chosen, best_value = (first, after, path), value
        if chosen is None:  # every move goes back: the first, as a stuck player would
            best = step(engine, state, who, moves[0])
            best_trail = [*trail, best]
        else:
            first, completed, best_trail = chosen
            if completed is None:  # chosen blind: the turn goes on from the real draw
                best_trail = [*trail, first]
                completed = _finish_turn(engine, first, who, rng, best_trail)
            best = completed
        state, trail = best, best_trail
        last = engine.active_players(state)
    return state


def greedy_action(engine: Engine[Any], state: Any, seat: int, rng: random.Random,
                  samples: int = 3) -> Action:
    return ranked(engine, state, seat, rng, samples)[0]
