"""The lobby on Discord: its message, its buttons' flows (join, leave, add an AI, start) and
the vote to cancel a started game."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.adapter.client import LudoBot
from bot.adapter.components import cancel_vote_view, lobby_view
from bot.adapter.replies import acknowledge, bot_of, public_locale, reply, user_locale
from bot.core.i18n import t
from bot.core.models import GameInfo, MoveResult

log = logging.getLogger(__name__)


async def lobby_text(bot: LudoBot, game: GameInfo, locale: str) -> str:
    engine_name = t(f"{game.game_key}.name", locale)
    seats = "\n".join(
        f"{s.seat + 1}. {s.mention()}"
        + (" " + t("ai.seat", locale, level=t(f"ai.level.{s.level}", locale)) if s.is_ai else "")
        for s in game.seats) or "—"
    text = t("lobby.text", locale, game=engine_name, seats=seats, taken=len(game.seats),
             max=game.max_seats, creator=f"<@{game.creator_id}>")
    if game.options:  # the table's variant, as /game new options: takes it
        chosen = " ".join(f"`{k}={str(v).lower() if isinstance(v, bool) else v}`"
                          for k, v in sorted(game.options.items()))
        text += "\n" + t("lobby.options", locale, options=chosen)
    return text


async def lobby_click(interaction: discord.Interaction[Any], game_id: int, op: str) -> None:
    bot = bot_of(interaction)
    user = interaction.user
    await acknowledge(interaction, "update")  # before the database (and the board)
    if op == "start":
        result = await bot.service.start(game_id, user.id)
        await interaction.edit_original_response(
            content=await lobby_text(bot, result.game, user_locale(interaction)),
            view=None)
        await after_start(bot, result)
        return
    game = await seat_change(bot, game_id, user, op)
    locale = await public_locale(bot, game.guild_id)
    await interaction.edit_original_response(content=await lobby_text(bot, game, locale),
                                             view=lobby_view(game.id, locale))


async def seat_change(bot: LudoBot, game_id: int, user: discord.abc.User, op: str,
                      level: str | None = None) -> GameInfo:
    """Join, leave or add an AI seat (the lobby's button and slash command share it)."""
    if op == "join":
        return await bot.service.join(game_id, user.id, user.display_name)
    if op == "leave":
        return await bot.service.leave(game_id, user.id)
    return await bot.service.add_ai(game_id, user.id, level)


async def refresh_lobby(bot: LudoBot, game: GameInfo) -> bool:
    """Redraw the lobby message in place after a change made by slash command."""
    if game.lobby_message_id is None:
        return False
    locale = await public_locale(bot, game.guild_id)
    try:
        channel = bot.get_channel(game.channel_id) or await bot.fetch_channel(game.channel_id)
        message = channel.get_partial_message(game.lobby_message_id)  # type: ignore[union-attr]
        await message.edit(content=await lobby_text(bot, game, locale),
                           view=lobby_view(game.id, locale))
        return True
    except (discord.HTTPException, AttributeError) as err:
        log.info("lobby message of game %s not updated: %s", game.id, err)
        return False


async def after_start(bot: LudoBot, result: MoveResult) -> None:
    """Post the start message (written to the outbox with the start), then let the AI
    seats play."""
    await bot.outbox.flush()
    bot.schedule_ai(result.game.id)


async def vote_cancel(interaction: discord.Interaction[Any], game_id: int) -> None:
    bot = bot_of(interaction)
    result = await bot.service.vote_cancel(game_id, interaction.user.id)
    game = result.game
    locale = await public_locale(bot, game.guild_id)
    if result.passed:
        await reply(interaction, t("lobby.cancelled_by_vote", locale), ephemeral=False)
    else:
        await reply(interaction, t("lobby.vote_recorded", locale, votes=len(result.votes),
                                   needed=len(result.needed)),
                    view=cancel_vote_view(game.id, locale), ephemeral=False)
