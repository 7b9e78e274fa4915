"""The one error handler of every slash command and component (python-discord/bot's
``error_handler`` cog): handlers raise, this answers.

* A refusal (:class:`bot.core.errors.ServiceError`, a rules :class:`engines.base.GameError`, a
  failed check) is a translated private answer and one log line.
* Anything else is a bug: one log line with its traceback, and a private "something went
  wrong" — never a public error message.

Both are always ephemeral. After a public "thinking…" defer, the first followup would take
the place of that public message, so the thinking message is deleted first and the answer
goes out as a private followup.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.adapter.replies import user_locale
from bot.core.errors import ServiceError
from bot.core.i18n import error_text, t
from engines.base import GameError

log = logging.getLogger(__name__)

Item = TypeVar("Item")


def _where(interaction: discord.Interaction[Any]) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: Mapping[str, object] = interaction.data or {}
    return f"component {data.get('custom_id', '?')}"


async def handle(interaction: discord.Interaction[Any], error: Exception) -> None:
    """Answer ``error`` privately and log it once."""
    original = getattr(error, "original", error)  # app_commands.CommandInvokeError wraps
    locale = user_locale(interaction)
    user, where = interaction.user.id, _where(interaction)
    if isinstance(original, GameError):
        text = error_text(original, locale)
        log.info("%s by %s refused: %s: %s", where, user, type(original).__name__, original)
    elif isinstance(original, ServiceError):
        text = t(original.key, locale, **original.params)
        log.info("%s by %s refused: %s: %s", where, user, type(original).__name__, original)
    elif isinstance(error, app_commands.CheckFailure):
        text = t("ui.not_allowed", locale)
        log.info("%s by %s not allowed: %s", where, user, error)
    else:
        text = t("ui.internal_error", locale)
        log.error("%s by %s failed", where, user, exc_info=original)
    try:
        await _private(interaction, f"⚠️ {text}")
    except discord.HTTPException as err:  # the interaction expired, the channel is gone…
        log.info("%s: the error answer could not be sent: %s", where, err)


async def _private(interaction: discord.Interaction[Any], text: str) -> None:
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True)
        return
    if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
        original = await interaction.original_response()
        if original.flags.loading and not original.flags.ephemeral:
            await interaction.delete_original_response()  # a public "thinking…"
    await interaction.followup.send(text, ephemeral=True)


async def on_app_command_error(interaction: discord.Interaction[Any],
                               error: app_commands.AppCommandError) -> None:
    """The command tree's error hook."""
    await handle(interaction, error)


def handled(callback: Callable[[Item, discord.Interaction[Any]], Coroutine[Any, Any, None]]
            ) -> Callable[[Item, discord.Interaction[Any]], Coroutine[Any, Any, None]]:
    """For a component's ``callback``: discord.py only logs what a dynamic item raises, so
    its errors are routed here."""

    @functools.wraps(callback)
    async def run(self: Item, interaction: discord.Interaction[Any]) -> None:
        try:
            await callback(self, interaction)
        except Exception as err:
            await handle(interaction, err)

    return run
