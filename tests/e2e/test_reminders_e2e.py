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


async def test_deadline_warnings_go_by_dm_else_in_the_channel_once(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    """A deadline warning goes through the outbox: by DM to who asked for DMs, as a mention
    in the channel when their DMs are closed; each exactly once, with its nonce."""
    fake, clock = fake_discord, FakeClock()
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3", clock)) as bot:
        for user in ("alice", "bob"):
            await fake.interact(fake.slash("game settings", {"dm": True}, user=user))
        fake.close_dms("bob")
        table = Table(fake)
        await open_game(table, humans=("alice", "bob"), ais=1, deadline_hours=4,
                        on_timeout="ai", abandon_after=0)  # both pick at once: both awaited
        clock.advance(3.5)  # past the warning (1 h before the deadline)
        assert (await bot.deadlines.run_due()).warned == 2
        await fake.idle()
        bob = fake.user("bob")["id"]
        (dm,) = [m for m in fake.dm_messages("alice") if "⚠️" in m.content]
        assert f"<@{fake.user('alice')['id']}>" in dm.content and dm.data.get("nonce")
        (ping,) = [m for m in fake.public_messages() if "⚠️" in m.content]
        assert f"<@{bob}>" in ping.content and [u["id"] for u in ping.data["mentions"]] == [bob]
        assert not [m for m in fake.dm_messages("bob") if "⚠️" in m.content]
        assert (await bot.deadlines.run_due()).warned == 0  # once
        await fake.idle()
        assert len([m for m in fake.public_messages() if "⚠️" in m.content]) == 1
        assert await bot.repo.pending_outbox() == []
