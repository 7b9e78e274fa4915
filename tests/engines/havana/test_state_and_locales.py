"""Serialisation, data-file validation, and every emitted message key in both locales."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from engines.base import Event, GameError, InvalidState, Message
from engines.havana import ENGINE, choices
from engines.havana.data import BUILDINGS, CARDS, load_buildings
from engines.havana.state import STEPS

from .helpers import actions_state, do, give, set_rows

ROOT = Path(__file__).resolve().parents[3]
LOCALES = {loc: json.loads((ROOT / f"bot/locales/{loc}/havana.json").read_text("utf-8"))
           for loc in ("en", "fr")}


# --- data ---------------------------------------------------------------------------------------
def test_buildings_data_is_complete() -> None:
    assert len(BUILDINGS) == 36 and sorted(BUILDINGS) == list(range(1, 37))
    assert all(1 <= b.vp <= 7 for b in BUILDINGS.values())
    for locale in ("en", "fr"):  # names live in the catalogues, one per building
        assert len({LOCALES[locale][f"havana.building.{b}"] for b in BUILDINGS}) == 36
    assert [c.value for c in CARDS.values()] == [0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9]


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.pop(), "exactly 36"),
    (lambda d: d[0].update(vp=8), "VP"),
    (lambda d: d[0].update(cost={"marble": 1}), "unknown cost"),
    (lambda d: d[1].update(id=1), "unique"),
    (lambda d: d[1].update(name="Street"), "bad building entry"),
])
def test_buildings_file_is_validated(tmp_path: Path, mutate: Any, message: str) -> None:
    data = json.loads((ROOT / "engines/havana/buildings.json").read_text("utf-8"))
    mutate(data)
    path = tmp_path / "b.json"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(ValueError, match=message):
        load_buildings(path)


def test_setup_rule_puts_a_cheap_building_at_a_row_end() -> None:
    for seed in range(300):
        s = ENGINE.new_game(2 + seed % 3, seed)
        ends = [s.rows[r][i] for r in (0, 1) for i in (0, -1)]
        assert any(BUILDINGS[b].vp <= 3 for b in ends)
        assert len(s.pile) == 24 and len(s.rows[0]) == len(s.rows[1]) == 6
        assert s.centre_pesos == 4 and sum(s.centre) == 3
        assert all(p.pesos == 1 and sum(p.materials) == 1 for p in s.players)


# --- serialisation ----------------------------------------------------------------------------
@pytest.mark.parametrize("path, value", [
    (("bank_workers",), 16),
    (("bag", 0), 11),  # 81 cubes
    (("players", 0, "hand"), ["mama"]),
    (("players", 0, "materials", 4), -1),
    (("rows", 0, 0), 99),
    (("phase",), "dancing"),
    (("num_players",), 5),
    (("players", 0, "pesos"), "1"),  # mistyped
    (("removed_this_round",), "no"),
    (("rng",), 2**64),
    (("phase",), "actions"),  # the actions phase without a step or turn order
    (("exchange",), "brick9"),  # a payment in progress outside the actions phase
    (("version",), 2),
])
def test_from_dict_rejects_inconsistent_data(path: tuple[Any, ...], value: Any) -> None:
    data = ENGINE.to_dict(ENGINE.new_game(3, 7))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(InvalidState):
        ENGINE.from_dict(data)


# --- locale keys ------------------------------------------------------------------------------
def _keys_of(message: Message | Any) -> set[str]:
    keys = {message.key}
    for value in message.params.values():
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, Message):
                keys |= _keys_of(v)
    return keys


def test_every_emitted_key_exists_in_both_locales() -> None:
    seen: set[str] = set()
    for seed in range(150):
        rng = random.Random(seed)
        s = ENGINE.new_game(2 + seed % 3, seed)
        while not ENGINE.is_over(s):
            seat = sorted(ENGINE.active_players(s))[0]
            for c in ENGINE.choices(s, seat):
                seen |= _keys_of(c.label) | (_keys_of(c.description) if c.description else set())
            legal = ENGINE.legal_actions(s, seat)
            out = ENGINE.apply(s, seat, legal[rng.randrange(len(legal))])
            for e in out.events:
                seen |= _keys_of(e)
            s = out.state
        result = ENGINE.result(s)
        assert result is not None
        for d in result.details:
            seen |= _keys_of(d)
    seen.discard("turn_end")  # engines.base.TURN_END, rendered by the bot
    seen |= {f"havana.card.{c}" for c in CARDS} | {f"havana.building.{b}" for b in BUILDINGS}
    seen |= {f"havana.step.{st}" for st in STEPS} | {"havana.rules"}
    missing = {loc: sorted(seen - set(cat)) for loc, cat in LOCALES.items()}
    assert missing == {"en": [], "fr": []}
    assert len(seen) > 150


def test_every_error_key_in_the_source_exists_in_both_locales() -> None:
    source = "".join(p.read_text("utf-8") for p in (ROOT / "engines/havana").glob("*.py"))
    named = set(re.findall(r'_illegal\([^)]*?"([a-z_]+)"', source, re.S))
    named |= {k.split(".", 2)[2] for k in re.findall(r'"(havana\.error\.[a-z_]+)"', source)}
    assert {"need", "not_buyable", "bad_target"} <= named
    for loc, cat in LOCALES.items():
        assert {f"havana.error.{k}" for k in named} <= set(cat), loc


def test_error_params_fill_the_templates() -> None:
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [15, 2, 3, 4, 6, 29], [32, 7, 8, 9, 10, 35])
    give(s, 0, clay=1)
    s.step = "build"
    s.players[0].used = ["siesta", "protection"]
    with pytest.raises(GameError) as err:
        do(s, 0, "build 15")
    fields = set(re.findall(r"{(\w+)}", LOCALES["fr"][err.value.key]))
    assert fields == set(err.value.params)


def test_rules_summary_fits() -> None:
    assert all(0 < len(cat["havana.rules"]) <= 1800 for cat in LOCALES.values())
    assert LOCALES["en"].keys() == LOCALES["fr"].keys()


# --- audit: texts that state a rule must state it right -----------------------------------------
def _say(message: Message | Event | None, locale: str) -> str:
    from bot.core.i18n import t
    assert message is not None
    return t(message.key, locale, **dict(message.params))


@pytest.mark.parametrize("locale, bank, box", [("en", "bank", "box"), ("fr", "réserve", "boîte")])
def test_tax_collector_texts_say_where_what_is_taken_goes(locale: str, bank: str,
                                                          box: str) -> None:
    # Collecteur d'impôts: "Les ouvriers sont remis dans la réserve commune, les matériaux de
    # construction sont remis dans la boîte."
    s = actions_state([("siesta", "tax_collector"), ("siesta", "debris"), ("siesta", "worker")])
    give(s, 1, brick=1, workers=1)
    give(s, 2, brick=1, workers=1)
    s, _ = do(s, 0, "play tax_collector")
    worker = next(c for c in ENGINE.choices(s, 0) if str(c.action) == "take worker")
    assert bank in _say(worker.description, locale) and box not in _say(worker.description,
                                                                         locale)
    s, outs = do(s, 0, "take worker")
    taken = [e for o in outs for e in o.events if e.key.startswith("havana.ev.taxed")]
    assert bank in _say(taken[0], locale) and box not in _say(taken[0], locale)
    brick = next(c for c in ENGINE.choices(s, 0) if str(c.action) == "take brick")
    assert box in _say(brick.description, locale) and bank not in _say(brick.description,
                                                                        locale)
    s, outs = do(s, 0, "take brick")
    taken = [e for o in outs for e in o.events if e.key.startswith("havana.ev.taxed")]
    assert box in _say(taken[0], locale) and bank not in _say(taken[0], locale)


@pytest.mark.parametrize("locale, words", [("en", ("5 pesos", "1 worker")),
                                           ("fr", ("5 pesos", "1 ouvrier"))])
def test_peso_exchange_choice_says_what_it_replaces(locale: str, words: tuple[str, str]) -> None:
    # Échange « 5 pour 1 »: 5 pesos may replace a worker the player holds, too.
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [10, 2, 3, 4, 6, 29], [32, 7, 8, 9, 11, 35])  # Garden: 2W
    give(s, 0, workers=2, pesos=5)
    s, _ = do(s, 0, "play siesta", "build 10")
    w1 = next(c for c in ENGINE.choices(s, 0) if str(c.action) == "pay w1")
    text = _say(w1.description, locale)
    assert all(w in text for w in words), text


@pytest.mark.parametrize("locale, words", [("en", "act last"), ("fr", "dernier")])
@pytest.mark.parametrize("card", ["peso_thief", "material_thief"])
def test_thief_descriptions_name_the_any_opponent_fallback(locale: str, words: str,
                                                           card: str) -> None:
    # Voleur de pesos: "S'il n'y a pas de joueur suivant dans le tour, le joueur peut choisir
    # n'importe quel adversaire" (the material thief follows the same rules).
    assert words in LOCALES[locale][f"havana.desc.{card}"]


def test_choice_descriptions_fit_a_discord_select_option() -> None:
    # bot/adapter/components.py cuts a select option's description at 100 characters: a rule
    # text cut there would lose its end, so every description template must fit.
    long = {(loc, k): len(v) for loc, cat in LOCALES.items() for k, v in cat.items()
            if k.startswith("havana.desc.") and len(v) > 100}
    assert long == {}


# --- knowing what to do next ------------------------------------------------------------------
def test_build_choices_show_what_the_building_takes() -> None:
    # A new player saw "Build Street (1 VP)" with no word on the cost.
    s = actions_state([("siesta", "protection"), ("siesta", "debris")])
    set_rows(s, [2, 1, 3, 4, 6, 29], [32, 7, 8, 9, 10, 35])
    give(s, 0, rubble=6, pesos=10)
    s, _ = do(s, 0, "play siesta")
    build = next(c for c in ENGINE.choices(s, 0) if str(c.action) == "build 2")
    assert build.description is not None and build.description.key == "havana.desc.build_cost"
    assert build.description.params["cost"] == [Message("havana.cost.rubble_2")]  # Street: 2 rubble
    for b in BUILDINGS.values():  # every amount a building takes is worded in both languages
        for key in choices.cost_keys(b):
            assert all(key.key in LOCALES[loc] for loc in LOCALES), key


def test_the_start_pick_says_two_cards_are_to_be_chosen() -> None:
    s = ENGINE.new_game(2, 3)
    first = ENGINE.choices(s, 0)[0]
    assert first.label.key == "havana.choice.pick_start" and first.label.params["n"] == 1
    s = ENGINE.apply(s, 0, first.action).state
    assert ENGINE.choices(s, 0)[0].label.params["n"] == 2
    assert all("2" in LOCALES[loc]["havana.choice.pick_start"] for loc in LOCALES)
