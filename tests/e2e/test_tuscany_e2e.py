"""The Castles of Tuscany end to end: the real application against the fake Discord.

One human and one AI seat; the human acts only as a Discord user can (slash commands,
autocomplete, clicks on the private panel). Checked: the panel carries the player's labelled
region exactly when the step asks for a space (and while arranging), the public messages carry
the board and never a hand, and the command tree stays within Discord's limits.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from bot.adapter.app import build_bot
from bot.adapter.client import LudoBot
from bot.core.i18n import t
from bot.core.settings import Settings
from cogs.tuscany import VERBS
from tests.e2e import discord_limits, leaks
from tests.e2e.conftest import RunBot
from tests.e2e.fake_discord import FakeDiscord, StoredMessage

PRIVATE_KEYS = ("tuscany.panel.hand", "tuscany.ev.draw_private")
IMAGE_STEPS = ("setup_arrange", "setup_castle", "space")
PANEL_IMAGE = "tuscany_panel.png"
PREFERRED = {"confirm", "place", "tile", "space"}
MAX_MOVES = 200


def private_patterns() -> list[re.Pattern[str]]:
    """The wording of the hand and of the private draw, in en and fr."""
    return leaks.private_patterns("tuscany", PRIVATE_KEYS)


def step_in(panel: StoredMessage) -> str | None:
    """The step the panel asks about, recognised by its English wording."""
    for step in (*IMAGE_STEPS, "main", "take", "replace", "place", "pay", "castle", "improve",
                 "extra", "setup_improve"):
        if t(f"tuscany.panel.ask.{step}", "en") in panel.content:
            return step
    return None


async def make_bot(fake: FakeDiscord, database: Path) -> LudoBot:
    return await build_bot(Settings(discord_token=fake.token, database=database, ai_delay=0,
                                    ai_level="random"))  # the plumbing, not AI strength


class Table:
    """A one-human Tuscany table played through the panel."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.panel: StoredMessage | None = None
        self.images: dict[str, int] = {}  # step -> panels seen with the region image

    async def open(self) -> None:
        fake = self.fake
        record = await fake.interact(fake.slash("game new", {"game": "tuscany", "seats": 2}))
        (lobby,) = fake.interaction_messages(record)
        await fake.interact(fake.button(lobby.find(label="Add bot")["custom_id"], lobby))
        mark = len(fake.calls)
        await fake.interact(fake.button(lobby.find(label="Start")["custom_id"], lobby))
        await fake.wait_for_call("POST", r"^/channels/\d+/messages$", since=mark)
        await fake.idle()

    async def open_panel(self) -> StoredMessage:
        record = await self.fake.interact(self.fake.slash("game hand"), settle=False)
        await record.wait_answer(timeout=120)  # the panel is deferred, then sent
        (panel,) = self.fake.interaction_messages(record)
        assert panel.ephemeral
        return panel

    def check_image(self, panel: StoredMessage) -> None:
        """The region image is attached exactly when the step asks for a space."""
        step = step_in(panel)
        names = [f.filename for f in panel.attachments]
        if step in IMAGE_STEPS:
            assert names == [PANEL_IMAGE], (step, names)
            image = panel.attachments[0].image()
            assert image.format == "PNG" and image.width > image.height
            self.images[step] = self.images.get(step, 0) + 1
        else:
            assert PANEL_IMAGE not in names, (step, names)

    def decision(self, panel: StoredMessage, rng: random.Random) -> dict[str, Any]:
        """A random move; most of the time one that leads to a space or out of setup
        when offered, so a short game reaches the steps under test whatever its seed."""
        offered = []  # (component, action text); the take-back button is left alone
        for component in panel.interactive():
            if component["type"] == 2:
                parts = component["custom_id"].split(":", 4)  # ludo:do:<game>:<ver>:<action>
                if parts[1] == "do":
                    offered.append((component, parts[4].replace("~", " ")))
            else:
                offered += [(component, o["value"]) for o in component["options"]]
        preferred = [o for o in offered if o[1].split(" ")[0] in PREFERRED]
        component, action = rng.choice(preferred if preferred and rng.random() < 0.7
                                       else offered)
        if component["type"] == 2:
            return self.fake.button(component["custom_id"], panel)
        low = component.get("min_values", 1)
        if component.get("max_values", 1) > 1:  # a subset decision: pick its smallest size
            values = [o["value"] for o in component["options"]]
            return self.fake.select(component["custom_id"], rng.sample(values, max(low, 1)),
                                    panel)
        return self.fake.select(component["custom_id"], [action], panel)

    async def play(self, rng: random.Random, *, until: set[str], moves: int) -> int:
        """Random clicks on the panel until every step of ``until`` showed its image and
        ``moves`` were made (at most MAX_MOVES)."""
        made = 0
        while made < MAX_MOVES and (made < moves or not until <= set(self.images)):
            panel = self.panel
            if panel is None or not panel.interactive():
                panel = await self.open_panel()
            if not panel.interactive():
                await self.fake.idle(quiet=0.1)  # the AI is moving
                self.panel = None
                continue
            self.check_image(panel)
            payload = self.decision(panel, rng)
            record = await self.fake.interact(payload, quiet=0.005)
            fresh = [m for m in self.fake.interaction_messages(record) if m.interactive()]
            self.panel = fresh[-1] if fresh else None
            made += 1
        await self.fake.idle()  # a fresh panel for a stale click may still be on its way
        return made


