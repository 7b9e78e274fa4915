"""The deadline pass's voice on Discord (:class:`bot.core.deadlines.DeadlineOutput`): public
announcements in the game's channel, warnings and "you're next" by DM or mention, the turn
messages of moves played for absent players, and restarting the AI runner."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord

from bot.adapter import replies
from bot.adapter.client import LudoBot
from bot.adapter.components import turn_message_view
from bot.core.i18n import t
from bot.core.models import GameInfo, MoveResult

log = logging.getLogger(__name__)


class DiscordDeadlineOutput:
    def __init__(self, bot: LudoBot) -> None:
        self.bot = bot

    async def announce(self, game: GameInfo, key: str, params: Mapping[str, Any]) -> None:
        locale = await replies.public_locale(self.bot, game.guild_id)
        await replies.send_to_channel(self.bot, game, t(key, locale, **params))

    async def notify(self, game: GameInfo, user_id: int, key: str, params: Mapping[str, Any],
                     *, dm: bool) -> bool:
        public = await replies.public_locale(self.bot, game.guild_id)
        if not dm:
            sent = await replies.send_to_channel(self.bot, game, t(key, public, **params),
                                              ping=[user_id])
            return sent is not None
        locale = self.bot.user_locales.get(user_id) or public
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(t(key, locale, **params),
                            view=turn_message_view(game.id, locale))
        except discord.HTTPException as err:
            log.info("DM %s to %s failed (%s)", key, user_id, err)
            return False
        return True

    async def moved(self, result: MoveResult) -> None:
        await self.bot.publish(result)

    def resume_ai(self, game_id: int) -> None:
        self.bot.schedule_ai(game_id)
