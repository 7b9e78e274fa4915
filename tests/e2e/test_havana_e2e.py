"""Havana end to end: the real application (``bot.adapter.app.build_bot``) against the fake Discord.

Players act only as a Discord user can — slash commands, autocomplete, buttons, selects —
and the tests check only what Discord would hold: messages (public or ephemeral), uploads,
the synced command tree. The durable action log is read once or twice as ground truth for
"exactly one move was applied".
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.adapter.app import build_bot
from bot.adapter.client import LudoBot
from bot.core.i18n import t
from bot.core.render import render_sync
from bot.core.settings import Settings
from tests.e2e import discord_limits, leaks
from tests.e2e.conftest import RunBot
from tests.e2e.fake_discord import FakeDiscord, InteractionRecord, StoredMessage

MAX_ROUNDS = 2000  # rounds of the play loop: a whole game takes a few hundred at most
PRIVATE_KEYS = ("havana.ev.you_picked", "havana.ev.you_cover", "havana.ev.you_recovered",
                "havana.panel.hand", "havana.panel.discard", "havana.panel.picked")


def final_title(locale: str = "en") -> str:
    return t("ui.final_title", locale, game=t("havana.name", locale))


def private_patterns() -> list[re.Pattern[str]]:
    return leaks.private_patterns("havana", PRIVATE_KEYS)


async def make_bot(fake: FakeDiscord, database: Path) -> LudoBot:
    settings = Settings(discord_token=fake.token, database=database, ai_delay=0,
                        ai_level="random")  # the plumbing under test, not AI strength
    return await build_bot(settings)


class Table:
    """A Havana table driven the way players would drive it in Discord."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.panels: dict[str, StoredMessage] = {}
        self.game_id = 0

    def over(self) -> bool:
        return any(final_title() in m.content for m in self.fake.public_messages())

    async def open(self, *, humans: Sequence[str] = ("alice",), ais: int = 2) -> StoredMessage:
        fake, creator = self.fake, humans[0]
        seats = len(humans) + ais
        record = await fake.interact(fake.slash("game new", {"game": "havana", "seats": seats},
                                                user=creator))
        (lobby,) = fake.interaction_messages(record)
        assert not lobby.ephemeral
        self.game_id = int(lobby.find(label="Start")["custom_id"].split(":")[2])
        for human in humans[1:]:
            await fake.interact(fake.button(lobby.find(label="Join")["custom_id"], lobby,
                                            user=human))
        for _ in range(ais):
            await fake.interact(fake.button(lobby.find(label="Add bot")["custom_id"], lobby,
                                            user=creator))
        mark = len(fake.calls)
        await fake.interact(fake.button(lobby.find(label="Start")["custom_id"], lobby,
                                        user=creator))
        await fake.wait_for_call("POST", r"^/channels/\d+/messages$", since=mark)
        await fake.idle()
        return lobby

    async def panel(self, user: str) -> StoredMessage:
        """``/game hand``: the user's ephemeral panel."""
        record = await self.fake.interact(self.fake.slash("game hand", user=user), settle=False)
        await record.wait_answer(timeout=120)  # the panel is deferred, then sent
        (panel,) = self.fake.interaction_messages(record)
        assert panel.ephemeral
        self.panels[user] = panel
        return panel

    async def stable_panel(self, user: str) -> StoredMessage:
        """The user's panel once they are awaited and the AI seats have stopped moving (two
        panels in a row drawn for the same state version)."""
        previous: list[str] = []
        for _ in range(100):
            panel = await self.panel(user)
            ids = [c["custom_id"] for c in panel.interactive()]
            if ids and ids == previous:
                return panel
            previous = ids
            await self.fake.idle(quiet=0.1)
        raise AssertionError(f"{user} never got a stable panel")

    def decision(self, panel: StoredMessage, user: str, rng: random.Random) -> dict[str, Any]:
        # The take-back button is left alone: random take-backs would keep the game from
        # ending (undo has its own tests).
        offered = [c for c in panel.interactive() if not c["custom_id"].startswith("ludo:undo:")]
        component = rng.choice(offered)
        if component["type"] == 2:
            return self.fake.button(component["custom_id"], panel, user=user)
        value = rng.choice(component["options"])["value"]
        return self.fake.select(component["custom_id"], [value], panel, user=user)

    async def click(self, panel: StoredMessage, user: str,
                    rng: random.Random) -> InteractionRecord:
        """One decision on ``panel``; the panel to use next is the refreshed one (edited in
        place, or sent anew when the clicked one was out of date)."""
        # The refreshed panel is awaited explicitly: no long quiet time needed.
        record = await self.fake.interact(self.decision(panel, user, rng), quiet=0.005)
        fresh = [m for m in self.fake.interaction_messages(record) if m.interactive()]
        self.panels[user] = fresh[-1] if fresh else panel
        return record

    async def play(self, rng: random.Random, users: Sequence[str] = ("alice",), *,
                   moves: int | None = None) -> int:
        """Random legal clicks by ``users`` until the game ends (or ``moves`` were made)."""
        made = 0
        for _ in range(MAX_ROUNDS):
            if self.over() or (moves is not None and made >= moves):
                break
            mark = len(self.fake.calls)
            acted = False
            for user in users:
                panel = self.panels.get(user)
                if panel is None or not panel.interactive():
                    panel = await self.panel(user)
                if panel.interactive():
                    await self.click(panel, user, rng)
                    made, acted = made + 1, True
            if not acted:
                # No human is awaited: the AI seats are playing; wait for their turn message.
                with contextlib.suppress(TimeoutError):
                    await self.fake.wait_for_call("POST", r"^/channels/\d+/messages$",
                                                  since=mark, timeout=2.0)
                await self.fake.idle()
                self.panels.clear()
        return made

    async def human_log(self, bot: LudoBot, seat: int = 0) -> list[str]:
        entries = await bot.service.log(self.game_id, limit=10_000)
        return [e.action for e in entries if e.seat == seat]


