"""Start-up of the Discord application, without connecting: what it logs."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from discord.voice_client import VoiceClient

from bot.adapter.app import build_bot
from bot.core.settings import Settings


async def test_start_logs_no_voice_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           caplog: pytest.LogCaptureFixture) -> None:
    # As in a fresh process: discord.py warns once per process about PyNaCl and davey.
    monkeypatch.setattr(VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(VoiceClient, "warn_dave", True)
    caplog.set_level(logging.DEBUG)
    bot = await build_bot(Settings(discord_token="token", database=tmp_path / "db.sqlite3"))
    try:
        voice = [r.getMessage() for r in caplog.records if "voice" in r.getMessage().lower()]
        assert voice == []
        assert bot.settings.database == tmp_path / "db.sqlite3"
    finally:
        await bot.repo.close()
