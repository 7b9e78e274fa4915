"""The history cog adds its sub-commands to the lobby's ``/game`` group; the history's
restart-proof components' custom_ids fit Discord's limit."""

from __future__ import annotations

from pathlib import Path

from bot.adapter.app import assemble
from bot.adapter.components import (
    GamesPageButton,
    LogPageButton,
    ReplayButton,
    UndoButton,
    UndoVoteButton,
)
from bot.core.service import GameService
from bot.core.settings import Settings
from bot.core.storage import SqliteRepository

NEW = {"undo", "replay", "export", "import", "history", "leaderboard", "profile"}


async def test_game_group_gets_the_history_commands(tmp_path: Path) -> None:
    repo = await SqliteRepository.open(tmp_path / "db.sqlite3")
    bot = assemble(Settings(), GameService(repo), repo)
    try:
        await bot.load_extension("cogs.lobby")
        await bot.load_extension("cogs.history")
        group = bot.tree.get_command("game")
        names = {c.name for c in group.commands}  # type: ignore[union-attr]
        assert names >= NEW and "log" in names and len(names) <= 25
        assert not NEW & {c.name for c in bot.tree.get_commands()}  # none at the top level
        payloads = [c.to_dict(bot.tree) for c in group.commands]  # type: ignore[union-attr]
        assert len(payloads) == len(names)
    finally:
        await repo.close()


def test_custom_ids_fit() -> None:
    big = 2 ** 62
    for item in (UndoButton(big, big), UndoVoteButton(big, True),
                 LogPageButton(big, big, 50, "last"), ReplayButton(big, big, "first"),
                 GamesPageButton(big, big, "next")):
        assert len(item.custom_id) <= 100
