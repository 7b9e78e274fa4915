"""The lobby by slash command: the lobby message is redrawn in place, the answer is private."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import RunBot
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_havana_e2e import make_bot


async def test_slash_join_and_add_bot_update_the_lobby_message(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    fake = fake_discord
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")):
        record = await fake.interact(fake.slash("game new", {"game": "havana", "seats": 3},
                                                user="alice"))
        (lobby,) = fake.interaction_messages(record)
        assert "1/3" in lobby.content

        joined = await fake.interact(fake.slash("game join", user="bob"))
        (answer,) = fake.interaction_messages(joined)
        assert answer.ephemeral
        lobby = fake.message(lobby.id)
        assert "2/3" in lobby.content and "<@" in lobby.content and len(lobby.history) >= 1

        again = await fake.interact(fake.slash("game join", user="bob"))
        (refusal,) = fake.interaction_messages(again)
        assert refusal.ephemeral and "⚠️" in refusal.content
        assert "2/3" in fake.message(lobby.id).content  # nothing changed

        await fake.interact(fake.slash("game add-bot", user="alice"))
        assert "3/3" in fake.message(lobby.id).content
        assert fake.message(lobby.id).find(label="Start") is not None


async def test_game_new_refuses_an_option_the_game_has_not_privately(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    fake = fake_discord
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")):
        record = await fake.interact(fake.slash(
            "game new", {"game": "havana", "options": "goal=6"}, user="alice"))
        (refusal,) = fake.interaction_messages(record)
        assert refusal.ephemeral and "no option called goal" in refusal.content
        record = await fake.interact(fake.slash(
            "game new", {"game": "havana", "options": "goal"}, user="alice"))
        (refusal,) = fake.interaction_messages(record)
        assert refusal.ephemeral and "name=value" in refusal.content
        opened = await fake.interact(fake.slash("game new", {"game": "havana"}, user="alice"))
        (lobby,) = fake.interaction_messages(opened)
        assert not lobby.ephemeral and "1/4" in lobby.content  # nothing was created before
