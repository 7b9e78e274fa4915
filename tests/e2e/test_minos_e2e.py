"""Minos end to end: the real application against the fake Discord, a whole game.

One human (Alice) and one AI seat. Alice acts only as a Discord user can: clicks on her
private panel (buttons, selects, the dice multi-selects) and a slash command with its
autocomplete. Her policy reads the public board (what any player sees) to sail next to the
AI's pieces and wait there without attacking until she has been attacked and has answered
as the defender — a conflict during the AI's turn, where she is the awaited seat — then she
attacks until one side is out. Checked: the panel shows the current throw as dice, the
defender's prompt and answer, the public board and the final standings, Discord's limits.
"""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from bot.adapter.app import build_bot
from bot.adapter.client import LudoBot
from bot.core.i18n import t
from bot.core.settings import Settings
from engines.minos.data import GUARD_STEPS, SHIP_STEPS
from tests.e2e import discord_limits
from tests.e2e.conftest import RunBot
from tests.e2e.fake_discord import FakeDiscord, StoredMessage

SEED = 7  # the game's seed (the lobby draws one at random; fixed here to be reproducible)
MAX_CLICKS = 1500


def distance(graph: dict[str, tuple[str, ...]], start: str, goals: set[str]) -> int:
    """Steps from ``start`` to the nearest of ``goals`` on an empty board."""
    if start in goals:
        return 0
    seen, todo = {start}, deque([(start, 0)])
    while todo:
        here, d = todo.popleft()
        for there in graph.get(here, ()):
            if there in goals:
                return d + 1
            if there not in seen:
                seen.add(there)
                todo.append((there, d + 1))
    return 99


class Alice:
    """The human seat's policy, acting through her panel."""

    def __init__(self, fake: FakeDiscord, bot: LudoBot, rng: random.Random) -> None:
        self.fake, self.bot, self.rng = fake, bot, rng
        self.defended = 0  # conflicts answered as the defender
        self.dice_images = 0
        self.panel: StoredMessage | None = None
        self.game_id = 0

    async def view(self) -> dict[str, Any]:
        if not self.game_id:
            game = await self.bot.service.in_channel(self.fake.channel_id)
            assert game is not None
            self.game_id = game.id
        return await self.bot.service.view(self.game_id, None)

    async def open_panel(self) -> StoredMessage:
        record = await self.fake.interact(self.fake.slash("game hand"))  # the deferred panel
        (panel,) = self.fake.interaction_messages(record)
        assert panel.ephemeral
        return panel

    def offered(self, panel: StoredMessage) -> list[tuple[dict[str, Any], str]]:
        """(component, action text or subset head) for every choice on the panel."""
        found = []
        for component in panel.interactive():
            parts = component["custom_id"].split(":", 4)
            if parts[1] == "do":
                found.append((component, parts[4].replace("~", " ")))
            elif parts[1] == "sel":
                found += [(component, o["value"]) for o in component["options"]]
            elif parts[1] == "sub":
                found.append((component, "sub " + parts[4].replace("~", " ")))
        return found

    def enemy_places(self, view: dict[str, Any]) -> set[str]:
        places = {p for p, seats in view["ships"].items() if any(s != 0 for s in seats)}
        places |= {p for p, g in view["guards"].items() if g[0] != 0}
        return places

    def step_score(self, view: dict[str, Any], kind: str, place: str, attack: bool) -> float:
        if attack:
            return -100.0 if self.defended else 100.0
        graph = SHIP_STEPS if kind == "ship" else GUARD_STEPS
        near = distance(graph, place, self.enemy_places(view))
        return float(near) if near > 0 else 50.0

    async def decide(self, panel: StoredMessage) -> dict[str, Any]:
        view = await self.view()
        offered = self.offered(panel)
        by_kind: dict[str, list[tuple[dict[str, Any], str]]] = {}
        for component, text in offered:
            kind = text.split(" ")[1] if text.startswith("sub ") else text.split(" ")[0]
            by_kind.setdefault(kind, []).append((component, text))
        if view["phase"] in ("order", "defend") and view["combat"]["defender"] == 0:
            self.defended += view["phase"] == "defend"
        for kind in ("face", "stand", "buy"):
            if kind in by_kind:
                component, text = by_kind[kind][0]
                if kind == "buy":
                    component, text = by_kind[kind][min(1, len(by_kind[kind]) - 1)]
                return self.click(panel, component, text)
        if "rethrow" in by_kind and self.rng.random() < 0.5:
            component, _ = by_kind["rethrow"][0]
            values = [o["value"] for o in component["options"]][:1]
            return self.fake.select(component["custom_id"], values, panel)
        if "dice" in by_kind:
            component, text = by_kind["dice"][0]
            if text.startswith("sub "):
                values = [o["value"] for o in component["options"]]
                return self.fake.select(component["custom_id"], values, panel)
            return self.click(panel, component, text)
        if "step" in by_kind and view["selected"]:
            kind, place = view["selected"].split(":")
            del place
            steps = []
            for component, text in by_kind["step"]:
                target = text.split(" ")[1]
                attack = target in self.enemy_places(view)
                steps.append((self.step_score(view, kind, target, attack), component, text))
            best = min(steps, key=lambda s: s[0])
            current = self.step_score(view, kind, view["selected"].split(":")[1], False)
            if best[0] < current or (best[0] <= -100 and self.defended):
                return self.click(panel, best[1], best[2])
        if "piece" in by_kind and view["mp"] > 0 and not view["selected"]:
            component, text = by_kind["piece"][0]
            return self.click(panel, component, text)
        for symbol in ("seagull", "arrow", "scales", "construction"):
            for component, text in by_kind.get("use", []):
                if text == f"use {symbol}":
                    return self.click(panel, component, text)
        if "keep" in by_kind and view["throws"] == 1:
            component, _ = by_kind["keep"][0]
            keep = [o["value"] for o in component["options"]
                    if view["dice"][int(o["value"].split(":")[1])] in ("seagull", "joker")]
            return self.fake.select(component["custom_id"], keep[:5], panel)
        component, text = by_kind["end"][0]
        return self.click(panel, component, text)

    def click(self, panel: StoredMessage, component: dict[str, Any], text: str) -> dict[str, Any]:
        if component["type"] == 2:
            return self.fake.button(component["custom_id"], panel)
        return self.fake.select(component["custom_id"], [text], panel)

    async def play(self) -> int:
        """Alice's turns and answers until the game is over; the clicks made."""
        clicks = 0  # bounded by MAX_CLICKS; pytest-timeout catches a hang
        while clicks < MAX_CLICKS:
            view = await self.view()
            if view["phase"] == "over":
                return clicks
            if 0 not in view["active"]:
                await self.fake.idle(quiet=0.05)
                self.panel = None
                continue
            panel = self.panel if self.panel and self.panel.interactive() else None
            if panel is None:
                panel = await self.open_panel()
            if not panel.interactive():
                await self.fake.idle(quiet=0.05)
                self.panel = None
                continue
            if any(f.filename.endswith(".png") for f in panel.attachments):
                self.dice_images += 1
            record = await self.fake.interact(await self.decide(panel), quiet=0.005)
            fresh = [m for m in self.fake.interaction_messages(record) if m.interactive()]
            self.panel = fresh[-1] if fresh else None
            clicks += 1
        raise AssertionError("the game did not end")


