"""Builders for scenario tests: a state in a chosen phase with chosen cards and resources."""

from __future__ import annotations

from engines.base import Action, Outcome
from engines.havana import ENGINE
from engines.havana.data import MATERIALS
from engines.havana.rules import card_sort
from engines.havana.state import State


def blank(n: int = 3, seed: int = 1) -> State:
    """A fresh game with every cube back in the bag and no pesos anywhere."""
    s = ENGINE.new_game(n, seed)
    for p in s.players:
        for m in range(5):
            s.bag[m] += p.materials[m]
            p.materials[m] = 0
        p.pesos = 0
    for m in range(5):
        s.bag[m] += s.centre[m]
        s.centre[m] = 0
    s.centre_pesos = 0
    return s


def actions_state(cards: list[tuple[str, str]], order: list[int] | None = None,
                  seed: int = 1) -> State:
    """Phase 1 with each seat's two face-up cards; ``order`` is the turn order."""
    s = blank(len(cards), seed)
    for p, pair in zip(s.players, cards, strict=True):
        for c in pair:
            p.hand.remove(c)
        p.face_up = list(pair)
        card_sort(p.face_up)
    set_rows(s, [25, 2, 3, 4, 6, 29], [32, 7, 8, 9, 10, 35])
    s.phase = "actions"
    s.turn_order = order if order is not None else list(range(len(cards)))
    s.turn_index = 0
    s.step = "choose_card"
    return s


def set_rows(s: State, row0: list[int], row1: list[int]) -> None:
    """Lay out the rows; the other buildings form the pile (lowest id on top).

    The default rows of :func:`actions_state` have only Architect buildings at their ends,
    so nothing can be bought unless a test arranges it.
    """
    s.rows = [row0[:], row1[:]]
    used = set(row0) | set(row1)
    s.pile = sorted((b for b in range(1, 37) if b not in used), reverse=True)


def give(s: State, seat: int, *, pesos: int = 0, workers: int = 0, **cubes: int) -> None:
    p = s.players[seat]
    p.pesos += pesos
    assert s.bank_workers >= workers
    s.bank_workers -= workers
    p.workers += workers
    for name, n in cubes.items():
        m = MATERIALS.index(name)
        assert s.bag[m] >= n
        s.bag[m] -= n
        p.materials[m] += n


def to_centre(s: State, *, pesos: int = 0, **cubes: int) -> None:
    s.centre_pesos += pesos
    for name, n in cubes.items():
        m = MATERIALS.index(name)
        s.bag[m] -= n
        s.centre[m] += n


def mats(s: State, seat: int) -> dict[str, int]:
    return dict(zip(MATERIALS, s.players[seat].materials, strict=True))


def do(s: State, seat: int, *texts: str) -> tuple[State, list[Outcome]]:
    """Apply several actions of one seat; return the final state and every outcome."""
    outcomes = []
    for text in texts:
        out = ENGINE.apply(s, seat, Action.parse(text))
        outcomes.append(out)
        s = out.state
    return s, outcomes


def keys(outcomes: list[Outcome]) -> list[str]:
    return [e.key for o in outcomes for e in o.events]


def legal(s: State, seat: int) -> list[str]:
    return [str(a) for a in ENGINE.legal_actions(s, seat)]
