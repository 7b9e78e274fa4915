"""The moves an AI considers: every offered atomic action, plus a bounded sample of each
subset decision (a subset of n options has up to 2ⁿ members: never list them all)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from engines.base import Action, Engine, Subset
from engines.rng import Rng

from .defaults import reseed


def subsets_of(engine: Engine[Any], state: Any, seat: int) -> list[Subset]:
    """The seat's subset decisions (an engine written before contract v2 has none)."""
    method = getattr(engine, "subsets", None)
    return list(method(state, seat)) if method is not None else []


def sample_subsets(subsets: list[Subset], rng: random.Random, per_subset: int) -> list[Action]:
    """Up to ``per_subset`` distinct members of each subset decision, drawn with ``rng``
    (the smallest and largest sizes first: "take nothing" and "take all" are often best)."""
    out: list[Action] = []
    for sub in subsets:
        seen: set[Action] = set()
        gen = Rng(rng.getrandbits(64))
        tries = 0
        while len(seen) < per_subset and tries < 4 * per_subset:
            tries += 1
            seen.add(sub.sample(gen))
        out.extend(sorted(seen, key=str))
    return out


def forward(engine: Engine[Any], state: Any, seat: int,
            subsets: list[Subset] | None = None) -> list[Action]:
    """Offered atomic actions in the engine's order, without the menus' Back moves
    (``Spec.back_kinds``) and the moves open at any time (``Spec.free_kinds``, Río's trade
    menu) unless nothing else is offered: going in and out of a menu, or toggling a
    setting, changes nothing, and a greedy or searching player could do it forever."""
    moves = list(engine.legal_actions(state, seat))
    skipped = engine.spec.back_kinds | engine.spec.free_kinds
    if not skipped:
        return moves
    kept = [a for a in moves if a.kind not in skipped]
    if subsets is None:
        subsets = subsets_of(engine, state, seat)
    return kept if kept or subsets else moves


def candidates(engine: Engine[Any], state: Any, seat: int, rng: random.Random,
               subset_samples: int = 6) -> list[Action]:
    """Offered atomic actions in the engine's order (:func:`forward`), then sampled subset
    actions. ``rng`` is used only when the seat has a subset decision."""
    subsets = subsets_of(engine, state, seat)
    moves = forward(engine, state, seat, subsets)
    if subsets:
        moves.extend(a for a in sample_subsets(subsets, rng, subset_samples) if a not in moves)
    return moves


def mover(engine: Engine[Any], state: Any) -> int | None:
    """Who moves next in a search: the lowest awaited seat (simultaneous steps are played
    one seat after another in a playout, each drawn at random)."""
    active = engine.active_players(state)
    return min(active) if active else None


def share(engine: Engine[Any], state: Any, seat: int) -> float:
    """A seat's outcome in [0, 1]: its share of the win once the game is over, else the
    engine's ``evaluate``."""
    if engine.is_over(state):
        result = engine.result(state)
        winners = result.winners if result is not None else frozenset()
        return 1.0 / len(winners) if seat in winners else 0.0
    return evaluate(engine, state, seat)


def has_evaluate(engine: Engine[Any]) -> bool:
    return getattr(engine, "evaluate", None) is not None


def evaluate(engine: Engine[Any], state: Any, seat: int) -> float:
    """The engine's ``evaluate``; an engine without one is neutral (0.5) until the end, and
    the rollout then plays its playouts out to the end instead (see rollout)."""
    return engine.evaluate(state, seat) if has_evaluate(engine) else 0.5


def determinize(engine: Engine[Any], state: Any, seat: int, rng: Rng) -> Any:
    """The engine's ``determinize``; an engine without one is taken to hide nothing but
    its generator's future (:func:`engines.ai.defaults.reseed`)."""
    method = getattr(engine, "determinize", None)
    return method(state, seat, rng) if method is not None else reseed(state, rng)


class OutOfTime(Exception):
    """The caller's time for this move is up (``counting(stop=...)``): the search drops the
    line under way and plays the best it has."""


@dataclass
class Work:
    """Moves applied by a search so far: its cost, counted the same on any machine; and
    the caller's ``stop`` (whether its time is up), asked between playout decisions."""
    steps: int = 0
    stop: Callable[[], bool] | None = None


_WORK: ContextVar[Work | None] = ContextVar("ai_work", default=None)


@contextmanager
def counting(stop: Callable[[], bool] | None = None) -> Iterator[Work]:
    """Count every :func:`step` made inside the block (a search's budget is counted in
    moves applied, not in seconds, so the move it chooses is the same under any load).
    ``stop`` is the caller's guard against a machine too slow for that budget: the AI
    itself reads no clock, the bot's worker passes one (:mod:`bot.core.thinker`)."""
    work = Work(stop=stop)
    token = _WORK.set(work)
    try:
        yield work
    finally:
        _WORK.reset(token)


def check_time() -> None:
    """Raise :class:`OutOfTime` where the enclosing search's ``stop`` says time is up."""
    work = _WORK.get()
    if work is not None and work.stop is not None and work.stop():
        raise OutOfTime


def applied() -> int:
    """Moves applied so far in the enclosing :func:`counting` block (0 outside one)."""
    work = _WORK.get()
    return work.steps if work is not None else 0


def step(engine: Engine[Any], state: Any, seat: int, action: Action) -> Any:
    """Apply an offered move on the fast path (``apply`` where an engine written before
    contract v2 has no ``apply_unchecked``)."""
    work = _WORK.get()
    if work is not None:
        work.steps += 1
    fast = getattr(engine, "apply_unchecked", None)
    return fast(state, seat, action) if fast is not None else engine.apply(state, seat,
                                                                           action).state
