"""A crowd of clicks: every interaction is acknowledged before any slow work (issue 13.2).

"My panel" used to answer without deferring, so Discord's 3-second acknowledgement waited on
the database and on drawing the region image. Here the drawing is held until the test
releases it: the acknowledgement must already be there (a private "thinking…"), and the panel
with its image follows. The burst of 200 interactions is a benchmark (``tests/e2e/crowd.py``,
run by ``make bench``), not a test: speed is never asserted against a clock here.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import RunBot
from tests.e2e.fake_discord import DEFERRED_MESSAGE, FakeDiscord
from tests.e2e.test_tuscany_e2e import PANEL_IMAGE, Table, make_bot

HANG = 300.0  # only to catch a hang


async def _until_only_human(bot: Any, game_id: int) -> None:
    while set((await bot.service.view(game_id, None))["active"]) != {0}:
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("entry", ["button", "command"])
async def test_the_panel_is_acknowledged_before_its_image_is_drawn(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, entry: str) -> None:
    fake = fake_discord
    bot = await make_bot(fake, tmp_path / "db.sqlite3")
    async with run_bot(bot):
        table = Table(fake)
        await table.open()  # Tuscany's region set-up: the panel carries the region image
        turn = fake.last_message()
        presenter = bot.presenters["tuscany"]
        original = presenter.panel_image
        release, started = threading.Event(), []

        def held(view: dict[str, Any], seat: int, locale: str) -> Any:
            started.append(time.monotonic())
            release.wait(HANG)
            return original(view, seat, locale)

        monkeypatch.setattr(presenter, "panel_image", held)
        payload = (fake.button(turn.find(label="My panel")["custom_id"], turn)
                   if entry == "button" else fake.slash("game hand"))
        record = await fake.send_interaction(payload)
        await record.wait(timeout=HANG)
        assert record.response_type == DEFERRED_MESSAGE
        (thinking,) = fake.interaction_messages(record)
        assert thinking.ephemeral and thinking.loading
        await asyncio.wait_for(_until(lambda: bool(started)), HANG)  # now drawing, held
        assert record.acked_at is not None and record.acked_at < started[0]
        assert record.answered_at is None  # nothing shown but "thinking…" while it draws
        release.set()
        await record.wait_answer(timeout=HANG)
        (panel,) = fake.interaction_messages(record)
        assert panel.ephemeral and not panel.loading and panel.interactive()
        assert [f.filename for f in panel.attachments] == [PANEL_IMAGE]
        assert len(started) == 1
        await fake.idle()


async def _until(condition: Any) -> None:
    while not condition():
        await asyncio.sleep(0.01)


async def test_clicks_are_acknowledged_while_answers_wait_their_turn(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With one answer at a time, a second click is still acknowledged at once while the
    first answer is held; both are answered once it is released."""
    from bot.adapter import replies

    monkeypatch.setattr(replies, "CONCURRENT_ANSWERS", 1)
    fake = fake_discord
    bot = await make_bot(fake, tmp_path / "db.sqlite3")
    async with run_bot(bot):
        table = Table(fake)
        await table.open()
        # The AI seat arranges its own region at the same time: let it finish, so both
        # clicks below ask for the panel of one version (one cache key).
        game = await bot.service.in_channel(fake.channel_id)
        assert game is not None
        await asyncio.wait_for(_until_only_human(bot, game.id), HANG)
        await fake.idle()
        turn = fake.last_message()
        presenter = bot.presenters["tuscany"]
        original = presenter.panel_image
        release, started = threading.Event(), []

        def held(view: dict[str, Any], seat: int, locale: str) -> Any:
            started.append(time.monotonic())
            release.wait(HANG)
            return original(view, seat, locale)

        monkeypatch.setattr(presenter, "panel_image", held)
        button = turn.find(label="My panel")["custom_id"]
        first = await fake.send_interaction(fake.button(button, turn))
        await asyncio.wait_for(_until(lambda: bool(started)), HANG)  # holds the only slot
        second = await fake.send_interaction(fake.button(button, turn))  # a second look
        await second.wait(timeout=HANG)
        assert second.response_type == DEFERRED_MESSAGE and second.answered_at is None
        assert first.answered_at is None
        release.set()
        for record in (first, second):
            await record.wait_answer(timeout=HANG)
        assert first.answered_at is not None and second.answered_at is not None
        assert first.answered_at <= second.answered_at  # answers in their turn
        (again,) = fake.interaction_messages(second)
        assert again.ephemeral and [f.filename for f in again.attachments] == [PANEL_IMAGE]
        assert len(started) == 1  # the same image (game, version, seat, locale): drawn once
        await fake.idle()


async def test_a_crowd_looking_at_one_region_costs_one_drawing(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``/tuscany look`` goes through the image cache: the same region of the same version
    in the same language is drawn once however many ask at once; another region is not."""
    fake = fake_discord
    bot = await make_bot(fake, tmp_path / "db.sqlite3")
    async with run_bot(bot):
        table = Table(fake)
        await table.open()
        game = await bot.service.in_channel(fake.channel_id)
        assert game is not None
        await asyncio.wait_for(_until_only_human(bot, game.id), HANG)  # one version
        await fake.idle()
        drawn: list[int] = []
        module = sys.modules[type(bot.get_cog("Tuscany")).__module__]  # as the bot loaded it
        original = module.render_region

        def counted(view: dict[str, Any], seat: int, **kwargs: Any) -> Any:
            drawn.append(seat)
            return original(view, seat, **kwargs)

        monkeypatch.setattr(module, "render_region", counted)
        records = [await fake.send_interaction(fake.slash("tuscany look", {"player": 2}))
                   for _ in range(6)]
        for record in records:
            await record.wait_answer(timeout=HANG)
            (answer,) = fake.interaction_messages(record)
            assert answer.ephemeral and [f.filename for f in answer.attachments] == \
                ["region.png"]
        assert drawn == [1]
        other = await fake.interact(fake.slash("tuscany look", {"player": 1}))
        await other.wait_answer(timeout=HANG)
        assert drawn == [1, 0]
        await fake.idle()
