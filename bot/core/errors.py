"""Errors of the game service, each a translatable message (``key`` + ``params``).

Rules errors from the engines (:class:`engines.base.GameError`) pass through the service
unchanged; these cover everything around the rules: lobbies, seats, permissions, and panels
that went out of date. The English text (``str(err)``) is for logs.
"""

from __future__ import annotations

from typing import Any

from bot.core.i18n import t

MAX_ID = 2 ** 63 - 1  # SQLite's INTEGER: a larger id can name nothing (and would overflow)


class ServiceError(Exception):
    key = "service.error"

    def __init__(self, message: str | None = None, *, key: str | None = None,
                 **params: Any) -> None:
        if key is not None:
            self.key = key
        self.params = params
        super().__init__(message or t(self.key, "en", **params))

    def text(self, locale: str | None = None) -> str:
        """The message in the reader's language."""
        return t(self.key, locale, **self.params)


class ChannelBusy(ServiceError):
    key = "service.channel_busy"


class UnknownGame(ServiceError):
    key = "service.unknown_game"


class UnknownGameKey(ServiceError):
    key = "service.unknown_game_key"


class InvalidOption(ServiceError):
    key = "service.invalid_option"


class NoGameHere(ServiceError):
    key = "service.no_game_here"


class NotSeated(ServiceError):
    key = "service.not_seated"


class LobbyFull(ServiceError):
    key = "service.lobby_full"


class AlreadySeated(ServiceError):
    key = "service.already_seated"


class NotCreator(ServiceError):
    key = "service.not_creator"


class NotStarted(ServiceError):
    key = "service.not_started"


class AlreadyStarted(ServiceError):
    key = "service.already_started"


class TooFewPlayers(ServiceError):
    key = "service.too_few_players"


class StaleVersion(ServiceError):
    key = "service.stale_version"


class Forbidden(ServiceError):
    key = "service.forbidden"


class BadId(ServiceError):
    """A number from a component or command that cannot be an id (negative, beyond 64 bits)."""

    key = "service.bad_id"


def check_id(value: int) -> int:
    """``value`` if it can be a stored id, else :class:`BadId` (checked at every edge)."""
    if not 0 <= value <= MAX_ID:
        raise BadId()
    return value
