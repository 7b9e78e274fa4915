"""The engine contract, checked over every registered game (OpenSpiel's ``random_sim_test``).

A game added to ``engines.registry`` gets every check here for free; it brings one hook,
``tests/engines/<key>/hidden.py``, that knows where its hidden information lives (see
:func:`_hide`). Checks, over seeded random playouts at every player count:

* JSON round trip, and same seed + same log = same game;
* what the engine accepts is exactly what it offers: every offered action (atomic, and
  samples of every subset decision) applies, the fast path agrees, and mutations of them
  (other kinds, other arguments, wrong seats, subset sizes out of range) are refused with a
  typed :class:`GameError`, the state unchanged; ``skip_action`` is offered when given;
* a seat that is not awaited is offered only the free actions its game declares
  (``Spec.free_kinds``), and exactly those apply;
* every decision fits a Discord select (≤ 25 options) and ``choices`` mirrors the offer;
* no view shows a seat's hidden information to another seat or to a spectator;
* playouts end within a step bound;
* hostile input (huge or non-ASCII numbers, garbage tokens, odd seats, mistyped, extra or
  missing state fields, states no engine could play) is a typed refusal, never a raw error.
"""

from __future__ import annotations

import copy
import importlib
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engines.base import (
    TURN_END,
    Action,
    Choice,
    Engine,
    GameError,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidState,
    MultiChoice,
    NotYourTurn,
    Subset,
    offered,
)
from engines.registry import games
from engines.rng import Rng

MAX_STEPS = 20_000  # no game of the registry comes near it; a loop is a failure
MAX_POINTS = 60  # sampled points per playout in the default run (slow tests: all of them)
KEYS = sorted(games())
REFUSALS = (InvalidAction, IllegalAction, NotYourTurn, GameOver)
ODD_SEATS: tuple[Any, ...] = (-1, 4, 99, 10**30, True, False, "0", None, 1.0, (0,))
GARBAGE_TOKENS = ("9" * 40, "0" * 40, "-1", "-0", "99999", "x", "zz:zz", "a=b", "..", "+",
                  "1e9", "0x1", "-" * 3)


def _engine(key: str) -> Engine[Any]:
    return games()[key]


def _counts(key: str) -> list[int]:
    spec = _engine(key).spec
    return list(range(spec.min_players, spec.max_players + 1))


def _cases(seeds: int) -> list[tuple[str, int, int]]:
    return [(key, n, seed) for key in KEYS for n in _counts(key) for seed in range(seeds)]


# --- playouts ---------------------------------------------------------------------------

def _offers(e: Engine[Any], s: Any, seat: int, rng: Rng) -> list[Action]:
    """The offered actions, with one sampled member per subset decision."""
    return e.legal_actions(s, seat) + [sub.sample(rng) for sub in e.subsets(s, seat)]


def playout(e: Engine[Any], n: int, seed: int) -> Iterator[tuple[Any, int, Action]]:
    """A seeded random game: yields (state, seat, action chosen) before each move."""
    rng = random.Random(seed)
    s = e.new_game(n, seed)
    for _ in range(MAX_STEPS):
        if e.is_over(s):
            return
        seats = sorted(e.active_players(s))
        assert seats, "a game that is not over awaits somebody"
        seat = rng.choice(seats)
        offers = _offers(e, s, seat, Rng(rng.randrange(1 << 62)))
        assert offers, f"seat {seat} is awaited but offered nothing"
        action = rng.choice(offers)
        yield s, seat, action
        s = e.apply(s, seat, action).state
    raise AssertionError(f"no end after {MAX_STEPS} steps")


def sampled_states(key: str, n: int, seed: int, every: int,
                   at_most: int | None = None) -> list[tuple[Any, int, Action]]:
    """Every ``every``-th point of a playout (the first and the last included), thinned
    evenly to ``at_most`` points when the game is long (Río: over a thousand moves)."""
    points = list(playout(_engine(key), n, seed))
    chosen = points[::every]
    if at_most is not None and len(chosen) > at_most:
        step = len(chosen) / at_most
        chosen = [chosen[int(k * step)] for k in range(at_most)]
    return chosen + points[-1:]


