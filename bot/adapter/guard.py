"""Who may click a component: one check shared by every restart-proof component.

A custom_id is plain text that any client can send with any numbers in it, so a component
never trusts the ids it carries. Like discord.py's ``examples/views/dynamic_counter.py``, each
``DynamicItem`` has an ``interaction_check``; here it is one mixin, :class:`Guarded`, that
every component puts first in its bases. Before any callback runs it checks that

* every number read from the custom_id can be an id (ASCII digits, at most 64 bits);
* the game exists and the click comes from the game's own server — or from a direct message
  of one of its players (reminders are DMed): another server's user hears "no such game",
  exactly as for an id that does not exist, so nothing leaks;
* the clicker holds a seat, for components that act for a seat.

The click is acknowledged (``ack``) before the game is read: under load the database may
take longer than Discord's 3 seconds.

A refusal is answered here, privately and translated; the callback then never runs.
"""

from __future__ import annotations

from typing import Any, ClassVar

import discord

from bot.adapter import error_handler, replies
from bot.adapter.client import LudoBot
from bot.core import errors
from bot.core.models import GameInfo


def may_see(game: GameInfo, *, guild_id: int | None, user_id: int) -> bool:
    """The game's own server, or a direct message from one of its players."""
    if guild_id is None:
        return game.seat_of(user_id) is not None
    return guild_id == game.guild_id


def check_access(game: GameInfo, *, guild_id: int | None, user_id: int,
                 seated: bool = False) -> GameInfo:
    """The game if this user may see it (and holds a seat, when ``seated``)."""
    if not may_see(game, guild_id=guild_id, user_id=user_id):
        raise errors.UnknownGame(game_id=game.id)
    if seated and game.seat_of(user_id) is None:
        raise errors.NotSeated(game_id=game.id)
    return game


class Guarded:
    """Mixin for ``discord.ui.DynamicItem`` subclasses (put it first in the bases).

    Subclasses list the numbers of their custom_id in :meth:`ids` and say which game they
    belong to in :meth:`game`; ``seated`` components act for the clicker's seat."""

    seated: ClassVar[bool] = False
    # How the click is acknowledged before the game is read
    # (:func:`bot.adapter.replies.acknowledge`): "update" (the callback edits the clicked
    # message), "private" or "public" (a "thinking…" its answer replaces); None: the
    # callback answers by itself.
    ack: ClassVar[str | None] = None

    def ids(self) -> tuple[int, ...]:
        """Every number parsed from the custom_id."""
        game_id = getattr(self, "game_id", None)
        return () if game_id is None else (game_id,)

    async def game(self, bot: LudoBot) -> GameInfo | None:
        """The game this component belongs to (None: not about one game)."""
        game_id = getattr(self, "game_id", None)
        return None if game_id is None else await bot.service.get(game_id)

    async def allowed(self, interaction: discord.Interaction[Any]) -> None:
        """Raise a :class:`bot.core.errors.ServiceError` if this click must be refused."""
        for number in self.ids():
            errors.check_id(number)
        game = await self.game(interaction.client)
        if game is not None:
            check_access(game, guild_id=interaction.guild_id, user_id=interaction.user.id,
                         seated=self.seated)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        try:
            for number in self.ids():  # a forged id is refused before anything else
                errors.check_id(number)
            if self.ack is not None:  # acknowledged before the database is read
                await replies.acknowledge(interaction, self.ack)
            await self.allowed(interaction)
        except errors.ServiceError as err:  # answered privately, logged once, by the handler
            await error_handler.handle(interaction, err)
            return False
        return True


def digits(text: str) -> int:
    """An id typed or chosen by a user: ASCII digits only, within 64 bits, else
    :class:`bot.core.errors.BadId` (``int()`` would also read ``١`` or ``1_000``)."""
    if not (text.isascii() and text.isdigit() and len(text) <= 19):
        raise errors.BadId()
    return errors.check_id(int(text))
