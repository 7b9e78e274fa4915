"""Start-up of the Discord application, without connecting: what it logs."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from discord.ext.commands import AutoShardedBot
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


async def test_a_sharded_process_is_an_auto_sharded_bot_that_sees_other_processes_locales(
        tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    one = await build_bot(Settings(discord_token="token", database=database))
    bot = await build_bot(Settings(discord_token="token", database=database, shard_count=4,
                                   shard_ids=(1, 3)))
    try:
        assert not isinstance(one, AutoShardedBot) and one.served.everything
        assert isinstance(bot, AutoShardedBot)
        assert (bot.shard_count, bot.shard_ids) == (4, [1, 3])
        assert bot.served.ids == {1, 3} and not bot.served.home
        await one.service.set_user_settings(7, locale="fr")  # chosen through another process
        assert 7 not in bot.user_locales
        await bot.refresh_locales()
        assert bot.user_locales[7] == "fr"
    finally:
        await one.repo.close()
        await bot.repo.close()