# --- game-specific hook -----------------------------------------------------------------

def _hide(key: str) -> Callable[[Any, int | None, random.Random], Any]:
    """``hide(state, seat, rng)``: a copy of ``state`` changed only in what ``seat`` alone
    knows (``None``: what nobody knows, e.g. deck order), or ``None`` when there is nothing
    of that kind now. Every registered game must provide it."""
    module = importlib.import_module(f"tests.engines.{key}.hidden")
    hide: Callable[[Any, int | None, random.Random], Any] = module.hide
    return hide


# --- checks -----------------------------------------------------------------------------

def odd_seats(e: Engine[Any]) -> list[Any]:
    """ODD_SEATS but a real seat of the game's largest table (Río seats 5: seat 4 exists)."""
    return [x for x in ODD_SEATS if not (type(x) is int and 0 <= x < e.spec.max_players)]


def refused(e: Engine[Any], s: Any, seat: Any, action: Any,
            before: dict[str, Any] | None = None) -> GameError:
    """Apply must refuse with a typed error and leave the state as it was (``before``:
    ``e.to_dict(s)`` when the caller has it already)."""
    before = e.to_dict(s) if before is None else before
    with pytest.raises(GameError) as info:
        e.apply(s, seat, action)
    assert isinstance(info.value, REFUSALS), (type(info.value), action)
    assert e.to_dict(s) == before, f"{action} changed the state it refused"
    return info.value


def _mutations(action: Action, pool: list[str], kinds: list[str]) -> Iterator[Action]:
    """Actions near an offered one: other kinds, other or fewer or more arguments."""
    for kind in kinds:
        if kind != action.kind:
            yield Action(kind, action.args)
    if action.args:
        yield Action(action.kind, action.args[:-1])
    for token in pool:
        yield Action(action.kind, (*action.args, token))
        for i in range(len(action.args)):
            args = list(action.args)
            args[i] = token
            yield Action(action.kind, tuple(args))


def _subset_mutations(sub: Subset) -> Iterator[Action]:
    """Subset actions out of range: too few, too many, a value not among the options."""
    opts = list(sub.options)
    if sub.min_values > 0:
        yield Action(sub.kind, (*sub.fixed, *opts[:sub.min_values - 1]))
    too_many = opts[:sub.most + 1] if sub.most < len(opts) else opts + opts[:1]
    yield Action(sub.kind, (*sub.fixed, *too_many))
    yield Action(sub.kind, (*sub.fixed, *opts[:max(sub.min_values - 1, 0)], "zz"))
    if sub.fixed:
        yield Action(sub.kind, tuple(opts[:sub.min_values]))


def check_point(e: Engine[Any], s: Any, seat: int, rng: random.Random) -> None:
    """The offer at one point of a game: applies, mirrors, fits, and nothing else passes."""
    before = e.to_dict(s)
    legal = e.legal_actions(s, seat)
    subs = e.subsets(s, seat)
    assert len(legal) <= 25 and len(set(legal)) == len(legal)
    assert all(len(sub.options) <= 25 and 0 <= sub.min_values <= sub.most for sub in subs)
    choices = e.choices(s, seat)
    assert [c.action for c in choices if isinstance(c, Choice)] == legal
    multi = [c for c in choices if isinstance(c, MultiChoice)]
    assert [c.subset for c in multi] == subs
    assert all(len(c.option_labels) == len(c.subset.options) for c in multi)
    assert choices == [*(c for c in choices if isinstance(c, Choice)), *multi]  # atomic first
    samples = [sub.sample(Rng(rng.randrange(1 << 62))) for sub in subs for _ in range(3)]
    for action in legal + samples:
        assert offered(e, s, seat, action)
        out = e.apply(s, seat, action)
        assert e.to_dict(e.apply_unchecked(s, seat, action)) == e.to_dict(out.state)
        assert e.to_dict(s) == before, f"{action} mutated its input"
    skip = e.skip_action(s, seat)
    assert skip is None or offered(e, s, seat, skip)
    # Mutations of the offer: whatever is not offered is refused, typed, state unchanged.
    pool = sorted({arg for a in legal + samples for arg in a.args})[:6] + ["zz", "99"]
    kinds = sorted({a.kind for a in legal + samples} | {"end", "pass", "zz"})
    for action in legal + samples:
        for near in _mutations(action, pool, kinds):
            if not offered(e, s, seat, near):
                refused(e, s, seat, near, before)
    for sub in subs:
        for near in _subset_mutations(sub):
            if not offered(e, s, seat, near):
                refused(e, s, seat, near, before)
    some = (legal + samples)[0]
    for other in range(e.spec.max_players + 1):
        if other not in e.active_players(s) and not offered(e, s, other, some):
            error = refused(e, s, other, some, before)
            assert isinstance(error, NotYourTurn | GameOver) or some.kind in e.spec.free_kinds
    for odd in odd_seats(e):
        refused(e, s, odd, some, before)
        assert e.legal_actions(s, odd) == [] and e.choices(s, odd) == []
        assert e.skip_action(s, odd) is None


