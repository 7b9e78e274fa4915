"""Reminders for awaited players, restored from the database after a restart.

The service keeps one reminder row per awaited human seat (created when their turn begins,
dropped when it ends). A pass (:meth:`Reminders.run_due`, run by the bot's one periodic loop,
:mod:`bot.adapter.periodic`) finds the rows that are due, pings the player through
``notify`` — by DM if they opted in, falling back to a channel mention when the DM fails —
and schedules the next ping one interval later. ``mute`` silences a player until their next
turn. All state is in the database, so nothing is lost or repeated across restarts.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.core import errors
from bot.core.models import ACTIVE, GameInfo, Seat
from bot.core.quiet_hours import quiet_until
from bot.core.service import GameService
from bot.core.shards import ALL, Shards

log = logging.getLogger(__name__)


class Notify(Protocol):
    def __call__(self, game: GameInfo, seat: Seat, *, dm: bool) -> Awaitable[bool]:
        """Ping the player; return False if it could not be delivered."""


class Reminders:
    def __init__(self, service: GameService, notify: Notify,
                 clock: Callable[[], float] = time.time, shards: Shards = ALL) -> None:
        self.service = service
        self.shards = shards  # only the games of this process's guilds are reminded here
        self.repo = service.repo
        self.notify = notify
        self.clock = clock

    async def run_due(self, now: float | None = None) -> int:
        """One pass: ping every due, unmuted, awaited player; return how many were pinged."""
        now = self.clock() if now is None else now
        sent = 0
        # Claimed, of this process's guilds: a reminder another process (or pass) is
        # sending is not sent again.
        for reminder in await self.repo.claim_due_reminders(now, shards=self.shards):
            game = await self.repo.get_game(reminder.game_id)
            if game is None or game.status != ACTIVE or reminder.seat >= len(game.seats):
                continue
            seat = game.seats[reminder.seat]
            if seat.user_id != reminder.user_id:
                continue
            wake = quiet_until(await self.repo.user_settings(reminder.user_id), now)
            if wake is not None:  # the player's quiet hours: the reminder waits for them
                await self.repo.reschedule_reminder(game.id, seat.seat, wake)
                continue
            hours = await self.service.reminder_hours_for(game, reminder.user_id)
            # Schedule the next ping first: a failing notify must not cause a ping storm.
            await self.repo.reschedule_reminder(
                game.id, seat.seat, now + hours * 3600 if hours > 0 else None)
            if await self._ping(game, seat):
                sent += 1
        return sent

    async def _ping(self, game: GameInfo, seat: Seat) -> bool:
        assert seat.user_id is not None
        prefs = await self.repo.user_settings(seat.user_id)
        try:
            if prefs.dm_opt_in:
                if await self.notify(game, seat, dm=True):
                    log.info("game %d: reminded seat %d by DM", game.id, seat.seat)
                    return True
                log.info("game %d: DM to seat %d failed, mentioning in channel", game.id,
                         seat.seat)
            delivered = await self.notify(game, seat, dm=False)
        except Exception:
            log.exception("game %d: reminder for seat %d failed", game.id, seat.seat)
            return False
        if delivered:
            log.info("game %d: reminded seat %d in channel", game.id, seat.seat)
        else:
            log.warning("game %d: could not remind seat %d", game.id, seat.seat)
        return bool(delivered)

    async def mute(self, game_id: int, user_id: int) -> bool:
        """No more reminders for this player until their next turn begins; False if they
        are not awaited now. Only a seated player has reminders to mute."""
        game = await self.service.get(game_id)
        if game.seat_of(user_id) is None:
            raise errors.NotSeated(game_id=game_id)
        muted = await self.repo.mute_reminders(game_id, user_id) > 0
        log.info("game %d: user %d muted reminders (%s)", game_id, user_id,
                 "ok" if muted else "not awaited")
        return muted
