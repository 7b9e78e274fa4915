"""Every implemented game: ONE entry per game, the only place a game is registered.

An entry names the game's key and the modules holding its parts, as strings, so this
package imports nothing upward: the engine package (exporting ``ENGINE``), the renderer
module (``render(view, *, names, text)``) and the cog module (a discord.py extension with
``setup`` and ``PRESENTER``). The bot discovers every part from here; the README's "How to
add a game" is the checklist, and ``tests/test_registry.py`` fails when a part is missing.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from engines.base import Engine


@dataclass(frozen=True, slots=True)
class Entry:
    key: str  # also the slash-command group, the catalogue namespace, the docs/rules file
    engine: str  # package exporting ENGINE
    renderer: str  # module exporting render(view, *, names, text)
    cog: str  # discord.py extension exporting setup and PRESENTER


ENTRIES: tuple[Entry, ...] = (
    Entry("havana", engine="engines.havana", renderer="renderers.havana", cog="cogs.havana"),
    Entry("tuscany", engine="engines.tuscany", renderer="renderers.tuscany",
          cog="cogs.tuscany"),
    Entry("rio", engine="engines.rio", renderer="renderers.rio", cog="cogs.rio"),
    Entry("minos", engine="engines.minos", renderer="renderers.minos", cog="cogs.minos"),
)

_GAMES: dict[str, Engine[Any]] | None = None


def entries() -> tuple[Entry, ...]:
    return ENTRIES


def entry(key: str) -> Entry:
    for found in ENTRIES:
        if found.key == key:
            return found
    raise KeyError(f"unknown game {key!r}")


def games() -> dict[str, Engine[Any]]:
    """Every registered engine by key (imported on first use)."""
    global _GAMES
    if _GAMES is None:
        loaded: dict[str, Engine[Any]] = {}
        for e in ENTRIES:
            engine: Engine[Any] = importlib.import_module(e.engine).ENGINE
            if engine.spec.key != e.key:
                raise ValueError(f"{e.engine}.ENGINE has key {engine.spec.key!r}, not {e.key!r}")
            loaded[e.key] = engine
        _GAMES = loaded
    return _GAMES


def get(key: str) -> Engine[Any]:
    try:
        return games()[key]
    except KeyError:
        raise KeyError(f"unknown game {key!r}") from None
