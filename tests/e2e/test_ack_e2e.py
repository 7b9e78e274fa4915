"""Acknowledged before the database (issue 13 §2): every command and component that reads
the database answers Discord's 3-second acknowledgement first.

The bot's repository is watched: each database call made while handling the interaction
(in discord.py's task for that command or component, not a background task) is stamped. The
fake Discord stamps the moment the acknowledgement arrives. The acknowledgement must come
before the first database call; the answer keeps its visibility (private stays private).
No time budget is asserted: only the order of two events.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.core.i18n import t
from tests.e2e.conftest import RunBot
from tests.e2e.fake_discord import DEFERRED_UPDATE, FakeDiscord, InteractionRecord
from tests.e2e.test_async_e2e import FakeClock, make_bot, open_game
from tests.e2e.test_edges_e2e import forged
from tests.e2e.test_havana_e2e import Table

# discord.py runs each slash command and each dynamic component in a task named so.
INTERACTION_TASKS = ("CommandTree-invoker", "discord-ui-dynamic-item-")


class DatabaseWatch:
    """Stamps the database calls of interaction handlers: every transaction goes through
    the repository's one transaction helper (``repo.db.read`` / ``repo.db.write``)."""

    def __init__(self, repo: Any) -> None:
        self.calls: list[float] = []
        for name in ("read", "write"):
            setattr(repo.db, name, self._watched(getattr(repo.db, name)))

    def _watched(self, run: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        def watched(fn: Any) -> Awaitable[Any]:
            task = asyncio.current_task()
            if task is not None and task.get_name().startswith(INTERACTION_TASKS):
                self.calls.append(time.monotonic())
            return run(fn)

        return watched


async def acknowledged_first(fake: FakeDiscord, watch: DatabaseWatch,
                             payload: dict[str, Any], *,
                             private: bool | None) -> InteractionRecord:
    """Send one interaction; it read the database only after its acknowledgement.
    ``private``: the visibility of every answer (None: the clicked message is edited)."""
    watch.calls.clear()
    record = await fake.interact(payload)
    name = payload["data"].get("name") or payload["data"].get("custom_id")
    assert watch.calls, f"{name}: no database call seen"
    assert record.acked_at is not None and record.acked_at <= min(watch.calls), \
        f"{name}: the database was read before the acknowledgement"
    answers = fake.interaction_messages(record)
    if private is None:
        assert record.response_type == DEFERRED_UPDATE, name
    else:
        assert answers and all(m.ephemeral == private for m in answers), \
            (name, [(m.ephemeral, m.content[:60]) for m in answers])
        assert not any(m.loading for m in answers), name  # answered, not "thinking…" forever
    return record


async def test_commands_and_components_are_acknowledged_before_the_database(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    fake, clock = fake_discord, FakeClock()
    bot = await make_bot(fake, tmp_path / "db.sqlite3", clock)
    async with run_bot(bot):
        table = Table(fake)
        turn = await open_game(table, deadline_hours=24, on_timeout="ai", abandon_after=3)
        await table.stable_panel("alice")
        watch = DatabaseWatch(bot.repo)

        async def command(path: str, options: dict[str, Any] | None = None, *,
                          private: bool) -> InteractionRecord:
            return await acknowledged_first(fake, watch, fake.slash(path, options),
                                            private=private)

        # The deadline commands: shown privately; a table's decision publicly.
        shown = await command("game deadline", private=True)
        assert "24" in fake.interaction_messages(shown)[0].content
        changed = await command("game deadline", {"hours": 48}, private=False)
        assert t("deadline.policy_changed", "en", policy="").strip() in \
            fake.interaction_messages(changed)[0].content
        paused = await command("game pause", private=False)
        assert fake.interaction_messages(paused)[0].content == t("deadline.paused", "en")
        await command("game pause", private=False)  # resumed
        await command("game vacation", private=True)
        refused = await command("game takeover", private=True)  # no seat is abandoned
        assert fake.interaction_messages(refused)[0].content.startswith("⚠️")

        # Settings, rules, the lists.
        await command("game settings", private=True)
        await command("game settings", {"scope": "game"}, private=True)
        await command("game rules", private=True)
        await command("game leaderboard", {"game": "havana"}, private=True)
        await command("game profile", private=True)
        listed = await command("game history", private=True)
        await command("game join", private=True)  # refused: the game has started

        # History buttons: a log page, a replay step, a page of the finished games.
        log = await command("game log", {"count": 1}, private=True)
        (page,) = fake.interaction_messages(log)
        before = page.content  # the last page
        first = page.find(label=t("history.button.first", "en"))
        await acknowledged_first(fake, watch, fake.button(first["custom_id"], page),
                                 private=None)
        assert fake.message(page.id).content != before  # now the first page
        replay = await command("game replay", private=True)
        (steps,) = fake.interaction_messages(replay)
        step = steps.find(label=t("history.button.next", "en"))
        await acknowledged_first(fake, watch, fake.button(step["custom_id"], steps),
                                 private=None)
        assert t("history.games_empty", "en") in fake.interaction_messages(listed)[0].content
        # No finished game yet, so the list's own buttons are disabled: the same click as a
        # client can send it, from the replay message (which the list then replaces).
        await acknowledged_first(
            fake, watch, forged(fake, steps, f"ludo:hist:{fake.guild_id}:0:first", "alice"),
            private=None)
        assert t("history.games_empty", "en") in fake.message(steps.id).content

        # The panel button of the turn message (its guard reads the game).
        await acknowledged_first(fake, watch, fake.button(
            turn.find(label="My panel")["custom_id"], turn), private=True)
    assert fake.rejections == []
