"""The deadline pass: warnings before a move deadline, the timeout policy when it passes,
abandoned seats, vacations that ended, "you're next" notices and quiet-hour deliveries.

Everything it needs is in the database, so a pass after a restart catches up on whatever
fell due while the bot was down, and only once: a timeout is claimed in a transaction
guarded by the game version and the expired clock (:meth:`Repository.claim_timeout`), and
each move it plays goes through the service's versioned save. The bot runs one pass at
start-up, then the bot's one periodic loop runs one a minute (:mod:`bot.adapter.periodic`).

Timeout policies (docs/ASYNC.md):

* ``ai`` — the AI plays the absent player's part of the turn (BGA's "zombie" player);
* ``skip`` — the engine's optional ``skip_action(state, seat) -> Action | None`` names the
  move that skips; where it returns None (or the game has no such method) the AI plays;
* after ``abandon_after`` consecutive misses the seat is declared abandoned: the AI keeps
  playing it until someone in the channel takes it over (:mod:`bot.core.absence_policies`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bot.core.errors import StaleVersion
from bot.core.messages import jump_link
from bot.core.models import ACTIVE, GameInfo, MoveResult
from bot.core.quiet_hours import quiet_until
from bot.core.service import GameService
from bot.core.service.outbox import announcement, notice
from bot.core.shards import ALL, Shards
from bot.core.storage.base import Outgoing, Reminder
from engines.base import Action, Engine, GameError, Message, offered

log = logging.getLogger(__name__)
MAX_STEPS = 200  # moves played for one absent seat in one timeout (a whole turn)


class DeadlineOutput(Protocol):
    """Where the pass speaks; the bot implements it over Discord, tests record it."""

    async def flush(self) -> None:
        """Notices (public, or to one player) were written to the outbox with their state
        change: deliver them (:mod:`bot.adapter.outbox_delivery`)."""

    async def moved(self, result: MoveResult) -> None:
        """A move was played for an absent player: post its turn message if any."""

    def resume_ai(self, game_id: int) -> None:
        """AI seats (or an abandoned one) may be awaited now."""


@dataclass
class PassReport:
    """What one pass did (logged; read by tests)."""

    resumed: int = 0
    warned: int = 0
    expired: int = 0
    abandoned: int = 0
    notices: int = 0

    def __bool__(self) -> bool:
        return bool(self.resumed or self.warned or self.expired or self.abandoned
                    or self.notices)


class DeadlineKeeper:
    def __init__(self, service: GameService, output: DeadlineOutput,
                 clock: Callable[[], float] = time.time, shards: Shards = ALL) -> None:
        self.service = service
        self.repo = service.repo
        self.output = output
        self.shards = shards  # the pass handles only the games of this process's guilds
        self.clock = clock
        self._pass_lock = asyncio.Lock()

    async def run_due(self, now: float | None = None) -> PassReport:
        """One pass over everything due at ``now``; passes never overlap."""
        now = self.clock() if now is None else now
        report = PassReport()
        async with self._pass_lock:
            for step in (self._resume_vacations, self._expire, self._warn, self._before,
                         self._deliver):
                await step(now, report)
        if report:
            log.info("deadline pass: %s", report)
        return report

    # ------------------------------------------------------------ vacations
    async def _resume_vacations(self, now: float, report: PassReport) -> None:
        if not self.shards.home:  # a vacation is a user's, not a guild's: the home shard's
            return
        for vacation in await self.repo.vacations_to_resume(now):
            await self.service.vacation_over(vacation, now)
            report.resumed += 1

    # ------------------------------------------------------------ warnings
    async def _warn(self, now: float, report: PassReport) -> None:
        # Claimed, of this process's guilds: none another process (or pass) does.
        for row in await self.repo.claim_due_warnings(now, shards=self.shards):
            game = await self._seat_game(row)
            if game is None:
                continue
            prefs = await self.repo.user_settings(row.user_id)
            wake = quiet_until(prefs, now)
            if wake is not None:  # quiet hours: the warning waits, the deadline does not
                await self.repo.set_warn_at(game.id, row.seat, row.turn_version, wake)
                continue
            assert row.deadline_at is not None
            params = {"player": f"<@{row.user_id}>", "game": Message(f"{game.game_key}.name"),
                      "deadline": stamp(row.deadline_at), "link": jump_link(game)}
            # Written with the cleared warning time (the outbox): sent once, even across a
            # crash; by DM when asked, else (or when DMs are closed) a mention in the channel.
            await self.repo.set_warn_at(
                game.id, row.seat, row.turn_version, None, now=now,
                outbox=[notice(row.user_id, "deadline.warning", params, dm=prefs.dm_opt_in)])
            report.warned += 1
        if report.warned:
            await self.output.flush()

    # ------------------------------------------------------------ expiry
    async def _expire(self, now: float, report: PassReport) -> None:
        # Claimed, of this process's guilds: none another process (or pass) does.
        for row in await self.repo.claim_due_deadlines(now, shards=self.shards):
            try:
                await self._timeout(row, now, report)
            except Exception:
                log.exception("game %d: timeout of seat %d failed", row.game_id, row.seat)

    async def _timeout(self, row: Reminder, now: float, report: PassReport) -> None:
        game = await self._seat_game(row)
        if game is None:
            return
        policy = await self.repo.deadline_policy(game.id)
        skip = policy.on_timeout == "skip" and await self._skip_offered(game, row.seat)
        key = "deadline.expired_skip" if skip else "deadline.expired_ai"
        # The notice is written with the miss, in its transaction (the outbox): a crash
        # before it is posted cannot lose it, a retry of the pass cannot repeat it.
        misses = await self.repo.claim_timeout(
            game.id, row.seat, row.user_id, row.turn_version, expected_version=game.version,
            now=now, owed=lambda misses: [announcement(key, {"player": f"<@{row.user_id}>",
                                                             "misses": misses})])
        if misses is None:
            log.info("game %d: timeout of seat %d no longer applies", game.id, row.seat)
            return

        def choose(engine: Engine[Any], state: Any,
                   current: GameInfo) -> Action | Awaitable[Action]:
            if policy.on_timeout == "skip":
                action = engine.skip_action(state, row.seat)
                # A skip the rules refuse would block the seat: the AI plays instead.
                if isinstance(action, Action) and offered(engine, state, row.seat, action):
                    return action
            return self.service.think(current, engine, state, row.seat, current.ai_level)

        results: list[MoveResult] = []
        for _ in range(MAX_STEPS):
            try:
                result = await self.service.move_for(game.id, row.seat, row.user_id, choose)
            except (StaleVersion, GameError) as err:
                log.info("game %d: timeout move for seat %d refused: %s", game.id, row.seat, err)
                break
            if result is None:
                break
            results.append(result)
            if result.turn_completed:  # their turn is over; a next one has its own clock
                break
        report.expired += 1
        log.info("game %d: seat %d (user %d) timed out, miss %d, %d move(s) %s", game.id,
                 row.seat, row.user_id, misses, len(results), key.rsplit("_", 1)[-1])
        await self.output.flush()  # the notice, queued before the moves' turn messages
        for result in results:
            await self.output.moved(result)
        threshold = policy.abandon_after
        if threshold and misses >= threshold and await self._abandon(game.id, row, misses):
            report.abandoned += 1
            await self.output.flush()
        self.output.resume_ai(game.id)

    async def _skip_offered(self, game: GameInfo, seat: int) -> bool:
        """Whether the rules let the seat skip now (``skip`` policy): decides the notice,
        which is written before the moves are played."""
        loaded = await self.repo.load_game(game.id)
        if loaded is None or loaded[1] is None:
            return False
        engine = self.service.engine(game.game_key)
        state = engine.from_dict(loaded[1])
        action = engine.skip_action(state, seat)
        return isinstance(action, Action) and offered(engine, state, seat, action)

    async def _abandon(self, game_id: int, row: Reminder, misses: int) -> bool:
        notice = announcement("deadline.abandoned", {"player": f"<@{row.user_id}>",
                                                     "misses": misses, "seat": row.seat + 1})
        game = await self.service.abandon_seat(game_id, row.seat, row.user_id, row.turn_version,
                                               now=self.clock(), outbox=[notice])
        if game is None:
            return False
        log.info("game %d: seat %d abandoned by user %d after %d misses", game_id, row.seat,
                 row.user_id, misses)
        return True

    async def _seat_game(self, row: Reminder) -> GameInfo | None:
        """The row's game if it is active and the seat is still that player's."""
        game = await self.repo.get_game(row.game_id)
        if game is None or game.status != ACTIVE or row.seat >= len(game.seats):
            return None
        return game if game.seats[row.seat].user_id == row.user_id else None

    # ------------------------------------------------------------ "you're next"
    async def _before(self, now: float, report: PassReport) -> None:
        sent = report.notices
        for row in await self.repo.pending_before(shards=self.shards):  # of its guilds
            owed = await self._before_owed(row, now)
            # Marked with the message it owes (the outbox): handled once, sent once.
            await self.repo.mark_before_sent(row.game_id, row.seat, row.turn_version,
                                             outbox=owed, now=now)
            report.notices += len(owed)
        if report.notices > sent:
            await self.output.flush()

    async def _before_owed(self, row: Reminder, now: float) -> list[Outgoing]:
        """The "you're next" the start of ``row``'s turn owes the next player, if any (held
        back as a notice during their quiet hours)."""
        game = await self._seat_game(row)
        if game is None:
            return []
        nxt = game.seats[(row.seat + 1) % len(game.seats)]
        if nxt.user_id is None or nxt.user_id == row.user_id:
            return []
        prefs = await self.repo.user_settings(nxt.user_id)
        if not prefs.notify_before:
            return []
        if any(r.seat == nxt.seat for r in await self.repo.reminders(game.id)):
            return []  # already awaited themselves
        wake = quiet_until(prefs, now)
        if wake is not None:
            await self.repo.add_notice(game.id, row.seat, row.turn_version, nxt.user_id,
                                       "before", wake)
            return []
        return [self._you_are_next(game, row.seat, nxt.user_id)]

    @staticmethod
    def _you_are_next(game: GameInfo, seat: int, user_id: int) -> Outgoing:
        params = {"player": game.seats[seat].name, "game": Message(f"{game.game_key}.name"),
                  "link": jump_link(game)}
        return notice(user_id, "deadline.you_are_next", params, dm=True)

    async def _deliver(self, now: float, report: PassReport) -> None:
        """Held-back notices whose quiet hours ended; dropped when the turn moved on."""
        sent = report.notices
        for held in await self.repo.due_notices(now, shards=self.shards):  # of its guilds
            game = await self.repo.get_game(held.game_id)
            current = game is not None and game.status == ACTIVE and any(
                r.seat == held.seat and r.turn_version == held.turn_version
                for r in await self.repo.reminders(held.game_id))
            if game is None or not current:
                await self.repo.delete_notice(held.id)
                continue
            prefs = await self.repo.user_settings(held.user_id)
            wake = quiet_until(prefs, now)
            if wake is not None:  # the player moved their quiet hours meanwhile
                await self.repo.delete_notice(held.id)
                await self.repo.add_notice(game.id, held.seat, held.turn_version,
                                           held.user_id, held.kind, wake)
                continue
            await self.repo.delete_notice(
                held.id, now=now, outbox=[self._you_are_next(game, held.seat, held.user_id)])
            report.notices += 1
        if report.notices > sent:
            await self.output.flush()


# ---------------------------------------------------------------- shared helpers

def stamp(at: float) -> str:
    """A Discord timestamp that every reader sees in their own time zone ("in 3 hours")."""
    return f"<t:{int(at)}:R>"
