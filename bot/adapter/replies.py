"""Answering on Discord: the reader's language, replies whether or not deferred, posts in a
game's channel, and the bound on answers built at once (shared by every flow and cog)."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Sequence
from typing import Any

import discord

from bot.adapter.client import LudoBot
from bot.core import messages
from bot.core.i18n import normalise
from bot.core.models import GameInfo

log = logging.getLogger(__name__)

# In a crowd, every interaction is acknowledged first (a deferral is one short request), then
# at most this many build their answer at once: the acknowledgements still waiting are not
# queued behind two hundred half-built panels sharing the event loop.
CONCURRENT_ANSWERS = 8
_answering: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary())


def answering() -> asyncio.Semaphore:
    """The semaphore of answers being built, one per event loop (tests run one per test)."""
    loop = asyncio.get_running_loop()
    sem = _answering.get(loop)
    if sem is None:
        sem = _answering[loop] = asyncio.Semaphore(CONCURRENT_ANSWERS)
    return sem


def bot_of(interaction: discord.Interaction[Any]) -> LudoBot:
    return interaction.client  # type: ignore[no-any-return]


def user_locale(interaction: discord.Interaction[Any]) -> str:
    """The reader's language for an ephemeral reply (their own override first)."""
    override = bot_of(interaction).user_locales.get(interaction.user.id)
    return override or normalise(str(interaction.locale))


async def public_locale(bot: LudoBot, guild_id: int | None) -> str:
    """The language of public messages in a server: its override, else its Discord locale."""
    if guild_id is None:
        return bot.settings.default_locale
    override = await bot.service.guild_locale(guild_id)
    if override:
        return override
    guild = bot.get_guild(guild_id)
    return normalise(str(guild.preferred_locale)) if guild else bot.settings.default_locale


# ``interaction.extras[DEFERRED]``: whether the "thinking…" of a deferral is private, until
# the first answer takes its place (see :func:`reply`).
DEFERRED = "ludo.deferred_private"


async def reply(interaction: discord.Interaction[Any], content: str, *,
                view: discord.ui.View | None = None, ephemeral: bool = True,
                files: Sequence[discord.File] = ()) -> None:
    """Answer whether or not the interaction was already acknowledged. After a deferral the
    first followup takes the place — and the visibility — of the "thinking…" message: when
    the answer's visibility differs (a private "thinking…", a public outcome), that message
    is deleted first so the answer goes out as its own followup."""
    kwargs: dict[str, Any] = {"content": messages.clip(content), "ephemeral": ephemeral}
    if view is not None:
        kwargs["view"] = view
    if files:
        kwargs["files"] = list(files)
    if not interaction.response.is_done():
        await interaction.response.send_message(**kwargs)
        return
    private = interaction.extras.pop(DEFERRED, None)
    if private is not None and private != ephemeral:
        original = await interaction.original_response()
        if original.flags.loading:
            await interaction.delete_original_response()
    await interaction.followup.send(**kwargs)


async def update(interaction: discord.Interaction[Any], content: str,
                 view: discord.ui.View) -> None:
    """Replace the clicked message (a page of a list), acknowledged already or not."""
    if interaction.response.is_done():
        await interaction.edit_original_response(content=content, view=view)
    else:
        await interaction.response.edit_message(content=content, view=view)


async def defer_public(interaction: discord.Interaction[Any]) -> None:
    """Defer a command whose success is public; a refusal will still be private
    (:mod:`bot.adapter.error_handler` removes the public "thinking…" first)."""
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True)
        interaction.extras[DEFERRED] = False


async def defer_private(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge at once with a private "thinking…": the answer may wait on the database
    and an image under load, and Discord drops an interaction not acknowledged within 3 s."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
        interaction.extras[DEFERRED] = True


async def acknowledge(interaction: discord.Interaction[Any], how: str) -> None:
    """Acknowledge an interaction before anything is read or drawn (Discord drops one not
    acknowledged within 3 s, and under load the database or an image may take longer):
    ``update`` (the clicked message will be edited), ``private`` or ``public`` (a
    "thinking…" the answer replaces)."""
    if how == "update":
        if not interaction.response.is_done():
            await interaction.response.defer()
    elif how == "public":
        await defer_public(interaction)
    else:
        await defer_private(interaction)


async def send_to_channel(bot: LudoBot, game: GameInfo, content: str, *,
                          files: Sequence[discord.File] = (), view: discord.ui.View | None = None,
                          ping: Sequence[int] = ()) -> discord.Message | None:
    """Send to the game's channel; a deleted channel or missing permission is logged."""
    try:
        channel = bot.get_channel(game.channel_id) or await bot.fetch_channel(game.channel_id)
        mentions = discord.AllowedMentions(
            users=[discord.Object(u) for u in ping], roles=False, everyone=False)
        kwargs: dict[str, Any] = {"content": messages.clip(content) or None,
                                  "allowed_mentions": mentions}
        if files:
            kwargs["files"] = list(files)
        if view is not None:
            kwargs["view"] = view
        return await channel.send(**kwargs)  # type: ignore[union-attr]
    except (discord.NotFound, discord.Forbidden) as err:
        log.warning("cannot post in channel %s of game %s: %s", game.channel_id, game.id, err)
    except discord.HTTPException as err:
        log.error("posting in channel %s failed: %s", game.channel_id, err)
    return None
