"""Generic pieces an engine's ``determinize`` and ``evaluate`` can be built from.

A game with nothing hidden determinizes by :func:`reseed` alone; a game's ``evaluate`` is
usually a projected score per seat turned into a standing by :func:`standing`.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from engines.rng import Rng

T = TypeVar("T")


def fresh_seed(rng: Rng) -> int:
    """A new value for a state's ``rng`` integer: the search never learns future draws."""
    return rng.next64()


def reshuffle(items: MutableSequence[T], rng: Rng) -> None:
    """Put ``items`` in canonical (sorted) order, then shuffle: the result depends only on
    which items there are, never on the hidden order they were in."""
    items[:] = sorted(items)  # type: ignore[type-var]
    rng.shuffle(items)


def deal(pool: list[T], sizes: Sequence[int], rng: Rng) -> list[list[T]]:
    """Shuffle ``pool`` canonically and cut it into consecutive parts of ``sizes``."""
    reshuffle(pool, rng)
    out: list[list[T]] = []
    start = 0
    for size in sizes:
        out.append(pool[start:start + size])
        start += size
    if start != len(pool):
        raise ValueError(f"dealt {start} of {len(pool)} items")
    return out


def standing(projected: Sequence[float], seat: int, scale: float) -> float:
    """A seat's chance-like standing in (0, 1) from every seat's projected score: a
    logistic of its lead over the best other seat, ``scale`` points for odds of e:1."""
    others = [v for i, v in enumerate(projected) if i != seat]
    lead = projected[seat] - (max(others) if others else 0.0)
    return 1.0 / (1.0 + math.exp(-lead / scale))


def reseed(state: T, rng: Rng) -> T:
    """A copy of ``state`` whose generator is reseeded: the whole ``determinize`` of a game
    with nothing hidden (and the AI's fallback for an engine without one)."""
    clone = copy.deepcopy(state)
    if hasattr(clone, "rng"):
        try:
            setattr(clone, "rng", fresh_seed(rng))  # noqa: B010
        except dataclasses.FrozenInstanceError:
            clone = dataclasses.replace(clone, rng=fresh_seed(rng))  # type: ignore[type-var]
    return clone
