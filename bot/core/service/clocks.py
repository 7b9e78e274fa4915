"""The clocks of a game and who holds its seats over time: deadline policies, table pauses,
vacations, reminder intervals, abandoned seats and their takeover. The rules are decided
elsewhere (:mod:`bot.core.absence_policies`, :mod:`bot.core.deadlines`,
:mod:`bot.core.move_clocks`); here they are written, under each game's lock.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence

from bot.core import errors, move_clocks, votes
from bot.core.models import ACTIVE, DeadlinePolicy, GameInfo, Seat
from bot.core.service.base import ServiceBase, check_hours, logged
from bot.core.storage.base import Outgoing, SeatTaken, Vacation, VersionConflict

log = logging.getLogger(__name__)

ABANDONED_NAME = "{name} 🤖"  # an abandoned seat, played by the AI until taken over


class Clocks(ServiceBase):
    async def set_deadline_policy(self, game_id: int, policy: DeadlinePolicy, *,
                                  restart_clocks: bool) -> None:
        """Store the game's deadline policy; ``restart_clocks`` (a change after the start)
        restarts every running clock under it, players on vacation excepted."""
        async with self._locks[game_id]:
            now = self.clock()
            await self.repo.set_deadline_policy(game_id, policy, now=now)
            if restart_clocks:
                rows = await self.repo.reminders(game_id)
                away = [r.user_id for r in rows
                        if await self.repo.current_vacation(r.user_id, now)]
                await self.repo.set_clocks(game_id, move_clocks.restart(policy, rows, away, now))

    async def set_paused(self, game_id: int, paused: bool) -> bool:
        """Stop or restart every clock of the game (a vote passed, or an admin); False if
        it already was in that state. Open votes about the clocks are void then."""
        async with self._locks[game_id]:
            now = self.clock()
            policy = await self.repo.deadline_policy(game_id)
            if (policy.paused_at is not None) == paused:
                return False
            policy = dataclasses.replace(policy, paused_at=now if paused else None)
            await self.repo.set_deadline_policy(game_id, policy, now=now)
            rows = await self.repo.reminders(game_id)
            if paused:
                changed = move_clocks.stop(rows, now)
            else:
                here = [r for r in rows if not await self.repo.current_vacation(r.user_id, now)]
                changed = move_clocks.resume(policy, here, now, now)
            await self.repo.set_clocks(game_id, changed)
            await self.repo.close_open_votes(game_id, votes.VOID, now=now,
                                             keep=(votes.CANCEL, votes.UNDO))
        log.info("game %d %s", game_id, "paused" if paused else "resumed")
        return True

    async def set_reminder_hours(self, game_id: int, hours: float, by_user_id: int) -> GameInfo:
        """The creator sets the game's interval between two reminders (0 = never)."""
        with logged("set_reminder_hours", game=game_id, user=by_user_id):
            game = await self.get(game_id)
            if by_user_id != game.creator_id:
                raise errors.NotCreator(game_id=game_id)
            value = check_hours(hours)
            game = await self.repo.set_game_reminder_hours(game_id, value, now=self.clock())
        log.info("game %d: reminders every %.1f h", game_id, value)
        return game

    async def reminder_hours_for(self, game: GameInfo, user_id: int) -> float:
        """The interval between two reminders of this player in this game (0 = never)."""
        prefs = await self.repo.user_settings(user_id)
        return game.reminder_hours if prefs.reminder_hours is None else prefs.reminder_hours

    # --- vacations ---------------------------------------------------------------------
    async def start_vacation(self, user_id: int, start: float, end: float) -> None:
        """A player's vacation (its days checked by bot/core/absence_policies.py): their
        clocks stop in every game."""
        await self.repo.add_vacation(user_id, start, end)
        await self._stop_clocks(user_id, start)

    async def end_vacation(self, vacation: Vacation, now: float) -> None:
        """Back early: the vacation ends now and the player's clocks restart."""
        await self.repo.end_vacation(vacation.id, now)
        await self._resume_clocks(user_id=vacation.user_id, at=now, now=now)
        await self.repo.mark_vacation_resumed(vacation.id)

    async def vacation_over(self, vacation: Vacation, now: float) -> int:
        """A vacation that ran its course (the deadline pass): clocks restart from its end."""
        restarted = await self._resume_clocks(vacation.user_id, vacation.end_at, now)
        await self.repo.mark_vacation_resumed(vacation.id)
        return restarted

    async def _stop_clocks(self, user_id: int, now: float) -> None:
        """A player went on vacation: their clocks stop in every game."""
        rows = await self.repo.user_clocks(user_id)
        for game_id in sorted({r.game_id for r in rows}):
            async with self._locks[game_id]:
                await self.repo.set_clocks(game_id, move_clocks.stop(
                    [r for r in rows if r.game_id == game_id], now))

    async def _resume_clocks(self, user_id: int, at: float, now: float) -> int:
        """Restart a player's stopped clocks (their vacation ended at ``at``), except in
        games the table has paused; return how many were restarted."""
        rows = await self.repo.user_clocks(user_id)
        restarted = 0
        for game_id in sorted({r.game_id for r in rows}):
            async with self._locks[game_id]:
                policy = await self.repo.deadline_policy(game_id)
                if not policy.enabled or policy.paused_at is not None:
                    continue
                changed = move_clocks.resume(policy, [r for r in rows if r.game_id == game_id],
                                             at, now)
                await self.repo.set_clocks(game_id, changed)
                restarted += len(changed)
        return restarted

    # --- abandoned seats ---------------------------------------------------------------
    async def abandon_seat(self, game_id: int, seat: int, user_id: int, turn_version: int, *,
                           now: float, outbox: Sequence[Outgoing] = ()) -> GameInfo | None:
        """The deadline pass declares a seat abandoned after too many missed deadlines: the
        AI plays it until someone takes it over; ``outbox``: the notices written with it.
        None if it no longer is that user's."""
        async with self._locks[game_id]:
            game = await self.get(game_id)
            if game.status != ACTIVE or game.seats[seat].user_id != user_id:
                return None
            name = ABANDONED_NAME.format(name=game.seats[seat].name)[:80]
            try:
                return await self.repo.abandon_seat(
                    game_id, Seat(seat, None, name, game.ai_level), user_id, turn_version,
                    now=now, outbox=outbox)
            except VersionConflict:
                return None

    async def take_over_seat(self, game_id: int, seat: int, user_id: int,
                             name: str) -> GameInfo:
        """Someone in the channel takes an abandoned seat (bot/core/absence_policies.py
        checks who may); the new player's clock starts."""
        async with self._locks[game_id]:
            game = await self.get(game_id)
            try:
                game = await self.repo.take_over_seat(game_id, Seat(seat, user_id, name),
                                                      version=game.version, now=self.clock())
            except SeatTaken:
                raise errors.AlreadySeated(game_id=game_id) from None
            except VersionConflict:
                raise errors.Forbidden(key="deadline.not_abandoned", seat=seat + 1) from None
            await self._restart_reminders(game_id)
        log.info("game %d: user %d took over seat %d", game_id, user_id, seat)
        return game

    async def _restart_reminders(self, game_id: int) -> None:
        """A seat changed hands while the game runs (a takeover): an awaited human without
        a reminder row gets one, with a fresh clock (the game's lock is held)."""
        game, engine, state = await self.load(game_id)
        for awaited in await self._reminder_plan(game, self._awaited(game, engine, state)):
            await self.repo.start_clock(game_id, awaited, version=game.version, now=self.clock())
