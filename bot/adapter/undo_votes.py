"""Undo on Discord: a take-back asked by button or command, the consent vote it may need,
and the public announcement once it is applied (the rules: :mod:`bot.core.undo`)."""

from __future__ import annotations

import contextlib
import io
import logging
from datetime import UTC, datetime
from typing import Any

import discord

from bot.adapter.client import LudoBot
from bot.adapter.components import turn_message_view, undo_vote_view
from bot.adapter.panels import send_panel
from bot.adapter.replies import (
    acknowledge,
    bot_of,
    public_locale,
    reply,
    send_to_channel,
    user_locale,
)
from bot.core import messages
from bot.core.errors import StaleVersion
from bot.core.i18n import t
from bot.core.models import GameInfo
from bot.core.undo import UndoResult

log = logging.getLogger(__name__)


async def undo(interaction: discord.Interaction[Any], game_id: int, *,
               expected_version: int | None = None) -> None:
    """``expected_version``: the version the Undo button was drawn at (None: the command)."""
    bot = bot_of(interaction)
    try:
        result = await bot.service.request_undo(game_id, interaction.user.id,
                                            expected_version=expected_version)
    except StaleVersion as err:
        await reply(interaction, err.text(user_locale(interaction)))
        await send_panel(interaction, game_id)
        return
    await announce_undo(interaction, bot, result)


async def _board_file(bot: LudoBot, game: GameInfo, locale: str) -> list[discord.File]:
    """The public board after an undo, in the channel's language (the turn message's rule);
    a drawing bug must not hold back the announcement."""
    try:
        image = await bot.service.board(game.id, locale=locale)
    except Exception:
        log.exception("game %d: drawing the board after an undo failed", game.id)
        return []
    return [discord.File(io.BytesIO(image), filename=f"{game.game_key}.png")]


async def announce_undo(interaction: discord.Interaction[Any], bot: LudoBot,
                        result: UndoResult) -> None:
    game = result.game
    locale = await public_locale(bot, game.guild_id)
    player = result.requester.mention()
    if result.refused:
        await reply(interaction, t(f"history.undo_{result.refused}", locale, player=player),
                         ephemeral=False)
        return
    if result.applied:
        key = "history.undo_done_vote" if result.reason == "vote" else "history.undo_done"
        lines = [t(key, locale, player=player, n=len(result.taken_back))]
        if result.awaited:
            lines.append(t("ui.next", locale, players=messages.mentions(
                game, [s.seat for s in result.awaited])))
        files = await _board_file(bot, game, locale)
        await reply(interaction, lines[0])
        await send_to_channel(bot, game, "\n".join(lines), files=files,
                                   view=turn_message_view(game.id, locale),
                                   ping=[s.user_id for s in result.awaited if s.user_id])
        bot.schedule_ai(game.id)
        return
    request = result.request
    assert request is not None and request.expires_at is not None
    if request.votes:
        yes = sum(1 for v in request.votes.values() if v)
        await reply(interaction, t("history.undo_progress", locale, yes=yes,
                                   needed=len(request.voters)))
        return
    text = t("history.undo_ask", locale, player=player, n=len(result.taken_back),
             reason=t(f"history.undo_reason.{result.reason}", locale),
             voters=" ".join(f"<@{u}>" for u in request.voters),
             deadline=discord.utils.format_dt(
                 datetime.fromtimestamp(request.expires_at, tz=UTC), "R"))
    await reply(interaction, text, view=undo_vote_view(request.id, locale), ephemeral=False)


async def vote(interaction: discord.Interaction[Any], request_id: int, accept: bool) -> None:
    bot = bot_of(interaction)
    await acknowledge(interaction, "update")
    result = await bot.service.vote_undo(request_id, interaction.user.id, accept)
    if result.applied or result.refused:
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(view=None)
    await announce_undo(interaction, bot, result)
