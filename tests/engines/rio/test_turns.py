"""Which moves end a turn (the bot posts one channel message per TURN_END): in a combat,
one per combat round, never one per step or per player's combat turn."""

from __future__ import annotations

from engines.base import TURN_END, Action
from engines.rio import ENGINE
from engines.rio.state import State

from .helpers import cell, combat_state, group

A0, A1, A2 = 0, 1, 2


def turn_ends(s: State, seat: int, text: str) -> tuple[State, int]:
    out = ENGINE.apply(s, seat, Action.parse(text))
    return out.state, sum(1 for e in out.events if e.key == TURN_END)


def test_combat_steps_do_not_end_turns_and_a_combat_round_ends_one() -> None:
    s = combat_state(3, attacker=A2)
    group(s, cell(3, 3), [A0, A0])
    group(s, cell(12, 3), [A1])
    group(s, cell(8, 1), [-1])
    s.combat.turn = 0
    assert ENGINE.active_players(s) == {A2}
    s, n = turn_ends(s, A2, "group 8.1")
    assert n == 0
    s, n = turn_ends(s, A2, "step s")
    assert n == 0
    s, n = turn_ends(s, A2, "end")  # the attacker's combat turn: no channel message
    assert n == 0 and ENGINE.active_players(s) == {A0}
    s, n = turn_ends(s, A0, "group 3.3")
    assert n == 0
    s, n = turn_ends(s, A0, "step e")
    assert n == 0
    s, n = turn_ends(s, A0, "end")
    assert n == 0 and ENGINE.active_players(s) == {A1}
    round_before = s.combat.round
    s, n = turn_ends(s, A1, "end")  # the last defender ends the combat round: one message
    assert n == 1
    assert s.combat is None or s.combat.round == round_before + 1
