"""Board images off the event loop: the game's registered renderer draws, PNG in a thread.

Drawing and PNG encoding are CPU work of tens of milliseconds; running them in a thread keeps
the bot answering interactions, and a semaphore of 2 keeps a burst of finished turns from
starving the machine (there is one loop per process; tests create one per test, hence the
semaphore per loop).
"""

from __future__ import annotations

import asyncio
import importlib
import weakref
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, TypeVar

from PIL import Image

from bot.core.i18n import translator
from engines import registry
from renderers.common import encode_png

T = TypeVar("T")

CONCURRENT_RENDERS = 2
_semaphores: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary())


def _semaphore() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    sem = _semaphores.get(loop)
    if sem is None:
        sem = _semaphores[loop] = asyncio.Semaphore(CONCURRENT_RENDERS)
    return sem


Renderer = Callable[..., Image.Image]


@cache
def renderer(game_key: str) -> Renderer:
    """The ``render`` function of the game's registered renderer module."""
    module = importlib.import_module(registry.entry(game_key).renderer)
    found: Renderer = module.render
    return found


def draw(game_key: str, view: Mapping[str, Any], names: Sequence[str],
         locale: str) -> Image.Image:
    """The board of ``view`` with every label in ``locale`` (from the catalogues)."""
    return renderer(game_key)(view, names=list(names), words=translator(locale))


def render_sync(game_key: str, view: Mapping[str, Any], names: Sequence[str],
                locale: str) -> bytes:
    """Draw and encode in the calling thread (the benchmark and demo measure this)."""
    return encode_png(draw(game_key, view, names, locale))


async def off_loop(work: Callable[..., T], *args: Any) -> T:
    """Run Pillow work (drawing, encoding, animating) in a thread, at most 2 at a time."""
    async with _semaphore():
        return await asyncio.to_thread(work, *args)


async def render_board(game_key: str, view: Mapping[str, Any], names: Sequence[str],
                       locale: str) -> bytes:
    """PNG bytes of ``view`` drawn by the game's renderer."""
    return await off_loop(render_sync, game_key, view, names, locale)
