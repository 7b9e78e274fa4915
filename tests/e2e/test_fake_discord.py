"""The fake Discord itself, proven with a minimal real discord.py bot defined here.

Each test drives the bot only through what Discord would send (interactions over the gateway)
and checks only what Discord would hold afterwards (messages, calls), like the app's e2e tests.
"""

from __future__ import annotations

import io
import re
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.e2e import discord_limits
from tests.e2e.conftest import RunBot
from tests.e2e.fake_discord import EPHEMERAL, FakeDiscord

FRUITS = ["apple", "apricot", "banana", "cherry"]


def png(color: str = "red", size: tuple[int, int] = (24, 12)) -> discord.File:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    buffer.seek(0)
    return discord.File(buffer, filename="board.png")


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"count:(?P<n>\d+)"):
    """A restart-proof button: its state lives in the custom_id, like the app's panels."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count={self.n + 1}", view=view)


class Feedback(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Your words", custom_id="words")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks: {self.text.value}", ephemeral=True)


class FruitSelect(discord.ui.Select[Any]):
    def __init__(self) -> None:
        options = [discord.SelectOption(label=f.title(), value=f) for f in FRUITS]
        super().__init__(custom_id="fruit", options=options, placeholder="Pick a fruit")

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"picked {self.values[0]}", ephemeral=True)


def make_bot() -> commands.Bot:
    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
    game = app_commands.Group(name="game", description="Games")

    @game.command(name="new", description="Start a game")
    async def game_new(interaction: discord.Interaction, players: int) -> None:
        await interaction.response.send_message(f"new game for {players}")

    bot.tree.add_command(game)

    @bot.tree.command(description="Echo a fruit")
    async def echo(interaction: discord.Interaction, fruit: str) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        await interaction.response.send_message(f"echo {fruit}", view=view)

    @echo.autocomplete("fruit")
    async def echo_fruit(interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f, value=f) for f in FRUITS if f.startswith(current)]

    @bot.tree.command(description="A private answer")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you", ephemeral=True)

    @bot.tree.command(description="Think, then answer")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("done thinking")
        await interaction.followup.send("and a picture", file=png("blue"), ephemeral=True)

    @bot.tree.command(description="Post and edit a board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        assert isinstance(interaction.channel, discord.TextChannel)
        message = await interaction.channel.send("board v1", file=png())
        await message.edit(content="board v2")
        data = await message.attachments[0].read()
        await interaction.followup.send(f"posted {len(data)} bytes")

    @bot.tree.command(description="Open a thread")
    async def thread(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        created = await interaction.channel.create_thread(
            name=name, type=discord.ChannelType.public_thread)
        await created.send("welcome to the thread")
        anchor = await interaction.channel.send("anchor")
        await anchor.create_thread(name=f"{name}-2")
        await interaction.followup.send(f"thread {created.id}")

    @bot.tree.command(description="DM someone")
    async def dm(interaction: discord.Interaction, user: discord.User) -> None:
        try:
            await user.send("psst")
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"closed {exc.code}", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @bot.tree.command(description="Pick a fruit")
    async def pick(interaction: discord.Interaction) -> None:
        view = discord.ui.View()
        view.add_item(FruitSelect())
        await interaction.response.send_message("pick one", view=view)

    @bot.tree.command(description="Tell us")
    async def feedback(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Feedback())

    @bot.tree.command(description="Post, fetch, edit and delete")
    async def tidy(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("original")
        followup = await interaction.followup.send("followup", wait=True)
        await followup.edit(content="followup edited")
        await interaction.delete_original_response()
        assert isinstance(interaction.channel, discord.TextChannel)
        note = await interaction.channel.send("note")
        fetched = await interaction.channel.fetch_message(note.id)
        history = [m.content async for m in interaction.channel.history(limit=5)]
        await fetched.delete()
        await interaction.followup.send(f"seen {fetched.content}; history {history[0]}")

    async def setup_hook() -> None:
        bot.add_dynamic_items(Counter)
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def test_ready_with_guild_and_synced_tree(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    async with run_bot(make_bot()) as bot:
        guild = bot.get_guild(fake_discord.guild_id)
        assert guild is not None and guild.owner_id == fake_discord.user_id("alice")
        assert {c.name for c in guild.text_channels} == {"games", "general"}
        # no members intent: discord.py caches only itself, but knows the count
        assert guild.me is not None and guild.member_count == 6
        assert bot.user is not None and bot.user.id == fake_discord.application_id
        assert bot.application_id == fake_discord.application_id
        synced = {c["name"]: c for c in fake_discord.commands[None]}
        assert set(synced) == {"game", "echo", "secret", "slow", "board", "thread", "dm", "pick",
                               "feedback", "tidy"}
        assert synced["echo"]["options"][0]["autocomplete"] is True
        assert fake_discord.rejections == []


async def test_slash_with_option_and_subcommand(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    async with run_bot(make_bot()):
        record = await fake_discord.interact(fake_discord.slash("game new", {"players": 3}))
        assert record.response_type == 4 and record.ack_latency is not None
        assert fake_discord.last_message().content == "new game for 3"
        with pytest.raises(LookupError):
            fake_discord.slash("game new", {"nope": 1})
        with pytest.raises(LookupError):
            fake_discord.slash("unknown")


async def test_autocomplete(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    async with run_bot(make_bot()):
        payload = fake_discord.autocomplete("echo", {"fruit": "ap"}, focused="fruit")
        record = await fake_discord.interact(payload)
        assert record.response_type == 8
        assert record.choices == [{"name": "apple", "value": "apple"},
                                  {"name": "apricot", "value": "apricot"}]


async def test_dynamic_button_updates_message(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    async with run_bot(make_bot()):
        await fake_discord.interact(fake_discord.slash("echo", {"fruit": "apple"}, user="bob"))
        message = fake_discord.last_message()
        assert message.find(label="Count 0")["custom_id"] == "count:0"
        record = await fake_discord.interact(fake_discord.button("count:0", message, user="bob"))
        assert record.response_type == 7 and record.original_id == message.id
        assert message.content == "count=1" and message.find(label="Count 1")
        assert message.history[0]["content"] == "echo apple"
        with pytest.raises(LookupError):
            fake_discord.button("count:0", message)  # no longer on the message


async def test_ephemeral_reply_is_not_public(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    async with run_bot(make_bot()):
        record = await fake_discord.interact(fake_discord.slash("secret", user="carol"))
        (message,) = fake_discord.interaction_messages(record)
        assert message.ephemeral and message.content == "only you"
        assert message not in fake_discord.public_messages()
        assert message.data["interaction_metadata"]["user"]["username"] == "carol"


async def test_deferred_reply_then_followups(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    async with run_bot(make_bot()):
        record = await fake_discord.interact(fake_discord.slash("slow"))
        assert record.response_type == 5
        original, picture = fake_discord.interaction_messages(record)
        assert original.content == "done thinking" and original.ephemeral
        assert not original.loading and original.history[0]["flags"] & (1 << 7)
        assert picture.ephemeral and picture.content == "and a picture"
        (upload,) = picture.attachments
        assert upload.filename == "board.png" and upload.content_type == "image/png"
        assert upload.image().size == (24, 12)
        assert upload.image().getpixel((0, 0)) == (0, 0, 255)
        assert fake_discord.calls_to("POST", r"^/webhooks/\d+/[^/]+$")[0].query["wait"] == "1"


async def test_channel_message_with_png_then_edit(fake_discord: FakeDiscord,
                                                  run_bot: RunBot) -> None:
    async with run_bot(make_bot()):
        record = await fake_discord.interact(fake_discord.slash("board"))
        post = fake_discord.calls_to("POST", r"^/channels/\d+/messages$")[0]
        assert post.files[0].field == "files[0]" and post.json["content"] == "board v1"
        board = fake_discord.last_message(predicate=lambda m: m.content.startswith("board"))
        assert board.content == "board v2" and board.data["edited_timestamp"]
        assert board.attachments[0].image().getpixel((0, 0)) == (255, 0, 0)
        size = len(board.attachments[0].data)
        # the deferred reply came first in the channel; the followup filled it in
        (reply,) = fake_discord.interaction_messages(record)
        assert reply.content == f"posted {size} bytes" and reply.id < board.id


async def test_threads(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    async with run_bot(make_bot()) as bot:
        record = await fake_discord.interact(fake_discord.slash("thread", {"name": "Havana #1"}))
        (reply,) = fake_discord.interaction_messages(record)
        thread_id = int(reply.content.split()[1])
        thread = fake_discord.channels[thread_id]
        assert thread["name"] == "Havana #1" and thread["type"] == 11
        assert fake_discord.channel_messages(thread_id)[0].content == "welcome to the thread"
        anchor = fake_discord.last_message(predicate=lambda m: m.content == "anchor")
        assert fake_discord.channels[anchor.id]["name"] == "Havana #1-2"
        cached = bot.get_channel(thread_id)
        assert isinstance(cached, discord.Thread) and cached.parent_id == fake_discord.channel_id
        # interactions can come from inside the thread
        await fake_discord.interact(fake_discord.slash("secret", channel=thread_id))
        assert fake_discord.channel_messages(thread_id)[-1].content == "only you"


async def test_dm_open_send_and_closed_dms(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    async with run_bot(make_bot()):
        record = await fake_discord.interact(fake_discord.slash("dm", {"user": "bob"}))
        assert fake_discord.interaction_messages(record)[0].content == "sent"
        assert [m.content for m in fake_discord.dm_messages("bob")] == ["psst"]
        fake_discord.close_dms("dave")
        record = await fake_discord.interact(fake_discord.slash("dm", {"user": "dave"}))
        assert fake_discord.interaction_messages(record)[0].content == "closed 50007"
        assert fake_discord.dm_messages("dave") == []
        assert fake_discord.calls_to("POST", r"^/users/@me/channels$")[-1].status == 200


async def test_fetch_edit_delete_routes(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    async with run_bot(make_bot()):
        record = await fake_discord.interact(fake_discord.slash("tidy"))
        texts = [m.content for m in fake_discord.interaction_messages(record)]
        assert texts == ["followup edited", "seen note; history note"]
        gone = fake_discord.channel_messages(deleted=True)
        assert [m.content for m in gone if m.deleted] == ["original", "note"]
        assert [c.status for c in fake_discord.calls_to("DELETE", "")] == [204, 204]


async def test_select_menu(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    async with run_bot(make_bot()):
        await fake_discord.interact(fake_discord.slash("pick"))
        message = fake_discord.last_message()
        with pytest.raises(LookupError):
            fake_discord.select("fruit", ["kiwi"], message)
        record = await fake_discord.interact(fake_discord.select("fruit", ["cherry"], message,
                                                                 user="erin"))
        assert fake_discord.interaction_messages(record)[0].content == "picked cherry"


async def test_modal_round_trip(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    async with run_bot(make_bot()):
        opened = await fake_discord.interact(fake_discord.slash("feedback"))
        assert opened.response_type == 9 and opened.modal is not None
        submitted = await fake_discord.interact(
            fake_discord.modal_submit(opened, {"words": "lovely"}))
        assert fake_discord.interaction_messages(submitted)[0].content == "thanks: lovely"


async def test_restart_then_click_old_button(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    async with run_bot(make_bot()):
        await fake_discord.interact(fake_discord.slash("echo", {"fruit": "banana"}))
    message = fake_discord.last_message()
    assert fake_discord.connections == [] or all(c.ws.closed for c in fake_discord.connections)
    async with run_bot(make_bot()):
        await fake_discord.interact(fake_discord.button("count:0", message))
        assert message.content == "count=1"
    assert fake_discord.identify_count == 2


async def test_rate_limit_is_retried(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    fake_discord.fail_next("POST", r"^/channels/\d+/messages$", status=429, retry_after=0.05)
    async with run_bot(make_bot()):
        await fake_discord.interact(fake_discord.slash("board"))
        posts = fake_discord.calls_to("POST", r"^/channels/\d+/messages$")
        assert [c.status for c in posts] == [429, 200]
        assert posts[0].files and posts[1].files  # the upload was sent again


async def test_forbidden_fault_and_late_ack(fake_discord: FakeDiscord, run_bot: RunBot) -> None:
    async with run_bot(make_bot(), allow_errors=True):
        fake_discord.fail_next("POST", r"/callback$", status=403, code=50001)
        record = await fake_discord.send_interaction(fake_discord.slash("secret"))
        failed = await fake_discord.wait_for_call("POST", r"/callback$")
        assert failed.status == 403 and record.response_type is None
        fake_discord.ack_deadline = 0.0
        record = await fake_discord.send_interaction(fake_discord.slash("secret"))
        late = await fake_discord.wait_for_call("POST", r"/callback$", count=2)
        assert late.status == 404 and late.response == {"message": "Unknown interaction",
                                                        "code": 10062}


async def test_raw_http_contract(fake_discord: FakeDiscord) -> None:
    """What discord.py relies on: exact JSON content type, 404 JSON for unknown routes,
    401 without the bot token, "already acknowledged" on a second callback."""
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.get(fake_discord.api_base + "/users/@me", headers=headers) as r:
            assert r.status == 200 and r.headers["Content-Type"] == "application/json"
            assert (await r.json())["bot"] is True
        async with session.get(fake_discord.api_base + "/nowhere/1", headers=headers) as r:
            assert r.status == 404 and (await r.json())["message"] == "404: Not Found"
        async with session.get(fake_discord.api_base + "/users/@me") as r:
            assert r.status == 401
        async with session.get(fake_discord.api_base + "/gateway/bot", headers=headers) as r:
            assert (await r.json())["url"] == fake_discord.gateway_url
        data = {"name": "x", "id": "1", "type": 1}
        record = fake_discord.register_interaction(fake_discord.envelope(2, data, "alice", None,
                                                                         "fr"))
        url = f"{fake_discord.api_base}/interactions/{record.id}/{record.token}/callback"
        body = {"type": 4, "data": {"content": "hi", "flags": EPHEMERAL}}
        async with session.post(url, json=body) as r:
            assert r.status == 204
        async with session.post(url, json=body) as r:
            assert r.status == 400 and (await r.json())["code"] == 40060
        other = fake_discord.register_interaction(fake_discord.envelope(2, data, "bob", None,
                                                                        "en-US"))
        url = f"{fake_discord.api_base}/interactions/{other.id}/{other.token}/callback"
        async with session.post(url, json={"type": 4, "data": {"content": "x" * 2001}}) as r:
            assert r.status == 400 and (await r.json())["code"] == 50035
        assert fake_discord.interaction_messages(record)[0].ephemeral
    assert [c.path for c in fake_discord.calls][:2] == ["/users/@me", "/nowhere/1"]
    assert fake_discord.rejections and "2001" in fake_discord.rejections[0][1][0]


def test_limits_catch_what_discord_refuses() -> None:
    good = {"name": "game", "description": "Games", "options": [
        {"type": 1, "name": "new", "description": "New", "options": [
            {"type": 4, "name": "players", "description": "How many", "required": True}]}]}
    assert discord_limits.command_problems([good]) == []
    assert discord_limits.valid_name("partie-é_2") and not discord_limits.valid_name("Game")
    bad = {**good, "name": "Game", "name_localizations": {"fr": "Partie"},
           "options": [{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)]}
    problems = discord_limits.command_problems([bad])
    assert any("invalid command name" in p for p in problems)
    assert any("localised name" in p for p in problems)
    assert any("26 options" in p for p in problems)
    many = [{**good, "name": f"c{i}"} for i in range(101)]
    assert discord_limits.command_problems(many) == ["101 global slash commands (max 100)"]

    def button(i: int, custom_id: str | None = None) -> dict[str, Any]:
        return {"type": 2, "style": 1, "label": "b", "custom_id": custom_id or f"b{i}"}

    row = {"type": 1, "components": [button(i) for i in range(6)]}
    assert any("6 buttons" in p for p in discord_limits.message_problems({"components": [row]}))
    rows = [{"type": 1, "components": [button(10 * r + i) for i in range(2)]} for r in range(6)]
    assert any("6 action rows" in p for p in discord_limits.message_problems({"components": rows}))
    long_id = {"type": 1, "components": [button(0, "x" * 101)]}
    assert any("custom_id" in p for p in discord_limits.message_problems({"components": [long_id]}))
    select = {"type": 3, "custom_id": "s", "options": [
        {"label": str(i), "value": str(i)} for i in range(26)]}
    menu = {"type": 1, "components": [select]}
    problems = discord_limits.message_problems({"components": [menu]})
    assert any("26 options" in p for p in problems)


async def test_enforce_nonce_returns_the_earlier_message(fake_discord: FakeDiscord,
                                                         run_bot: RunBot) -> None:
    """As Discord: a post repeated with the same nonce (enforce_nonce) is the first message
    again; a post without it, or with another nonce, is a new message. Mentions are only
    those that allowed_mentions lets through."""
    fake = fake_discord
    alice, bob = fake.user_id("alice"), fake.user_id("bob")
    async with run_bot(make_bot()) as bot:
        channel = await bot.fetch_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel)
        only_alice = discord.AllowedMentions(users=[discord.Object(alice)])
        first = await channel.send(f"<@{alice}> <@{bob}> go", nonce="turn-1",
                                   allowed_mentions=only_alice)
        again = await channel.send(f"<@{alice}> <@{bob}> go", nonce="turn-1",
                                   allowed_mentions=only_alice)
        other = await channel.send("another", nonce="turn-2")
    assert again.id == first.id and other.id != first.id
    stored = fake.channel_messages(ephemeral=False)
    assert [m.content for m in stored].count(f"<@{alice}> <@{bob}> go") == 1
    assert [u["id"] for u in fake.message(first.id).data["mentions"]] == [str(alice)]


def make_shard_bot(shard_id: int) -> commands.Bot:
    """A minimal bot holding one shard of two, answering with what it holds."""
    bot = commands.AutoShardedBot(command_prefix=commands.when_mentioned,
                                  intents=discord.Intents.default(), shard_ids=[shard_id],
                                  shard_count=2)

    @bot.tree.command(description="Which shard answers")
    async def whoami(interaction: discord.Interaction) -> None:
        guilds = sorted(g.name for g in bot.guilds)
        await interaction.response.send_message(f"shard {shard_id} of {guilds}")

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def test_two_shards_each_get_their_guilds(fake_discord: FakeDiscord,
                                                run_bot: RunBot) -> None:
    fake = fake_discord
    fake.guilds.pop(fake.guild_id)  # the default guild's shard depends on the clock
    channels = [fake.add_channel(fake.add_guild(f"g{k}", owner="alice", shard=(k, 2)), "games")
                for k in (0, 1)]
    async with run_bot(make_shard_bot(0)), run_bot(make_shard_bot(1)):
        assert sorted(c.shard for c in fake.connections if c.shard) == [(0, 2), (1, 2)]
        for k, channel in enumerate(channels):  # each guild's interaction reaches its shard
            record = await fake.interact(fake.slash("whoami", channel=channel))
            assert fake.interaction_messages(record)[0].content == f"shard {k} of ['g{k}']"
        # A DM has no guild: Discord sends it to shard 0.
        record = await fake.interact(fake.slash("whoami", channel=fake.dm_channel("bob"),
                                                user="bob"))
        assert fake.interaction_messages(record)[0].content == "shard 0 of ['g0']"
