"""The image cache: one drawing per (game, version, viewer, locale) however many ask at once."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.history import History
from bot.core.image_cache import ENTRY_OVERHEAD, ImageCache
from bot.core.service import GameService
from tests.bot.conftest import FakeRender

ANN, BOB = 101, 102


class Drawer:
    """A drawing that waits until released, so requests really overlap; counts drawings."""

    def __init__(self, data: bytes = b"png") -> None:
        self.data = data
        self.count = 0
        self.release = asyncio.Event()

    async def __call__(self) -> bytes:
        self.count += 1
        await self.release.wait()
        return self.data


async def test_concurrent_requests_for_one_key_share_one_drawing() -> None:
    cache, drawer = ImageCache(), Drawer()
    requests = [asyncio.create_task(cache.get(("board", 1, 7, None, "en"), drawer))
                for _ in range(50)]
    await asyncio.sleep(0)  # every request is now waiting
    drawer.release.set()
    assert await asyncio.gather(*requests) == [b"png"] * 50
    assert drawer.count == 1 and cache.draws == 1 and cache.hits == 49
    assert await cache.get(("board", 1, 7, None, "en"), drawer) == b"png"
    assert drawer.count == 1  # stored: no second drawing


async def test_each_key_is_drawn_once() -> None:
    cache, drawer = ImageCache(), Drawer()
    drawer.release.set()
    keys = [("board", 1, version, viewer, locale) for version in (1, 2)
            for viewer in (None, 0) for locale in ("en", "fr")]
    await asyncio.gather(*(cache.get(k, drawer) for k in keys * 3))
    assert drawer.count == len(keys) == len(cache)


async def test_least_recently_used_images_go_beyond_the_byte_budget() -> None:
    entry = 100
    cache = ImageCache(max_bytes=3 * (entry + ENTRY_OVERHEAD))

    async def draw() -> bytes:
        return b"x" * entry

    for key in ("a", "b", "c"):
        await cache.get(key, draw)
    await cache.get("a", draw)  # "a" is now the most recent; "b" the least
    await cache.get("d", draw)
    assert "b" not in cache and all(k in cache for k in ("a", "c", "d"))
    assert cache.size == 3 * (entry + ENTRY_OVERHEAD) <= cache.max_bytes
    huge = ImageCache(max_bytes=10)
    assert await huge.get("big", draw) == b"x" * entry  # served, never kept
    assert len(huge) == 0 and huge.size == 0


async def test_a_failed_drawing_is_not_kept() -> None:
    cache = ImageCache()
    calls = 0

    async def flaky() -> bytes:
        nonlocal calls
        calls += 1
        if calls == 1:
            await asyncio.sleep(0)
            raise RuntimeError("drawing bug")
        return b"ok"

    first = [asyncio.create_task(cache.get("k", flaky)) for _ in range(3)]
    results = await asyncio.gather(*first, return_exceptions=True)
    assert all(isinstance(r, RuntimeError) for r in results) and calls == 1
    assert await cache.get("k", flaky) == b"ok" and calls == 2


async def test_a_cancelled_request_does_not_cancel_the_others() -> None:
    cache, drawer = ImageCache(), Drawer()
    leaver = asyncio.create_task(cache.get("k", drawer))
    stayer = asyncio.create_task(cache.get("k", drawer))
    await asyncio.sleep(0)
    leaver.cancel()
    with pytest.raises(asyncio.CancelledError):
        await leaver
    drawer.release.set()
    assert await stayer == b"png" and drawer.count == 1


async def _started(service: GameService) -> int:
    game = await service.create(guild_id=1, channel_id=5, game_key="race", creator_id=ANN,
                                creator_name="Ann")
    await service.join(game.id, BOB, "Bob")
    await service.start(game.id, ANN)
    return game.id


async def test_a_crowd_asking_for_the_board_costs_one_drawing(
        service: GameService, render: FakeRender) -> None:
    game_id = await _started(service)
    drawn = len(render.calls)  # the start drew the spectator board of version 0 (en)
    boards = await asyncio.gather(*(service.board(game_id, locale="en") for _ in range(40)))
    assert len(set(boards)) == 1 and len(render.calls) == drawn  # the start's drawing, shared
    await asyncio.gather(*(service.board(game_id, locale="fr") for _ in range(40)))
    assert len(render.calls) == drawn + 1  # another language, one more drawing
    own = await asyncio.gather(*(service.board(game_id, user_id=ANN) for _ in range(10)))
    assert len(render.calls) == drawn + 2 and own[0] != boards[0]  # a viewer's own view
    await service.act(game_id, ANN, "go 2")
    await service.act(game_id, BOB, "go 1")  # the turn ends: the new version is drawn once
    after = len(render.calls)
    moved = await asyncio.gather(*(service.board(game_id, locale="en") for _ in range(40)))
    assert len(render.calls) == after and moved[0] != boards[0]


async def test_a_replay_frame_is_drawn_once_however_many_ask(
        service: GameService, render: FakeRender) -> None:
    """Issue 13 §2: replay steps go through the cache, keyed by (game, version, position,
    locale, names): a crowd stepping to one position costs one drawing."""
    game_id = await _started(service)
    await service.act(game_id, ANN, "go 2")
    await service.act(game_id, BOB, "go 1")
    history = History(service)
    drawn = len(render.calls)
    frames = await asyncio.gather(*(history.frame(game_id, 1, "en") for _ in range(30)))
    assert len(render.calls) == drawn + 1 and len({f.image for f in frames}) == 1
    assert frames[0].position == 1 and frames[0].image is not None
    await asyncio.gather(*(history.frame(game_id, 1, "fr-FR") for _ in range(5)))
    assert len(render.calls) == drawn + 2 and render.calls[-1][3] == "fr"  # another language
    other = await history.frame(game_id, 0, "en")
    assert len(render.calls) == drawn + 3 and other.image != frames[0].image
    again = await history.frame(game_id, 1, "en")
    assert len(render.calls) == drawn + 3 and again.image == frames[0].image
    await service.act(game_id, ANN, "go 1")  # a new version: its frames are drawn anew
    await history.frame(game_id, 1, "en")
    assert len(render.calls) == drawn + 4
