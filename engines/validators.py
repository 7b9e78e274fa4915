"""Checks on the fields of a stored state read back from JSON, shared by the games.

Every game's ``state.from_dict`` refuses damaged data field by field with an
:class:`InvalidState` naming the game ("Invalid Havana state: pesos must be an integer").
The checks that several games word the same way live here once, bound to the game's name by
a :class:`StateValidator`; a check only one game words its way stays in that game's
``state.py``, built on :meth:`StateValidator.fail`.
"""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from engines.base import InvalidState


class StateValidator:
    """The field checks of one game's stored state; each raises ``fail(message)``.

    ``fail`` gives "<prefix> <game> state: <message>", with the message also as the
    ``detail`` parameter unless ``detail`` is false (Tuscany's state loader words its
    errors "Bad Tuscany state: …" without one)."""

    __slots__ = ("_head", "_detail")

    def __init__(self, game: str, *, prefix: str = "Invalid", detail: bool = True) -> None:
        self._head = f"{prefix} {game} state: "
        self._detail = detail

    def fail(self, message: str) -> InvalidState:
        if self._detail:
            return InvalidState(self._head + message, key="error.invalid_state", detail=message)
        return InvalidState(self._head + message, key="error.invalid_state")

    def integer(self, value: Any, what: str, lo: int = 0, hi: int | None = None) -> int:
        """An int (not a bool) in ``lo..hi``; ``hi`` None: no upper bound."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{what} must be an integer")
        if value < lo or (hi is not None and value > hi):
            raise self.fail(f"{what}={value} out of range")
        return value

    def boolean(self, value: Any, what: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(f"{what} must be true or false")
        return value

    def string(self, value: Any, what: str) -> str:
        if not isinstance(value, str):
            raise self.fail(f"{what} must be a string")
        return value

    def opt_string(self, value: Any, what: str,
                   allowed: Container[str] | None = None) -> str | None:
        """None, or a string (one of ``allowed`` unless that is None)."""
        if value is None:
            return None
        if not isinstance(value, str) or (allowed is not None and value not in allowed):
            raise self.fail(f"bad {what} {value!r}")
        return value

    def array(self, value: Any, what: str, n: int | None = None) -> list[Any]:
        """A list (the list itself, not a copy), of exactly ``n`` items unless ``n`` is None."""
        if not isinstance(value, list) or (n is not None and len(value) != n):
            raise self.fail(f"{what} must be a list" + (f" of {n}" if n is not None else ""))
        return value