def assert_no_leak(fake: FakeDiscord) -> None:
    leaks.assert_no_private_text(fake, private_patterns())


def image_of(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


# --------------------------------------------------------------------------- scenarios


async def test_whole_game_one_human_two_ai(fake_discord: FakeDiscord, run_bot: RunBot,
                                           tmp_path: Path) -> None:
    fake = fake_discord
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")) as bot:
        table = Table(fake)
        await table.open()
        started = fake.last_message()
        assert "Havana" in started.content and started.attachments
        assert started.attachments[0].image().size[0] > 100

        # The first decision by slash command, its value taken from autocomplete.
        auto = await fake.interact(fake.autocomplete("havana pick", {"choice": ""}, "choice"))
        assert auto.choices and len(auto.choices) <= 25
        pick = await fake.interact(fake.slash("havana pick",
                                              {"choice": auto.choices[0]["value"]}))
        (answer,) = fake.interaction_messages(pick)
        assert answer.ephemeral and "Chosen (hidden)" in answer.content
        # The public "My panel" button opens the same private panel.
        opened = await fake.interact(fake.button(f"ludo:panel:{table.game_id}", started))
        assert fake.interaction_messages(opened)[0].ephemeral
        board = await fake.interact(fake.slash("game board"))
        (shown,) = fake.interaction_messages(board)
        assert not shown.ephemeral and shown.attachments[0].content_type == "image/png"
        assert shown.find(prefix="ludo:panel:")

        moves = await table.play(random.Random(7))
        assert moves > 5
        (final,) = [m for m in fake.public_messages() if final_title() in m.content]
        for name in ("Alice", "AI 1", "AI 2"):
            assert name in final.content
        assert "🏆" in final.content

        (image,) = final.attachments  # the last board comes with the standings
        assert image.image().size[0] > 100 and len(image.data) < 1_500_000
        assert len(await table.human_log(bot)) > 10
        late = await fake.interact(fake.slash("game hand"))
        (closed,) = fake.interaction_messages(late)
        assert closed.ephemeral and not closed.interactive()  # nothing left to do
    assert fake.rejections == []
    assert_no_leak(fake)
    slow = [r.ack_latency for r in fake.interactions.values()
            if r.ack_latency is None or r.ack_latency > 3.0]
    assert slow == []


async def test_restart_mid_game_keeps_buttons(fake_discord: FakeDiscord, run_bot: RunBot,
                                              tmp_path: Path) -> None:
    fake, database = fake_discord, tmp_path / "db.sqlite3"
    rng = random.Random(11)
    table = Table(fake)
    async with run_bot(await make_bot(fake, database)) as bot:
        await table.open()
        await table.play(rng, moves=6)
        assert not table.over()
        turn_message = fake.last_message(predicate=lambda m: not m.ephemeral
                                         and any(c["custom_id"].startswith("ludo:panel:")
                                                 for c in m.interactive()))
        log = await fake.interact(fake.slash("game log", {"count": 50}))
        (listing,) = fake.interaction_messages(log)
        assert listing.ephemeral and listing.content.count("`#") >= 3
        panel = await table.stable_panel("alice")
        before = await table.human_log(bot)

    async with run_bot(await make_bot(fake, database)) as bot:
        assert fake.identify_count == 2
        # A component of the panel drawn before the restart still plays its move.
        record = await fake.interact(table.decision(panel, "alice", rng))
        assert record.response_type == 6
        assert len(await table.human_log(bot)) == len(before) + 1
        # The public "My panel" button posted before the restart still works.
        opened = await fake.interact(fake.button(turn_message.find(
            prefix="ludo:panel:")["custom_id"], turn_message))
        assert fake.interaction_messages(opened)[0].ephemeral
        table.panels.clear()
        await table.play(rng)
        assert table.over()
    assert fake.rejections == []


async def test_double_click_applies_once(fake_discord: FakeDiscord, run_bot: RunBot,
                                         tmp_path: Path) -> None:
    fake = fake_discord
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")) as bot:
        table = Table(fake)
        await table.open()
        rng = random.Random(3)
        for _ in range(3):  # in several situations: picks and plays
            panel = await table.stable_panel("alice")
            before = await table.human_log(bot)
            payload = table.decision(panel, "alice", rng)
            twin = table.decision(panel, "alice", random.Random())
            twin["data"] = payload["data"]
            records: list[InteractionRecord] = list(await asyncio.gather(
                fake.send_interaction(payload), fake.send_interaction(twin)))
            await asyncio.gather(*(r.wait() for r in records))
            for record in records:
                await fake.settled(record)
            assert len(await table.human_log(bot)) == len(before) + 1
            stale = t("service.stale_version", "en")
            notices = [m for r in records for m in fake.interaction_messages(r)
                       if m.id != panel.id]
            assert len(notices) >= 1 and all(m.ephemeral for m in notices)
            assert any(stale in m.content for m in notices)
    assert fake.rejections == []


async def test_outsider_and_out_of_turn_are_refused(fake_discord: FakeDiscord, run_bot: RunBot,
                                                    tmp_path: Path) -> None:
    fake = fake_discord
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")) as bot:
        table = Table(fake)
        await table.open(humans=("alice", "bob"), ais=1)
        rng = random.Random(5)
        # Play until exactly one of the two humans is awaited.
        for _ in range(200):
            alice, bob = await table.panel("alice"), await table.panel("bob")
            if bool(alice.interactive()) != bool(bob.interactive()):
                break
            await table.play(rng, ("alice", "bob"), moves=1)
        else:
            pytest.fail("never reached a turn of a single human")
        mover, waiter = ("alice", "bob") if alice.interactive() else ("bob", "alice")
        panel = await table.stable_panel(mover)
        for _ in range(200):  # the turn messages already owed are posted before counting
            await fake.idle(quiet=0.1)
            if not await bot.repo.pending_outbox():
                break
        public_before = len(fake.public_messages())
        log_before = len(await bot.service.log(table.game_id, limit=10_000))
        panel_versions = len(panel.history)

        attempts = [
            fake.slash("game hand", user="carol"),
            fake.slash("havana end", {"choice": "end"}, user="carol"),
            fake.slash("havana move", {"choice": "end"}, user=waiter),
            table.decision(panel, "carol", rng),
            table.decision(panel, waiter, rng),
        ]
        for payload in attempts:
            record = await fake.interact(payload)
            replies = [m for m in fake.interaction_messages(record) if m.id != panel.id]
            assert replies and all(m.ephemeral for m in replies), payload["data"]
            assert "⚠️" in replies[-1].content
        assert len(fake.public_messages()) == public_before
        assert len(await bot.service.log(table.game_id, limit=10_000)) == log_before
        assert len(panel.history) == panel_versions  # the mover's panel was not touched
        refusal = t("service.not_seated", "en")
        assert any(refusal in m.content for m in fake.all_messages() if m.ephemeral)


async def assert_public_board_is_spectator_view(fake: FakeDiscord, bot: LudoBot,
                                                table: Table) -> None:
    for _ in range(50):  # the AI seats may move meanwhile: compare against a stable state
        before = await bot.service.view(table.game_id, None)
        board = await fake.interact(fake.slash("game board"))
        if before == await bot.service.view(table.game_id, None):
            break
    else:
        pytest.fail("the game never stood still")
    (upload,) = fake.interaction_messages(board)[0].attachments
    spectator = render_sync("havana", before, ["Alice", "AI 1", "AI 2"], "en")
    difference = ImageChops.difference(image_of(upload.data), image_of(spectator))
    assert difference.getbbox() is None, "the public board is not the spectator view"


async def test_public_messages_and_board_hide_private_information(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    """The whole-game test checks a full game's messages; this one checks the board image
    while picks are hidden, and the messages of a round with its secret "cover" choices."""
    fake = fake_discord
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")) as bot:
        table = Table(fake)
        await table.open()
        # Alice secretly chooses one card: the public board must not show it.
        await table.click(await table.panel("alice"), "alice", random.Random(1))
        await assert_public_board_is_spectator_view(fake, bot, table)
        await table.play(random.Random(2), moves=30)
        await assert_public_board_is_spectator_view(fake, bot, table)
        actions = await table.human_log(bot)
        assert any(a.startswith("cover") for a in actions), actions  # a secret cover happened
    assert_no_leak(fake)
    # the panels did carry the private wording, so the check above can fail
    private = [m for m in fake.all_messages() if m.ephemeral]
    assert any(p.search(m.text()) for m in private for p in private_patterns())


async def test_command_tree_and_components_respect_discord_limits(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    fake = fake_discord
    async with run_bot(await make_bot(fake, tmp_path / "db.sqlite3")):
        tree = fake.commands[None]
        assert discord_limits.command_problems(tree) == []
        assert len(tree) <= discord_limits.MAX_GLOBAL_COMMANDS
        names = {c["name"] for c in tree}
        assert {"game", "havana"} <= names
        game = next(c for c in tree if c["name"] == "game")
        subcommands = {o["name"] for o in game["options"]}
        assert {"new", "join", "leave", "add-bot", "start", "cancel", "board", "hand", "log",
                "mine", "rules", "settings"} <= subcommands
        assert game.get("name_localizations", {}).get("fr")  # localised, and checked above
        table = Table(fake)
        await table.open()
        await table.play(random.Random(4), moves=12)
    for message in fake.all_messages():
        for version in [*message.history, message.data]:
            body = {"content": version.get("content"), "components": version["components"],
                    "embeds": version.get("embeds"), "flags": version.get("flags")}
            assert discord_limits.message_problems(body) == [], message.id
    assert fake.rejections == []
