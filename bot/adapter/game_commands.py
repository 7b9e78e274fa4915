"""Slash commands for a game's decisions, built from a short table of verbs.

Every verb is ``/<game> <verb> choice:<autocomplete>``; the autocomplete lists the caller's
legal actions of the verb's kinds (labels from the engine's ``choices``), so every decision
is reachable by command as well as by the panel, and a typed value goes through the same
service call and checks as a click. A subset decision (one multi-select in the panel) is
typed as its values, ``/<game> <verb> <values…>``: the autocomplete offers it back once the engine
offers that subset.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter import panels, replies
from bot.adapter.client import LudoBot
from bot.adapter.translator import L
from bot.core import messages
from bot.core.errors import InvalidOption, ServiceError
from bot.core.i18n import t
from engines.base import Action, GameError, MultiChoice, Spec

MAX_AUTOCOMPLETE = 25


@dataclass(frozen=True, slots=True)
class Verb:
    name: str  # English command name; its description and French name are in the game's
    # catalogues: <game>.cmd.<verb>.desc and <game>.cmd.<verb>
    kinds: tuple[str, ...] = ()  # engine action kinds offered; () = every legal action


def command_text(key: str) -> app_commands.locale_str:
    """A command's description: English from the catalogue, French at sync time."""
    return L(t(key, "en"), key)


async def _legal(interaction: discord.Interaction[Any], kinds: Sequence[str],
                 current: str) -> list[app_commands.Choice[str]]:
    bot = replies.bot_of(interaction)
    game = await bot.service.in_channel(interaction.channel_id or 0)
    if game is None:
        return []
    try:
        panel = await bot.service.panel(game.id, interaction.user.id)
    except (ServiceError, GameError):
        return []
    if not panel.choices:  # nothing to do now (a seat not awaited may have free actions)
        return []
    locale = replies.user_locale(interaction)
    spec, names = messages.spec_of(game), [s.name for s in game.seats]
    needle = current.lower().strip()
    out = []
    for choice in panel.choices:
        if isinstance(choice, MultiChoice):
            found = _typed_subset(choice, kinds, current, spec, names, locale)
            if found is not None:
                out.append(found)
            continue
        if kinds and choice.action.kind not in kinds:
            continue
        label = messages.label(choice.label, spec, names, locale)
        text = str(choice.action)
        if needle and needle not in label.lower() and needle not in text:
            continue
        out.append(app_commands.Choice(name=label[:100], value=text[:100]))
    return out[:MAX_AUTOCOMPLETE]


def _typed_subset(multi: MultiChoice, kinds: Sequence[str], current: str, spec: Spec,
                  names: Sequence[str], locale: str) -> app_commands.Choice[str] | None:
    """A subset decision by command: what is typed (``pay r r``, or ``r r`` under a verb of
    that one kind) offered back once it is a subset the engine offers."""
    sub = multi.subset
    if kinds and sub.kind not in kinds:
        return None
    typed = current.strip().lower()
    if typed.split(" ", 1)[0] != sub.kind:
        typed = f"{sub.kind} {' '.join(sub.fixed)} {typed}"
    try:
        action = Action.parse(typed)
    except GameError:
        return None
    if not sub.accepts(action):
        return None
    chosen = action.args[len(sub.fixed):]
    labels = dict(zip(sub.options, multi.option_labels, strict=True))
    words = ", ".join(messages.label(labels[v], spec, names, locale) for v in chosen)
    name = f"{messages.label(multi.label, spec, names, locale)}: {words or '—'}"
    return app_commands.Choice(name=name[:100], value=str(action)[:100])


def _verb_command(game_key: str, verb: Verb) -> app_commands.Command[Any, Any, None]:
    kinds = verb.kinds

    async def callback(interaction: discord.Interaction[Any], choice: str) -> None:
        action = choice.strip()
        if len(kinds) == 1 and action.split(" ", 1)[0] != kinds[0]:
            action = f"{kinds[0]} {action}"  # "/<game> play x" means "play x"
        await panels.act_from_command(interaction, action)

    async def complete(interaction: discord.Interaction[Any],
                       current: str) -> list[app_commands.Choice[str]]:
        return await _legal(interaction, kinds, current)

    app_commands.describe(choice=L("Your choice", "cmd.choice"))(callback)
    command: app_commands.Command[Any, Any, None] = app_commands.Command(
        name=L(verb.name, f"{game_key}.cmd.{verb.name}"),
        description=command_text(f"{game_key}.cmd.{verb.name}.desc"),
        callback=callback)
    command.autocomplete("choice")(complete)
    return command


def game_group(game_key: str, verbs: Sequence[Verb]) -> app_commands.Group:
    """``/<game_key>`` with one sub-command per verb (≤ 25, Discord's limit); names and
    descriptions from the game's catalogues (``<game_key>.cmd…``)."""
    group = app_commands.Group(name=L(game_key, f"{game_key}.cmd"),
                               description=command_text(f"{game_key}.cmd.desc"),
                               guild_only=True)
    for verb in verbs:
        group.add_command(_verb_command(game_key, verb))
    return group


MAX_OPTIONS_TEXT = 200


def parse_options(text: str | None) -> dict[str, str]:
    """``/game new options:`` text, ``name=value`` pairs separated by spaces or commas, as
    a dict of texts (the service checks names and values against the game's Spec)."""
    if not text:
        return {}
    if len(text) > MAX_OPTIONS_TEXT:
        raise InvalidOption(key="service.bad_options")
    chosen: dict[str, str] = {}
    for pair in text.replace(",", " ").split():
        name, sep, value = pair.partition("=")
        if not sep or not name or not value or name in chosen:
            raise InvalidOption(key="service.bad_options")
        chosen[name] = value
    return chosen


def option_choices(spec: Spec, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for ``options:``: what is typed so far, plus each ``name=value`` the
    game offers for an option not yet given."""
    typed = current.replace(",", " ").split()
    done = typed if current.endswith((" ", ",")) or not typed else typed[:-1]
    partial = "" if done is typed else typed[-1]
    given = {pair.partition("=")[0] for pair in done}
    out = []
    for option in spec.options:
        if option.name in given:
            continue
        values = option.choices or ((True, False) if isinstance(option.default, bool)
                                    else (option.default,))
        for value in values:
            pair = f"{option.name}={str(value).lower() if isinstance(value, bool) else value}"
            if pair.startswith(partial):
                text = " ".join((*done, pair))
                out.append(app_commands.Choice(name=text[:100], value=text[:100]))
    return out[:MAX_AUTOCOMPLETE]


class GameCog(commands.Cog):
    """A game's cog: its ``/<key>`` group (built from its verbs) added to the command tree
    while the cog is loaded. A game's cog subclasses it and may add commands to ``group``."""

    def __init__(self, bot: LudoBot, key: str, verbs: Sequence[Verb]) -> None:
        self.bot = bot
        self.group = game_group(key, verbs)

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)
