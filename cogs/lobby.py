"""``/game …``: create, join and run tables of any game; boards, logs, rules and settings."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter import components, history_pages, lobby, panels, replies
from bot.adapter.client import LudoBot
from bot.adapter.components import lobby_view
from bot.adapter.game_commands import MAX_OPTIONS_TEXT, command_text, option_choices, parse_options
from bot.adapter.translator import L
from bot.core import messages
from bot.core.absence_policies import make_policy
from bot.core.errors import NoGameHere, ServiceError
from bot.core.i18n import t
from bot.core.models import LOBBY, GameInfo
from cogs.deadlines import TIMEOUT_CHOICES, quiet_text, vacation_text
from engines import registry
from engines.ai import LEVELS

log = logging.getLogger(__name__)


def _game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=t(f"{key}.name", "en"), value=key)
            for key, e in sorted(registry.games().items())]


LEVEL_CHOICES = [app_commands.Choice(name=L(level, f"ai.level.{level}"), value=level)
                 for level in LEVELS]


def _is_admin(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


class Lobby(commands.Cog):
    game = app_commands.Group(name=L("game", "cmd.game"),
                              description=L("Play board games in this channel", "cmd.game.desc"),
                              guild_only=True)

    def __init__(self, bot: LudoBot) -> None:
        self.bot = bot

    async def _here(self, interaction: discord.Interaction[Any]) -> GameInfo:
        game = await self.bot.service.in_channel(interaction.channel_id or 0)
        if game is None:
            raise NoGameHere()
        return game

    # ------------------------------------------------------------ table setup
    @game.command(name=L("new", "cmd.new"), description=L("Open a new table in this channel",
                                                        "cmd.new.desc"))
    @app_commands.describe(
        game=L("Which game", "cmd.new.game"),
        seats=L("Number of seats (default: the game's maximum)", "cmd.new.seats"),
        thread=L("Open a thread for this game", "cmd.new.thread"),
        reminder_hours=L("Hours before an awaited player is reminded (default 24)",
                         "cmd.new.reminder"),
        deadline_hours=L("Hours to make a move (default: no deadline)",
                         "deadline.cmd.new.deadline"),
        on_timeout=L("When the deadline passes (default: the AI plays)",
                     "deadline.cmd.new.on_timeout"),
        abandon_after=L("Missed deadlines in a row before a seat is abandoned (default 3)",
                        "deadline.cmd.new.abandon_after"),
        options=command_text("cmd.new.options"),
        ai_level=L("Level of an AI taking over a seat here (default normal)",
                   "cmd.new.ai_level"))
    @app_commands.choices(game=_game_choices(), on_timeout=TIMEOUT_CHOICES,
                          ai_level=LEVEL_CHOICES)
    async def new(self, interaction: discord.Interaction[Any], game: str,
                  seats: app_commands.Range[int, 1, 8] | None = None, thread: bool = False,
                  reminder_hours: app_commands.Range[float, 0.5, 720.0] | None = None,
                  deadline_hours: app_commands.Range[float, 0.0, 1440.0] | None = None,
                  on_timeout: str | None = None,
                  abandon_after: app_commands.Range[int, 0, 20] | None = None,
                  options: app_commands.Range[str, 0, MAX_OPTIONS_TEXT] | None = None,
                  ai_level: str | None = None) -> None:
        await replies.defer_public(interaction)
        channel = interaction.channel
        locale = await replies.public_locale(self.bot, interaction.guild_id)
        target_id = interaction.channel_id or 0
        created_thread: discord.Thread | None = None
        try:
            make_policy(deadline_hours, on_timeout, abandon_after)  # refuse before creating
            chosen = parse_options(options)
            if thread and isinstance(channel, discord.TextChannel):
                name = t("lobby.thread_name", locale, game=t(f"{game}.name", locale),
                         user=interaction.user.display_name)[:100]
                created_thread = await channel.create_thread(
                    name=name, type=discord.ChannelType.public_thread)
                target_id = created_thread.id
            info = await self.bot.service.create(
                guild_id=interaction.guild_id, channel_id=target_id, game_key=game,
                creator_id=interaction.user.id, creator_name=interaction.user.display_name,
                seats=seats, options=chosen, reminder_hours=reminder_hours)
            if ai_level is not None:
                info = await self.bot.service.set_ai_level(info.id, ai_level,
                                                           interaction.user.id)
            if (deadline_hours, on_timeout, abandon_after) != (None, None, None):
                await self.bot.absence.configure(info.id, interaction.user.id,
                                                 hours=deadline_hours, on_timeout=on_timeout,
                                                 abandon_after=abandon_after)
        except discord.Forbidden:  # no right to create threads here: a refusal
            raise ServiceError(key="lobby.cannot_thread") from None
        text = await lobby.lobby_text(self.bot, info, locale)
        if created_thread is not None:
            msg = await created_thread.send(text, view=lobby_view(info.id, locale))
            await interaction.followup.send(t("lobby.created_in_thread", locale,
                                              thread=created_thread.mention))
        else:
            msg = await interaction.followup.send(text, view=lobby_view(info.id, locale),
                                                  wait=True)
        await self.bot.service.set_lobby_message(info.id, msg.id)

    @new.autocomplete("options")
    async def _new_options(self, interaction: discord.Interaction[Any],
                           current: str) -> list[app_commands.Choice[str]]:
        key = getattr(interaction.namespace, "game", None)
        if key not in registry.games():
            return []
        return option_choices(registry.get(str(key)).spec, current)

    @game.command(name=L("join", "cmd.join"), description=L("Take a seat at this table",
                                                          "cmd.join.desc"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_op(interaction, "join")

    @game.command(name=L("leave", "cmd.leave"), description=L("Leave this table before it starts",
                                                            "cmd.leave.desc"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_op(interaction, "leave")

    @game.command(name=L("add-bot", "cmd.addbot"), description=L("Seat an AI player",
                                                               "cmd.addbot.desc"))
    @app_commands.describe(level=L("The AI's level (default normal)", "cmd.addbot.level"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def add_bot(self, interaction: discord.Interaction[Any],
                      level: str | None = None) -> None:
        await self._lobby_op(interaction, "ai", level)

    @game.command(name=L("start", "cmd.start"), description=L("Start the game (table creator)",
                                                            "cmd.start.desc"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await replies.defer_public(interaction)
        game = await self._here(interaction)
        result = await self.bot.service.start(game.id, interaction.user.id)
        locale = await replies.public_locale(self.bot, interaction.guild_id)
        await interaction.followup.send(t("lobby.starting", locale))
        await lobby.after_start(self.bot, result)

    async def _lobby_op(self, interaction: discord.Interaction[Any], op: str,
                        level: str | None = None) -> None:
        await replies.defer_private(interaction)  # public only when the lobby is not redrawn
        game = await self._here(interaction)
        game = await lobby.seat_change(self.bot, game.id, interaction.user, op, level)
        locale = await replies.public_locale(self.bot, interaction.guild_id)
        text = await lobby.lobby_text(self.bot, game, locale)
        if await lobby.refresh_lobby(self.bot, game):  # the lobby message shows the change
            await replies.reply(interaction, text)
        else:
            await replies.reply(interaction, text, view=lobby_view(game.id, locale),
                             ephemeral=False)

    @game.command(name=L("cancel", "cmd.cancel"),
                  description=L("Cancel this game (creator before start, vote after)",
                                "cmd.cancel.desc"))
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        await replies.defer_public(interaction)
        game = await self._here(interaction)
        admin = _is_admin(interaction)
        if game.status == LOBBY or admin:
            await self.bot.service.cancel(game.id, interaction.user.id, is_admin=admin)
            locale = await replies.public_locale(self.bot, interaction.guild_id)
            await replies.reply(interaction, t("lobby.cancelled", locale,
                                            user=interaction.user.mention), ephemeral=False)
            return
        await lobby.vote_cancel(interaction, game.id)

    @game.command(name=L("kick", "cmd.kick"),
                  description=L("Give an absent player's seat to an AI (Manage Server)",
                                "cmd.kick.desc"))
    @app_commands.describe(player=L("The absent player", "cmd.kick.player"))
    @app_commands.default_permissions(manage_guild=True)
    async def kick(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        await replies.defer_public(interaction)
        game = await self._here(interaction)
        seat = game.seat_of(player.id)
        if seat is None:
            raise ServiceError(key="service.not_seated")
        game = await self.bot.service.remove_seat(game.id, seat.seat,
                                                  by_user_id=interaction.user.id,
                                                  is_admin=_is_admin(interaction))
        locale = await replies.public_locale(self.bot, interaction.guild_id)
        await replies.reply(interaction, t("lobby.kicked", locale, player=player.mention),
                         ephemeral=False)
        self.bot.schedule_ai(game.id)

    # ------------------------------------------------------------ looking at a game
    @game.command(name=L("board", "cmd.board"), description=L("Show the board",
                                                            "cmd.board.desc"))
    @app_commands.describe(private=L("Only you see it", "cmd.board.private"))
    async def board(self, interaction: discord.Interaction[Any], private: bool = False) -> None:
        await interaction.response.defer(ephemeral=private, thinking=True)
        async with replies.answering():
            game = await self._here(interaction)
            if game.status == LOBBY:
                raise ServiceError(key="service.not_started")
            locale = (replies.user_locale(interaction) if private
                      else await replies.public_locale(self.bot, interaction.guild_id))
            png = await self.bot.service.board(game.id, locale=locale)
            view = await self.bot.service.view(game.id, None)
            status = self.bot.presenter(game.game_key).status_text(
                view, [s.name for s in game.seats], locale)
            await interaction.followup.send(
                status or "\u200b", file=discord.File(io.BytesIO(png), f"{game.game_key}.png"),
                view=components.turn_message_view(game.id, locale), ephemeral=private)

    @game.command(name=L("hand", "cmd.hand"), description=L("Your private panel: hand and moves",
                                                          "cmd.hand.desc"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await replies.defer_private(interaction)
        game = await self._here(interaction)
        await panels.open_panel(interaction, game.id)

    @game.command(name=L("log", "cmd.log"), description=L("Recent public moves",
                                                        "cmd.log.desc"))
    @app_commands.describe(count=L("How many moves (default 15)", "cmd.log.count"))
    async def log_(self, interaction: discord.Interaction[Any],
                   count: app_commands.Range[int, 1, 50] = 15) -> None:
        """The whole public log, ``count`` entries a page (bot/adapter/history_pages.py), last
        page first."""
        await replies.defer_private(interaction)  # the log is read from the database
        game = await self._here(interaction)
        await history_pages.send_log(interaction, game.id, size=count)

    @game.command(name=L("mine", "cmd.mine"), description=L("Every game where you are awaited",
                                                          "cmd.mine.desc"))
    async def mine(self, interaction: discord.Interaction[Any]) -> None:
        await replies.defer_private(interaction)  # loads every game of the user
        locale = replies.user_locale(interaction)
        games = await self.bot.service.mine(interaction.user.id)
        if not games:
            await replies.reply(interaction, t("ui.mine_none", locale))
            return
        lines = [t("ui.mine_title", locale)]
        for game, _seats in games:
            lines.append(t("ui.mine_line", locale, game=t(f"{game.game_key}.name", locale),
                           link=messages.jump_link(game)))
        await replies.reply(interaction, "\n".join(lines))

    @game.command(name=L("rules", "cmd.rules"), description=L("A game's rules in short",
                                                            "cmd.rules.desc"))
    @app_commands.describe(game=L("Which game (default: the one here)", "cmd.rules.game"))
    @app_commands.choices(game=_game_choices())
    async def rules(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        await replies.defer_private(interaction)  # the game here is read from the database
        locale = replies.user_locale(interaction)
        if game is None:
            here = await self.bot.service.in_channel(interaction.channel_id or 0)
            game = here.game_key if here else None
        if game is None:
            await replies.reply(interaction, t("ui.rules_which", locale))
            return
        title, rules = t(f"{game}.name", locale), t(f"{game}.rules", locale)
        await replies.reply(interaction, f"**{title}**\n{rules}")
        await replies.reply(interaction, t("ai.levels", locale))  # a second message: 2,000 chars

    @game.command(name=L("settings", "cmd.settings"),
                  description=L("Your preferences, or this server's (Manage Server)",
                                "cmd.settings.desc"))
    @app_commands.describe(
        scope=L("Whose settings", "cmd.settings.scope"),
        language=L("Language of messages", "cmd.settings.language"),
        reminder_hours=L("Hours between turn reminders", "cmd.settings.reminder"),
        dm=L("Send my reminders by direct message", "cmd.settings.dm"),
        timezone=L("Your time zone, e.g. Europe/Paris (for quiet hours)",
                   "deadline.cmd.settings.timezone"),
        quiet_start=L("Quiet hours start, HH:MM (empty: none)",
                      "deadline.cmd.settings.quiet_start"),
        quiet_end=L("Quiet hours end, HH:MM", "deadline.cmd.settings.quiet_end"),
        notify_before=L("DM me when the player before me starts their turn",
                        "deadline.cmd.settings.notify_before"),
        vacation_days=L("Vacation days per player and year (server)",
                        "deadline.cmd.settings.vacation_days"))
    @app_commands.choices(
        scope=[app_commands.Choice(name=L("me", "cmd.settings.scope.me"), value="me"),
               app_commands.Choice(name=L("server", "cmd.settings.scope.server"), value="server"),
               app_commands.Choice(name=L("this game", "cmd.settings.scope.game"), value="game")],
        language=[app_commands.Choice(name="English", value="en"),
                  app_commands.Choice(name="Français", value="fr")])
    async def settings(self, interaction: discord.Interaction[Any], scope: str = "me",
                       language: str | None = None,
                       reminder_hours: app_commands.Range[float, 0.5, 720.0] | None = None,
                       dm: bool | None = None, timezone: str | None = None,
                       quiet_start: str | None = None, quiet_end: str | None = None,
                       notify_before: bool | None = None,
                       vacation_days: app_commands.Range[int, 0, 365] | None = None) -> None:
        await replies.defer_private(interaction)  # read and written in the database
        service, user = self.bot.service, interaction.user
        absence, locale = self.bot.absence, replies.user_locale(interaction)
        if scope == "server":
            if not _is_admin(interaction):
                raise ServiceError(key="service.forbidden")
            gs = await service.set_guild_settings(interaction.guild_id or 0, locale=language,
                                                  reminder_hours=reminder_hours)
            text = t("ui.settings_server", replies.user_locale(interaction),
                     language=gs.locale or "—", hours=gs.reminder_hours or "—")
            if vacation_days is not None:
                await absence.set_vacation_allowance(interaction.guild_id or 0,
                                                     vacation_days)
            text += "\n" + vacation_text(
                "deadline.vacation_status",
                await absence.vacation_status(user.id, interaction.guild_id), locale)
        elif scope == "game":
            game = await self._here(interaction)
            if reminder_hours is not None:
                game = await service.set_reminder_hours(game.id, reminder_hours,
                                                        by_user_id=user.id)
            text = t("ui.settings_game", replies.user_locale(interaction),
                     hours=game.reminder_hours)
        else:
            us = await service.set_user_settings(user.id, locale=language,
                                                 dm_opt_in=dm, reminder_hours=reminder_hours)
            if us.locale:
                self.bot.user_locales[user.id] = us.locale
            text = t("ui.settings_user", replies.user_locale(interaction),
                     language=us.locale or "—", dm="✅" if us.dm_opt_in else "❌",
                     hours=us.reminder_hours or "—")
            us = await absence.set_quiet(user.id, timezone_name=timezone, start=quiet_start,
                                         end=quiet_end, notify_before=notify_before)
            text += "\n" + quiet_text(us, locale)
        await replies.reply(interaction, text)


async def setup(bot: LudoBot) -> None:
    await bot.add_cog(Lobby(bot))


