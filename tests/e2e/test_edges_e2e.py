"""Hostile clicks at the bot's edge (issue 13, item 4), through the real client and the fake
Discord: custom_ids are plain text any client can send, so a click from another server, with
an id beyond 64 bits or from someone without a seat is refused privately, once, in one place
(bot/adapter/guard.py), and nothing is shown or changed."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import pytest

from bot.core.i18n import t
from tests.e2e.conftest import RunBot
from tests.e2e.fake_discord import HANG, FakeDiscord, StoredMessage, walk_components
from tests.e2e.test_havana_e2e import Table, make_bot


def forged(fake: FakeDiscord, message: StoredMessage, custom_id: str,
           user: str) -> dict[str, Any]:
    """A click on ``message`` whose custom_id was rewritten, as a modified client can send."""
    real = next(c["custom_id"] for c in message.interactive()
                if c["type"] == 2 and not c.get("disabled"))
    payload = fake.button(real, message, user=user)
    payload["data"] = {**payload["data"], "custom_id": custom_id}
    payload["message"] = copy.deepcopy(payload["message"])
    for component in walk_components(payload["message"].get("components") or []):
        if component.get("custom_id") == real:
            component["custom_id"] = custom_id
    return payload


async def refused(fake: FakeDiscord, payload: dict[str, Any]) -> str:
    """Send a click; it must be answered by exactly one private warning: its text."""
    record = await fake.interact(payload)
    clicked = str((payload.get("message") or {}).get("id"))
    # A click acknowledged as an update has the clicked message as its original: the
    # refusal is the one private followup, the clicked message is left as it was.
    replies = [m for m in fake.interaction_messages(record) if str(m.id) != clicked]
    assert len(replies) == 1, [m.content for m in replies]
    (reply,) = replies
    assert reply.ephemeral and reply.content.startswith("⚠️"), reply.content
    return reply.content


async def test_components_refuse_other_servers_big_ids_and_outsiders(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    fake = fake_discord
    guild_a = fake.guild_id
    guild_b = fake.add_guild("Elsewhere", owner="erin")
    channel_b = fake.add_channel(guild_b, "elsewhere")
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")) as bot:
        table = Table(fake)  # guild A: alice and two AI seats, started
        await table.open()
        game_a = table.game_id
        made = await fake.interact(fake.slash("game new", {"game": "havana", "seats": 4},
                                              user="alice", channel=fake.other_channel_id))
        (lobby_a,) = fake.interaction_messages(made)
        lobby_id = int(lobby_a.find(label="Join")["custom_id"].split(":")[2])
        made = await fake.interact(fake.slash("game new", {"game": "havana"}, user="erin",
                                              channel=channel_b))
        (lobby_b,) = fake.interaction_messages(made)  # erin's own message, in guild B
        turn_message = [m for m in fake.public_messages()
                        if m.channel_id == fake.channel_id and m.interactive()][-1]
        public_before = [(m.id, m.content) for m in fake.public_messages()]
        log_before = len(await bot.service.log(game_a, limit=10_000))
        no_game = t("service.unknown_game", "en", game_id=game_a)

        # History buttons from another server: the game does not exist for that server.
        for custom_id in (f"ludo:logp:{game_a}:0:12:first", f"ludo:rp:{game_a}:1:next"):
            text = await refused(fake, forged(fake, lobby_b, custom_id, "erin"))
            assert no_game in text
        text = await refused(fake, forged(fake, lobby_b, f"ludo:hist:{guild_a}:0:first",
                                          "erin"))
        assert t("ui.not_allowed", "en") in text
        # Panels and moves of guild A's game from guild B, even by its own player.
        for custom_id in (f"ludo:panel:{game_a}", f"ludo:undo:{game_a}:1"):
            assert no_game in await refused(fake, forged(fake, lobby_b, custom_id, "alice"))

        # A Join from another server seats nobody.
        text = await refused(fake, forged(fake, lobby_b, f"ludo:lobby:{lobby_id}:join", "erin"))
        assert t("service.unknown_game", "en", game_id=lobby_id) in text
        lobby = await bot.service.get(lobby_id)
        assert [s.user_id for s in lobby.seats] == [fake.user_id("alice")]
        assert fake.message(lobby_a.id).content == lobby_a.content

        # In the game's own server the same history button works (the check is not blanket).
        replay = await fake.interact(fake.slash("game replay", user="carol"))
        (steps,) = fake.interaction_messages(replay)
        choose = steps.find(prefix="ludo:rsel:")
        for value in ("١", str(10**30)):  # a position that int() would read, or too large
            payload = fake.select(choose["custom_id"], [choose["options"][0]["value"]], steps,
                                  user="carol")
            payload["data"] = {**payload["data"], "values": [value]}
            assert t("service.bad_id", "en") in await refused(fake, payload)
        record = await fake.interact(forged(fake, steps, f"ludo:logp:{game_a}:0:12:first",
                                            "carol"))
        assert not [m for m in fake.interaction_messages(record) if "⚠️" in m.content]
        assert t("history.log_title", "en", game="Havana", id=game_a, page=1, pages=1) \
            in fake.message(steps.id).content  # the log page replaced the replay step

        # Ids beyond 64 bits: a translated refusal, not an OverflowError and no answer.
        bad_id = t("service.bad_id", "en")
        for custom_id in (f"ludo:do:{10**30}:1:pass", f"ludo:panel:{10**25}",
                          f"ludo:do:{game_a}:{10**30}:pass", f"ludo:rp:{game_a}:{10**20}:next"):
            assert bad_id in await refused(fake, forged(fake, turn_message, custom_id, "alice"))
        replay = await fake.interact(fake.slash("game replay", {"game_id": 10**30}))
        (answer,) = fake.interaction_messages(replay)
        assert answer.ephemeral and bad_id in answer.content

        # Mute by someone without a seat: refused, not "no more reminders".
        text = await refused(fake, forged(fake, turn_message, f"ludo:mute:{game_a}", "carol"))
        assert t("service.not_seated", "en") in text

        assert len(await bot.service.log(game_a, limit=10_000)) == log_before
        assert [(m.id, m.content) for m in fake.public_messages()] == public_before


async def test_one_undo_button_takes_back_one_move(fake_discord: FakeDiscord, run_bot: RunBot,
                                                   tmp_path: Path) -> None:
    """Two clicks on the same Undo button: the first takes back the move it showed, the
    second is out of date (a fresh panel), never a second take-back."""
    fake = fake_discord
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")) as bot:
        table = Table(fake)
        await table.open()  # alice and two AI seats: the opening picks are simultaneous
        undo_label = t("history.button.undo", "en")
        panel = await table.stable_panel("alice")
        # Alice's first opening pick (the AI seats picked already): a free step of her own.
        pick = next(c for c in panel.interactive()
                    if c["custom_id"].startswith(("ludo:do:", "ludo:sel:")))
        if pick["type"] == 2:
            payload = fake.button(pick["custom_id"], panel, user="alice")
        else:
            payload = fake.select(pick["custom_id"], [pick["options"][0]["value"]], panel,
                                  user="alice")
        record = await fake.interact(payload)
        panel = [m for m in fake.interaction_messages(record) if m.interactive()][-1]
        button = panel.find(label=undo_label)
        version = int(button["custom_id"].split(":")[3])
        mine = [r for r in await bot.service.repo.history(table.game_id) if r.seat == 0]
        assert len([r for r in mine if r.effective]) == 1
        snapshot = copy.deepcopy(panel.data)  # the panel as it was when the undo was shown

        first = await fake.interact(fake.button(button["custom_id"], panel, user="alice"))
        assert not [m for m in fake.interaction_messages(first) if "⚠️" in m.content]
        stale_panel = fake.message(panel.id)
        stale_panel.data = snapshot  # the same button, clicked again on the same message
        second = await fake.interact(fake.button(button["custom_id"], stale_panel,
                                                 user="alice"))
        # A loaded machine may post the fresh panel after the grace: waited for as the fake
        # records it (HANG only catches a hang).
        await fake.wait_until(
            lambda: any(m.interactive() for m in fake.interaction_messages(second)), HANG)
        answers = fake.interaction_messages(second)
        assert all(m.ephemeral for m in answers)
        assert any(t("service.stale_version", "en") in m.content for m in answers)
        assert any(m.interactive() for m in answers)  # with a fresh panel

        rows = await bot.service.repo.history(table.game_id)
        assert len([r for r in rows if r.is_undo]) == 1
        assert len([r for r in rows if r.seat == 0 and r.effective]) == 0
        assert (await bot.service.get(table.game_id)).version == version + 1


async def test_a_click_reads_and_decodes_the_game_once(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A move clicked in a panel: the move and the refreshed panel come from one read of
    the game and its state (the service draws the mover's panel from the state it saved).
    Reads by the AI runner and the outbox deliverer, in their own tasks, are not the
    click's."""
    fake = fake_discord
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")) as bot:
        table = Table(fake)
        await table.open()
        panel = await table.stable_panel("alice")
        pick = next(c for c in panel.interactive()
                    if c["custom_id"].startswith(("ludo:do:", "ludo:sel:")))
        if pick["type"] == 2:
            payload = fake.button(pick["custom_id"], panel, user="alice")
        else:
            payload = fake.select(pick["custom_id"], [pick["options"][0]["value"]], panel,
                                  user="alice")
        reads: list[str] = []
        load_game = bot.service.repo.load_game

        async def counted(game_id: int) -> Any:
            task = asyncio.current_task()
            name = task.get_name() if task is not None else ""
            if not name.startswith(("ai-", "outbox")):
                reads.append(name)
            return await load_game(game_id)

        monkeypatch.setattr(bot.service.repo, "load_game", counted)
        record = await fake.interact(payload)
        answers = [m for m in fake.interaction_messages(record) if m.interactive()]
        assert answers, "the panel was refreshed"
        assert len(reads) == 1, reads
