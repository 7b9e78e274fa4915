"""One error handler (bot/adapter/error_handler.py): refusals and errors are always private, each
logged once, with a traceback only for the unexpected ones."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.core.i18n import t
from tests.e2e.conftest import RunBot
from tests.e2e.fake_discord import FakeDiscord, StoredMessage
from tests.e2e.test_havana_e2e import make_bot


def public(fake: FakeDiscord) -> list[StoredMessage]:
    return [m for m in fake.public_messages() if not m.deleted]


def ours(caplog: pytest.LogCaptureFixture, level: int) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno == level and r.name.startswith("bot.")]


async def test_board_refusal_is_private(fake_discord: FakeDiscord, run_bot: RunBot,
                                        tmp_path: Path,
                                        caplog: pytest.LogCaptureFixture) -> None:
    """``/game board`` (a public "thinking…") in a channel without a game."""
    fake = fake_discord
    caplog.set_level(logging.INFO)
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")):
        caplog.clear()
        record = await fake.interact(fake.slash("game board"))
        (answer,) = fake.interaction_messages(record)  # the public "thinking…" is gone
        assert answer.ephemeral
        assert t("service.no_game_here", "en") in answer.content
        assert public(fake) == []
        refused = [r for r in ours(caplog, logging.INFO) if "refused" in r.getMessage()]
        assert len(refused) == 1 and refused[0].exc_info is None


async def test_component_refusal_is_private(fake_discord: FakeDiscord, run_bot: RunBot,
                                            tmp_path: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    """Bob presses the lobby's Start button: only the creator may."""
    fake = fake_discord
    caplog.set_level(logging.INFO)
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")):
        record = await fake.interact(fake.slash("game new", {"game": "havana", "seats": 2}))
        (lobby,) = fake.interaction_messages(record)
        shown = len(public(fake))
        caplog.clear()
        record = await fake.interact(fake.button(lobby.find(label="Start")["custom_id"], lobby,
                                                 user="bob"))
        # The click was deferred (an update of the lobby): the answer is a private followup.
        (answer,) = [m for m in fake.interaction_messages(record) if m.id != lobby.id]
        assert answer.ephemeral and "⚠️" in answer.content
        assert len(public(fake)) == shown
        refused = [r for r in ours(caplog, logging.INFO) if "refused" in r.getMessage()]
        assert len(refused) == 1 and "NotCreator" in refused[0].getMessage()


async def test_unexpected_error_after_public_defer_is_private(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in ``/game start`` (public "thinking…"): a private apology, one traceback."""
    fake = fake_discord
    caplog.set_level(logging.INFO)
    bot = await make_bot(fake, tmp_path / "db.sqlite3")

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    async with run_bot(bot, allow_errors=True):
        await fake.interact(fake.slash("game new", {"game": "havana", "seats": 2}))
        await fake.interact(fake.slash("game join", user="bob"))
        shown = len(public(fake))
        monkeypatch.setattr(bot.service, "start", broken)
        caplog.clear()
        record = await fake.interact(fake.slash("game start"))
        (answer,) = fake.interaction_messages(record)
        assert answer.ephemeral
        assert t("ui.internal_error", "en") in answer.content
        assert len(public(fake)) == shown
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None
    assert isinstance(errors[0].exc_info[1], RuntimeError)
