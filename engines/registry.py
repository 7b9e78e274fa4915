"""Every implemented game by key. Adding a game = one line here (see README)."""

from __future__ import annotations

from engines.base import Engine


def _load() -> dict[str, Engine]:
    from engines.havana import ENGINE as havana
    from engines.rio import ENGINE as rio
    from engines.tuscany import ENGINE as tuscany

    return {e.spec.key: e for e in (havana, tuscany, rio)}


_GAMES: dict[str, Engine] | None = None


def games() -> dict[str, Engine]:
    global _GAMES
    if _GAMES is None:
        _GAMES = _load()
    return _GAMES


def get(key: str) -> Engine:
    try:
        return games()[key]
    except KeyError:
        raise KeyError(f"unknown game {key!r}") from None