def check_out_of_turn(e: Engine[Any], s: Any, seat: int, rng: random.Random) -> None:
    """A seat that is not awaited is offered only the game's free actions
    (``Spec.free_kinds``, e.g. Río's trades) and can do exactly what it is offered: every
    check of :func:`check_point` holds for it too. Anything else is not its turn."""
    free = e.spec.free_kinds
    legal, subs = e.legal_actions(s, seat), e.subsets(s, seat)
    assert all(a.kind in free for a in legal) and all(sub.kind in free for sub in subs)
    assert e.skip_action(s, seat) is None
    if legal or subs:
        check_point(e, s, seat, rng)
        for action in legal:  # a free action never ends a turn nor changes who is awaited
            out = e.apply(s, seat, action)
            assert all(ev.key != TURN_END for ev in out.events)
            assert e.active_players(out.state) == e.active_players(s)
    else:
        assert e.choices(s, seat) == []
    theirs = [a for x in sorted(e.active_players(s)) for a in e.legal_actions(s, x)
              if a.kind not in free]
    before = e.to_dict(s)
    for action in theirs[:3]:
        assert isinstance(refused(e, s, seat, action, before), NotYourTurn)


def check_views(key: str, s: Any, n: int, rng: random.Random) -> None:
    """No viewer sees what is hidden from it: changing only a seat's secrets (or what
    nobody knows) changes no other viewer's view. The change must show to the owner."""
    e = _engine(key)
    hide = _hide(key)
    viewers: list[int | None] = [None, *range(n)]
    for view in (e.view(s, v) for v in viewers):
        json.dumps(view)
    for owner in viewers:
        other = hide(s, owner, rng)
        if other is None:
            continue
        e.from_dict(e.to_dict(other))  # still a consistent state
        for viewer in viewers:
            if viewer != owner:
                assert e.view(other, viewer) == e.view(s, viewer), (owner, viewer)
        if owner is not None:
            assert e.view(other, owner) != e.view(s, owner), "the hook changed nothing"


# --- the tests --------------------------------------------------------------------------

@pytest.mark.parametrize("key", KEYS)
def test_bad_player_counts_seeds_and_options_are_invalid_state(key: str) -> None:
    e = _engine(key)
    spec = e.spec
    for bad in (spec.min_players - 1, spec.max_players + 1, 0, -1, 10**30, True, "2", 2.0,
                None):
        with pytest.raises(InvalidState):
            e.new_game(bad, 1)  # type: ignore[arg-type]
    for seed in ("1", None, 1.5, [1]):
        with pytest.raises(InvalidState):
            e.new_game(spec.min_players, seed)  # type: ignore[arg-type]
    for n in _counts(key):
        assert e.new_game(n, 10**30) is not None  # any int seed (its low 64 bits)
    for options in ({"no_such_option": 1}, ["x"], "x"):
        with pytest.raises(InvalidState):
            e.new_game(spec.min_players, 1, options)  # type: ignore[arg-type]
    defaults = {o.name: o.default for o in spec.options}
    assert e.to_dict(e.new_game(spec.min_players, 1, defaults)) == e.to_dict(
        e.new_game(spec.min_players, 1))


