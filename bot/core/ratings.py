"""Ratings per game, per server and global, with openskill's Plackett-Luce model.

Plackett-Luce rates any number of players and ties from a finishing order, which is what
an engine's :class:`engines.base.Result` gives (``ranking``: places of tied seats). As on
Board Game Arena, only human seats still held by their player count: AI seats and seats
declared abandoned are left out (an abandoned seat is handed to the AI, so its ``user_id``
is gone; :meth:`Repository.abandoned_seats` also excludes it if someone took it over).
A game with fewer than two rated humans changes nothing, and imported games are never rated.

A game is rated once: the storage writes the ``rated_games`` row and every rating change in
one transaction, so a retry (or :meth:`Ratings.catch_up` at start-up, for a game whose
process stopped between the last move and its rating) cannot count it twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot.core.models import FINISHED, GameInfo
from bot.core.storage.base import RatingRow, Repository
from engines.base import Engine, Result

log = logging.getLogger(__name__)

GLOBAL = 0  # the scope of global ratings; a server's scope is its guild id
MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class RatedSeat:
    seat: int
    user_id: int
    rank: int  # 1 = first place; tied seats share a rank


def rated_seats(game: GameInfo, result: Result, excluded: Sequence[int] = ()) -> list[RatedSeat]:
    """The seats that count, with their places (1-based, ties shared)."""
    rank_of = {seat: place + 1 for place, tied in enumerate(result.ranking) for seat in tied}
    out = []
    for seat in game.seats:
        if seat.user_id is None or seat.seat in excluded or seat.seat not in rank_of:
            continue
        out.append(RatedSeat(seat.seat, seat.user_id, rank_of[seat.seat]))
    return out


def new_ratings(players: Sequence[RatedSeat], known: Mapping[int, tuple[float, float]]
                ) -> dict[int, tuple[float, float, bool]]:
    """One Plackett-Luce update: user -> (mu, sigma, won). Unknown players start at the
    model's default (mu 25, sigma 25/3)."""
    before = [MODEL.rating(*known[p.user_id]) if p.user_id in known else MODEL.rating()
              for p in players]
    after = MODEL.rate([[r] for r in before], ranks=[p.rank for p in players])
    best = min(p.rank for p in players)
    return {p.user_id: (team[0].mu, team[0].sigma, p.rank == best)
            for p, team in zip(players, after, strict=True)}


class Ratings:
    def __init__(self, repo: Repository, engine_for: Callable[[str], Engine[Any]], *,
                 clock: Callable[[], float]) -> None:
        self.repo = repo
        self.engine_for = engine_for
        self.clock = clock

    async def rate_game(self, game_id: int) -> bool:
        """Rate a finished game once; False when it is not (or no longer) to be rated."""
        loaded = await self.repo.load_game(game_id)
        if loaded is None:
            return False
        game, data = loaded
        if game.status != FINISHED or data is None or await self.repo.is_imported(game_id):
            return False
        engine = self.engine_for(game.game_key)
        result = engine.result(engine.from_dict(data))
        if result is None:
            log.warning("game %d is finished but its engine gives no result", game_id)
            return False
        players = rated_seats(game, result, await self._abandoned(game_id))
        if len(players) < 2:
            players = []
        scopes = [GLOBAL] if game.guild_id is None else [game.guild_id, GLOBAL]
        done = await self.repo.update_ratings(
            game_id, game.game_key, scopes, [p.user_id for p in players],
            lambda known: new_ratings(players, known), now=self.clock())
        if done:
            log.info("game %d rated: %d player(s), scopes %s", game_id, len(players), scopes)
        return done

    async def _abandoned(self, game_id: int) -> list[int]:
        """Seats declared abandoned (bot/core/deadlines.py): left out even once taken over."""
        return list(await self.repo.abandoned_seats(game_id))

    async def catch_up(self) -> int:
        """Rate every finished game the previous process did not rate; how many were."""
        count = 0
        for game_id in await self.repo.unrated_finished_games():
            try:
                count += await self.rate_game(game_id)
            except Exception:
                log.exception("game %d: rating failed", game_id)
        return count

    async def leaderboard(self, game_key: str, scope: int, *, limit: int = 10,
                          offset: int = 0) -> tuple[list[RatingRow], int]:
        rows = await self.repo.leaderboard(scope, game_key, limit=limit, offset=offset)
        return rows, await self.repo.count_rated(scope, game_key)

    async def profile(self, user_id: int, scope: int) -> list[RatingRow]:
        return await self.repo.user_ratings(user_id, scope)
