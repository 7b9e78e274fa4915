"""Building Río positions for rule tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.base import Action, Ctx
from engines.rio import ENGINE
from engines.rio.data import BOARD
from engines.rio.state import Combat, Group, State
from engines.rng import Rng

B = BOARD


def cell(c: int, r: int) -> int:
    return r * B.cols + c


def game(n: int = 3, seed: int = 0, **options: Any) -> State:
    s = ENGINE.new_game(n, seed, options or None)
    s.order = list(range(n))  # seat 0 first, for readable tests
    return s


def do(s: State, seat: int, *texts: str) -> State:
    for text in texts:
        s = ENGINE.apply(s, seat, Action.parse(text)).state
    return s


def run(s: State, fn: Callable[..., Any], *args: Any) -> tuple[State, list[Any]]:
    """Call a rules function on a clone inside a Ctx; returns the state and events."""
    ctx = Ctx(s.clone())
    fn(ctx, *args)
    return ctx.s, ctx.events


def workers(s: State, seat: int, where: int, n: int, role: int = 0) -> None:
    """Put ``n`` of ``seat``'s workers on a city cell, taken from his supply."""
    s.cw[where].append([seat, n, role])
    s.players[seat].supply -= n


def rng_for(total: int) -> int:
    """An rng state whose next 2d6 roll sums to ``total``."""
    for k in range(100000):
        r = Rng(k)
        if r.randrange(6) + r.randrange(6) + 2 == total:
            return k
    raise AssertionError("no seed")  # pragma: no cover


def combat_state(n: int = 3, attacker: int = 2, enemy: str = "natives") -> State:
    """A position in a combat round, no groups yet (attacker to move)."""
    s = game(n)
    s.phase = "combat"
    s.combat = Combat(enemy=enemy, attacker=attacker, step="round",
                      order=[attacker, *[x for x in s.order if x != attacker]], first=False)
    s.players[attacker].attacks = 1
    return s


def group(s: State, where: int, pawns: list[int], moves: int | None = None) -> Group:
    c = s.combat
    assert c is not None
    g = Group(c.next_gid, where, "", pawns, moves if moves is not None else
              B.combat["moves"][len(pawns) - 1])
    c.next_gid += 1
    c.groups.append(g)
    for p in pawns:
        if p >= 0:
            s.players[p].supply -= 1
    return g