@pytest.mark.parametrize(("key", "n", "seed"), _cases(4))
def test_random_playouts_end_and_replay_identically(key: str, n: int, seed: int) -> None:
    e = _engine(key)
    log: list[tuple[int, Action]] = []
    final = None
    for s, seat, action in playout(e, n, seed):
        log.append((seat, action))
        final = s
    assert final is not None
    last = e.apply(final, *log[-1]).state
    assert e.is_over(last) and e.active_players(last) == frozenset()
    result = e.result(last)
    assert result is not None
    assert sorted(x for place in result.ranking for x in place) == list(range(n))
    # Same seed + same log (through its text form, as stored) = same game.
    again = e.new_game(n, seed)
    for seat, action in log:
        again = e.apply(again, seat, Action.parse(str(action))).state
    assert e.to_dict(again) == e.to_dict(last)
    with pytest.raises(GameOver):
        e.apply(last, 0, log[-1][1])


@pytest.mark.parametrize(("key", "n", "seed"), _cases(1))
def test_json_round_trip_at_every_step(key: str, n: int, seed: int) -> None:
    e = _engine(key)
    for s, _seat, _action in playout(e, n, 100 + seed):
        data = json.loads(json.dumps(e.to_dict(s)))
        assert e.from_dict(data) == s
        assert e.to_dict(e.from_dict(data)) == data


def check_offers(key: str, n: int, seed: int, at_most: int | None) -> None:
    e = _engine(key)
    rng = random.Random(seed)
    for s, _seat, _action in sampled_states(key, n, 200 + seed, every=11, at_most=at_most):
        for awaited in sorted(e.active_players(s)):
            check_point(e, s, awaited, rng)
        others = [x for x in range(n) if x not in e.active_players(s)]
        if others:
            check_out_of_turn(e, s, rng.choice(others), rng)


def check_all_views(key: str, n: int, seed: int, at_most: int | None) -> None:
    rng = random.Random(seed)
    for s, _seat, _action in sampled_states(key, n, 300 + seed, every=5, at_most=at_most):
        check_views(key, s, n, rng)


@pytest.mark.parametrize(("key", "n", "seed"), _cases(1))
def test_offered_actions_apply_and_nothing_else_is_accepted(key: str, n: int,
                                                           seed: int) -> None:
    check_offers(key, n, seed, MAX_POINTS)


@pytest.mark.parametrize(("key", "n", "seed"), _cases(1))
def test_views_leak_no_hidden_information(key: str, n: int, seed: int) -> None:
    check_all_views(key, n, seed, MAX_POINTS)


@pytest.mark.slow
@pytest.mark.parametrize(("key", "n", "seed"), _cases(1))
def test_offers_and_views_at_every_sampled_point(key: str, n: int, seed: int) -> None:
    """The two tests above on the same playouts, not thinned (long games: every point)."""
    check_offers(key, n, seed, None)
    check_all_views(key, n, seed, None)


