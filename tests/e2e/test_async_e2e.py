"""Asynchronous play end to end: deadlines, undo votes, replays, export and import, with the
real application (``bot.adapter.app.build_bot``) against the fake Discord.

The wall clock is injected (``build_bot(clock=...)``) so a test can jump hours ahead: the
deadline pass, the clocks and the Discord timestamps all read it. Players act only through
slash commands and components; the durable log and the absence records are read as ground
truth for "applied exactly once".
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.adapter.app import build_bot
from bot.adapter.client import LudoBot
from bot.core.deadlines import stamp
from bot.core.i18n import t
from bot.core.messages import jump_link
from bot.core.replay import effective
from bot.core.settings import Settings
from engines.base import Message
from tests.e2e.conftest import RunBot
from tests.e2e.fake_discord import (
    FakeDiscord,
    InteractionRecord,
    StoredFile,
    StoredMessage,
)
from tests.e2e.test_havana_e2e import Table, final_title

HOUR = 3600.0
MAX_WAITS = 6000  # 50 ms looks before a message counts as lost: only a hang guard


class FakeClock:
    """A wall clock that only moves when the test says so (shared by successive bots)."""

    def __init__(self) -> None:
        self.now = float(int(time.time()))

    def __call__(self) -> float:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += hours * HOUR


async def make_bot(fake: FakeDiscord, database: Path, clock: FakeClock, *,
                   poll: float | None = None) -> LudoBot:
    """The application on ``database`` reading ``clock``; ``poll``: seconds between two
    periodic passes while it runs (default: the production minute, i.e. none in a test)."""
    settings = Settings(discord_token=fake.token, database=database, ai_delay=0,
                        ai_level="random")  # the plumbing under test, not AI strength
    bot = await build_bot(settings, clock=clock)
    if poll is not None:
        bot.periodic.change_interval(poll)
    return bot


async def open_game(table: Table, *, humans: tuple[str, ...] = ("alice",), ais: int = 2,
                    **options: Any) -> StoredMessage:
    """``/game new`` with extra options (deadlines), seats filled, started: the first turn
    message."""
    fake, creator = table.fake, humans[0]
    mark = len(fake.calls)
    record = await fake.interact(fake.slash(
        "game new", {"game": "havana", "seats": len(humans) + ais, **options}, user=creator))
    (lobby,) = fake.interaction_messages(record)
    lobby_id = next(c["custom_id"] for c in lobby.interactive()  # ludo:lobby:<game>:<op>,
                    if c["custom_id"].startswith("ludo:lobby:")).rsplit(":", 1)[0]  # any language
    table.game_id = int(lobby_id.split(":")[2])
    for human in humans[1:]:
        await fake.interact(fake.button(f"{lobby_id}:join", lobby,
                                        user=human))
    for _ in range(ais):
        await fake.interact(fake.button(f"{lobby_id}:ai", lobby,
                                        user=creator))
    await fake.interact(fake.button(f"{lobby_id}:start", lobby,
                                    user=creator))
    await fake.wait_for_call("POST", r"^/channels/\d+/messages$", since=mark)
    await fake.idle()
    return fake.last_message(predicate=lambda m: not m.ephemeral and any(
        f.filename == "havana.png" for f in m.attachments))


async def wait_public(fake: FakeDiscord, predicate: Callable[[StoredMessage], bool], *,
                      count: int = 1) -> list[StoredMessage]:
    """At least ``count`` public messages matching ``predicate``, looked for at most
    ``MAX_WAITS`` times (bounded by steps; nothing here asserts speed)."""
    for _ in range(MAX_WAITS):
        found = [m for m in fake.public_messages() if predicate(m)]
        if len(found) >= count:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"only {len(found)} of {count} message(s) came")


async def answers(fake: FakeDiscord, record: InteractionRecord,
                  count: int) -> list[StoredMessage]:
    """The first ``count`` messages answering ``record`` (bounded by steps)."""
    for _ in range(MAX_WAITS):
        found = fake.interaction_messages(record)
        if len(found) >= count:
            await fake.idle()
            return found[:count]
        await asyncio.sleep(0.05)
    raise AssertionError(f"{len(found)} of {count} answer(s) came")


def mention(fake: FakeDiscord, user: str) -> str:
    return f"<@{fake.user_id(user)}>"


def expired_text(fake: FakeDiscord, user: str, misses: int = 1) -> str:
    return t("deadline.expired_ai", "en", player=mention(fake, user), misses=misses)


def undo_buttons(panel: StoredMessage) -> list[dict[str, Any]]:
    return [c for c in panel.interactive() if c["custom_id"].startswith("ludo:undo:")]


def move_payload(fake: FakeDiscord, panel: StoredMessage, user: str) -> dict[str, Any]:
    """A click on the panel's first move (not on its Undo button)."""
    moves = [c for c in panel.interactive() if c not in undo_buttons(panel)]
    assert moves, f"nothing to play on panel {panel.id}"
    component = moves[0]
    if component["type"] == 2:
        return fake.button(component["custom_id"], panel, user=user)
    value = component["options"][0]["value"]
    return fake.select(component["custom_id"], [value], panel, user=user)


