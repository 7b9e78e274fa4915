"""The render bridge: imports renderers.<game>, encodes PNG in a thread, at most 2 at once."""

from __future__ import annotations

import asyncio
import io
import threading
import time
import types
from typing import Any

import pytest
from PIL import Image

from bot import render as bridge


def _fake_renderer(active: list[int], peak: list[int], lock: threading.Lock) -> Any:
    def render(view: dict[str, Any], *, names: list[str], locale: str = "en",
               scale: float = 1.0) -> Image.Image:
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(0.05)
        with lock:
            active[0] -= 1
        colour = (255, 0, 0) if locale == "fr" else (0, 0, 255)
        return Image.new("RGB", (10 + len(names), view["h"]), colour)

    return types.SimpleNamespace(render=render)


async def test_render_board_encodes_png_off_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    active, peak, lock = [0], [0], threading.Lock()
    monkeypatch.setitem(__import__("sys").modules, "renderers.fakegame",
                        _fake_renderer(active, peak, lock))
    data = await bridge.render_board("fakegame", {"h": 7}, ["a", "b"], "fr")
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (12, 7)
    assert image.convert("RGB").getpixel((0, 0)) == (255, 0, 0)

    results = await asyncio.gather(*(bridge.render_board("fakegame", {"h": 5}, [], "en")
                                     for _ in range(6)))
    assert len(results) == 6 and peak[0] == bridge.CONCURRENT_RENDERS


async def test_unknown_renderer_is_an_import_error() -> None:
    with pytest.raises(ModuleNotFoundError):
        await bridge.render_board("no_such_game", {}, [], "en")
