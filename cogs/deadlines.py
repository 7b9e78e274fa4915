"""``/game deadline|pause|vacation|takeover``: playing over days with absent players.

Like ``cogs.history``, a second cog whose commands move into the lobby's ``/game`` group in
:meth:`Deadlines.cog_load` (load it after ``cogs.lobby``). The rules live in
:mod:`bot.core.absence_policies`; this only parses and presents. Every command is
acknowledged before it reads the database.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter import replies
from bot.adapter.client import LudoBot
from bot.adapter.translator import L
from bot.core.absence_policies import VacationStatus
from bot.core.deadlines import stamp
from bot.core.errors import NoGameHere
from bot.core.i18n import t
from bot.core.models import LOBBY, DeadlinePolicy, GameInfo, UserSettings
from bot.core.quiet_hours import format_time
from bot.core.votes import VoteResult

log = logging.getLogger(__name__)

TIMEOUT_CHOICES = [
    app_commands.Choice(name=L("the AI plays", "deadline.cmd.on_timeout.ai"), value="ai"),
    app_commands.Choice(name=L("skip the move", "deadline.cmd.on_timeout.skip"), value="skip"),
]


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


def policy_text(policy: DeadlinePolicy, locale: str) -> str:
    return t("deadline.policy", locale,
             hours=f"{policy.hours:g}" if policy.enabled else t("deadline.off", locale),
             policy=t(f"deadline.policy.{policy.on_timeout}", locale),
             abandon=policy.abandon_after,
             paused=t("deadline.policy_paused", locale) if policy.paused_at else "")


def vote_text(result: VoteResult, locale: str) -> str:
    kind = result.topic.split(":", 1)[0]
    return t("deadline.vote_recorded", locale, proposal=t(f"deadline.proposal.{kind}", locale),
             votes=len(result.votes), needed=len(result.needed))


def vacation_text(key: str, status: VacationStatus, locale: str) -> str:
    current = status.current
    return t(key, locale, left=status.left, allowance=status.allowance,
             end=stamp(current.end_at) if current else "",
             current=t("deadline.vacation_current", locale, end=stamp(current.end_at))
             if current else "")


def quiet_text(settings: UserSettings, locale: str) -> str:
    if settings.quiet_start is None or settings.quiet_end is None:
        quiet = t("deadline.quiet_none", locale)
    else:
        quiet = f"{format_time(settings.quiet_start)}–{format_time(settings.quiet_end)}"
    return t("deadline.quiet_settings", locale, timezone=settings.timezone or "UTC",
             quiet=quiet, before="✅" if settings.notify_before else "❌")


class Deadlines(commands.Cog):
    def __init__(self, bot: LudoBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("game")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("cogs.deadlines needs cogs.lobby's /game group: load it first")
        for command in self.__cog_app_commands__:
            group.add_command(command)
        self.__cog_app_commands__ = []  # they live in /game now, not at the top level

    async def _here(self, interaction: discord.Interaction[Any]) -> GameInfo:
        game = await self.bot.service.in_channel(interaction.channel_id or 0)
        if game is None:
            raise NoGameHere()
        return game

    @app_commands.command(name=L("deadline", "deadline.cmd.deadline"),
                          description=L("Show or change the move deadline (creator before "
                                        "start, vote after)", "deadline.cmd.deadline.desc"))
    @app_commands.describe(
        hours=L("Hours to move (0 = no deadline)", "deadline.cmd.deadline.hours"),
        on_timeout=L("What happens when time runs out", "deadline.cmd.deadline.on_timeout"),
        abandon_after=L("Missed deadlines in a row before the seat is abandoned (0 = never)",
                        "deadline.cmd.deadline.abandon_after"))
    @app_commands.rename(hours=L("hours", "deadline.cmd.opt.hours"),
                         on_timeout=L("on_timeout", "deadline.cmd.opt.on_timeout"),
                         abandon_after=L("abandon_after", "deadline.cmd.opt.abandon_after"))
    @app_commands.choices(on_timeout=TIMEOUT_CHOICES)
    async def deadline(self, interaction: discord.Interaction[Any],
                       hours: app_commands.Range[float, 0.0, 1440.0] | None = None,
                       on_timeout: str | None = None,
                       abandon_after: app_commands.Range[int, 0, 20] | None = None) -> None:
        await replies.defer_private(interaction)  # a vote's outcome is answered publicly
        absence, user = self.bot.absence, interaction.user
        locale = replies.user_locale(interaction)
        game = await self._here(interaction)
        if hours is None and on_timeout is None and abandon_after is None:
            await replies.reply(interaction, policy_text(await absence.policy(game.id), locale))
            return
        if game.status == LOBBY:
            policy = await absence.configure(game.id, user.id, hours=hours,
                                             on_timeout=on_timeout,
                                             abandon_after=abandon_after)
            await replies.reply(interaction, policy_text(policy, locale))
            return
        result = await absence.propose(game.id, user.id, hours=hours,
                                       on_timeout=on_timeout, abandon_after=abandon_after)
        public = await replies.public_locale(self.bot, game.guild_id)
        text = (t("deadline.policy_changed", public,
                  policy=policy_text(await absence.policy(game.id), public))
                if result.passed else vote_text(result, public))
        await replies.reply(interaction, text, ephemeral=False)

    @app_commands.command(name=L("pause", "deadline.cmd.pause"),
                          description=L("Vote to pause this game's clocks, or to resume them",
                                        "deadline.cmd.pause.desc"))
    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        await replies.defer_public(interaction)
        absence = self.bot.absence
        game = await self._here(interaction)
        public = await replies.public_locale(self.bot, game.guild_id)
        if is_admin(interaction) and game.seat_of(interaction.user.id) is None:
            paused = (await absence.policy(game.id)).paused_at is None
            if await absence.set_paused(game.id, paused):
                text = t("deadline.paused" if paused else "deadline.resumed", public)
            else:
                text = t("deadline.pause_unchanged", public)
        else:
            result = await absence.vote_pause(game.id, interaction.user.id)
            text = (t(f"deadline.{'paused' if result.topic == 'pause' else 'resumed'}",
                      public) if result.passed else vote_text(result, public))
        await replies.reply(interaction, text, ephemeral=False)

    @app_commands.command(name=L("vacation", "deadline.cmd.vacation"),
                          description=L("Stop your deadlines in every game for some days "
                                        "(0 = come back)", "deadline.cmd.vacation.desc"))
    @app_commands.describe(days=L("How many days (0 ends your vacation)",
                                  "deadline.cmd.vacation.days"))
    @app_commands.rename(days=L("days", "deadline.cmd.opt.days"))
    async def vacation(self, interaction: discord.Interaction[Any],
                       days: app_commands.Range[int, 0, 365] | None = None) -> None:
        await replies.defer_private(interaction)
        absence, user = self.bot.absence, interaction.user
        locale = replies.user_locale(interaction)
        if days is None:
            status = await absence.vacation_status(user.id, interaction.guild_id)
            text = vacation_text("deadline.vacation_status", status, locale)
        elif days == 0:
            status = await absence.end_vacation(user.id, interaction.guild_id)
            text = vacation_text("deadline.vacation_ended", status, locale)
        else:
            status = await absence.start_vacation(user.id, interaction.guild_id, days)
            text = vacation_text("deadline.vacation_started", status, locale)
        await replies.reply(interaction, text)

    @app_commands.command(name=L("takeover", "deadline.cmd.takeover"),
                          description=L("Take over a seat abandoned by an absent player",
                                        "deadline.cmd.takeover.desc"))
    @app_commands.describe(seat=L("Seat number (default: the first abandoned seat)",
                                  "deadline.cmd.takeover.seat"))
    @app_commands.rename(seat=L("seat", "deadline.cmd.opt.seat"))
    async def takeover(self, interaction: discord.Interaction[Any],
                       seat: app_commands.Range[int, 1, 8] | None = None) -> None:
        await replies.defer_public(interaction)
        user = interaction.user
        game = await self._here(interaction)
        game = await self.bot.absence.takeover(game.id, user.id, user.display_name,
                                               None if seat is None else seat - 1)
        taken = game.seat_of(user.id)
        public = await replies.public_locale(self.bot, game.guild_id)
        await replies.reply(interaction, t("deadline.takeover_done", public, player=user.mention,
                                        seat=(taken.seat + 1) if taken else "?"),
                         ephemeral=False)


async def setup(bot: LudoBot) -> None:
    await bot.add_cog(Deadlines(bot))
