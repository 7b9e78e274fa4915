"""The application assembled: the client with the modules that speak for it.

``build_bot(settings)`` opens the database (migrations run there) and returns a bot ready
for ``start(token)``: :func:`assemble` gives the client (:mod:`bot.adapter.client`) its
error handler, its restart-proof components and what each click does, the outbox
deliverer, the reminders and the deadline keeper with their Discord voices, and the one
periodic loop that runs their passes.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

from bot.adapter import clicks, error_handler, reminder_messages
from bot.adapter.client import LudoBot, ShardedLudoBot
from bot.adapter.components import DYNAMIC_ITEMS
from bot.adapter.deadline_notices import DiscordDeadlineOutput
from bot.adapter.outbox_delivery import Deliverer
from bot.adapter.periodic import Job, Periodic
from bot.core.deadlines import DeadlineKeeper
from bot.core.reminders import Reminders
from bot.core.service import GameService
from bot.core.settings import Settings
from bot.core.shards import Shards
from bot.core.storage import Repository, open_repository
from bot.core.storage.repository import default_owner

# A process that shares the database with others looks for the jobs they leave it (a turn
# message owed by a move taken from a DM) this often; alone, the default minute is enough.
SHARED_POLL_SECONDS = 5.0


def assemble(settings: Settings, service: GameService, repo: Repository) -> LudoBot:
    """The client with everything that speaks for it (no connection is opened here)."""
    bot = (LudoBot if settings.shard_count is None else ShardedLudoBot)(settings, service, repo)
    bot.tree.on_error = error_handler.on_app_command_error  # type: ignore[method-assign]
    bot.on_click = clicks.route
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    bot.dynamic_item_count = len(DYNAMIC_ITEMS)
    bot.outbox = Deliverer(bot)
    # One clock for the whole bot: the service's (tests inject a controllable one).
    # Each does the work of the games in this process's shards' guilds only.
    bot.reminders = Reminders(service, functools.partial(reminder_messages.notify, bot),
                              clock=service.clock, shards=bot.served)
    bot.deadlines = DeadlineKeeper(service, DiscordDeadlineOutput(bot), clock=service.clock,
                                   shards=bot.served)
    jobs: list[tuple[str, Job]] = [("deadlines", bot.deadlines.run_due),
                                   ("reminders", bot.reminders.run_due),
                                   ("outbox", bot.outbox.retry)]
    if bot.served.everything:
        bot.periodic = Periodic(jobs)
    else:  # other processes write this one's jobs (a move taken from a DM) and languages
        jobs.append(("languages", bot.refresh_locales))
        bot.periodic = Periodic(jobs, seconds=SHARED_POLL_SECONDS)
    return bot


async def build_bot(settings: Settings, *,
                    clock: Callable[[], float] = time.time) -> LudoBot:
    """Open storage and assemble the bot (the token is passed to ``start`` by the caller).
    ``clock`` is the wall clock of every deadline, reminder and log time (tests move it)."""
    served = Shards.of_process(settings.shard_count, settings.shard_ids)
    # Claims are held under a name that stays the same when this process restarts and
    # differs between processes holding different shards (docs/STORAGE.md).
    owner = default_owner() if served.everything else (
        f"{default_owner()}/shards-{'-'.join(map(str, sorted(served.ids)))}")
    repo = await open_repository(settings.database, owner=owner)  # SQLite or PostgreSQL
    try:
        # Jobs this process claimed before it last stopped are done again now (the
        # outbox's nonces keep a message posted just before a crash from doubling).
        await repo.release_claims()
        service = GameService(repo, clock=clock, ai_delay=settings.ai_delay,
                              default_locale=settings.default_locale,
                              default_reminder_hours=settings.reminder_hours,
                              default_ai_level=settings.ai_level,
                              render_turns=False)  # the outbox deliverer draws them
        return assemble(settings, service, repo)
    except BaseException:
        await repo.close()  # an open connection would keep the process alive
        raise
