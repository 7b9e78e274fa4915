"""The deadline pass's voice on Discord (:class:`bot.core.deadlines.DeadlineOutput`): public
notices, warnings and "you're next" (written to the outbox with their state change and
delivered by :mod:`bot.adapter.outbox_delivery`), the turn messages of moves played for
absent players, and restarting the AI runner."""

from __future__ import annotations

from bot.adapter.client import LudoBot
from bot.core.models import MoveResult


class DiscordDeadlineOutput:
    def __init__(self, bot: LudoBot) -> None:
        self.bot = bot

    async def flush(self) -> None:
        await self.bot.outbox.flush()

    async def moved(self, result: MoveResult) -> None:
        await self.bot.publish(result)

    def resume_ai(self, game_id: int) -> None:
        self.bot.schedule_ai(game_id)
