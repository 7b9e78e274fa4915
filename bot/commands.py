"""Slash commands for a game's decisions, built from a short table of verbs.

Every verb is ``/<game> <verb> choice:<autocomplete>``; the autocomplete lists the caller's
legal actions of the verb's kinds (labels from the engine's ``choices``), so every decision
is reachable by command as well as by the panel, and a typed value goes through the same
service call and checks as a click.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot import play
from bot.errors import ServiceError
from bot.i18n import tm
from bot.translator import L
from engines.base import Choice, GameError

MAX_AUTOCOMPLETE = 25


@dataclass(frozen=True, slots=True)
class Verb:
    name: str
    english: str  # description shown by Discord; French in commands.json
    kinds: tuple[str, ...] = ()  # engine action kinds offered; () = every legal action


async def _legal(interaction: discord.Interaction[Any], kinds: Sequence[str],
                 current: str) -> list[app_commands.Choice[str]]:
    bot = play.bot_of(interaction)
    game = await bot.service.in_channel(interaction.channel_id or 0)
    if game is None:
        return []
    try:
        panel = await bot.service.panel(game.id, interaction.user.id)
    except (ServiceError, GameError):
        return []
    if not panel.awaited:
        return []
    locale = play.user_locale(interaction)
    needle = current.lower().strip()
    out = []
    for choice in panel.choices:
        if not isinstance(choice, Choice):
            continue  # a subset decision has its own command
        if kinds and choice.action.kind not in kinds:
            continue
        label = tm(choice.label, locale)
        text = str(choice.action)
        if needle and needle not in label.lower() and needle not in text:
            continue
        out.append(app_commands.Choice(name=label[:100], value=text[:100]))
        if len(out) == MAX_AUTOCOMPLETE:
            break
    return out


def _verb_command(game_key: str, verb: Verb) -> app_commands.Command[Any, Any, None]:
    kinds = verb.kinds

    async def callback(interaction: discord.Interaction[Any], choice: str) -> None:
        action = choice.strip()
        if len(kinds) == 1 and action.split(" ", 1)[0] != kinds[0]:
            action = f"{kinds[0]} {action}"  # typed "/havana play mama" means "play mama"
        await play.act_from_command(interaction, action)

    async def complete(interaction: discord.Interaction[Any],
                       current: str) -> list[app_commands.Choice[str]]:
        return await _legal(interaction, kinds, current)

    app_commands.describe(choice=L("Your choice", "cmd.choice"))(callback)
    command = app_commands.Command(
        name=L(verb.name, f"cmd.{game_key}.{verb.name}"),
        description=L(verb.english, f"cmd.{game_key}.{verb.name}.desc"),
        callback=callback)
    command.autocomplete("choice")(complete)
    return command


def game_group(game_key: str, english: str, verbs: Sequence[Verb]) -> app_commands.Group:
    """``/<game_key>`` with one sub-command per verb (≤ 25, Discord's limit)."""
    group = app_commands.Group(name=L(game_key, f"cmd.{game_key}"),
                               description=L(english, f"cmd.{game_key}.desc"), guild_only=True)
    for verb in verbs:
        group.add_command(_verb_command(game_key, verb))
    return group
