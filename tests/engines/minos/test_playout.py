"""Seeded random playouts per player count with the issue's invariants at every step.

The seats play a biased random policy (they prefer acting to ending the turn, and building to
wandering) so that colonies, cities, conflicts and eliminations all happen. Checked after
every step: talents never negative, the track equals the colonies held, pieces on the board
plus stock equal the set, rings and buildings conserved, one ship per sea space (the fish
space excepted at the start), every menu at most 25 options; the JSON round trip and an
exact replay from the seed on some games. ~20 games per count here, 1,000 behind ``slow``.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engines.base import Action, Subset
from engines.minos import ENGINE as E
from engines.minos.data import (
    BUILDINGS_PER_TYPE,
    FISH,
    GUARDS,
    RINGS,
    SEA,
    SHIPS,
    SITES,
    TYPES,
)
from engines.minos.state import State, pieces_on_board, track_values
from engines.rng import Rng

MAX_STEPS = 20_000
PREFERRED = {"type": 8, "build": 6, "recruit": 4, "use": 3, "dice": 3, "step": 3, "piece": 2,
             "face": 1, "stand": 1, "buy": 1, "cancel": 0.2, "end": 0.3}


def choose(s: State, seat: int, rng: random.Random, bits: Rng) -> Action:
    actions = E.legal_actions(s, seat)
    subsets = E.subsets(s, seat)
    for a in actions:
        assert len(actions) <= 25 or a.kind == "piece"
    assert all(len(sub.options) <= 25 for sub in subsets)
    weighted: list[tuple[float, Action | Subset]] = [
        (PREFERRED.get(a.kind, 1), a) for a in actions]
    weighted += [(3 if sub.kind != "keep" else 1.5, sub) for sub in subsets]
    pick = rng.choices([w[1] for w in weighted], [w[0] for w in weighted])[0]
    return pick.sample(bits) if isinstance(pick, Subset) else pick


def invariants(s: State) -> None:
    assert all(p.talents >= 0 and p.rings >= 0 for p in s.players)
    assert [p.value for p in s.players] == track_values(s)
    for seat, p in enumerate(s.players):
        ships, guards = pieces_on_board(s, seat)
        assert ships + p.ships == SHIPS and guards + p.guards == GUARDS
        assert not (p.out and ships + guards)
    for place, seats in s.ships.items():
        assert len(seats) == 1 or place == FISH
        assert place in SEA or place in SITES
    assert s.rings + sum(p.rings for p in s.players) == RINGS
    built = Counter(t for types in s.buildings.values() for t in types)
    assert all(built[t] + s.stock[t] == BUILDINGS_PER_TYPE for t in TYPES)


def play(n: int, seed: int, *, deep: bool = False, fast: bool = False
         ) -> tuple[State, list[str]]:
    """One game; ``fast`` applies through ``apply_unchecked`` (the soak: the actions are
    drawn from what the engine offers, so only the invariants need checking)."""
    s = E.new_game(n, seed)
    rng = random.Random(seed)
    bits = Rng(seed)
    log: list[str] = []
    for _ in range(MAX_STEPS):
        if E.is_over(s):
            return s, log
        (seat,) = E.active_players(s)
        action = choose(s, seat, rng, bits)
        log.append(f"{seat} {action}")
        if fast:
            s = E.apply_unchecked(s, seat, action)
            invariants(s)
            continue
        out = E.apply(s, seat, action)
        s = out.state
        invariants(s)
        assert all(e.key.startswith("minos.") or e.key == "turn_end" for e in out.events)
        if deep and len(log) % 7 == 0:
            _everything_offered_applies(s, bits)
        if deep:
            data = json.loads(json.dumps(E.to_dict(s)))
            assert E.from_dict(data) == s
            json.dumps(E.view(s, None))
    raise AssertionError(f"game {n}/{seed} did not end in {MAX_STEPS} steps")


def _everything_offered_applies(s: State, bits: Rng) -> None:
    """Every legal action and a sample of every subset apply (what is offered is accepted),
    and nobody else may move."""
    if E.is_over(s):
        return
    (seat,) = E.active_players(s)
    for action in E.legal_actions(s, seat):
        E.apply(s, seat, action)
    for sub in E.subsets(s, seat):
        E.apply(s, seat, sub.sample(Rng(bits.next64())))
    for other in range(s.num_players):
        if other != seat:
            assert E.legal_actions(s, other) == [] and E.subsets(s, other) == []


def replay(n: int, seed: int, log: list[str]) -> State:
    s = E.new_game(n, seed)
    for line in log:
        seat, text = line.split(" ", 1)
        s = E.apply_unchecked(s, int(seat), Action.parse(text))
    return s


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts(n: int) -> None:
    reasons: Counter[str] = Counter()
    for seed in range(20):
        s, log = play(n, seed, deep=seed % 10 == 0)
        reasons[str(s.end_reason)] += 1
        result = E.result(s)
        assert result is not None and set(result.winners) == set(s.winners or [])
        if seed % 10 == 0:
            assert replay(n, seed, log) == s
    assert sum(reasons.values()) == 20


@pytest.mark.slow
@pytest.mark.timeout(3600)  # a hang guard only: 1,000 games take minutes on a busy machine
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_soak(n: int) -> None:
    for seed in range(1000):
        play(n, 10_000 + seed, fast=True)