@pytest.mark.parametrize("key", KEYS)
def test_hostile_action_input_is_a_typed_refusal(key: str) -> None:
    e = _engine(key)
    for text in ("target " + "9" * 5000, "build ١", "pick ١٢", "x" * 2000, "", "   ",
                 "pick\x00mama", "PICK Ｍａｍａ", "😀", "a" * 41):
        with pytest.raises(InvalidAction):
            Action.parse(text)
    rng = random.Random(7)
    for s, seat, action in sampled_states(key, e.spec.max_players, 400, every=13,
                                          at_most=MAX_POINTS // 2):
        kinds = sorted({a.kind for a in _offers(e, s, seat, Rng(1))} | {action.kind})
        before = e.to_dict(s)
        for kind in kinds:
            for token in GARBAGE_TOKENS:
                for args in ((token,), (token, token), (*action.args, token)):
                    near = Action(kind, args)
                    if not offered(e, s, seat, near):
                        refused(e, s, seat, near, before)
        for odd in ("pick mama", None, 5, ("pick", "mama")):
            refused(e, s, seat, odd, before)
        refused(e, s, rng.choice(odd_seats(e)), action, before)


# --- from_dict on hostile data ----------------------------------------------------------

ODD_VALUES: tuple[Any, ...] = (None, True, -1, 10**30, 1.5, "x", "", [], {}, [None], {"x": 1})


def _paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON document (dict keys and list indexes)."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield (*path, k)
            yield from _paths(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield (*path, i)
            yield from _paths(v, (*path, i))


def _along(data: Any, path: tuple[Any, ...]) -> tuple[Any, Any]:
    """A copy of ``data`` sharing all but the containers on ``path`` (a deep copy per
    mutation cost most of this test on Río's state), and the container to change."""
    out = copy.copy(data)
    target = out
    for k in path[:-1]:
        target[k] = copy.copy(target[k])
        target = target[k]
    return out, target


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    out, target = _along(data, path)
    target[path[-1]] = value
    return out


def _delete(data: Any, path: tuple[Any, ...]) -> Any:
    out, target = _along(data, path)
    del target[path[-1]]
    return out


def playable(e: Engine[Any], s: Any) -> None:
    """What the bot does with a loaded state runs without a raw error."""
    data = e.to_dict(s)
    assert e.to_dict(e.from_dict(json.loads(json.dumps(data)))) == data
    e.is_over(s)
    e.result(s)
    n = e.spec.max_players
    for viewer in (None, *range(n)):
        json.dumps(e.view(s, viewer))
    for seat in range(n):
        e.choices(s, seat)
        e.skip_action(s, seat)
    for seat in sorted(e.active_players(s)):
        for action in _offers(e, s, seat, Rng(seat)):
            e.apply(s, seat, action)


def _load(e: Engine[Any], data: Any) -> None:
    try:
        s = e.from_dict(data)
    except InvalidState:
        return
    playable(e, s)


MAX_PATHS = 400  # fields mutated per sampled state


@pytest.mark.parametrize("key", KEYS)
def test_from_dict_refuses_what_it_cannot_play(key: str) -> None:
    e = _engine(key)
    rng = random.Random(11)
    for bad in (None, [], "x", 5, {}, {"game": key}):
        with pytest.raises(InvalidState):
            e.from_dict(bad)  # type: ignore[arg-type]
    points = sampled_states(key, e.spec.max_players, 500, every=40)
    for s, _seat, _action in points[:: max(1, len(points) // 6)]:
        data = json.loads(json.dumps(e.to_dict(s)))
        with pytest.raises(InvalidState):
            e.from_dict({**data, "unexpected": 1})
        paths = list(_paths(data))  # a big state (Río's city) has thousands: a fixed sample
        for path in rng.sample(paths, min(len(paths), MAX_PATHS)):
            if isinstance(path[-1], str) and rng.random() < 0.5:
                _load(e, _delete(data, path))
            for value in rng.sample(ODD_VALUES, 3):
                _load(e, _set(data, path, value))
            if isinstance(path[-1], str):
                target = data
                for k in path[:-1]:
                    target = target[k]
                if isinstance(target, dict) and rng.random() < 0.3:
                    _load(e, _set(data, (*path[:-1], "unexpected"), 0))


@pytest.mark.slow
@pytest.mark.parametrize(("key", "n", "seed"), _cases(40))
def test_soak_offer_views_and_replay(key: str, n: int, seed: int) -> None:
    e = _engine(key)
    rng = random.Random(seed)
    points = sampled_states(key, n, 10_000 + seed, every=3)
    for s, seat, _action in points:
        check_point(e, s, seat, rng)
        others = [x for x in range(n) if x not in e.active_players(s)]
        if others:
            check_out_of_turn(e, s, rng.choice(others), rng)
        check_views(key, s, n, rng)
