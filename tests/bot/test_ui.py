"""The private panel fits Discord's component limits and its ids parse back to the move."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.messages import account, standings
from bot.models import ACTIVE, GameInfo, Panel, Seat
from bot.ui import ActButton, ActSelect, panel_components
from engines.base import TURN_END, Action, Choice, Event, Message, Result


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
    text = account(events, ["Ana", "AI 1"], "en")
    assert text == "• Next: x"


def test_standings_list_every_place_and_winner() -> None:
    text = standings(_game(), Result(scores={0: 17, 1: 9}, ranking=[[0], [1]]), "en")
    assert "1. Ana — 17" in text and "2. AI 1 — 9" in text and "Winner: **Ana**" in text


def test_log_line_of_a_hidden_move_never_shows_its_action() -> None:
    from bot.history_views import _row_text
    from bot.storage.base import LogRow

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
    from bot.history_views import HISTORY_ITEMS
    from bot.ui import DYNAMIC_ITEMS

    samples = ["ludo:panel:7", "ludo:do:7:3:pass", "ludo:sel:7:3:group", "ludo:mute:7",
               "ludo:lobby:7:join", "ludo:vote:7", "ludo:undo:7:3", "ludo:uvote:7:1",
               "ludo:logp:7:0:12:first", "ludo:rp:7:3:next", "ludo:rsel:7",
               "ludo:hist:7:0:last"]
    items = (*DYNAMIC_ITEMS, *HISTORY_ITEMS)
    for sample in samples:
        assert any(i.__discord_ui_compiled_template__.fullmatch(sample) for i in items), sample
        for foreign in ("١", "٣", "７", "߁"):
            hostile = sample.replace("7", foreign).replace("3", foreign)
            assert not any(i.__discord_ui_compiled_template__.fullmatch(hostile)
                           for i in items), hostile


def test_ids_are_checked_at_the_edge() -> None:
    from bot import errors
    from bot.guard import digits

    assert digits("42") == 42 and digits(str(errors.MAX_ID)) == errors.MAX_ID
    for bad in ("١", "1_000", "-1", "", " 4", str(errors.MAX_ID + 1), "9" * 5000, "12a"):
        with pytest.raises(errors.BadId):
            digits(bad)
    with pytest.raises(errors.BadId):
        errors.check_id(10 ** 30)
