"""Seeded random playouts per player count, ending with the invariants the rules imply;
plus the contract checks (round trip, determinism, offered == accepted, ≤ 25 options)."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import string
from pathlib import Path

import pytest

from engines.base import MAX_TOKEN, Action, GameError, Message
from engines.rio import ENGINE
from engines.rio.data import BOARD
from engines.rio.state import State, workers_out

from .playout import pick, playout

ROOT = Path(__file__).resolve().parents[3]
LOCALES = {loc: json.loads((ROOT / f"bot/locales/{loc}/rio.json").read_text("utf-8"))
           for loc in ("en", "fr")}


def _fields(entry: str | dict[str, str]) -> set[str]:
    """The parameters a catalogue entry (a template or a plural object) needs."""
    texts = [entry] if isinstance(entry, str) else [v for k, v in entry.items() if k != "count"]
    found = {f for text in texts for _, f, _, _ in string.Formatter().parse(text) if f}
    return found | ({entry.get("count", "count")} if isinstance(entry, dict) else set())


def check_invariants(s: State) -> None:
    for seat, p in enumerate(s.players):
        assert min(p.silver, p.wood, p.stone, p.precious, p.vp, p.supply) >= 0
        assert p.supply + workers_out(s, seat) + 1 == BOARD.workers  # no worker lost
    assert ENGINE.from_dict(json.loads(json.dumps(ENGINE.to_dict(s)))) == s


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_end_with_the_invariants(n: int) -> None:
    """A few games per count here; the same checks over 1,000 games each in the soak."""
    for seed in range(6):
        s, _ = playout(n, seed)
        check_invariants(s)
        assert ENGINE.is_over(s) and s.round == s.rounds + 1
        need = 2 if n == 2 else 1
        assert all(p.attacks == need for p in s.players)  # every attack accounted for
        result = ENGINE.result(s)
        assert result is not None and sorted(x for place in result.ranking for x in place) \
            == list(range(n))
        assert ENGINE.active_players(s) == frozenset()


@pytest.mark.slow
@pytest.mark.timeout(3600)  # 1,000 whole games: ~4 min on a loaded machine; catches a hang
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_thousand_random_games(n: int) -> None:
    moves = 0
    for seed in range(1000):
        s, steps = playout(n, 10_000 + seed)
        moves += steps
        check_invariants(s)
        assert ENGINE.is_over(s) and s.round == s.rounds + 1
        assert all(p.attacks == (2 if n == 2 else 1) for p in s.players)
    print(f"{n} players: 1000 games, {moves} moves")  # shown with -s (make soak reports)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_contract_along_a_checked_game(n: int) -> None:
    """Every step: round trip, ≤ 25 options, tokens bounded, what is offered applies, a
    random unoffered action is refused with a typed error and nothing changed, the deadline
    default is offered, and replaying the log gives the same game."""
    rng = random.Random(n)
    s = ENGINE.new_game(n, 77)
    log: list[tuple[int, Action]] = []
    steps = 0
    while not ENGINE.is_over(s):
        steps += 1
        assert steps < 40000
        for seat in range(n):
            legal = ENGINE.legal_actions(s, seat)
            assert len(legal) <= 25, (s.phase, legal)
            assert len(set(legal)) == len(legal)
            assert all(len(t) <= MAX_TOKEN for a in legal for t in (a.kind, *a.args))
            for sub in ENGINE.subsets(s, seat):
                assert len(sub.options) <= 25
            labels = ENGINE.choices(s, seat)
            assert len(labels) == len(legal) + len(ENGINE.subsets(s, seat))
        seat = min(ENGINE.active_players(s))
        skip = ENGINE.skip_action(s, seat)
        assert skip is not None and (skip in ENGINE.legal_actions(s, seat) or any(
            x.accepts(skip) for x in ENGINE.subsets(s, seat)))
        if steps % 7 == 0:
            bogus = Action("put", ("9",))
            if bogus not in ENGINE.legal_actions(s, seat):
                before = ENGINE.to_dict(s)
                with pytest.raises(GameError):
                    ENGINE.apply(s, seat, bogus)
                assert ENGINE.to_dict(s) == before
        action = pick(rng, s, seat)
        out = ENGINE.apply(s, seat, action)
        assert out.state == ENGINE.apply_unchecked(s, seat, action)
        s = out.state
        log.append((seat, action))
        if steps % 50 == 0:
            assert ENGINE.from_dict(json.loads(json.dumps(ENGINE.to_dict(s)))) == s
        for e in out.events:
            assert e.key in LOCALES["en"] or e.key == "turn_end", e.key
            if e.key != "turn_end":
                for loc in ("en", "fr"):
                    fields = _fields(LOCALES[loc][e.key])
                    assert fields <= set(e.params), (e.key, fields, e.params)
    replay = ENGINE.new_game(n, 77)
    for seat, action in log:
        replay = ENGINE.apply(replay, seat, action).state
    assert replay == s


def test_every_catalogue_key_is_in_both_languages() -> None:
    assert set(LOCALES["en"]) == set(LOCALES["fr"])
    assert all(LOCALES["en"][k] and LOCALES["fr"][k] for k in LOCALES["en"])
    assert len(LOCALES["en"]["rio.rules"]) > 500


def test_every_emitted_key_and_label_is_catalogued() -> None:
    source = "".join(p.read_text("utf-8") for p in (ROOT / "engines/rio").glob("*.py"))
    for key in re.findall(r'"(rio\.(?:ev|error)\.[a-z_]+)"', source):
        assert key in LOCALES["en"], key
    from engines.rio import checks

    for kind in checks.KINDS:
        assert f"rio.choice.{kind}" in LOCALES["en"], kind
    for name in ("road", "wall"):
        assert f"rio.ev.{name}_placed" in LOCALES["en"]
    dynamic = {f"rio.ev.sector_{x}" for x in ("agri", "crafts", "quay", "order")} | {
        "rio.ev.road_placed", "rio.ev.wall_placed"}
    for key in LOCALES["en"]:
        if key.startswith(("rio.ev.", "rio.error.")):
            assert f'"{key}"' in source or key in dynamic, f"stale catalogue key {key}"


def test_bad_states_and_options_are_refused() -> None:
    from engines.base import InvalidState

    s = ENGINE.new_game(3, 1)
    data = ENGINE.to_dict(s)
    for mutate in (lambda d: d["players"][0].update(supply=99),
                   lambda d: d.update(phase="nap"), lambda d: d.update(bld=[]),
                   lambda d: d["players"][1].update(silver="x"), lambda d: d.pop("roads")):
        bad = json.loads(json.dumps(data))
        mutate(bad)
        with pytest.raises(InvalidState):
            ENGINE.from_dict(bad)
    for n in (1, 6, True):
        with pytest.raises(InvalidState):
            ENGINE.new_game(n, 1)
    with pytest.raises(InvalidState):
        ENGINE.new_game(3, 1, {"short_game": "yes"})


def test_determinize_and_evaluate() -> None:
    from engines.rng import Rng

    s, _ = playout(3, 5)
    d = ENGINE.determinize(s, 0, Rng(9))
    assert d.players == s.players and d.rng != s.rng
    assert all(0.0 <= ENGINE.evaluate(s, x) <= 1.0 for x in range(3))
    result = ENGINE.result(s)
    assert result is not None
    for x in range(3):
        assert ENGINE.evaluate(s, x) == (1 / len(result.ranking[0])
                                         if x in result.ranking[0] else 0.0)
    mid = ENGINE.new_game(3, 5)
    mid.players[0].vp = 30
    assert ENGINE.evaluate(mid, 0) > 0.5 > ENGINE.evaluate(mid, 1)


def test_views_hide_nothing_public_and_leak_no_draft() -> None:
    s = ENGINE.new_game(3, 2)
    seat = s.order[0]
    s = ENGINE.apply(s, seat, Action("trade")).state
    s = ENGINE.apply(s, seat, Action("tnew")).state
    s = ENGINE.apply(s, seat, Action("twant", ("silver",))).state
    spectator = ENGINE.view(s, None)
    other = ENGINE.view(s, (seat + 1) % 3)
    mine = ENGINE.view(s, seat)
    assert "draft" not in spectator and other["draft"] is None and mine["draft"] is not None
    assert [p["silver"] for p in spectator["players"]] == [p.silver for p in s.players]
    json.dumps(spectator)


def _mutations(data: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            out.append((*path, k))
            out += _mutations(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data[:3]):
            out.append((*path, i))
            out += _mutations(v, (*path, i))
    return out


def test_corrupted_states_are_refused_or_playable() -> None:
    """Random corruption of saved states: ``from_dict`` refuses with InvalidState, or the
    state it accepts answers every engine call without a raw Python error."""
    from engines.base import InvalidState

    rng = random.Random(4)
    values = [None, -1, 0, 1, 7, 999, "x", "cell:999", "", [], {}, [1, 2], True, 1.5]
    for n in (2, 4):
        s = ENGINE.new_game(n, 8)
        samples = []
        steps = 0
        while not ENGINE.is_over(s) and steps < 4000:
            steps += 1
            seat = min(ENGINE.active_players(s))
            s = ENGINE.apply_unchecked(s, seat, pick(rng, s, seat))
            if steps % 400 == 0:
                samples.append(ENGINE.to_dict(s))
        for data in samples:
            paths = _mutations(data)
            for _ in range(60):
                bad = json.loads(json.dumps(data))
                path = rng.choice(paths)
                target = bad
                for key in path[:-1]:
                    target = target[key]
                target[path[-1]] = rng.choice(values)
                try:
                    state = ENGINE.from_dict(bad)
                except InvalidState:
                    continue
                for seat in range(n):
                    ENGINE.legal_actions(state, seat)
                    ENGINE.subsets(state, seat)
                    ENGINE.choices(state, seat)
                    ENGINE.view(state, seat)
                ENGINE.active_players(state)


def test_every_label_fills_its_template() -> None:
    """Each offered choice's label and effect line name a catalogue key, and every
    ``{field}`` of the English and French templates has its parameter."""
    from engines.base import Choice

    rng = random.Random(12)
    for n in (3, 5):
        s = ENGINE.new_game(n, 12)
        steps = 0
        while not ENGINE.is_over(s) and steps < 3000:
            steps += 1
            for seat in range(n):
                for ch in ENGINE.choices(s, seat):
                    messages = [ch.label, ch.description] if isinstance(ch, Choice) else [
                        ch.label, ch.description, *ch.option_labels]
                    for m in messages:
                        if m is None:
                            continue
                        for loc in ("en", "fr"):
                            fields = _fields(LOCALES[loc][m.key])
                            assert fields <= set(m.params), (m.key, fields, m.params)
                            for v in m.params.values():
                                if isinstance(v, Message):
                                    assert v.key in LOCALES[loc], v
            seat = min(ENGINE.active_players(s))
            s = ENGINE.apply_unchecked(s, seat, pick(rng, s, seat))


def test_clone_is_deep_and_equal() -> None:
    import dataclasses

    from tests.renderers.rio_states import play_until

    s = play_until("combat", 4, 2)
    copy = s.clone()
    assert copy == s and dataclasses.fields(copy) == dataclasses.fields(s)
    copy.players[0].trusts.append(1)
    copy.cw[0].append([0, 1, 0])
    assert s.combat is not None and copy.combat is not None
    copy.combat.groups[0].pawns.append(0)
    copy.combat.stacks.append(["h.0.0", 1])
    copy.ladders["fort"][0] = 99
    assert s.players[0].trusts == [] and s.cw[0] == [] and copy != s
    assert len(s.combat.groups[0].pawns) < len(copy.combat.groups[0].pawns)
    assert ["h.0.0", 1] not in s.combat.stacks and s.ladders["fort"][0] != 99


def _assert_unshared(a: object, b: object, path: str) -> None:
    """No list, dict or record of ``b`` is one of ``a``'s, however deep."""
    if isinstance(a, (list, dict)) or dataclasses.is_dataclass(a):
        assert a is not b, path
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _assert_unshared(x, y, f"{path}[{i}]")
    elif isinstance(a, dict) and isinstance(b, dict):
        for key, value in a.items():
            _assert_unshared(value, b[key], f"{path}.{key}")
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            _assert_unshared(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")


def test_clone_shares_no_container() -> None:
    """``State.clone`` copies field by field: every field, the combat's and the ones typed
    ``Any`` inside (trades, drafts, the task queue) included, must come out unshared."""
    from tests.renderers.rio_states import play_until

    s = play_until("combat", 4, 2)
    s.queue = [["walls", 0, 3]]
    s.drafts = {"1": {"give": {"wood": 1}, "want": {}, "to": -1}}
    s.trades = [{"id": 1, "from": 0, "to": -1, "give": {"wood": 1}, "want": {"stone": 2},
                 "declined": [2]}]
    s.final = {"0": [1, 2, 3]}
    s.chars = {"general": [0, 1]}
    s.players[1].trusts = [0]
    assert s.combat is not None and s.combat.groups
    s.combat.pending = {"gid": 1}
    copy = s.clone()
    assert copy == s
    _assert_unshared(s, copy, "state")
