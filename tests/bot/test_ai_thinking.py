"""AI seats think in a worker process: the bot stays responsive, levels are stored per
seat and per table, moves are reproducible, and shutdown interrupts a search."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.errors import InvalidOption
from bot.core.service import GameService
from bot.core.storage import SqliteRepository
from bot.core.thinker import Thinker
from engines import registry
from engines.ai import choose
from tests.bot.conftest import FakeClock, FakeRender

ANN = 101


async def _table(service: GameService, level: str) -> int:
    game = await service.create(guild_id=1, channel_id=1, game_key="havana", creator_id=ANN,
                                creator_name="Ann", seats=2)
    await service.add_ai(game.id, ANN, level)
    await service.start(game.id, ANN)
    return game.id


async def test_board_is_answered_while_an_ai_thinks(repo: SqliteRepository,
                                                    clock: FakeClock) -> None:
    service = GameService(repo, clock=clock, render=FakeRender())
    try:
        game_id = await _table(service, "strong")  # both seats pick at once: the AI too
        order: list[str] = []

        async def ai() -> None:
            async for _ in service.ai_moves(game_id):
                order.append("ai move")
                return

        task = asyncio.create_task(ai())
        await asyncio.sleep(0)  # the runner loads the game and hands the search over
        for _ in range(3):
            assert await service.board(game_id, user_id=ANN)
            panel = await service.panel(game_id, ANN)
            assert panel.awaited
            order.append("board")
        await asyncio.wait_for(task, timeout=300)
        assert order == ["board", "board", "board", "ai move"]
    finally:
        service.thinker.close()


async def test_ai_move_is_the_level_s_reproducible_choice(repo: SqliteRepository,
                                                           clock: FakeClock) -> None:
    service = GameService(repo, clock=clock, render=FakeRender())
    try:
        game_id = await _table(service, "easy")
        game, engine, state = await service.load(game_id)
        expected = choose(engine, state, 1, "easy", game.seed, game.version)
        results = [r async for r in service.ai_moves(game_id)]
        assert results
        entry = (await service.log(game_id, limit=50))[0]
        assert (entry.seat, entry.action) == (1, str(expected))
    finally:
        service.thinker.close()


async def test_levels_are_stored_per_seat_and_per_table(repo: SqliteRepository,
                                                        clock: FakeClock) -> None:
    service = GameService(repo, clock=clock, render=FakeRender())
    game = await service.create(guild_id=1, channel_id=1, game_key="havana", creator_id=ANN,
                                creator_name="Ann", seats=4)
    await service.add_ai(game.id, ANN)
    await service.add_ai(game.id, ANN, "strong")
    with pytest.raises(InvalidOption):
        await service.add_ai(game.id, ANN, "grandmaster")
    info = await service.set_ai_level(game.id, "easy", ANN)
    assert [s.level for s in info.seats[1:]] == ["normal", "strong"]
    assert info.ai_level == "easy"
    await service.start(game.id, ANN)
    # An admin hands the creator's seat to the AI: it plays at the table's takeover level.
    info = await service.remove_seat(game.id, 0, by_user_id=ANN, is_admin=True)
    assert info.seats[0].is_ai and info.seats[0].level == "easy"
    assert (await repo.get_game(game.id)).seats[2].level == "strong"  # durable


async def test_shutdown_interrupts_a_pending_search() -> None:
    thinker = Thinker(workers=1)
    engine = registry.get("havana")
    state = engine.new_game(2, 4)
    searches = [asyncio.create_task(thinker.choose(engine, "havana", state, seat, "strong",
                                                   4, 0)) for seat in (0, 1, 0, 1)]
    await asyncio.sleep(0)
    for task in searches:
        task.cancel()
    thinker.close()  # the queued searches are cancelled and the pool is shut down
    done = await asyncio.gather(*searches, return_exceptions=True)
    assert all(isinstance(r, asyncio.CancelledError) for r in done)
    with pytest.raises(asyncio.CancelledError):
        await thinker.choose(engine, "havana", state, 0, "normal", 4, 0)


async def test_an_ai_going_round_in_its_turn_is_made_to_move_on(
        repo: SqliteRepository, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A level that found idling as good as anything would play for ever: after
    MAX_AI_TURN_MOVES moves in one turn, the seat plays the rules' skip (Tuscany's set-up:
    confirm the arrangement) or, where there is none, a random offered move."""
    from bot.core.service import moves

    monkeypatch.setattr(moves, "MAX_AI_TURN_MOVES", 5)
    service = GameService(repo, clock=clock, render=FakeRender())
    try:
        game = await service.create(guild_id=1, channel_id=1, game_key="tuscany",
                                    creator_id=ANN, creator_name="Ann", seats=2)
        await service.add_ai(game.id, ANN, "normal")
        await service.start(game.id, ANN)

        async def going_round(game: object, engine: object, state: object, seat: int,
                              level: str) -> object:
            return next(a for a in engine.legal_actions(state, seat)  # type: ignore[attr-defined]
                        if a.kind == "arrange")

        monkeypatch.setattr(service, "think", going_round)
        played = []
        async for result in service.ai_moves(game.id):
            played.append(result)
            assert len(played) <= 20, "the AI seat went on going round"
        _game, engine, state = await service.load(game.id)
        assert len(played) == 6  # five turns of the parts, then the skip
        assert 1 not in engine.active_players(state)  # the AI seat has confirmed
    finally:
        service.thinker.close()


def test_the_time_guard_keeps_a_level_s_cpu_seconds() -> None:
    """The worker's guard says stop once ``GUARD`` of the level's CPU seconds are spent;
    easy and random, which do not search, have none."""
    from bot.core.thinker import GUARD, time_guard
    from engines.ai import SECONDS

    now = [100.0]
    stop = time_guard("strong", clock=lambda: now[0])
    assert stop is not None and not stop()
    now[0] += GUARD * SECONDS["strong"] - 0.01
    assert not stop()
    now[0] += 0.02
    assert stop()
    assert time_guard("easy") is None and time_guard("random") is None


def test_the_worker_searches_under_the_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_think`` (what the worker runs) passes the guard: with no time at all, normal
    plays the move its candidates start from, easy's ranking, without a single world."""
    from bot.core.thinker import _think
    from engines.ai import SECONDS, level_rng
    from engines.ai.greedy import ranked

    engine = registry.get("havana")
    state = engine.new_game(2, 11)
    monkeypatch.setitem(SECONDS, "normal", 0.0)
    first = ranked(engine, state, 0, level_rng("normal", 11, 0, 0))[0]
    assert _think("havana", engine.to_dict(state), 0, "normal", 11, 0) == str(first)
