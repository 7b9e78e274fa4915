"""Turn reminders through Discord: DM to those who opted in, channel fallback when DMs are
closed, and the "mute for this turn" button."""

from __future__ import annotations

from pathlib import Path

from bot.core.i18n import t
from tests.e2e.conftest import RunBot
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_async_e2e import FakeClock, make_bot, open_game
from tests.e2e.test_havana_e2e import Table


async def test_reminder_by_dm_falls_back_to_the_channel_and_can_be_muted(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    fake, clock = fake_discord, FakeClock()
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3", clock)) as bot:
        settings = await fake.interact(fake.slash("game settings", {"dm": True}, user="alice"))
        (answer,) = fake.interaction_messages(settings)
        assert answer.ephemeral and "✅" in answer.content
        table = Table(fake)
        await open_game(table)  # 1 human (alice) + 2 AI; alice is awaited for her picks
        alice = fake.user("alice")["id"]

        # Not due yet: nothing is sent.
        assert await bot.reminders.run_due(clock() + 1) == 0

        # Due, DMs open: the reminder goes by DM, with a mute button.
        clock.advance(25)
        assert await bot.reminders.run_due(clock()) == 1
        await fake.idle()
        (dm,) = [m for m in fake.dm_messages("alice") if "⏰" in m.content]
        assert f"<@{alice}>" in dm.content
        assert not [m for m in fake.channel_messages() if "⏰" in m.content]
        assert dm.find(label=t("ui.mute", "en")) is not None

        # Due again, DMs closed: the channel gets the mention instead.
        fake.close_dms("alice")
        clock.advance(25)
        assert await bot.reminders.run_due(clock()) == 1
        await fake.idle()
        ping = fake.last_message(predicate=lambda m: "⏰" in m.content)
        assert not ping.ephemeral and f"<@{alice}>" in ping.content

        # Mute for this turn: no more reminders until her turn changes.
        muted = await fake.interact(fake.button(ping.find(label=t("ui.mute", "en"))["custom_id"],
                                                ping, user="alice"))
        (note,) = fake.interaction_messages(muted)
        assert note.ephemeral and "🔕" in note.content
        clock.advance(25)
        assert await bot.reminders.run_due(clock()) == 0
