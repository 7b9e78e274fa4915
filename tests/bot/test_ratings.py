"""Ratings (bot/core/ratings.py): updated once when a game ends, per server and global, humans
only; leaderboards and profiles read them back."""

from __future__ import annotations

import pytest

from bot.core.ratings import GLOBAL, MODEL, RatedSeat, new_ratings
from bot.core.service import GameService
from tests.bot.conftest import both_backends
from tests.bot.playout import USERS, new_table, play_out

pytestmark = both_backends  # the repository-level parts run on SQLite and PostgreSQL


async def _finished_race(service: GameService, *, players: int = 3, ai_seats: int = 0,
                         seed: int = 3, guild_id: int | None = 1, channel: int = 500) -> int:
    game_id = await new_table(service, "race", players, seed=seed, ai_seats=ai_seats,
                              guild_id=guild_id, channel_id=channel)
    await play_out(service, game_id, seed=seed)
    assert (await service.get(game_id)).status == "finished"
    return game_id


def test_plackett_luce_orders_and_ties() -> None:
    players = [RatedSeat(0, 1, 1), RatedSeat(1, 2, 2), RatedSeat(2, 3, 2)]
    new = new_ratings(players, {})
    assert new[1][0] > MODEL.rating().mu > new[2][0]
    assert new[2][:2] == pytest.approx(new[3][:2])  # a tie moves both alike
    assert new[1][2] and not new[2][2]
    assert all(sigma < MODEL.rating().sigma for _mu, sigma, _won in new.values())


async def test_a_finished_game_is_rated_once_per_scope(service: GameService) -> None:
    game_id = await _finished_race(service)
    game, engine, state = await service.load(game_id)
    result = engine.result(state)
    assert result is not None
    winners = {game.seats[s].user_id for s in result.ranking[0]}
    for scope in (1, GLOBAL):
        board, total = await service.ratings.leaderboard("race", scope)
        assert total == 3 and {r.user_id for r in board} == set(USERS[:3])
        assert all(r.games == 1 for r in board)
        assert {r.user_id for r in board if r.wins} == winners
        assert board == sorted(board, key=lambda r: -r.ordinal)
    assert not await service.ratings.rate_game(game_id)  # already rated: nothing changes
    assert await service.ratings.catch_up() == 0
    assert (await service.ratings.leaderboard("race", GLOBAL))[0][0].games == 1


async def test_global_sums_servers_and_profile_lists_games(service: GameService) -> None:
    await _finished_race(service, guild_id=1, channel=500)
    await _finished_race(service, guild_id=2, channel=501, seed=5)
    assert (await service.ratings.leaderboard("race", 1))[1] == 3
    assert (await service.ratings.leaderboard("race", 2))[1] == 3
    profile = await service.ratings.profile(USERS[0], GLOBAL)
    assert [(r.game_key, r.games) for r in profile] == [("race", 2)]
    assert [r.games for r in await service.ratings.profile(USERS[0], 2)] == [1]


async def test_ai_seats_are_not_rated(service: GameService) -> None:
    await _finished_race(service, players=3, ai_seats=1)
    board, total = await service.ratings.leaderboard("race", GLOBAL)
    assert total == 2 and {r.user_id for r in board} == set(USERS[:2])


async def test_a_lone_human_against_ai_changes_nothing(service: GameService) -> None:
    game_id = await _finished_race(service, players=2, ai_seats=1)
    assert (await service.ratings.leaderboard("race", GLOBAL))[1] == 0
    assert await service.repo.unrated_finished_games() == []  # marked as handled
    assert not await service.ratings.rate_game(game_id)


async def test_catch_up_rates_games_finished_before_a_crash(service: GameService) -> None:
    async def broken(game_id: int) -> bool:
        raise RuntimeError("the process stopped")

    real = service.ratings.rate_game
    service.ratings.rate_game = broken  # type: ignore[method-assign]
    game_id = await _finished_race(service)  # the finish path logs the failure, move kept
    service.ratings.rate_game = real  # type: ignore[method-assign]
    assert await service.repo.unrated_finished_games() == [game_id]
    assert await service.ratings.catch_up() == 1
    assert (await service.ratings.leaderboard("race", GLOBAL))[1] == 3
