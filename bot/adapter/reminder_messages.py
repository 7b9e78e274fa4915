"""Turn reminders on Discord: the ping (by DM when opted in, else in the channel) and the
"mute for this turn" button's flow. The reminder pass itself is Discord-free
(:mod:`bot.core.reminders`)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.adapter.client import LudoBot
from bot.adapter.components import reminder_view
from bot.adapter.replies import bot_of, public_locale, reply, send_to_channel, user_locale
from bot.core import messages
from bot.core.i18n import t
from bot.core.models import GameInfo, Seat

log = logging.getLogger(__name__)


async def notify(bot: LudoBot, game: GameInfo, seat: Seat, *, dm: bool) -> bool:
    """A turn reminder: by DM when opted in (False if DMs are closed), else in channel."""
    locale = await public_locale(bot, game.guild_id)
    text = t("ui.reminder", locale, player=seat.mention(),
             game=t(f"{game.game_key}.name", locale), link=messages.jump_link(game))
    view = reminder_view(game.id, locale)
    if dm and seat.user_id is not None:
        try:
            user = bot.get_user(seat.user_id) or await bot.fetch_user(seat.user_id)
            await user.send(text, view=view)
            return True
        except discord.HTTPException as err:
            log.info("DM to %s failed (%s); falling back to the channel", seat.user_id, err)
            return False
    sent = await send_to_channel(bot, game, text, view=view,
                                 ping=[seat.user_id] if seat.user_id else [])
    return sent is not None


async def mute(interaction: discord.Interaction[Any], game_id: int) -> None:
    bot = bot_of(interaction)
    muted = await bot.reminders.mute(game_id, interaction.user.id)
    await reply(interaction, t("ui.muted" if muted else "ui.mute_not_awaited",
                               user_locale(interaction)))
