"""The render bridge: the registered renderer, catalogue words, PNG in a thread, 2 at once."""

from __future__ import annotations

import asyncio
import io
import threading
import time
import types
from typing import Any

import pytest
from PIL import Image

from bot.core import render as bridge
from engines import registry


def _fake_renderer(active: list[int], peak: list[int], lock: threading.Lock) -> Any:
    def render(view: dict[str, Any], *, names: list[str], words: Any,
               scale: float = 1.0) -> Image.Image:
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(0.05)
        with lock:
            active[0] -= 1
        colour = (255, 0, 0) if words("ui.next", players="") == "À suivre : " else (0, 0, 255)
        return Image.new("RGB", (10 + len(names), view["h"]), colour)

    return types.SimpleNamespace(render=render)


async def test_render_board_encodes_png_off_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    active, peak, lock = [0], [0], threading.Lock()
    monkeypatch.setitem(__import__("sys").modules, "renderers.fakegame",
                        _fake_renderer(active, peak, lock))
    monkeypatch.setattr(registry, "ENTRIES", (*registry.ENTRIES, registry.Entry(
        "fakegame", engine="engines.fakegame", renderer="renderers.fakegame",
        cog="cogs.fakegame")))
    bridge.renderer.cache_clear()
    data = await bridge.render_board("fakegame", {"h": 7}, ["a", "b"], "fr")
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (12, 7)
    assert image.convert("RGB").getpixel((0, 0)) == (255, 0, 0)

    results = await asyncio.gather(*(bridge.render_board("fakegame", {"h": 5}, [], "en")
                                     for _ in range(6)))
    assert len(results) == 6 and peak[0] == bridge.CONCURRENT_RENDERS


async def test_an_unregistered_game_has_no_renderer() -> None:
    with pytest.raises(KeyError):
        await bridge.render_board("no_such_game", {}, [], "en")


def test_the_renderer_comes_from_the_registry() -> None:
    for entry in registry.entries():
        assert bridge.renderer(entry.key).__module__ == entry.renderer
