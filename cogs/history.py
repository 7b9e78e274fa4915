"""``/game undo|replay|export|import|history|leaderboard|profile``: a game's past and ratings.

A second cog adding sub-commands to the lobby's ``/game`` group (Discord allows one
top-level command per name): its commands are bound to this cog as usual, then moved into
the group in :meth:`History.cog_load`, before the tree is synced. Load it after
``cogs.lobby``.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter import history_pages as hv
from bot.adapter import replies, undo_votes
from bot.adapter.client import LudoBot
from bot.adapter.translator import L
from bot.core.errors import NoGameHere, ServiceError
from bot.core.i18n import t
from bot.core.ratings import GLOBAL
from engines import registry

log = logging.getLogger(__name__)
MAX_FILE = 2 * 1024 * 1024


def _game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=t(f"{key}.name", "en"), value=key)
            for key, e in sorted(registry.games().items())]


class History(commands.Cog):
    def __init__(self, bot: LudoBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("game")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("cogs.history needs cogs.lobby's /game group: load it first")
        for command in self.__cog_app_commands__:
            group.add_command(command)
        self.__cog_app_commands__ = []  # they live in /game now, not at the top level
        rated = await self.bot.service.ratings.catch_up()
        if rated:
            log.info("rated %d game(s) finished before the restart", rated)

    async def _game_id(self, interaction: discord.Interaction[Any], game_id: int | None) -> int:
        game = await hv.history_of(self.bot).resolve(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0,
            game_id=game_id)
        return game.id

    async def _complete_game(self, interaction: discord.Interaction[Any],
                             current: str) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        games = await hv.history_of(self.bot).search(interaction.guild_id, current)
        locale = replies.user_locale(interaction)
        return [app_commands.Choice(
            name=f"#{g.id} {t(f'{g.game_key}.name', locale)} — "
                 f"{', '.join(s.name for s in g.seats)} ({g.status})"[:100], value=g.id)
            for g in games]

    @app_commands.command(name=L("undo", "history.cmd.undo"),
                          description=L("Take back your last move (the others vote when needed)",
                                        "history.cmd.undo.desc"))
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await replies.defer_private(interaction)  # a request to the table is answered publicly
        game = await self.bot.service.in_channel(interaction.channel_id or 0)
        if game is None:
            raise NoGameHere()
        await undo_votes.undo(interaction, game.id)

    @app_commands.command(name=L("replay", "history.cmd.replay"),
                          description=L("Step through any position of a game",
                                        "history.cmd.replay.desc"))
    @app_commands.describe(game_id=L("Game number (default: the one in this channel)",
                                     "history.cmd.game_id"),
                           public=L("Show it to the channel", "history.cmd.public"))
    async def replay(self, interaction: discord.Interaction[Any], game_id: int | None = None,
                     public: bool = False) -> None:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        found = await self._game_id(interaction, game_id)
        await hv.send_replay(interaction, found, public=public)

    @app_commands.command(name=L("export", "history.cmd.export"),
                          description=L("Download a finished game's log and seed (JSON)",
                                        "history.cmd.export.desc"))
    @app_commands.describe(game_id=L("Game number (default: the one in this channel)",
                                     "history.cmd.game_id"))
    async def export(self, interaction: discord.Interaction[Any],
                     game_id: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self._game_id(interaction, game_id)
        data = await hv.history_of(self.bot).export(found)
        await interaction.followup.send(
            t("history.export_done", replies.user_locale(interaction), id=found),
            file=discord.File(io.BytesIO(data), filename=f"game-{found}.json"), ephemeral=True)

    @app_commands.command(name=L("import", "history.cmd.import"),
                          description=L("Re-create a game from an exported file",
                                        "history.cmd.import.desc"))
    @app_commands.describe(file=L("A file made by /game export", "history.cmd.file"))
    async def import_(self, interaction: discord.Interaction[Any],
                      file: discord.Attachment) -> None:
        await replies.defer_public(interaction)
        locale = replies.user_locale(interaction)
        if file.size > MAX_FILE:
            raise ServiceError(key="history.import_too_big", max=MAX_FILE // 1024)
        data = await file.read()
        game = await hv.history_of(self.bot).import_game(
            data, guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id)
        await replies.reply(interaction, t("history.import_done", locale, id=game.id,
                                        game=t(f"{game.game_key}.name", locale)),
                         ephemeral=False)

    @app_commands.command(name=L("history", "history.cmd.history"),
                          description=L("This server's finished games",
                                        "history.cmd.history.desc"))
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        await replies.defer_private(interaction)
        text, view = await hv.games_message(self.bot, interaction.guild_id or 0, 0,
                                            replies.user_locale(interaction))
        await replies.reply(interaction, text, view=view)

    @app_commands.command(name=L("leaderboard", "history.cmd.leaderboard"),
                          description=L("Best rated players of a game",
                                        "history.cmd.leaderboard.desc"))
    @app_commands.describe(game=L("Which game", "history.cmd.which_game"),
                           scope=L("This server or every server", "history.cmd.scope"))
    @app_commands.choices(
        game=_game_choices(),
        scope=[app_commands.Choice(name=L("server", "history.scope.server"), value="server"),
               app_commands.Choice(name=L("global", "history.scope.global"), value="global")])
    async def leaderboard(self, interaction: discord.Interaction[Any], game: str,
                          scope: str = "server") -> None:
        await replies.defer_private(interaction)
        locale = replies.user_locale(interaction)
        where = GLOBAL if scope == "global" else interaction.guild_id or GLOBAL
        rows, total = await self.bot.service.ratings.leaderboard(game, where, limit=15)
        lines = [t("history.leaderboard_title", locale, game=t(f"{game}.name", locale),
                   scope=t(f"history.scope.{'global' if where == GLOBAL else 'server'}",
                           locale), total=total)]
        lines += [t("history.leaderboard_line", locale, rank=n, user=r.user_id,
                    rating=f"{r.ordinal:.1f}", games=r.games, wins=r.wins)
                  for n, r in enumerate(rows, start=1)] or [t("history.leaderboard_empty",
                                                                locale)]
        await replies.reply(interaction, "\n".join(lines))

    @app_commands.command(name=L("profile", "history.cmd.profile"),
                          description=L("A player's ratings (and reliability)",
                                        "history.cmd.profile.desc"))
    @app_commands.describe(user=L("Whose profile (default: yours)", "history.cmd.user"))
    async def profile(self, interaction: discord.Interaction[Any],
                      user: discord.User | None = None) -> None:
        await replies.defer_private(interaction)
        locale = replies.user_locale(interaction)
        who = user or interaction.user
        ratings = self.bot.service.ratings
        everywhere = {r.game_key: r for r in await ratings.profile(who.id, GLOBAL)}
        here = {r.game_key: r for r in await ratings.profile(who.id, interaction.guild_id or 0)}
        lines = [t("history.profile_title", locale, user=who.id)]
        for key, row in sorted(everywhere.items()):
            local = here.get(key)
            lines.append(t("history.profile_line", locale, game=t(f"{key}.name", locale),
                           server=f"{local.ordinal:.1f}" if local else "—",
                           **{"global": f"{row.ordinal:.1f}"}, games=row.games, wins=row.wins))
        if not everywhere:
            lines.append(t("history.profile_none", locale))
        reliability = getattr(self.bot.service, "reliability", None)
        if reliability is not None:  # the deadlines side of the profile (bot/core/deadlines.py)
            record = await reliability(who.id)
            lines.append(t("history.profile_reliability", locale, finished=record.finished,
                           timeouts=record.timeouts, abandoned=record.abandoned))
        await replies.reply(interaction, "\n".join(lines))

    replay.autocomplete("game_id")(_complete_game)
    export.autocomplete("game_id")(_complete_game)


async def setup(bot: LudoBot) -> None:
    await bot.add_cog(History(bot))