async def test_a_whole_game_with_a_conflict_where_the_human_defends(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.core.service.lobby

    monkeypatch.setattr(bot.core.service.lobby.secrets, "randbits", lambda bits: SEED)
    fake = fake_discord
    app = await build_bot(Settings(discord_token=fake.token, database=tmp_path / "db.sqlite3",
                                   ai_delay=0, ai_level="random"))  # the seed's game
    async with run_bot(app):
        record = await fake.interact(fake.slash("game new", {"game": "minos", "seats": 2}))
        (lobby,) = fake.interaction_messages(record)
        await fake.interact(fake.button(lobby.find(label="Add bot")["custom_id"], lobby))
        mark = len(fake.calls)
        await fake.interact(fake.button(lobby.find(label="Start")["custom_id"], lobby))
        await fake.wait_for_call("POST", r"^/channels/\d+/messages$", since=mark)
        await fake.idle()
        # The AI may already have played its first turn: take the start message itself.
        started = fake.last_message(predicate=lambda m: t("minos.name", "en") in m.content)
        (board,) = started.attachments
        assert board.filename == "minos.png" and board.image().size == (1600, 900)

        alice = Alice(fake, app, random.Random(SEED))
        # A first decision by slash command, its value from the autocomplete.
        while 0 not in (await alice.view())["active"]:
            await fake.idle(quiet=0.05)
        auto = await fake.interact(fake.autocomplete("minos use", {"choice": ""}, "choice"))
        assert auto.choices and all(c["value"].startswith("use ") for c in auto.choices)
        used = await fake.interact(fake.slash("minos use", {"choice": auto.choices[0]["value"]}))
        (answer,) = fake.interaction_messages(used)
        assert answer.ephemeral and "⚠️" not in answer.content

        clicks = await alice.play()
        await fake.idle(quiet=0.3)  # the last turn's message and the standings are delivered
        assert clicks > 10
        assert alice.defended >= 1, "Alice never had to defend"
        assert alice.dice_images >= 1
        view = await alice.view()
        assert view["phase"] == "over" and view["winners"]
        ending = t(f"minos.end.{view['end_reason']}", "en")
        assert any(ending in m.text() for m in fake.public_messages())
        boards = [f for m in fake.public_messages() for f in m.attachments
                  if f.filename == "minos.png"]
        assert len(boards) >= 4 and all(len(f.data) < 1_500_000 for f in boards)
        prompt = t("minos.panel.ask.defend", "en")
        defends = [m for m in fake.all_messages() if m.ephemeral
                   and any(prompt in (v.get("content") or "") for v in [*m.history, m.data])]
        assert defends  # the defender's private prompt, during the AI's turn
    for message in fake.all_messages():
        for version in [*message.history, message.data]:
            body = {"content": version.get("content"), "components": version["components"],
                    "embeds": version.get("embeds"), "flags": version.get("flags")}
            assert discord_limits.message_problems(body) == [], message.id
    assert fake.rejections == []
    tree = {c["name"]: c for c in fake.commands[None]}
    assert discord_limits.command_problems(list(tree.values())) == []
    assert tree["minos"].get("name_localizations", {}).get("fr") == "minos"
