"""What a game's cog tells the shared UI about presenting it (a game's own words).

Each game's cog module exports one :class:`Presenter` as ``PRESENTER``; the bot reads it from
the extension it loads for that game (``engines/registry.py``), so ``bot/`` never imports
``cogs/``. The generic panel, turn messages and standings use it.
"""

from __future__ import annotations

from typing import Any, Protocol

from PIL import Image

PanelImage = Image.Image  # named here so cogs need not import PIL (tests/test_layers.py)


class Presenter(Protocol):
    key: str

    def panel_text(self, view: dict[str, Any], seat: int, locale: str) -> str:
        """The private part of a seat's panel (hand, discard, resources) in ``locale``."""

    def status_text(self, view: dict[str, Any], names: list[str], locale: str) -> str:
        """One public line on the state of play (round, phase, who acts)."""

    def panel_image(self, view: dict[str, Any], seat: int, locale: str) -> PanelImage | None:
        """A private image for the seat's panel (say, its board labelled for a choice), or
        None. Called in a worker thread: it must not touch the bot."""
