"""Havana through the service: a human (playing from their panel) against AI seats."""

from __future__ import annotations

import random

import pytest

from bot.core.models import FINISHED
from bot.core.service import GameService
from bot.core.storage import SqliteRepository
from tests.bot.conftest import FakeClock, FakeRender

pytest.importorskip("engines.havana")

ANN = 101


async def test_a_human_and_two_ais_play_havana_to_the_end(repo: SqliteRepository,
                                                          clock: FakeClock) -> None:
    render = FakeRender()
    service = GameService(repo, clock=clock, render=render)
    game = await service.create(guild_id=1, channel_id=1, game_key="havana", creator_id=ANN,
                                creator_name="Ann", seats=3)
    for _ in range(2):  # easy, at most 0.1 s a move: the search is tested elsewhere
        await service.add_ai(game.id, ANN, "easy")
    await service.start(game.id, ANN)
    pick = random.Random(3)
    results = []
    for _ in range(2000):
        results += [r async for r in service.ai_moves(game.id)]
        if results and results[-1].result is not None:
            break
        panel = await service.panel(game.id, ANN)
        assert panel.awaited and panel.choices
        action = str(pick.choice(panel.choices).action)
        results.append(await service.act(game.id, ANN, action,
                                         expected_version=panel.game.version))
        if results[-1].result is not None:
            break
    final = results[-1]
    assert final.game.status == FINISHED and final.result is not None
    assert sorted(s for place in final.result.ranking for s in place) == [0, 1, 2]
    assert any(r.turn_completed for r in results)
    # The channel only ever hears public events and sees spectator boards.
    assert all(e.to is None for r in results for e in r.public_events)
    assert all(seat in (0, 1, 2) for r in results for seat in r.private_events)
    spectator = await service.view(game.id, None)
    assert render.calls[-1][1] == spectator
    assert len(await service.log(game.id, limit=10_000)) == final.game.version


async def test_havana_board_is_a_png(repo: SqliteRepository, clock: FakeClock) -> None:
    pytest.importorskip("renderers.havana")
    service = GameService(repo, clock=clock)
    game = await service.create(guild_id=1, channel_id=1, game_key="havana", creator_id=ANN,
                                creator_name="Ann", seats=2)
    await service.add_ai(game.id, ANN)
    started = await service.start(game.id, ANN)
    assert started.image is not None and started.image.startswith(b"\x89PNG")
    mine = await service.board(game.id, user_id=ANN, locale="fr")
    assert mine.startswith(b"\x89PNG") and len(mine) < 1_500_000
