"""The ``normal`` and ``strong`` levels: a rollout of the ``easy`` policy.

Policy improvement by Monte Carlo rollouts (Tesauro and Galperin 1996, "On-line policy
improvement using Monte-Carlo search"; Bertsekas, Tsitsiklis and Wu 1997, "Rollout
algorithms for combinatorial optimization"): the moves the base policy (``easy``) ranks
best are each played out several times with the base policy itself for every seat, and
the move whose playouts end best is played. Since the base policy's own move is among the
candidates, the rollout refines its choice rather than replacing it with a search's noise;
with exact values it can only do better than the base policy (Bertsekas' cost improvement
property).

Adapted to this project's games:

* **hidden information** — each playout starts from a world sampled by the engine's
  ``determinize``, so the seat never sees what is hidden from it;
* **common random numbers** — every candidate is played out in the same worlds with the
  same playout generator, so the comparison between moves is not drowned by the luck of
  the draw (the variance of a *difference* is what decides);
* **long games** — a playout is ``turns`` decisions of the base policy (each mover's best
  completed turn; a hidden pick at random while several seats are awaited), then
  ``evaluate``; an engine without ``evaluate`` gets random playouts to the end instead;
* **the end in sight** — where a probe line ends the game within ``finish`` decisions, the
  lines play on to it and are judged by the result, not by ``evaluate``'s estimate;
* **budget** — a fixed number of worlds, candidates and playout steps, and a cap on the
  moves applied (no line begun past it), so the move is the same on any machine; and a
  guard for a machine too slow for that budget: the caller's ``stop``, asked between
  playout decisions, ends the search early (the world under way dropped, as at the cap).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engines.base import Action, Engine
from engines.rng import Rng

from .greedy import (
    only_generators_differ,
    ranked,
    reversible,
    threw_nothing,
    through_menus,
    turn_playout,
)
from .moves import (
    OutOfTime,
    candidates,
    check_time,
    counting,
    determinize,
    has_evaluate,
    mover,
    share,
    step,
)

FULL_PLAYOUT = 2000  # moves of a playout to the end, for an engine without ``evaluate``


@dataclass(frozen=True, slots=True)
class Rollout:
    worlds: int  # determinizations each candidate is played out in
    top: int  # candidates: the base policy's best ``top`` moves
    turns: int  # base-policy decisions of a playout (turns completed) before ``evaluate``
    wait: bool = True  # go on until the seat is to move again (``greedy.turn_playout``)
    # No line begun once the search has applied this many moves (``moves.counting``), the
    # world under way then dropped: caps the cost of a move where the playouts are long,
    # the same on any machine.
    steps: int | None = None
    # No playout decision begun once the line has applied this many moves
    # (``greedy.turn_playout``'s ``limit``): where one world alone passes ``steps``.
    line_steps: int | None = None
    # Candidates ranked with each menu judged by its best entry (``greedy.through_menus``).
    menus: bool = False
    # Near the end, lines played to it: where a probe line (easy's move, then the easy
    # policy for every seat) ends the game within this many decisions, every line of the
    # move plays this many instead of ``turns`` (and, where lines wait for the seat, up to
    # as many more), so a line that reaches the end is judged by the game's result.
    finish: int = 0


def _random_playout(engine: Engine[Any], state: Any, rng: random.Random) -> Any:
    for _ in range(FULL_PLAYOUT):
        check_time()
        who = mover(engine, state)
        if engine.is_over(state) or who is None:
            break
        moves = candidates(engine, state, who, rng, subset_samples=1)
        if not moves:
            break
        state = step(engine, state, who, moves[rng.randrange(len(moves))])
    return state


def _world(engine: Engine[Any], world: Any, seed: int, moves: list[Action],
           settled: list[bool], budget: Rollout, work: Any, k: int, seat: int,
           common: int | None, worlds: int, greedy: bool) -> list[tuple[float, bool]] | None:
    """Every unsettled candidate played out in ``world`` k: (value, settled) for each, or
    None where the move cap is reached before a line (checked line by line from the second
    world on, so a move overruns its cap by one line at most, not by a whole world)."""
    values: list[tuple[float, bool]] = []
    for i, move in enumerate(moves):
        if settled[i]:
            values.append((0.0, True))
            continue
        if budget.steps is not None and k > 0 and work.steps >= budget.steps:
            return None
        after = step(engine, world, seat, move)
        gen = random.Random(seed if common is None else common)  # common luck
        after = (turn_playout(engine, after, gen, budget.turns, [world, after],
                              seat if budget.wait else None, budget.line_steps)
                 if greedy else _random_playout(engine, after, gen))
        value = share(engine, after, seat)
        if common is not None and threw_nothing(world, after):
            values.append((value * (worlds - k), True))  # no die thrown: every world alike
        else:
            values.append((value, False))
    return values


def _ends_within(engine: Engine[Any], world: tuple[Any, int], seat: int, move: Action,
                 budget: Rollout) -> bool:
    """Whether the game ends within ``budget.finish`` decisions of the easy policy after
    ``move`` (and within the limit of a line)."""
    state, seed = world
    after = turn_playout(engine, step(engine, state, seat, move), random.Random(seed),
                         budget.finish, limit=budget.line_steps)
    return engine.is_over(after)


def rollout_action(engine: Engine[Any], state: Any, seat: int, rng: random.Random,
                   budget: Rollout, stop: Callable[[], bool] | None = None) -> Action:
    """The best of the base policy's ``top`` moves by mean playout outcome; where ``stop``
    says the caller's time is up before a whole world was played, the first candidate (easy's
    move, or through menus the first of their ranking)."""
    base = ranked(engine, state, seat, rng)
    if budget.menus:
        base = through_menus(engine, state, seat, rng, base)
    if len(base) == 1:
        return base[0]
    worlds = [(determinize(engine, state, seat, Rng(rng.getrandbits(64))), rng.getrandbits(64))
              for _ in range(budget.worlds)]
    # A move the seat could undo next (selecting a piece) is tried only where easy would
    # play it: given such moves as candidates, normal selected one Minos piece, then
    # another, for ever (three pieces, seed 1001), each time finding a plan that began
    # with another selection.
    moves = [move for i, move in enumerate(base[:budget.top])
             if i == 0 or not reversible(engine, worlds[0][0], seat, move)]
    if len(moves) == 1:
        return moves[0]
    greedy = has_evaluate(engine)
    # Where the worlds differ only in the dice to come (Río, Minos), a line that throws
    # none ends the same in every world: played once, with one playout generator.
    dice_only = greedy and only_generators_differ([world for world, _ in worlds])
    totals = [0.0] * len(moves)
    settled = [False] * len(moves)  # ended alike in every world: its total is final
    done = 0  # worlds played out for every candidate
    with counting(stop) as work:
        try:
            if greedy and budget.finish and _ends_within(engine, worlds[0], seat, moves[0],
                                                          budget):
                budget = replace(budget, turns=budget.finish)
            for k, (world, seed) in enumerate(worlds):  # world by world: a cut is fair to all
                values = _world(engine, world, seed, moves, settled, budget, work, k, seat,
                                worlds[0][1] if dice_only else None, len(worlds), greedy)
                if values is None:  # the cap came part-way: that world is dropped
                    break
                for i, (value, final) in enumerate(values):
                    totals[i] += value
                    settled[i] = settled[i] or final
                done += 1
        except OutOfTime:  # the caller's time is up: that world is dropped too
            pass
    if done == 0:
        return moves[0]
    if done < len(worlds):
        totals = [t if settled[i] else t * len(worlds) / done for i, t in enumerate(totals)]
    best = max(totals)
    if len(moves) > 1 and all(total == best for total in totals) and reversible(
            engine, worlds[0][0], seat, moves[0]):
        # Every line ended alike (a lost last turn: the game ends lost whatever the seat
        # does), and easy's first choice is a move the seat could undo: played, the same
        # tie would follow, for ever (a normal Minos seat switched between a ship and two
        # guards 6,000 times, 4 seats, seed 1000). A move that commits ends it.
        return moves[1]
    return moves[totals.index(best)]  # ties: the base policy's order
