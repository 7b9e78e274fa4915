"""The Discord application: one ``commands.Bot`` that owns the service and the scheduler.

``build_bot(settings)`` opens the database (migrations run there) and returns a bot ready
for ``start(token)``. Its ``setup_hook`` registers the restart-proof components, loads the
cogs, syncs the localised command tree, restores reminders and resumes AI turns that were
pending when the previous process stopped.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import discord
from discord.ext import commands
from discord.voice_client import VoiceClient

from bot import error_handler, messages, play
from bot.absence import Absence
from bot.deadline_output import DiscordDeadlineOutput
from bot.deadlines import DeadlineKeeper
from bot.i18n import t
from bot.models import GameInfo, Seat
from bot.outbox import Deliverer
from bot.presenter import Presenter
from bot.scheduler import ReminderScheduler
from bot.service import GameService
from bot.settings import Settings
from bot.storage import Repository, open_repository
from bot.translator import CatalogueTranslator
from bot.ui import DYNAMIC_ITEMS
from engines import registry

log = logging.getLogger(__name__)

# The bot's own extensions; each registered game's cog is loaded after them from the
# registry (engines/registry.py), and its PRESENTER read from the loaded module.
CORE_EXTENSIONS = ("cogs.lobby", "cogs.history", "cogs.deadlines")  # lobby first


class LudoBot(commands.Bot):
    def __init__(self, settings: Settings, service: GameService, repo: Repository) -> None:
        # The bot has no voice: discord.py's start-up warnings about the missing voice
        # libraries (PyNaCl, davey) would only alarm whoever reads the log.
        VoiceClient.warn_nacl = False
        VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; no privileged intent is needed
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None,
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False))
        self.settings = settings
        self.service = service
        self.repo = repo
        self.presenters: dict[str, Presenter] = {}
        self.user_locales: dict[int, str] = {}
        # One clock for the whole bot: the service's (tests inject a controllable one).
        self.scheduler = ReminderScheduler(service, self.notify_reminder, clock=service.clock)
        self.deadlines = DeadlineKeeper(service, DiscordDeadlineOutput(self),
                                        clock=service.clock)
        self.absence = Absence(service, clock=service.clock)
        self.outbox = Deliverer(self)
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._ai_again: set[int] = set()  # asked again while its runner was busy
        self._closing = False

    # ------------------------------------------------------------ lifecycle
    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        self.tree.on_error = error_handler.on_app_command_error  # type: ignore[method-assign]
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for ext in CORE_EXTENSIONS:
            await self.load_extension(ext)
        for entry in registry.entries():
            await self.load_extension(entry.cog)
            self.presenters[entry.key] = self.extensions[entry.cog].PRESENTER
        self.user_locales = await self.service.user_locales()
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self.scheduler.start()
        try:  # deadlines that passed while the bot was down, handled once, before polling
            await self.deadlines.run_due()
        except Exception:
            log.exception("start-up deadline pass failed")
        self.deadlines.start()
        for game_id in await self.service.games_awaiting_ai():
            self.schedule_ai(game_id)
        self.outbox.kick()  # what a crash left unsent goes out once the gateway is ready
        log.info("ready: %d extension(s), %d dynamic item type(s)", len(self.extensions),
                 len(DYNAMIC_ITEMS))

    async def close(self) -> None:
        self._closing = True  # no AI runner may start once the database is closing
        await self.scheduler.stop()
        await self.deadlines.stop()
        for task in list(self._ai_tasks.values()):
            task.cancel()
        self.service.thinker.close()  # pending searches cancelled, the pool shut down
        await asyncio.gather(*self._ai_tasks.values(), return_exceptions=True)
        await self.outbox.close()  # a row it was sending stays pending for the next start
        await super().close()
        await self.repo.close()

    # ------------------------------------------------------------ shared services
    def presenter(self, game_key: str) -> Presenter:
        return self.presenters[game_key]

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
            await play.run_ai(self, game_id)
            while game_id in self._ai_again and not self._closing:
                self._ai_again.discard(game_id)
                await play.run_ai(self, game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI runner for game %s failed", game_id)
        finally:
            self._ai_tasks.pop(game_id, None)

    async def notify_reminder(self, game: GameInfo, seat: Seat, *, dm: bool) -> bool:
        """A turn reminder: by DM when opted in (False if DMs are closed), else in channel."""
        locale = await play.public_locale(self, game.guild_id)
        text = t("ui.reminder", locale, player=seat.mention(),
                 game=t(f"{game.game_key}.name", locale), link=messages.jump_link(game))
        view = play.reminder_view(game.id, locale)
        if dm and seat.user_id is not None:
            try:
                user = self.get_user(seat.user_id) or await self.fetch_user(seat.user_id)
                await user.send(text, view=view)
                return True
            except discord.HTTPException as err:
                log.info("DM to %s failed (%s); falling back to the channel", seat.user_id, err)
                return False
        sent = await play.send_to_channel(self, game, text, view=view,
                                          ping=[seat.user_id] if seat.user_id else [])
        return sent is not None


async def build_bot(settings: Settings, *,
                    clock: Callable[[], float] = time.time) -> LudoBot:
    """Open storage and assemble the bot (the token is passed to ``start`` by the caller).
    ``clock`` is the wall clock of every deadline, reminder and log time (tests move it)."""
    repo = await open_repository(settings.database)  # a SQLite file, or PostgreSQL
    try:
        # Jobs this process claimed before it last stopped are done again now (the
        # outbox's nonces keep a message posted just before a crash from doubling).
        await repo.release_claims()
        service = GameService(repo, clock=clock, ai_delay=settings.ai_delay,
                              default_locale=settings.default_locale,
                              default_reminder_hours=settings.reminder_hours,
                              default_ai_level=settings.ai_level,
                              render_turns=False)  # the outbox deliverer draws them
        return LudoBot(settings, service, repo)
    except BaseException:
        await repo.close()  # an open connection would keep the process alive
        raise
