"""The Discord client: one ``commands.Bot`` holding the service and the periodic work.

It imports nothing else of the adapter but what every module may import in turn (the
translator, the presenter protocol): the modules that send, draw and answer clicks type
against it without an import circle. :mod:`bot.adapter.app` assembles it with them.
``setup_hook`` loads the cogs, syncs the localised command tree, restores reminders and
deadlines, and resumes the AI turns that were pending when the previous process stopped.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord
from discord.ext import commands
from discord.voice_client import VoiceClient

from bot.adapter.periodic import Periodic
from bot.adapter.presenter import Presenter
from bot.adapter.translator import CatalogueTranslator
from bot.core.absence_policies import Absence
from bot.core.deadlines import DeadlineKeeper
from bot.core.models import MoveResult
from bot.core.reminders import Reminders
from bot.core.service import GameService
from bot.core.settings import Settings
from bot.core.shards import Shards
from bot.core.storage import Repository
from engines import registry

log = logging.getLogger(__name__)

# The bot's own extensions; each registered game's cog is loaded after them from the
# registry (engines/registry.py), and its PRESENTER read from the loaded module.
CORE_EXTENSIONS = ("cogs.lobby", "cogs.history", "cogs.deadlines")  # lobby first

Click = Callable[[Any, discord.Interaction[Any]], Awaitable[None]]


class Outbox(Protocol):
    """What the client needs of the outbox deliverer (:mod:`bot.adapter.outbox_delivery`)."""

    def kick(self) -> object: ...
    async def flush(self) -> None: ...
    async def retry(self) -> None: ...
    async def close(self) -> None: ...


class LudoBot(commands.Bot):
    # Set by bot.adapter.app.assemble: they need the client to speak.
    reminders: Reminders
    deadlines: DeadlineKeeper
    outbox: Outbox
    periodic: Periodic  # the one loop that runs the deadline, reminder and outbox passes
    on_click: Click  # what a restart-proof component's click does (bot.adapter.clicks)
    dynamic_item_count: int = 0

    def __init__(self, settings: Settings, service: GameService, repo: Repository,
                 **options: Any) -> None:
        # The bot has no voice: discord.py's start-up warnings about the missing voice
        # libraries (PyNaCl, davey) would only alarm whoever reads the log.
        VoiceClient.warn_nacl = False
        VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; no privileged intent is needed
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None,
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
                         **options)
        self.settings = settings
        # The periodic work of the games in this process's shards' guilds is its own.
        self.served = Shards.of_process(settings.shard_count, settings.shard_ids)
        self.service = service
        self.repo = repo
        self.presenters: dict[str, Presenter] = {}
        self.user_locales: dict[int, str] = {}
        self.absence = Absence(service, clock=service.clock)
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._ai_again: set[int] = set()  # asked again while its runner was busy
        self._closing = False

    # ------------------------------------------------------------ lifecycle
    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        for ext in CORE_EXTENSIONS:
            await self.load_extension(ext)
        for entry in registry.entries():
            await self.load_extension(entry.cog)
            self.presenters[entry.key] = self.extensions[entry.cog].PRESENTER
        self.user_locales = await self.service.user_locales()
        if not self.served.home:
            pass  # the commands are the application's: shard 0's process registers them
        elif self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        try:  # deadlines that passed while the bot was down, handled once, before polling
            await self.deadlines.run_due()
        except Exception:
            log.exception("start-up deadline pass failed")
        self.periodic.start()
        for game_id in await self.service.games_awaiting_ai(self.served):
            self.schedule_ai(game_id)
        self.outbox.kick()  # what a crash left unsent goes out once the gateway is ready
        log.info("ready: %d extension(s), %d dynamic item type(s)", len(self.extensions),
                 self.dynamic_item_count)

    async def close(self) -> None:
        self._closing = True  # no AI runner may start once the database is closing
        await self.periodic.stop()
        for task in list(self._ai_tasks.values()):
            task.cancel()
        self.service.thinker.close()  # pending searches cancelled, the pool shut down
        await asyncio.gather(*self._ai_tasks.values(), return_exceptions=True)
        await self.outbox.close()  # a row it was sending stays pending for the next start
        await super().close()
        await self.repo.close()

    async def refresh_locales(self) -> None:
        """Re-read the players' chosen languages: with several processes, one may have been
        chosen through another (a periodic job then; read once in ``setup_hook``)."""
        self.user_locales = await self.service.user_locales()

    # ------------------------------------------------------------ shared services
    def presenter(self, game_key: str) -> Presenter:
        return self.presenters[game_key]

    async def publish(self, result: MoveResult) -> None:
        """Post what the move owes the channel (turn message, standings): the move wrote it
        to the outbox in its own transaction; here it is delivered (the outbox deliverer)."""
        if result.turn_completed or result.result is not None:
            await self.outbox.flush()

    def schedule_ai(self, game_id: int) -> None:
        """Run the game's pending AI moves in the background (one runner per game)."""
        if self._closing:
            return
        running = self._ai_tasks.get(game_id)
        if running is not None and not running.done():
            self._ai_again.add(game_id)  # the runner looks once more before it stops
            return
        task = asyncio.create_task(self._run_ai(game_id), name=f"ai-{game_id}")
        self._ai_tasks[game_id] = task

    async def _run_ai(self, game_id: int) -> None:
        try:
            if not self.served.everything \
                    and not self.served.owns((await self.service.get(game_id)).guild_id):
                return  # its server's process plays it once it delivers the turn message
            await self._play_ai(game_id)
            while game_id in self._ai_again and not self._closing:
                self._ai_again.discard(game_id)
                await self._play_ai(game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI runner for game %s failed", game_id)
        finally:
            self._ai_tasks.pop(game_id, None)

    async def _play_ai(self, game_id: int) -> None:
        """Play every AI move now awaited, posting each completed turn."""
        async for result in self.service.ai_moves(game_id):
            await self.publish(result)


class ShardedLudoBot(LudoBot, commands.AutoShardedBot):
    """The bot holding the shards ``LUDO_SHARD_IDS`` of ``LUDO_SHARD_COUNT``: Discord sends
    it the events of those shards' guilds (and DMs with shard 0)."""

    def __init__(self, settings: Settings, service: GameService,
                 repo: Repository) -> None:
        shards = Shards.of_process(settings.shard_count, settings.shard_ids)
        super().__init__(settings, service, repo, shard_count=shards.count,
                         shard_ids=sorted(shards.ids))