def assert_no_hand_in_public(fake: FakeDiscord) -> None:
    patterns = private_patterns()
    leaks.assert_no_private_text(fake, patterns)
    private = [m for m in fake.all_messages() if m.ephemeral]
    assert any(p.search(m.text()) for m in private for p in patterns)  # the check can fail


async def test_one_human_and_an_ai_play_through_the_panel(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    fake = fake_discord
    bot = await make_bot(fake, tmp_path / "db.sqlite3")
    async with run_bot(bot):
        table = Table(fake)
        await table.open()
        started = fake.last_message()
        assert t("tuscany.name", "en") in started.content
        (board,) = started.attachments
        assert board.filename == "tuscany.png" and board.image().size == (1600, 1000)

        # The first setup decision by slash command, its value from autocomplete.
        auto = await fake.interact(fake.autocomplete("tuscany region", {"choice": ""},
                                                     "choice"))
        assert auto.choices and len(auto.choices) <= 25
        values = [c["value"] for c in auto.choices]
        assert "confirm" in values and any(v.startswith("arrange ") for v in values)
        arrange = next(v for v in values if v.startswith("arrange "))
        moved = await fake.interact(fake.slash("tuscany region", {"choice": arrange}))
        (answer,) = fake.interaction_messages(moved)
        assert answer.ephemeral and "⚠️" not in answer.content
        assert step_in(answer) == "setup_arrange"  # the preview of the new arrangement
        table.check_image(answer)

        made = await table.play(random.Random(3), until={"setup_arrange", "space"}, moves=30)
        assert made >= 30
        assert {"setup_arrange", "space"} <= set(table.images), table.images
        game = await bot.service.in_channel(fake.channel_id)
        assert game is not None
        assert len([e for e in await bot.service.log(game.id, limit=10_000) if e.seat == 0]) >= 10

        boards = [f for m in fake.public_messages() for f in m.attachments
                  if f.filename == "tuscany.png"]
        assert len(boards) >= 3
        assert all(len(f.data) < 1_500_000 for f in boards)
    assert fake.rejections == []
    assert_no_hand_in_public(fake)


async def test_command_tree_and_messages_respect_discord_limits(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    fake = fake_discord
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")):
        tree = fake.commands[None]
        assert discord_limits.command_problems(tree) == []
        assert len(tree) <= discord_limits.MAX_GLOBAL_COMMANDS
        by_name: dict[str, Any] = {c["name"]: c for c in tree}
        tuscany = by_name["tuscany"]
        assert {o["name"] for o in tuscany["options"]} == {v.name for v in VERBS} | {"look"}
        assert tuscany.get("name_localizations", {}).get("fr") == "toscane"
        assert len(by_name["game"]["options"]) <= discord_limits.MAX_OPTIONS
        table = Table(fake)
        await table.open()
        await table.play(random.Random(8), until=set(), moves=15)
    for message in fake.all_messages():
        for version in [*message.history, message.data]:
            body = {"content": version.get("content"), "components": version["components"],
                    "embeds": version.get("embeds"), "flags": version.get("flags")}
            assert discord_limits.message_problems(body) == [], message.id
    assert fake.rejections == []


async def test_look_shows_any_region_privately(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    fake = fake_discord
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")):
        table = Table(fake)
        await table.open()
        public_before = len(fake.public_messages())
        for options in ({}, {"player": 2}):
            record = await fake.interact(fake.slash("tuscany look", options, user="bob"))
            (answer,) = fake.interaction_messages(record)
            assert answer.ephemeral and [f.filename for f in answer.attachments] == ["region.png"]
            image = answer.attachments[0].image()
            assert image.format == "PNG" and image.width > 200
        assert len(fake.public_messages()) == public_before  # nothing posted publicly
        record = await fake.interact(fake.slash("tuscany look", {"player": 4}))
        (refusal,) = fake.interaction_messages(record)
        assert refusal.ephemeral and "⚠️" in refusal.content


async def test_cancelled_game_panel_asks_for_nothing(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    """After a cancel, "My panel" says the game is over, without the step's question."""
    fake = fake_discord
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")):
        table = Table(fake)
        await table.open()
        started = fake.last_message(predicate=lambda m: any(
            c["custom_id"].startswith("ludo:panel:") for c in m.interactive()))
        before = await table.open_panel()
        ask = t("tuscany.panel.ask.setup_arrange", "en")
        assert ask in before.content  # the human is awaited in the arrangement step
        await fake.interact(fake.slash("game cancel"))  # the only human votes: cancelled
        button = started.find(prefix="ludo:panel:")
        record = await fake.interact(fake.button(button["custom_id"], started))
        (panel,) = fake.interaction_messages(record)
        assert panel.ephemeral
        assert t("ui.game_not_active", "en") in panel.content
        assert ask not in panel.content
        assert not panel.interactive() and not panel.attachments


async def test_turn_message_text_and_board_share_one_language(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    """A French server without a language override: the turn message's text and its board
    image are both French (one rule: override, then Discord's server locale, then default)."""
    fake = fake_discord
    fake.guilds[fake.guild_id]["preferred_locale"] = "fr"
    bot = await make_bot(fake, tmp_path / "db.sqlite3")
    drawn: list[str] = []
    render = bot.service._render_fn

    async def recording(game_key: str, view: Any, names: Any, locale: str) -> bytes:
        drawn.append(locale)
        return await render(game_key, view, names, locale)

    bot.service._render_fn = recording
    async with run_bot(bot):
        record = await fake.interact(fake.slash("game new", {"game": "tuscany", "seats": 2}))
        (lobby,) = fake.interaction_messages(record)
        mark = len(fake.calls)
        for op in ("ai", "start"):  # the lobby's labels are French: found by custom_id
            button = next(c for c in lobby.interactive() if c["custom_id"].endswith(op))
            await fake.interact(fake.button(button["custom_id"], lobby))
        await fake.wait_for_call("POST", r"^/channels/\d+/messages$", since=mark)
        await fake.idle()
        started = fake.last_message(predicate=lambda m: any(
            f.filename == "tuscany.png" for f in m.attachments))
        fr_name = t("tuscany.name", "fr")
        assert t("ui.started", "fr", game=fr_name, players="").split("{")[0][:12] \
            in started.content
        assert drawn and set(drawn) == {"fr"}
