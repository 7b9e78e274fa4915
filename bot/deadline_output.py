"""The deadline pass's voice on Discord (:class:`bot.deadlines.DeadlineOutput`): public
notices, warnings and "you're next" (written to the outbox with their state change and
delivered by :mod:`bot.outbox`), the turn messages of moves played for absent players, and
restarting the AI runner."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot import play
from bot.models import MoveResult

if TYPE_CHECKING:
    from bot.app import LudoBot


class DiscordDeadlineOutput:
    def __init__(self, bot: LudoBot) -> None:
        self.bot = bot

    async def flush(self) -> None:
        await self.bot.outbox.flush()

    async def moved(self, result: MoveResult) -> None:
        await play.publish(self.bot, result)

    def resume_ai(self, game_id: int) -> None:
        self.bot.schedule_ai(game_id)
