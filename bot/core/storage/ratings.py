"""Ratings: each player's skill per game and scope, and which finished games were rated."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from bot.core.models import FINISHED
from bot.core.storage.db import Conn, Database, marks
from bot.core.storage.records import RatingRow, RatingUpdate


def _rating(row: Any) -> RatingRow:
    return RatingRow(scope=row["scope"], game_key=row["game_key"], user_id=row["user_id"],
                     mu=row["mu"], sigma=row["sigma"], games=row["games"], wins=row["wins"])


class RatingStore(ABC):
    @abstractmethod
    async def update_ratings(self, game_id: int, game_key: str, scopes: Sequence[int],
                             user_ids: Sequence[int], update: RatingUpdate, *,
                             now: float) -> bool:
        """Rate a game once: in one write transaction, read the players' ratings of each
        scope, apply ``update`` and store the result with the game's ``rated_games`` row.
        False (nothing written) if the game was already rated."""

    @abstractmethod
    async def unrated_finished_games(self) -> list[int]:
        """Finished, not imported games without a ``rated_games`` row."""

    @abstractmethod
    async def leaderboard(self, scope: int, game_key: str, *, limit: int,
                          offset: int = 0) -> list[RatingRow]: ...

    @abstractmethod
    async def count_rated(self, scope: int, game_key: str) -> int: ...

    @abstractmethod
    async def user_ratings(self, user_id: int, scope: int) -> list[RatingRow]: ...


class SqlRatings(RatingStore):
    db: Database

    async def update_ratings(self, game_id: int, game_key: str, scopes: Sequence[int],
                             user_ids: Sequence[int], update: RatingUpdate, *,
                             now: float) -> bool:
        async def tx(conn: Conn) -> bool:
            if await conn.execute(
                    "INSERT INTO rated_games (game_id, players, rated_at) VALUES (?, ?, ?) "
                    "ON CONFLICT DO NOTHING", (game_id, len(user_ids), now)) != 1:
                return False
            for scope in scopes if user_ids else ():
                # Two games of the same scope rated at once by two processes take turns:
                # each reads the ratings the other wrote.
                await conn.lock(f"ratings:{scope}:{game_key}")
                rows = await conn.fetch(
                    f"SELECT user_id, mu, sigma FROM ratings WHERE scope = ? AND "
                    f"game_key = ? AND user_id IN ({marks(user_ids)})",
                    (scope, game_key, *user_ids))
                new = update({r[0]: (r[1], r[2]) for r in rows})
                await conn.executemany(
                    "INSERT INTO ratings (scope, game_key, user_id, mu, sigma, games, wins, "
                    "updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (scope, game_key, "
                    "user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                    "games = ratings.games + 1, wins = ratings.wins + excluded.wins, "
                    "updated_at = excluded.updated_at",
                    [(scope, game_key, user, mu, sigma, int(won), now)
                     for user, (mu, sigma, won) in new.items()])
            return True

        return await self.db.write(tx)

    async def unrated_finished_games(self) -> list[int]:
        rows = await self.db.read(lambda c: c.fetch(
            "SELECT id FROM games WHERE status = ? AND imported = 0 AND id NOT IN "
            "(SELECT game_id FROM rated_games) ORDER BY finished_at, id", (FINISHED,)))
        return [r[0] for r in rows]

    async def _ratings(self, sql: str, params: Sequence[Any]) -> list[RatingRow]:
        return [_rating(r) for r in await self.db.read(lambda c: c.fetch(sql, params))]

    async def leaderboard(self, scope: int, game_key: str, *, limit: int,
                          offset: int = 0) -> list[RatingRow]:
        return await self._ratings(
            "SELECT * FROM ratings WHERE scope = ? AND game_key = ? "
            "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ? OFFSET ?",
            (scope, game_key, max(0, limit), max(0, offset)))

    async def count_rated(self, scope: int, game_key: str) -> int:
        return int(await self.db.read(lambda c: c.fetchval(
            "SELECT COUNT(*) FROM ratings WHERE scope = ? AND game_key = ?",
            (scope, game_key))))

    async def user_ratings(self, user_id: int, scope: int) -> list[RatingRow]:
        return await self._ratings(
            "SELECT * FROM ratings WHERE user_id = ? AND scope = ? ORDER BY game_key",
            (user_id, scope))