async def play_pick(table: Table, user: str) -> StoredMessage:
    """One hidden pick from the user's (stable) panel; the refreshed panel."""
    panel = await table.stable_panel(user)
    await table.fake.interact(move_payload(table.fake, panel, user))
    return table.fake.message(panel.id)


async def effective_moves(bot: LudoBot, game_id: int) -> list[str]:
    return [f"{r.seat}:{r.action}" for r in effective(await bot.repo.history(game_id))]


# --------------------------------------------------------------------------- deadlines


async def test_deadline_missed_while_down_is_handled_once_at_next_start(
        fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    fake, database, clock = fake_discord, tmp_path / "db.sqlite3", FakeClock()
    alice = fake.user_id("alice")
    table = Table(fake)
    bot = await make_bot(fake, database, clock)
    async with run_bot(bot):
        started = await open_game(table, deadline_hours=1, on_timeout="ai")
        assert stamp(clock.now + HOUR) in started.content  # the turn ping shows the deadline
        assert (await table.stable_panel("alice")).interactive()  # alice is awaited
        assert await table.human_log(bot) == []
    clock.advance(2)  # the deadline passes while no bot runs

    bot = await make_bot(fake, database, clock)
    async with run_bot(bot):
        (announcement,) = await wait_public(fake, lambda m: expired_text(fake, "alice")
                                            in m.content)
        assert announcement.channel_id == fake.channel_id
        await table.stable_panel("alice")  # the game went on: alice is awaited again
        applied = await table.human_log(bot)
        # The AI played alice's whole turn (her two hidden picks) and nothing more.
        assert len(applied) == 2 and all(a.startswith("pick") for a in applied), applied
        assert (await bot.service.reliability(alice)).timeouts == 1
        # Her new turn has a fresh clock, counted from the restart.
        rows = await bot.repo.reminders(table.game_id)
        assert [r.deadline_at for r in rows if r.user_id == alice] == [clock.now + HOUR]

    bot = await make_bot(fake, database, clock)
    async with run_bot(bot):
        await bot.deadlines.run_due()  # one more pass on top of the start-up ones
        await fake.idle(quiet=0.2)
        assert await table.human_log(bot) == applied
        assert (await bot.service.reliability(alice)).timeouts == 1
    assert len([m for m in fake.public_messages() if "⌛" in m.content]) == 1
    assert fake.rejections == []


async def test_warning_then_ai_plays_while_the_bot_runs(fake_discord: FakeDiscord,
                                                        run_bot: RunBot,
                                                        tmp_path: Path) -> None:
    fake, clock = fake_discord, FakeClock()
    alice = fake.user_id("alice")
    table = Table(fake)
    bot = await make_bot(fake, tmp_path / "db.sqlite3", clock, poll=0.05)
    async with run_bot(bot):
        started = await open_game(table, deadline_hours=4, on_timeout="ai", abandon_after=0)
        due = clock.now + 4 * HOUR
        assert mention(fake, "alice") in started.content
        assert t("deadline.turn_due", "en", deadline=stamp(due)) in started.content
        assert re.search(r"<t:\d+:R>", started.content)
        await table.stable_panel("alice")
        game = await bot.service.get(table.game_id)
        warning = t("deadline.warning", "en", player=mention(fake, "alice"),
                    game=Message("havana.name"), deadline=stamp(due), link=jump_link(game))
        await asyncio.sleep(0.2)  # a few passes: nothing is due yet
        assert not [m for m in fake.public_messages() if "⚠️" in m.content]

        clock.advance(3.5)  # past the warning (1 h before a 4 h deadline), before expiry
        (warned,) = await wait_public(fake, lambda m: m.content == warning)
        assert await table.human_log(bot) == []
        await asyncio.sleep(0.2)  # more passes: warned once only
        assert len([m for m in fake.public_messages() if m.content == warning]) == 1

        clock.advance(1)  # past the deadline
        await wait_public(fake, lambda m: expired_text(fake, "alice") in m.content)
        await table.stable_panel("alice")
        applied = await table.human_log(bot)
        assert len(applied) == 2 and all(a.startswith("pick") for a in applied), applied
        # The moves played for her were announced like any turn: board and who is next.
        after = await wait_public(fake, lambda m: m.id > warned.id and bool(m.attachments))
        assert all(m.attachments[0].content_type == "image/png" for m in after)
        await asyncio.sleep(0.2)
        assert len([m for m in fake.public_messages() if "⌛" in m.content]) == 1
        assert (await bot.service.reliability(alice)).timeouts == 1
    assert fake.rejections == []


# --------------------------------------------------------------------------- undo


async def test_free_undo_from_the_panel_button(fake_discord: FakeDiscord, run_bot: RunBot,
                                               tmp_path: Path) -> None:
    fake, clock = fake_discord, FakeClock()
    table = Table(fake)
    bot = await make_bot(fake, tmp_path / "db.sqlite3", clock)
    async with run_bot(bot):
        await open_game(table)
        first = await table.stable_panel("alice")
        assert undo_buttons(first) == []  # nothing to take back yet
        panel = await play_pick(table, "alice")
        assert len(await table.human_log(bot)) == 1
        undo = panel.find(prefix="ludo:undo:")  # her own hidden pick: a free take-back
        before = len(fake.public_messages())
        record = await fake.interact(fake.button(undo["custom_id"], panel))
        (answer,) = fake.interaction_messages(record)
        done = t("history.undo_done", "en", player=mention(fake, "alice"), n=1)
        assert answer.ephemeral and answer.content == done
        (public,) = fake.public_messages()[before:]
        assert public.content.startswith(done) and public.attachments
        assert not [m for m in fake.all_messages() if "🗳️" in m.content]  # no vote asked
        assert [a for a in await effective_moves(bot, table.game_id) if a.startswith("0:")] == []
        # The panel drawn before the undo is out of date: its move is refused.
        stale = await fake.interact(move_payload(fake, panel, "alice"))
        notices = [m for m in fake.interaction_messages(stale) if m.id != panel.id]
        assert any(t("service.stale_version", "en") in m.content for m in notices)
        assert [a for a in await effective_moves(bot, table.game_id) if a.startswith("0:")] == []
    assert fake.rejections == []


async def test_undo_board_follows_the_channel_language(fake_discord: FakeDiscord,
                                                       run_bot: RunBot, tmp_path: Path) -> None:
    """Issue 13 §6: a French server without an override — the undo announcement's board is
    drawn in French like its text (override, then Discord's server locale, then default)."""
    fake, clock = fake_discord, FakeClock()
    fake.guilds[fake.guild_id]["preferred_locale"] = "fr"
    table = Table(fake)
    bot = await make_bot(fake, tmp_path / "db.sqlite3", clock)
    drawn: list[str] = []
    render = bot.service._render_fn

    async def recording(game_key: str, view: Any, names: Any, locale: str) -> bytes:
        drawn.append(locale)
        return await render(game_key, view, names, locale)

    bot.service._render_fn = recording
    async with run_bot(bot):
        await open_game(table)
        panel = await play_pick(table, "alice")
        undo = panel.find(prefix="ludo:undo:")
        before, mark = len(fake.public_messages()), len(drawn)
        await fake.interact(fake.button(undo["custom_id"], panel))
        (public,) = fake.public_messages()[before:]
        assert public.attachments and public.content.startswith(
            t("history.undo_done", "fr", player=mention(fake, "alice"), n=1))
        assert drawn[mark:] and set(drawn[mark:]) == {"fr"}
    assert fake.rejections == []


async def ask_undo(table: Table) -> StoredMessage:
    """Alice and Bob each make a hidden pick, then Alice asks to take hers back: the public
    vote message (Bob's pick came after hers, so Bob must agree)."""
    fake = table.fake
    await play_pick(table, "alice")
    await play_pick(table, "bob")
    panel = await table.panel("alice")
    assert undo_buttons(panel) == []  # not a free take-back: no button on the panel
    record = await fake.interact(fake.slash("game undo", user="alice"))
    (vote,) = fake.interaction_messages(record)
    assert not vote.ephemeral
    assert mention(fake, "bob") in vote.content and "🗳️" in vote.content
    assert t("history.undo_reason.other_player", "en") in vote.content
    return vote


async def test_undo_with_consent_accepted_then_refused(fake_discord: FakeDiscord,
                                                       run_bot: RunBot,
                                                       tmp_path: Path) -> None:
    fake, clock = fake_discord, FakeClock()
    table = Table(fake)
    bot = await make_bot(fake, tmp_path / "db.sqlite3", clock)
    async with run_bot(bot):
        await open_game(table, humans=("alice", "bob"), ais=0)
        vote = await ask_undo(table)
        assert len(await effective_moves(bot, table.game_id)) == 2

        # The asker has no say; an outsider neither.
        for user in ("alice", "carol"):
            record = await fake.interact(fake.button(vote.find(label="Agree")["custom_id"],
                                                     vote, user=user))
            replies = [m for m in fake.interaction_messages(record) if m.id != vote.id]
            assert replies and all(m.ephemeral and "⚠️" in m.content for m in replies)
            assert fake.message(vote.id).interactive()  # still open
        assert len(await effective_moves(bot, table.game_id)) == 2

        before = len(fake.public_messages())
        await fake.interact(fake.button(vote.find(label="Agree")["custom_id"], vote,
                                        user="bob"))
        agreed = t("history.undo_done_vote", "en", player=mention(fake, "alice"), n=2)
        (announced,) = await wait_public(fake, lambda m: m.content.startswith(agreed))
        assert announced.attachments and announced.id > vote.id
        assert len(fake.public_messages()) == before + 1
        assert not fake.message(vote.id).interactive()  # the vote is closed
        assert await effective_moves(bot, table.game_id) == []  # both picks taken back
        history = await bot.repo.history(table.game_id)
        assert [r.is_undo for r in history] == [False, False, True]  # append-only

        # A second request, refused by Bob: nothing changes but the announcement.
        vote = await ask_undo(table)
        kept = await effective_moves(bot, table.game_id)
        assert len(kept) == 2
        await fake.interact(fake.button(vote.find(label="Refuse")["custom_id"], vote,
                                        user="bob"))
        refused = t("history.undo_refused", "en", player=mention(fake, "alice"))
        await wait_public(fake, lambda m: m.content == refused)
        assert not fake.message(vote.id).interactive()
        assert await effective_moves(bot, table.game_id) == kept
    assert fake.rejections == []


# --------------------------------------------------------------------------- replay, export


async def test_replay_export_and_import_of_a_finished_game(fake_discord: FakeDiscord,
                                                           run_bot: RunBot,
                                                           tmp_path: Path) -> None:
    fake, clock = fake_discord, FakeClock()
    table = Table(fake)
    bot = await make_bot(fake, tmp_path / "db.sqlite3", clock)
    async with run_bot(bot):
        await open_game(table, ais=1)
        # Alice (server owner) hands her seat to an AI, which plays the game to its end.
        await fake.interact(fake.slash("game kick", {"player": "alice"}))
        await wait_public(fake, lambda m: final_title() in m.content)
        game_id = table.game_id

        # Step through the finished game.
        record = await fake.interact(fake.slash("game replay"))
        step, gif = await answers(fake, record, 2)  # the GIF takes a while
        assert step.ephemeral and "position 0/" in step.content
        assert gif.attachments[0].filename.endswith(".gif")
        total = int(re.search(r"position 0/(\d+)", step.content)[1])  # type: ignore[index]
        assert total > 10
        setup_image = step.attachments[0]
        images = [setup_image.data]
        for label, position in (("Next", 1), ("Next", 2), ("Back", 1), ("Last", total)):
            versions = len(step.history)
            await fake.interact(fake.button(step.find(label=label)["custom_id"], step))
            step = fake.message(step.id)
            assert len(step.history) == versions + 1  # edited in place
            assert f"position {position}/{total}" in step.content
            (image,) = step.attachments
            assert image.content_type == "image/png" and image.image().size[0] > 100
            images.append(image.data)
        assert step.find(label="Last").get("disabled")  # at the end
        assert images[-1] != images[0]  # the final board is not the setup

        # Export: a JSON attachment, only for the asker.
        record = await fake.interact(fake.slash("game export"))
        (exported,) = fake.interaction_messages(record)
        assert exported.ephemeral
        (upload,) = exported.attachments
        assert upload.filename == f"game-{game_id}.json"
        document = json.loads(upload.data)
        assert document["game"] == "havana" and document["status"] == "finished"
        assert len(document["log"]) == len(await bot.repo.history(game_id))

        # Import: the same file re-creates the game, which exports to the same log.
        file = StoredFile("files[0]", upload.filename, "application/json", upload.data)
        record = await fake.interact(fake.slash("game import", {"file": file}, user="bob"))
        (imported,) = fake.interaction_messages(record)
        assert not imported.ephemeral and "📥" in imported.content
        new_id = int(re.search(r"#(\d+)", imported.content)[1])  # type: ignore[index]
        assert new_id != game_id
        record = await fake.interact(fake.slash("game export", {"game_id": new_id}))
        (again,) = fake.interaction_messages(record)
        copy = json.loads(again.attachments[0].data)
        assert copy["source"]["game_id"] == new_id
        for key in ("game", "status", "seed", "options", "seats", "state_sha256"):
            assert copy[key] == document[key], key
        assert ([(e["seat"], e.get("action"), e.get("undo_to")) for e in copy["log"]]
                == [(e["seat"], e.get("action"), e.get("undo_to")) for e in document["log"]])

        # A corrupted file is refused, and nothing is created.
        games = await bot.repo.count_games()
        broken = dict(document, state_sha256="0" * 64)
        bad = StoredFile("files[0]", "bad.json", "application/json",
                         json.dumps(broken).encode())
        record = await fake.interact(fake.slash("game import", {"file": bad}))
        (refusal,) = fake.interaction_messages(record)
        assert "⚠️" in refusal.content and refusal.ephemeral  # a refusal is never public
        assert await bot.repo.count_games() == games
        # Hostile files: each a clear, translated, private refusal; nothing created.
        forged = json.loads(upload.data)
        forged["seats"][0]["user_id"] = fake.user_id("dave")  # someone else's finished game
        hostile = {
            "history.import_nested": b"[" * 100_000 + b"]" * 100_000,
            "history.import_big_number": ('{"seed": ' + "9" * 5000 + "}").encode(),
            "history.import_tampered": json.dumps(forged).encode(),
        }
        for key, data in hostile.items():
            file = StoredFile("files[0]", "hostile.json", "application/json", data)
            record = await fake.interact(fake.slash("game import", {"file": file}))
            (refusal,) = fake.interaction_messages(record)
            assert refusal.ephemeral and t(key, "en") in refusal.content, key
        assert await bot.repo.count_games() == games
    assert fake.rejections == []
