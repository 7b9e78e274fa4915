"""The private panel fits Discord's component limits and its ids parse back to the move."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.adapter.components import ActButton, ActSelect, SubsetSelect, option_value
from bot.adapter.panel_layout import panel_components
from bot.core.messages import account, standings
from bot.core.models import ACTIVE, GameInfo, Panel, Seat
from engines.base import TURN_END, Action, Choice, Event, Message, MultiChoice, Result, Subset
from engines.havana import ENGINE as HAVANA


def _game() -> GameInfo:
    seats = (Seat(0, 11, "Ana"), Seat(1, None, "AI 1"))
    return GameInfo(id=123456, guild_id=1, channel_id=2, game_key="havana", status=ACTIVE,
                    creator_id=11, options={}, seed=5, version=4321, max_seats=4, seats=seats,
                    created_at=0.0, updated_at=0.0)


def _choices(kind: str, n: int, group: str) -> list[Choice]:
    return [Choice(Action(kind, (f"x{i}",)), Message("ui.choose"), Message("ui.choose"), group)
            for i in range(n)]


def _panel(choices: list[Choice]) -> Panel:
    return Panel(game=_game(), seat=0, view={}, choices=tuple(choices), awaited=True)


def _components(view: discord.ui.View) -> list[dict[str, Any]]:
    return view.to_components()


def test_small_groups_become_button_rows_and_large_ones_selects() -> None:
    view = panel_components(_panel(_choices("play", 2, "play") + _choices("build", 30, "build")),
                            "en")
    rows = _components(view)
    assert len(rows) == 3  # one button row, two selects (25 + 5)
    assert [c["type"] for c in rows[0]["components"]] == [2, 2]
    selects = [r["components"][0] for r in rows[1:]]
    assert [len(s["options"]) for s in selects] == [25, 5]
    for row in rows:
        for comp in row["components"]:
            assert len(comp["custom_id"]) <= 100


def test_never_more_than_five_rows() -> None:
    choices = [c for g in range(8) for c in _choices(f"k{g}", 3, f"g{g}")]
    assert len(_components(panel_components(_panel(choices), "en"))) == 5


def test_button_custom_id_carries_game_version_and_action() -> None:
    view = panel_components(_panel(_choices("play", 1, "play")), "en")
    button = view.children[0]
    assert isinstance(button, ActButton)
    match = ActButton.__discord_ui_compiled_template__.fullmatch(button.custom_id)
    assert match is not None
    assert (int(match["game"]), int(match["ver"]), match["act"]) == (123456, 4321, "play~x0")


def test_select_values_are_action_texts() -> None:
    view = panel_components(_panel(_choices("build", 7, "build")), "fr")
    select = view.children[0]
    assert isinstance(select, ActSelect)
    assert [o.value for o in select.item.options][:2] == ["build x0", "build x1"]


def test_account_names_seats_and_skips_private_and_turn_end() -> None:
    events = [Event("ui.next", {"players": "x"}), Event("ui.next", {"players": "secret"}, to=0),
              Event(TURN_END)]
    text = account(events, HAVANA.spec, ["Ana", "AI 1"], "en")
    assert text == "• Next: x"


def test_standings_list_every_place_and_winner() -> None:
    text = standings(_game(), Result(scores={0: 17, 1: 9}, ranking=[[0], [1]]), "en")
    assert "1. Ana — 17" in text and "2. AI 1 — 9" in text and "Winner: **Ana**" in text


def test_log_line_of_a_hidden_move_never_shows_its_action() -> None:
    from bot.adapter.history_pages import _row_text
    from bot.core.storage.base import LogRow

    hidden = LogRow(seq=3, seat=0, action="pick mama", public=(),
                    private=(Event("havana.ev.you_picked", {"card": "x"}, to=0),),
                    turn_end=False, created_at=0.0)
    open_move = LogRow(seq=4, seat=0, action="end", public=(), private=(), turn_end=True,
                       created_at=0.0)
    assert "mama" not in _row_text(hidden, _game(), "en")
    assert "hidden" in _row_text(hidden, _game(), "en")
    assert _row_text(open_move, _game(), "en").endswith("Ana: end")


def test_custom_id_patterns_take_ascii_digits_only() -> None:
    """``\\d`` also matches ``١`` (Arabic-Indic one): ids are ASCII digits, nothing else."""
    from bot.adapter.components import DYNAMIC_ITEMS

    samples = ["ludo:panel:7", "ludo:do:7:3:pass", "ludo:sel:7:3:group", "ludo:mute:7",
               "ludo:lobby:7:join", "ludo:vote:7", "ludo:undo:7:3", "ludo:uvote:7:1",
               "ludo:logp:7:0:12:first", "ludo:rp:7:3:next", "ludo:rsel:7",
               "ludo:hist:7:0:last", "ludo:sub:7:3:keep~a"]
    items = DYNAMIC_ITEMS
    for sample in samples:
        assert any(i.__discord_ui_compiled_template__.fullmatch(sample) for i in items), sample
        for foreign in ("١", "٣", "７", "߁"):
            hostile = sample.replace("7", foreign).replace("3", foreign)
            assert not any(i.__discord_ui_compiled_template__.fullmatch(hostile)
                           for i in items), hostile


def test_ids_are_checked_at_the_edge() -> None:
    from bot.adapter.guard import digits
    from bot.core import errors

    assert digits("42") == 42 and digits(str(errors.MAX_ID)) == errors.MAX_ID
    for bad in ("١", "1_000", "-1", "", " 4", str(errors.MAX_ID + 1), "9" * 5000, "12a"):
        with pytest.raises(errors.BadId):
            digits(bad)
    with pytest.raises(errors.BadId):
        errors.check_id(10 ** 30)


# ---------------------------------------------------------------- the engine contract

def test_seats_in_labels_read_as_player_names() -> None:
    """Issue 8 §5: Havana's "Rob 1" / "Stolen from 2." with 0-based seats read as names."""
    rob = Choice(Action("target", ("1",)), Message("havana.choice.target", {"target": 1}),
                 Message("havana.desc.take_thief", {"target": 1}), "target")
    panel = _panel([rob])
    button = _components(panel_components(panel, "en"))[0]["components"][0]
    assert button["label"] == "Rob AI 1"
    from bot.adapter.panels import _explained

    assert _explained(panel, "en") == ["• **Rob AI 1** — Stolen from AI 1."]


