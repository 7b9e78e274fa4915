"""What players and channels read, written nowhere: a seat's panel, views and boards (the
public board only ever from the spectator view), the log, the games awaiting a user, a
player's reliability. Each read loads and decodes the game once.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot.core import errors
from bot.core.i18n import normalise
from bot.core.models import ACTIVE, GameInfo, LogEntry, Panel, Reliability
from bot.core.service.base import ServiceBase, logged
from engines.base import Result

log = logging.getLogger(__name__)


class Reads(ServiceBase):
    async def in_channel(self, channel_id: int) -> GameInfo | None:
        """The channel's open game (at most one), if any."""
        return await self.repo.open_game_in_channel(channel_id)

    async def panel(self, game_id: int, user_id: int) -> Panel:
        with logged("panel", game=game_id, user=user_id):
            game, engine, state = await self._load_started(game_id)
            seat = game.seat_of(user_id)
            if seat is None:
                raise errors.NotSeated(game_id=game_id)
            return await self._panel(game, engine, state, seat)

    async def view(self, game_id: int, seat: int | None) -> dict[str, Any]:
        with logged("view", game=game_id, seat=seat):
            game, engine, state = await self._load_started(game_id)
            if seat is not None and not 0 <= seat < len(game.seats):
                raise errors.NotSeated(key="service.no_such_seat", seat=seat)
            return engine.view(state, seat)

    async def spectator(self, game_id: int) -> tuple[GameInfo, dict[str, Any]]:
        """The game and its public view, read together: the view is the one of
        ``game.version`` (an image cache key can rely on it)."""
        with logged("spectator", game=game_id):
            game, engine, state = await self._load_started(game_id)
            return game, engine.view(state, None)

    async def board(self, game_id: int, *, user_id: int | None = None,
                    locale: str = "en") -> bytes:
        """The spectator board, or that player's own view when ``user_id`` is given (for an
        ephemeral reply only: the public board is always the spectator view)."""
        with logged("board", game=game_id, user=user_id):
            game, engine, state = await self._load_started(game_id)
            seat: int | None = None
            if user_id is not None:
                found = game.seat_of(user_id)
                if found is None:
                    raise errors.NotSeated(game_id=game_id)
                seat = found.seat
            return await self.image(game, engine, state, seat, normalise(locale))

    async def draw_view(self, game_key: str, view: Mapping[str, Any], names: Sequence[str],
                        locale: str) -> bytes:
        """A view drawn by the game's renderer (replay frames; their cache is the caller's)."""
        return await self._render_fn(game_key, view, names, locale)

    async def turn_board(self, game: GameInfo, state: Mapping[str, Any],
                         locale: str, *, version: int) -> bytes | None:
        """The spectator board of an outbox turn message (the state saved at ``version``),
        drawn in ``locale`` once however many ask (``/game board`` shares it); a drawing bug
        must not hold the message back, so it is logged and the message goes without it."""
        try:
            engine = self.engine(game.game_key)
            at = dataclasses.replace(game, version=version)
            return await self.image(at, engine, engine.from_dict(state), None,
                                    normalise(locale))
        except Exception:
            log.exception("game %d: rendering the board failed", game.id)
            return None

    def final_result(self, game: GameInfo, state: Mapping[str, Any]) -> Result | None:
        """The standings of a finished game's final state (an outbox turn message); None
        for a state that is not over."""
        engine = self.engine(game.game_key)
        return engine.result(engine.from_dict(state))

    async def log(self, game_id: int, *, limit: int = 20,
                  before_seq: int | None = None) -> list[LogEntry]:
        with logged("log", game=game_id):
            await self.get(game_id)
        rows = await self.repo.log(game_id, limit=limit, before_seq=before_seq)
        return [LogEntry(r.seq, r.seat, r.action, r.created_at, r.public) for r in rows]

    async def mine(self, user_id: int) -> list[tuple[GameInfo, tuple[int, ...]]]:
        """Active games, in every server, where this user is awaited now."""
        out = []
        for info in await self.repo.games_with_user(user_id, (ACTIVE,)):
            game, engine, state = await self.load(info.id)
            seats = tuple(s.seat for s in self._awaited(game, engine, state)
                          if s.user_id == user_id)
            if seats:
                out.append((game, seats))
        return out

    async def reliability(self, user_id: int) -> Reliability:
        """Games finished, deadlines missed and seats abandoned (``/game profile``)."""
        return await self.repo.reliability(user_id)
