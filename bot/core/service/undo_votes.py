"""The table's votes and undo: the writes of the one vote model (:mod:`bot.core.votes`:
cancel, pause/resume, a new deadline policy, undo) and the rewind an undo makes
(:mod:`bot.core.undo` holds its rules). A free take-back rewinds at once; one that needs
the others' consent opens an ``undo`` vote whose last yes rewinds.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from bot.core import errors, votes
from bot.core.models import ACTIVE, CANCELLED, LOBBY, GameInfo, Seat
from bot.core.replay import rebuild_position
from bot.core.service.base import ServiceBase, logged
from bot.core.storage.base import RequestPending, VersionConflict, Vote
from bot.core.undo import UndoResult, plan_undo
from bot.core.votes import VoteResult
from engines.base import Engine, GameOver

log = logging.getLogger(__name__)


class UndoVotes(ServiceBase):
    # --- the table's unanimous votes ---------------------------------------------------
    async def vote_cancel(self, game_id: int, user_id: int) -> VoteResult:
        """After the start, the game is cancelled once every human player voted for it."""
        with logged("vote_cancel", game=game_id, user=user_id):
            async with self._locks[game_id]:
                result = await self._vote_yes(game_id, votes.CANCEL, user_id)
                if result.passed:
                    result = dataclasses.replace(
                        result, game=await self._set_status(game_id, CANCELLED))
        return result

    async def vote(self, game_id: int, topic: str, user_id: int) -> VoteResult:
        """A seated human's yes to a unanimous table vote (``pause``, ``resume``, a new
        deadline policy): opens it when none is open on ``topic``, closes it as accepted
        once every human seated agreed; the caller then acts on it."""
        with logged("vote", game=game_id, user=user_id, topic=topic):
            async with self._locks[game_id]:
                return await self._vote_yes(game_id, topic, user_id)

    async def _vote_yes(self, game_id: int, topic: str, user_id: int) -> VoteResult:
        game = await self._seated_in_running_game(game_id, user_id)
        now = self.clock()
        vote = await self.repo.open_vote(game_id, topic) or await self.repo.create_vote(
            game_id, topic, user_id=user_id, now=now)
        result = votes.tally(await self.repo.cast_ballot(vote.id, user_id, True, now=now), game)
        if result.passed:
            await self.repo.close_vote(vote.id, votes.ACCEPTED, now=now)
            if votes.is_table_topic(topic):  # the clocks changed: the other proposals go
                await self.repo.close_open_votes(game_id, votes.VOID, now=now,
                                                 keep=(votes.CANCEL, votes.UNDO))
        log.info("game %d: vote %s by %d (%d/%d)%s", game_id, topic, user_id,
                 len(result.votes), len(result.needed), " -> passed" if result.passed else "")
        return result

    async def _seated_in_running_game(self, game_id: int, user_id: int) -> GameInfo:
        game = await self.get(game_id)
        if game.status == LOBBY:
            raise errors.NotStarted(game_id=game_id)
        if game.status != ACTIVE:
            raise GameOver(f"game {game_id} is {game.status}")
        if game.seat_of(user_id) is None:
            raise errors.NotSeated(game_id=game_id)
        return game

    # --- undo --------------------------------------------------------------------------
    async def request_undo(self, game_id: int, user_id: int, *,
                           expected_version: int | None = None) -> UndoResult:
        """Take back the user's last move, or open an ``undo`` vote when consent is needed.

        ``expected_version`` is the version the Undo button was drawn at: like every move,
        an undo asked of an older position is :class:`~bot.core.errors.StaleVersion` (a
        second click on the same button, or a click racing a move, takes nothing more)."""
        with logged("request_undo", game=game_id, user=user_id):
            async with self._locks[game_id]:
                game, engine, _state = await self._load_active(game_id)
                seat = game.seat_of(user_id)
                if seat is None:
                    raise errors.NotSeated(game_id=game_id)
                if expected_version is not None and expected_version != game.version:
                    raise errors.StaleVersion(game_id=game_id, version=game.version)
                plan = plan_undo(await self.repo.undo_tail(game_id, seat.seat), seat.seat)
                if plan is None:
                    raise errors.Forbidden(key="history.undo_nothing")
                others = sorted(votes.humans(game) - {user_id})
                if not plan.needs_consent or not others:
                    return await self._rewind(game, engine, seat, plan.rewind_to, plan.reason)
                now = self.clock()
                pending = await self.repo.open_vote(game_id, votes.UNDO)
                if pending is not None:
                    status = votes.outcome(pending, game, now)
                    if status == votes.OPEN:
                        raise errors.Forbidden(key="history.undo_pending")
                    await self.repo.close_vote(pending.id, status, now=now)
                try:
                    vote = await self.repo.create_vote(
                        game_id, votes.UNDO, user_id=user_id, now=now, voters=others,
                        expires_at=now + self.undo_vote_hours * 3600, version=game.version,
                        seat=seat.seat, rewind_to=plan.rewind_to)
                except RequestPending:
                    raise errors.Forbidden(key="history.undo_pending") from None
        log.info("game %d: undo vote %d asked by %d (%s, %d move(s))", game_id, vote.id,
                 user_id, plan.reason, len(plan.taken_back))
        return UndoResult(game, seat, request=vote, reason=plan.reason,
                          taken_back=plan.taken_back)

    async def vote_undo(self, vote_id: int, user_id: int, accept: bool) -> UndoResult:
        """A voter's answer to an undo vote; the last yes applies the undo."""
        found = await self.undo_vote(vote_id)
        with logged("vote_undo", game=found.game_id, user=user_id):
            async with self._locks[found.game_id]:
                vote = await self.undo_vote(vote_id)
                if vote.status != votes.OPEN:
                    raise errors.Forbidden(key="history.undo_closed")
                game = await self.get(vote.game_id)
                assert vote.seat is not None and vote.rewind_to is not None
                requester, rewind_to = game.seats[vote.seat], vote.rewind_to
                if user_id not in vote.voters:
                    raise errors.Forbidden(key="history.undo_not_voter")
                now = self.clock()
                status = votes.outcome(vote, game, now) if game.status == ACTIVE else votes.VOID
                if status in (votes.EXPIRED, votes.VOID):
                    await self.repo.close_vote(vote_id, status, now=now)
                    if status == votes.EXPIRED:
                        return UndoResult(game, requester, refused="expired", request=vote)
                    raise errors.Forbidden(key="history.undo_void")
                try:
                    vote = await self.repo.cast_ballot(vote_id, user_id, accept, now=now)
                except VersionConflict:
                    raise errors.Forbidden(key="history.undo_closed") from None
                status = votes.outcome(vote, game, now)
                if status == votes.REFUSED:
                    await self.repo.close_vote(vote_id, status, now=now)
                    log.info("game %d: undo vote %d refused by %d", game.id, vote_id, user_id)
                    return UndoResult(game, requester, refused="refused", request=vote)
                if status != votes.ACCEPTED:
                    return UndoResult(game, requester, request=vote)
                await self.repo.close_vote(vote_id, votes.ACCEPTED, now=now)
                game, engine, _state = await self._load_active(game.id)
                result = await self._rewind(game, engine, requester, rewind_to, "vote")
        return dataclasses.replace(result, request=vote)

    async def undo_vote(self, vote_id: int) -> Vote:
        """An undo vote by id (a vote button names it); closed or not."""
        vote = await self.repo.vote(errors.check_id(vote_id))
        if vote is None or vote.topic != votes.UNDO:
            raise errors.Forbidden(key="history.undo_closed")
        return vote

    async def pending_undo(self, game_id: int) -> Vote | None:
        return await self.repo.open_vote(game_id, votes.UNDO)

    async def _rewind(self, game: GameInfo, engine: Engine[Any], seat: Seat, rewind_to: int,
                      reason: str) -> UndoResult:
        """Rewind to entry ``rewind_to`` (the game's lock is held): the state there is
        rebuilt from the nearest stored snapshot (:func:`bot.core.replay.rebuild_position`),
        so its cost does not grow with the game. The log stays append-only: an undo entry
        marks the taken-back entries, and the version still grows."""
        plan = plan_undo(await self.repo.undo_tail(game.id, seat.seat), seat.seat)
        if plan is None:
            raise errors.Forbidden(key="history.undo_nothing")
        if plan.rewind_to != rewind_to:  # the game changed since the vote was asked
            raise errors.Forbidden(key="history.undo_void")
        taken = plan.taken_back
        state = await rebuild_position(self.repo, engine, game, game.moves - len(taken))
        awaited = self._awaited(game, engine, state)
        try:
            saved = await self.repo.save_undo(
                game.id, expected_version=game.version, state=engine.to_dict(state),
                seat=seat.seat, rewind_to=rewind_to, undone=[r.seq for r in taken],
                awaited=await self._reminder_plan(game, awaited), now=self.clock())
        except VersionConflict:
            raise errors.StaleVersion(game_id=game.id, version=game.version) from None
        log.info("game %d v%d: seat %d took back %d move(s) to #%d (%s)", game.id,
                 saved.version, seat.seat, len(taken), rewind_to, reason)
        return UndoResult(saved, seat, applied=True, reason=reason, taken_back=taken,
                          awaited=self._awaited(saved, engine, state))