def test_declared_seat_params_only_become_names() -> None:
    from bot.core.messages import named

    params = {"seat": 0, "target": 1, "n": 1, "seats": [1, 0],
              "building": Message("x", {"target": 0})}
    out = named(params, HAVANA.spec, ["Ana", "Bob"], bold=False)
    assert out["seat"] == "Ana" and out["target"] == "Bob" and out["n"] == 1
    assert out["seats"] == "Bob, Ana" and out["building"] == Message("x", {"target": "Ana"})


def test_button_colours_come_from_the_declared_kinds() -> None:
    choices = [Choice(Action(kind), Message("ui.choose"), None, "g")
               for kind in ("end", "pass", "build")]
    buttons = _components(panel_components(_panel(choices), "en"))[0]["components"]
    assert HAVANA.spec.ending_kinds == {"end"} and HAVANA.spec.passing_kinds == {"pass"}
    assert [b["style"] for b in buttons] == [discord.ButtonStyle.success.value,
                                             discord.ButtonStyle.secondary.value,
                                             discord.ButtonStyle.primary.value]


def _multi() -> MultiChoice:
    subset = Subset("keep", ("3", "3", "5"), min_values=1, max_values=2, fixed=("a",))
    labels = tuple(Message("havana.choice.target", {"target": i}) for i in (0, 1, 1))
    return MultiChoice(subset, Message("ui.choose"), labels)


def test_a_subset_decision_is_one_multi_select() -> None:
    rows = _components(panel_components(_panel([*_choices("play", 2, "play"), _multi()]),
                                        "en"))
    assert len(rows) == 2
    select = rows[1]["components"][0]
    assert select["type"] == 3 and select["min_values"] == 1 and select["max_values"] == 2
    assert select["custom_id"] == "ludo:sub:123456:4321:keep~a"
    assert [o["value"] for o in select["options"]] == ["0:3", "1:3", "2:5"]
    assert [o["label"] for o in select["options"]] == ["Rob Ana", "Rob AI 1", "Rob AI 1"]


