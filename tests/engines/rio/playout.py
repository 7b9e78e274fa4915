"""Seeded random playouts for Río (used by the tests and the soak)."""

from __future__ import annotations

import random

from engines.base import Action, Ctx, Event
from engines.rio import ENGINE, combat
from engines.rio.data import BOARD
from engines.rio.engine import run
from engines.rio.state import State

AVOID = frozenset({"back", "trade", "unstage", "hold", "tnew", "auto"})


def affordable(s: State, seat: int, a: Action) -> bool:
    """Random seats claim only characters they can pay for (fines teach a bot nothing)."""
    if a.kind != "claim" or not a.args:
        return True
    ch = BOARD.characters[a.args[0]]
    p = s.players[seat]
    return p.silver >= ch.cost and p.vp >= ch.vp_needed


def fights_with(s: State, seat: int, a: Action) -> bool:
    """A step that starts a battle (so random games exercise the combat rules)."""
    c = s.combat
    if c is None or c.step != "round" or not c.sel or a.kind not in ("step", "enter"):
        return False
    g = combat.by_id(c, c.sel)
    target = BOARD.perimeter[g.edge] if a.kind == "enter" else BOARD.nb4[g.cell][a.args[0]]
    return combat.can_enter(s, c, g, target) == "battle"


def closer(s: State, seat: int, actions: list[Action]) -> Action | None:
    """For the attacker: the step that gets a group nearest to something to attack."""
    c = s.combat
    if c is None or c.step != "round" or not c.sel or seat != c.attacker:
        return None
    g = combat.by_id(c, c.sel)
    if g.cell < 0:
        return None
    targets = [i for i in range(BOARD.ncells) if combat.destructible(s, i)] + [
        h.cell for h in c.groups if h.cell >= 0 and h.pawns[0] != -1]
    if not targets:
        return None

    def dist(i: int) -> int:
        x, y = BOARD.cr(i)
        return min(abs(x - BOARD.cr(j)[0]) + abs(y - BOARD.cr(j)[1]) for j in targets)

    steps = [a for a in actions if a.kind == "step"]
    if not steps:
        return None
    best = min(steps, key=lambda a: dist(BOARD.nb4[g.cell][a.args[0]]))
    return best if dist(BOARD.nb4[g.cell][best.args[0]]) < dist(g.cell) else None


def pick(rng: random.Random, s: State, seat: int) -> Action:
    """A random offered action, biased towards progress so games end in bounded steps."""
    legal = ENGINE.legal_actions(s, seat)
    subsets = ENGINE.subsets(s, seat)
    if subsets and (not legal or rng.random() < 0.9):
        return subsets[0].action(o for o in subsets[0].options if rng.random() < 0.5)
    useful = [a for a in legal if a.kind not in AVOID and affordable(s, seat, a)] or legal
    fights = [a for a in useful if fights_with(s, seat, a)]
    if fights and rng.random() < 0.8:
        return rng.choice(fights)
    toward = closer(s, seat, useful)
    if toward is not None and rng.random() < 0.9:
        return toward
    if rng.random() < 0.8:
        useful = [a for a in useful if a.kind != "bonus"] or useful
    ending = [a for a in useful if a.kind in ("done", "end", "stop")]
    rest = [a for a in useful if a not in ending]
    if ending and (not rest or rng.random() < 0.04):
        return ending[0]
    return rng.choice(rest)


# Events that announce a seat's VP change in their ``vp`` parameter.
VP_EVENTS = frozenset({"rio.ev.vp", "rio.ev.ship_paid", "rio.ev.shipowner", "rio.ev.built",
                       "rio.ev.destroyed", "rio.ev.activated", "rio.ev.cannon_kill",
                       "rio.ev.char_fine"})


def announced_vp(events: tuple[Event, ...], n: int) -> list[int]:
    """Each seat's VP change as the step's public events announce it."""
    delta = [0] * n
    for e in events:
        p = e.params
        if e.key in VP_EVENTS:
            delta[int(p["seat"])] += int(p["vp"])
        elif e.key == "rio.ev.completed":  # the completer's bonus; the spaces are rio.ev.vp
            delta[int(p["seat"])] += int(p["bonus"])
        elif e.key == "rio.ev.final":
            delta[int(p["seat"])] += int(p["silver_vp"]) + int(p["chars_vp"]) + int(
                p["houses_vp"])
    return delta


def playout(n: int, seed: int, *, checked: bool = False, max_steps: int = 60000,
            options: dict[str, object] | None = None) -> tuple[State, int]:
    """A seeded random game to its end. Every step checks the VP ledger: a seat's VP change
    only where a rule gives or takes VP, by exactly what the step's events announce."""
    rng = random.Random(seed)
    s = ENGINE.new_game(n, seed, options)
    steps = 0
    while not ENGINE.is_over(s):
        steps += 1
        assert steps < max_steps, "playout did not end"
        seat = min(ENGINE.active_players(s))
        action = pick(rng, s, seat)
        if checked:
            after = ENGINE.apply(s, seat, action).state
        ctx = Ctx(s.clone())
        run(ctx, seat, action)
        events = ctx.outcome().events
        if checked:
            assert ctx.s == after
        changed = [a.vp - b.vp for a, b in zip(ctx.s.players, s.players, strict=True)]
        assert changed == announced_vp(events, n), (action, events)
        s = ctx.s
    return s, steps
