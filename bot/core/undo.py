"""Undo with consent, as on Board Game Arena: a request, the vote it may need, the rewind
(the rules: :mod:`bot.core.undo_rules`).

The log stays append-only: an undo is a new log entry (``rewind_to``, the last entry it
keeps) that marks the taken-back entries as undone, and the new snapshot is the replay of
the effective log, so "rewound state = replay of the shortened log" holds by construction.
Because the version still grows, every panel drawn before the undo is out of date.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.core import errors
from bot.core.history import rebuild_position
from bot.core.models import ACTIVE, GameInfo, Seat
from bot.core.storage.base import RequestPending, UndoRequest, VersionConflict
from bot.core.undo_rules import VOTE_HOURS, UndoResult, plan_undo

if TYPE_CHECKING:
    from bot.core.service import GameService

log = logging.getLogger(__name__)


class Undo:
    def __init__(self, service: GameService, *, vote_hours: float = VOTE_HOURS) -> None:
        self.service = service
        self.repo = service.repo
        self.vote_hours = vote_hours

    @staticmethod
    def _voters(game: GameInfo, requester: int) -> list[int]:
        """Every other human still playing (abandoned seats, now AI seats, have no say)."""
        return [s.user_id for s in game.humans if s.user_id is not None and s.user_id != requester]

    async def request(self, game_id: int, user_id: int, *,
                      expected_version: int | None = None) -> UndoResult:
        """Take back the user's last move, or open a vote when consent is needed.

        ``expected_version`` is the version the Undo button was drawn at: like every move,
        an undo asked of an older position is :class:`~bot.core.errors.StaleVersion` (a second
        click on the same button, or a click racing a move, takes nothing more back)."""
        service = self.service
        async with service._locks[game_id]:
            game, _engine, _state = await service._load_active(game_id)
            seat = game.seat_of(user_id)
            if seat is None:
                raise errors.NotSeated(game_id=game_id)
            if expected_version is not None and expected_version != game.version:
                raise errors.StaleVersion(game_id=game_id, version=game.version)
            plan = plan_undo(await self.repo.undo_tail(game_id, seat.seat), seat.seat)
            if plan is None:
                raise errors.Forbidden(key="history.undo_nothing")
            voters = self._voters(game, user_id)
            if not plan.needs_consent or not voters:
                return await self._apply(game, seat, plan.rewind_to, plan.reason)
            now = service.clock()
            pending = await self.repo.open_undo_request(game_id)
            if pending is not None:
                if pending.expires_at > now and pending.version == game.version:
                    raise errors.Forbidden(key="history.undo_pending")
                await self.repo.close_undo_request(
                    pending.id, "expired" if pending.expires_at <= now else "void", now=now)
            try:
                request = await self.repo.create_undo_request(
                    game_id, user_id=user_id, seat=seat.seat, version=game.version,
                    rewind_to=plan.rewind_to, voters=voters, now=now,
                    expires_at=now + self.vote_hours * 3600)
            except RequestPending:
                raise errors.Forbidden(key="history.undo_pending") from None
        log.info("game %d: undo vote %d asked by %d (%s, %d move(s))", game_id, request.id,
                 user_id, plan.reason, len(plan.taken_back))
        return UndoResult(game, seat, request=request, reason=plan.reason,
                          taken_back=plan.taken_back)

    async def vote(self, request_id: int, user_id: int, accept: bool) -> UndoResult:
        """A voter's answer; the last acceptance applies the undo."""
        found = await self.repo.undo_request(request_id)
        if found is None:
            raise errors.Forbidden(key="history.undo_closed")
        service = self.service
        async with service._locks[found.game_id]:
            request = await self.repo.undo_request(request_id)
            assert request is not None
            if request.status != "open":
                raise errors.Forbidden(key="history.undo_closed")
            game = await service.get(request.game_id)
            requester = game.seats[request.seat]
            now = service.clock()
            if user_id not in request.voters:
                raise errors.Forbidden(key="history.undo_not_voter")
            if now >= request.expires_at:
                await self.repo.close_undo_request(request_id, "expired", now=now)
                return UndoResult(game, requester, refused="expired", request=request)
            if game.status != ACTIVE or game.version != request.version:
                await self.repo.close_undo_request(request_id, "void", now=now)
                raise errors.Forbidden(key="history.undo_void")
            try:
                request = await self.repo.add_undo_vote(request_id, user_id, accept, now=now)
            except VersionConflict:
                raise errors.Forbidden(key="history.undo_closed") from None
            if not accept:
                await self.repo.close_undo_request(request_id, "refused", now=now)
                log.info("game %d: undo vote %d refused by %d", game.id, request_id, user_id)
                return UndoResult(game, requester, refused="refused", request=request)
            if not all(request.votes.get(v) for v in request.voters):
                return UndoResult(game, requester, request=request)
            await self.repo.close_undo_request(request_id, "accepted", now=now)
            game, _engine, _state = await service._load_active(game.id)
            result = await self._apply(game, requester, request.rewind_to, "vote")
        return UndoResult(result.game, requester, applied=True, request=request,
                          reason="vote", taken_back=result.taken_back,
                          awaited=result.awaited)

    async def _apply(self, game: GameInfo, seat: Seat, rewind_to: int,
                     reason: str) -> UndoResult:
        """Rewind to entry ``rewind_to``: the state there is rebuilt from the nearest stored
        snapshot (:func:`bot.core.history.rebuild_position`), so its cost does not grow with the
        game (the game's lock is held by the caller)."""
        service = self.service
        engine = service.engine(game.game_key)
        plan = plan_undo(await self.repo.undo_tail(game.id, seat.seat), seat.seat)
        if plan is None:
            raise errors.Forbidden(key="history.undo_nothing")
        if plan.rewind_to != rewind_to:  # the game changed since the vote was asked
            raise errors.Forbidden(key="history.undo_void")
        taken = plan.taken_back
        state = await rebuild_position(self.repo, engine, game, game.moves - len(taken))
        awaited = service._awaited(game, engine, state)
        try:
            saved = await self.repo.save_undo(
                game.id, expected_version=game.version, state=engine.to_dict(state),
                seat=seat.seat, rewind_to=rewind_to, undone=[r.seq for r in taken],
                awaited=await service._reminder_plan(game, awaited), now=service.clock())
        except VersionConflict:
            raise errors.StaleVersion(game_id=game.id, version=game.version) from None
        log.info("game %d v%d: seat %d took back %d move(s) to #%d (%s)", game.id, saved.version,
                 seat.seat, len(taken), rewind_to, reason)
        return UndoResult(saved, seat, applied=True, reason=reason, taken_back=taken,
                          awaited=service._awaited(saved, engine, state))

    async def pending(self, game_id: int) -> UndoRequest | None:
        return await self.repo.open_undo_request(game_id)