async def test_a_subset_select_parses_back_to_the_offered_subset() -> None:
    view = panel_components(_panel([_multi()]), "en")
    item = view.children[0]
    assert isinstance(item, SubsetSelect)
    import re

    match = re.fullmatch(SubsetSelect.__discord_ui_compiled_template__,  # type: ignore[attr-defined]
                         item.item.custom_id or "")
    assert match is not None
    back = await SubsetSelect.from_custom_id(None, item.item, match)  # type: ignore[arg-type]
    subset = back.subset()
    assert subset == _multi().subset
    assert str(subset.action(option_value(v) for v in ("2:5", "0:3"))) == "keep a 3 5"


def test_option_autocomplete_offers_each_option_of_the_game() -> None:
    from bot.adapter.game_commands import option_choices
    from tests.bot.race import RACE

    values = [c.value for c in option_choices(RACE.spec, "")]
    assert values == ["goal=6", "goal=10", "goal=15", "fast=true", "fast=false"]
    assert [c.value for c in option_choices(RACE.spec, "goal=6 f")] == [
        "goal=6 fast=true", "goal=6 fast=false"]


def test_a_real_havana_thief_panel_names_its_victims() -> None:
    """Issue 8 §5, from a real state: the peso thief's buttons read the victims' names,
    never their 0-based seat numbers."""
    from bot.adapter.panels import _explained
    from tests.engines.havana.helpers import actions_state, do, give

    s = actions_state([("siesta", "debris"), ("siesta", "worker"), ("siesta", "peso_thief")])
    give(s, 0, pesos=5)
    give(s, 1, pesos=9)
    s, _ = do(s, 0, "play debris")
    s, _ = do(s, 1, "play worker")
    s, _ = do(s, 2, "play peso_thief")
    seats = (Seat(0, 11, "Ana"), Seat(1, 12, "Bob"), Seat(2, 13, "Cyd"))
    game = GameInfo(id=7, guild_id=1, channel_id=2, game_key="havana", status=ACTIVE,
                    creator_id=11, options={}, seed=5, version=9, max_seats=3, seats=seats,
                    created_at=0.0, updated_at=0.0)
    panel = Panel(game=game, seat=2, view=HAVANA.view(s, 2),
                  choices=tuple(HAVANA.choices(s, 2)), awaited=True)
    for locale, rob in (("en", "Rob"), ("fr", "Voler")):
        labels = [c["label"] for row in _components(panel_components(panel, locale))
                  for c in row["components"]]
        assert labels == [f"{rob} Ana", f"{rob} Bob"], labels
        lines = _explained(panel, locale)
        assert len(lines) == 2 and "**" in lines[0] and "Ana" in lines[0]
        assert not any(ch.isdigit() for ch in "".join(labels))


async def test_chosen_values_become_the_subset_action(monkeypatch: Any) -> None:
    """The select's chosen values go through ``Subset.action`` (canonical order, checked)
    and the router (bot/adapter/clicks.py) to the same move path as a click; a bad choice
    is a typed refusal, nothing applied."""
    from types import SimpleNamespace

    from bot.adapter import clicks, error_handler, panels

    client = SimpleNamespace(on_click=clicks.route)  # as bot.adapter.app.assemble sets it
    moves: list[tuple[int, int, str]] = []
    refusals: list[Exception] = []

    async def act(interaction: Any, game_id: int, version: int, action: str) -> None:
        moves.append((game_id, version, action))

    async def refuse(interaction: Any, err: Exception) -> None:
        refusals.append(err)

    monkeypatch.setattr(panels, "act_from_component", act)
    monkeypatch.setattr(error_handler, "handle", refuse)
    item = panel_components(_panel([_multi()]), "en").children[0]
    assert isinstance(item, SubsetSelect)
    await item.callback(SimpleNamespace(data={"values": ["2:5", "1:3"]}, client=client))  # type: ignore[arg-type]
    assert moves == [(123456, 4321, "keep a 3 5")]
    await item.callback(SimpleNamespace(data={"values": []}, client=client))  # type: ignore[arg-type]
    await item.callback(SimpleNamespace(data={"values": ["0:9"]}, client=client))  # type: ignore[arg-type]
    assert len(moves) == 1 and [type(e).__name__ for e in refusals] == [
        "IllegalAction", "InvalidAction"]
