"""Moves: a player's click, a move made for a player out of time, and the AI seats' moves,
all through one durable path (:meth:`Moves._apply`): the engine applies, then one
transaction saves the log row, the snapshot (version-checked), the awaited seats' clocks and
the turn message the move owes the channel; a finished game is rated.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from typing import Any

from bot.core import errors
from bot.core.models import ACTIVE, GameInfo, MoveResult, Seat
from bot.core.service.base import ServiceBase, logged
from bot.core.service.outbox import turn_message
from bot.core.shards import ALL, Shards
from bot.core.storage.base import LogRow, VersionConflict
from engines.ai import level_rng, random_action
from engines.base import TURN_END, Action, Engine, Event, NotYourTurn, offered

log = logging.getLogger(__name__)

MAX_PANEL_AGE = 64  # entries after which a panel is out of date whoever moved
# An AI seat's moves in one turn before it is made to move on (a real turn is a few dozen
# steps; a level that finds idling as good as anything could go round for ever).
MAX_AI_TURN_MOVES = 300


def _turn_events(rows: Sequence[LogRow], upto_seq: int) -> list[Event]:
    """Public events of the turn that ended at ``upto_seq``: after the previous TURN_END
    (possibly inside an earlier entry) up to the last TURN_END of entry ``upto_seq``."""
    out: list[Event] = []
    for row in rows:
        events = list(row.public)
        ends = [i for i, e in enumerate(events) if e.key == TURN_END]
        if row.seq < upto_seq and ends:
            out = []
            events = events[ends[-1] + 1:]
        elif row.seq == upto_seq and ends:
            events = events[:ends[-1] + 1]
        out.extend(events)
    return out


class Moves(ServiceBase):
    async def act(self, game_id: int, user_id: int, action: str, *,
                  expected_version: int | None = None) -> MoveResult:
        with logged("act", game=game_id, user=user_id, action=repr(action)):
            async with self._locks[game_id]:
                game, engine, state = await self._load_active(game_id)
                seat = game.seat_of(user_id)
                if seat is None:
                    raise errors.NotSeated(game_id=game_id)
                if expected_version is not None and expected_version != game.version \
                        and not await self._only_others_moved(game, seat.seat, expected_version):
                    raise errors.StaleVersion(game_id=game_id, version=game.version)
                move = Action.parse(action)
                if seat.seat not in engine.active_players(state) \
                        and move.kind not in engine.spec.free_kinds:
                    raise NotYourTurn(f"seat {seat.seat} is not awaited")
                result = await self._apply(game, engine, state, seat.seat, move,
                                           panel_for=seat)
                await self.repo.reset_misses(game_id, seat.seat)  # back in time: 0 misses
                return result

    async def panel_current(self, game_id: int, seat: int, since: int) -> bool:
        """Whether a panel of ``seat`` drawn at version ``since`` still holds: the check a
        click on it passes (:meth:`act`) before the engine sees the action. A read."""
        game, _engine, _state = await self.load(game_id)
        return since == game.version or await self._only_others_moved(game, seat, since)

    async def _only_others_moved(self, game: GameInfo, seat: int, since: int) -> bool:
        """A panel drawn at ``since`` is still this seat's if every entry after it is another
        seat's plain move (e.g. the AI's pick in a simultaneous step): the click keeps its
        meaning and the engine checks it is still legal. The seat's own move, a move made for
        it on timeout, or an undo since makes the panel out of date, and so does a panel
        more than :data:`MAX_PANEL_AGE` entries old (the check reads no more than that)."""
        if not game.version - MAX_PANEL_AGE <= since <= game.version:
            return False
        return not await self.repo.moved_since(game.id, seat, since)

    async def move_for(self, game_id: int, seat: int, user_id: int,
                       choose: Callable[[Engine[Any], Any, GameInfo], Action | Awaitable[Action]]
                       ) -> MoveResult | None:
        """Play one move chosen by ``choose`` for a player who let their time run out
        (:mod:`bot.core.deadlines`); None once that seat is no longer theirs or awaited.
        ``choose`` may be a coroutine (the AI thinks off the loop)."""
        async with self._locks[game_id]:
            game, engine, state = await self.load(game_id)
            awaited = self._awaited(game, engine, state)
            if not any(s.seat == seat and s.user_id == user_id for s in awaited):
                return None
            move = choose(engine, state, game)
            if not isinstance(move, Action):
                move = await move
            return await self._apply(game, engine, state, seat, move)

    async def think(self, game: GameInfo, engine: Engine[Any], state: Any, seat: int,
                    level: str) -> Action:
        """An AI's move for ``seat``, computed off the event loop (:mod:`bot.core.thinker`)."""
        return await self.thinker.choose(engine, game.game_key, state, seat, level,
                                          game.seed, game.version)

    async def ai_moves(self, game_id: int) -> AsyncGenerator[MoveResult, None]:
        """Play every awaited AI seat, one move at a time, until a human is awaited or the
        game ends. The AI thinks without holding the game's lock (players' requests are
        answered meanwhile); its move is applied, through the same durable path as
        :meth:`act`, only if the game has not moved on since."""
        streak, last = 0, None  # moves of one AI seat since its turn began
        while True:
            game, engine, state = await self.load(game_id)
            ai = [s for s in self._awaited(game, engine, state) if s.is_ai]
            if not ai:
                return
            # Claimed: while this process (or another) thinks this move, a second caller
            # stops here rather than think it twice.
            if not await self.repo.claim_ai_turn(game.id, game.version, now=self.clock()):
                return
            await asyncio.sleep(self.ai_delay)
            seat = ai[0]
            if seat.seat == last and streak >= MAX_AI_TURN_MOVES:
                log.warning("game %d: AI seat %d made %d moves in one turn: moving on",
                            game.id, seat.seat, streak)
                move = move_on(engine, state, seat.seat, game.seed, game.version)
            else:
                move = await self.think(game, engine, state, seat.seat, seat.level)
            async with self._locks[game_id]:
                current, engine, state = await self.load(game_id)
                if current.version != game.version or not any(
                        s.seat == seat.seat and s.is_ai
                        for s in self._awaited(current, engine, state)):
                    continue  # someone moved meanwhile: think again on the new state
                try:
                    result = await self._apply(current, engine, state, seat.seat, move)
                except errors.StaleVersion:
                    continue  # saved meanwhile by a writer outside this lock: think again
            streak = streak + 1 if seat.seat == last and not result.turn_completed else 1
            last = None if result.turn_completed else seat.seat
            yield result

    async def games_awaiting_ai(self, shards: Shards = ALL) -> list[int]:
        """Active games where an AI seat is awaited (to resume after a restart), among the
        games of the guilds on ``shards``."""
        out = []
        for info in await self.repo.games_with_status((ACTIVE,)):
            if not any(s.is_ai for s in info.seats) or not shards.owns(info.guild_id):
                continue
            game, engine, state = await self.load(info.id)
            if any(s.is_ai for s in self._awaited(game, engine, state)):
                out.append(game.id)
        return out

    async def _apply(self, game: GameInfo, engine: Engine[Any], state: Any, seat: int,
                     action: Action, *, panel_for: Seat | None = None) -> MoveResult:
        """Apply and save one move; ``panel_for``: the mover, whose fresh panel is drawn
        from the new state here (a click then loads and deserialises the game once)."""
        outcome = engine.apply(state, seat, action)
        new_state = outcome.state
        public = [e for e in outcome.events if e.to is None]
        private = [e for e in outcome.events if e.to is not None]
        turn_end = any(e.key == TURN_END for e in public)
        over = engine.is_over(new_state)
        awaited = () if over else self._awaited(game, engine, new_state)
        plan = await self._reminder_plan(game, awaited)
        data = engine.to_dict(new_state)
        version = game.version + 1
        events = public
        if turn_end:  # the account covers the whole turn, from the previous TURN_END on
            this = LogRow(seq=version, seat=seat, action=str(action), public=tuple(public),
                          private=(), turn_end=True, created_at=self.clock())
            events = _turn_events([*await self.repo.turn_batch(game.id, version), this],
                                  version)
        # The turn message is written with the move, in its transaction (the outbox).
        owed = [turn_message(data, events=events, awaited=awaited, plan=plan, over=over)] \
            if turn_end or over else []
        try:
            saved = await self.repo.save_move(
                game.id, expected_version=game.version, state=data,
                seat=seat, action=str(action), public=public, private=private,
                turn_end=turn_end, finished=over, awaited=plan, now=self.clock(),
                irreversible=outcome.irreversible, outbox=owed)
        except VersionConflict:
            raise errors.StaleVersion(game_id=game.id, version=game.version) from None
        log.info("game %d v%d: seat %d played %r%s%s", game.id, saved.version, seat, str(action),
                 " (turn end)" if turn_end else "", " (game over)" if over else "")
        result = MoveResult(game=saved, turn_completed=turn_end, awaited=awaited,
                            public_events=events)
        for event in private:
            assert event.to is not None
            result.private_events.setdefault(event.to, []).append(event)
        if turn_end:
            result.deadlines = {a.seat: a.deadline_at for a in plan
                                if a.deadline_at is not None}
        if over:
            result.result = engine.result(new_state)
            await self._finished(saved)
        if (turn_end or over) and self.render_turns:
            result.image = await self._render(saved, engine, new_state)
        if panel_for is not None:
            result.panel = await self._panel(saved, engine, new_state, panel_for)
        return result

    async def _finished(self, game: GameInfo) -> None:
        """The finish path: rate the game once. A rating failure must not lose the saved
        last move; :meth:`bot.core.ratings.Ratings.catch_up` rates it at the next start."""
        try:
            await self.ratings.rate_game(game.id)
        except Exception:
            log.exception("game %d: rating failed", game.id)


def move_on(engine: Engine[Any], state: Any, seat: int, seed: int, version: int) -> Action:
    """The move of an AI seat that has gone round in its turn: the rules' skip where they
    offer one (ending the turn), else a random offered move, which leaves any circle."""
    skip = engine.skip_action(state, seat)
    if isinstance(skip, Action) and offered(engine, state, seat, skip):
        return skip
    return random_action(engine, state, seat, level_rng("random", seed, seat, version))
