"""The ``normal`` and ``strong`` levels: single-observer information-set MCTS.

Follows OpenSpiel's ``open_spiel/python/algorithms/ismcts.py`` (Cowling, Powley and
Whitehouse 2012, "Information Set Monte Carlo Tree Search"): every iteration samples a
world the searching seat cannot tell from the real one (the engine's ``determinize``),
descends a tree whose nodes are information sets, expands one node, evaluates, and backs
the returns up to every node on the way; the move played is the root child visited most
(OpenSpiel's ``MAX_VISIT_COUNT``), ties broken by the seeded generator. As in OpenSpiel
with ``allow_inconsistent_action_sets``, a node's moves may differ between worlds: only the
children legal in the current world compete, and UCB uses each child's availability count
(the number of times it could have been chosen) instead of the parent's visits.

Adapted to this project's games:

* **information-set keys** — a node is keyed by the seat to move and the moves since the
  root *as that seat saw them*: a move made in a simultaneous step (several seats awaited,
  e.g. hidden picks) by another seat is recorded as ``?``;
* **simultaneous moves** — the awaited seats move one after another (lowest first); since
  their moves are hidden from each other in the keys, no seat learns another's pick;
* **subset decisions** — a node draws a bounded sample of each subset decision once, when
  created, and keeps it as that decision's candidate moves;
* **long games** — a playout is a few random moves, then every seat's ``evaluate`` (or its
  share of the win if the game ended): OpenSpiel's evaluator, cut short;
* **budget** — a fixed number of iterations, so the move is the same on any machine.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from engines.base import Action, Engine
from engines.rng import Rng

from .moves import (
    candidates,
    determinize,
    forward,
    has_evaluate,
    mover,
    sample_subsets,
    share,
    step,
    subsets_of,
)

UCT_C = 0.7  # exploration constant; returns are in [0, 1]
HIDDEN = "?"
FULL_PLAYOUT = 2000  # moves of a playout to the end, for an engine without ``evaluate``


@dataclass(frozen=True, slots=True)
class Budget:
    iterations: int  # simulations per move
    playout: int  # random moves before the evaluation cuts a playout
    samples: int  # members sampled per subset decision at a node
    greedy: bool = False  # playout moves: the mover's one-step best (else uniformly random)


class Node:
    """Statistics of one information set: per move [visits, return sum, availability]."""

    __slots__ = ("stats", "extra")

    def __init__(self, extra: list[Action]) -> None:
        self.stats: dict[Action, list[float]] = {}
        self.extra = extra  # sampled subset moves, fixed when the node is created


Step = tuple[int, Action, bool]  # who moved, what, whether the step was simultaneous


def _key(seat: int, path: list[Step]) -> tuple[object, ...]:
    return (seat, *((who, HIDDEN if simultaneous and who != seat else str(move))
                    for who, move, simultaneous in path))


class _Search:
    def __init__(self, engine: Engine[Any], seat: int, rng: random.Random,
                 budget: Budget) -> None:
        self.engine = engine
        self.seat = seat
        self.rng = rng
        self.budget = budget
        self.nodes: dict[tuple[object, ...], Node] = {}

    def node_moves(self, node: Node, state: Any, who: int) -> list[Action]:
        subs = subsets_of(self.engine, state, who)
        moves = forward(self.engine, state, who, subs)
        if node.extra:
            moves.extend(a for a in node.extra if any(s.accepts(a) for s in subs))
        return moves

    def new_node(self, key: tuple[object, ...], state: Any, who: int) -> Node:
        subs = subsets_of(self.engine, state, who)
        node = Node(sample_subsets(subs, self.rng, self.budget.samples) if subs else [])
        self.nodes[key] = node
        return node

    def select(self, node: Node, moves: list[Action]) -> Action:
        for move in moves:
            stat = node.stats.get(move)
            if stat is None:
                node.stats[move] = [0.0, 0.0, 0.0]
        for move in moves:
            node.stats[move][2] += 1.0
        fresh = [m for m in moves if node.stats[m][0] == 0.0]
        if fresh:
            return fresh[self.rng.randrange(len(fresh))]
        best: list[Action] = []
        best_value = -math.inf
        for move in moves:
            visits, total, available = node.stats[move]
            value = total / visits + UCT_C * math.sqrt(math.log(available) / visits)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif value > best_value - 1e-9:
                best.append(move)
        return best[self.rng.randrange(len(best))]

    def playout(self, state: Any) -> Any:
        engine = self.engine
        limit = self.budget.playout if has_evaluate(engine) else FULL_PLAYOUT
        for _ in range(limit):
            if engine.is_over(state):
                break
            who = mover(engine, state)
            if who is None:
                break
            moves = candidates(engine, state, who, self.rng, subset_samples=1)
            if not moves:
                break
            if self.budget.greedy and len(moves) > 1 and len(engine.active_players(state)) == 1:
                # the easy level's policy: a hidden simultaneous pick stays random
                afters = [step(engine, state, who, m) for m in moves]
                values = [share(engine, after, who) for after in afters]
                state = afters[values.index(max(values))]
            else:
                state = step(engine, state, who, moves[self.rng.randrange(len(moves))])
        return state

    def iterate(self, root: Any, root_moves: list[Action], root_node: Node) -> None:
        engine = self.engine
        state = determinize(engine, root, self.seat, Rng(self.rng.getrandbits(64)))
        path: list[Step] = []
        visited: list[tuple[Node, Action, int]] = []
        who: int | None = self.seat
        node: Node | None = root_node
        moves = root_moves
        while True:
            assert who is not None and node is not None
            move = self.select(node, moves)
            visited.append((node, move, who))
            simultaneous = len(engine.active_players(state)) > 1
            state = step(engine, state, who, move)
            path.append((who, move, simultaneous))
            if engine.is_over(state):
                break
            who = mover(engine, state)
            if who is None:
                break
            key = _key(who, path)
            node = self.nodes.get(key)
            if node is None:  # expand one node per iteration, then evaluate
                self.new_node(key, state, who)
                break
            moves = self.node_moves(node, state, who)
            if not moves:
                break
        final = self.playout(state)
        returns: dict[int, float] = {}  # each seat's outcome, evaluated once
        for node_, move_, who_ in visited:
            if who_ not in returns:
                returns[who_] = share(engine, final, who_)
            stat = node_.stats[move_]
            stat[0] += 1.0
            stat[1] += returns[who_]


def search(engine: Engine[Any], state: Any, seat: int, rng: random.Random,
           budget: Budget) -> Action:
    """The most visited root move after ``budget.iterations`` simulations."""
    s = _Search(engine, seat, rng, budget)
    root_node = s.new_node(("root",), state, seat)
    moves = s.node_moves(root_node, state, seat)
    if not moves:
        raise RuntimeError(f"seat {seat} is awaited but has no legal action")
    if len(moves) == 1:
        return moves[0]
    for _ in range(budget.iterations):
        s.iterate(state, moves, root_node)
    most = max(root_node.stats[m][0] for m in moves)
    best = [m for m in moves if root_node.stats[m][0] == most]
    return best[rng.randrange(len(best))]
