"""A panel's legal choices laid out as components, within Discord's limits.

Small groups become buttons, larger ones selects, each subset decision one multi-select
(5 rows, 5 buttons a row, 25 options a select); what does not fit is left to the slash
commands, which accept every legal action. Seats in labels read as player names.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import discord

from bot.adapter.components import (
    MAX_ID,
    ActButton,
    ActSelect,
    SubsetSelect,
    cut,
    encode_action,
)
from bot.core import messages
from bot.core.i18n import t
from bot.core.models import Panel
from engines.base import Action, Choice, MultiChoice, Spec

MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25


def _grouped(choices: Sequence[Choice | MultiChoice]) -> OrderedDict[str, list[Choice]]:
    groups: OrderedDict[str, list[Choice]] = OrderedDict()
    for choice in choices:
        if isinstance(choice, Choice):
            groups.setdefault(choice.group or choice.action.kind, []).append(choice)
    return groups


def _fits_buttons(game_id: int, version: int, choices: list[Choice]) -> bool:
    return len(choices) <= MAX_BUTTONS_PER_ROW and all(
        len(f"ludo:do:{game_id}:{version}:{encode_action(str(c.action))}") <= MAX_ID
        for c in choices)


def button_groups(choices: Sequence[Choice | MultiChoice], game_id: int = 0,
                  version: int = 0) -> list[list[Choice]]:
    """The groups the panel shows as buttons (the others become selects)."""
    return [g for g in _grouped(choices).values() if _fits_buttons(game_id, version, g)]


def panel_components(panel: Panel, locale: str) -> discord.ui.View:
    """Legal choices as components: small groups as buttons, larger ones as selects, each
    subset decision as one multi-select.

    Fits Discord's limits (5 rows, 5 buttons a row, 25 options a select); a group beyond
    25 options is split into several selects, and rows beyond 5 are left to the slash
    commands, which accept every legal action. Seats in labels read as player names.
    """
    view = discord.ui.View(timeout=None)
    rows_used = 0
    game_id, version = panel.game.id, panel.game.version
    spec = messages.spec_of(panel.game)
    names = [s.name for s in panel.game.seats]

    def label(message: Any) -> str:
        return messages.label(message, spec, names, locale)

    for group, choices in _grouped(panel.choices).items():
        if rows_used >= MAX_ROWS:
            break
        if _fits_buttons(game_id, version, choices):
            for choice in choices:
                button = ActButton(game_id, version, str(choice.action),
                                   label=label(choice.label), style=_style(choice, spec))
                button.row = rows_used
                view.add_item(button)
            rows_used += 1
            continue
        for start in range(0, len(choices), MAX_SELECT_OPTIONS):
            if rows_used >= MAX_ROWS:
                break
            chunk = choices[start:start + MAX_SELECT_OPTIONS]
            options = [discord.SelectOption(
                label=cut(label(c.label), 100), value=str(c.action),
                description=cut(label(c.description), 100) if c.description else None)
                for c in chunk]
            name = f"{group}{start // MAX_SELECT_OPTIONS or ''}"[:40]
            placeholder = cut(t("ui.choose", locale), 150)
            select = ActSelect(game_id, version, _safe_group(name), options,
                               placeholder=placeholder)
            select.row = rows_used
            view.add_item(select)
            rows_used += 1
    for multi in panel.choices:
        if rows_used >= MAX_ROWS:
            break
        if isinstance(multi, MultiChoice):
            made = subset_select(game_id, version, multi, label)
            if made is not None:
                made.row = rows_used
                view.add_item(made)
                rows_used += 1
    return view


def subset_select(game_id: int, version: int, multi: MultiChoice,
                  label: Any) -> SubsetSelect | None:
    """One multi-select for a subset decision (None when it cannot fit one: then the slash
    command takes it)."""
    sub = multi.subset
    head = str(Action(sub.kind, sub.fixed))
    if (not 0 < sub.most <= MAX_SELECT_OPTIONS or len(sub.options) > MAX_SELECT_OPTIONS
            or len(f"ludo:sub:{game_id}:{version}:{encode_action(head)}") > MAX_ID):
        return None
    options = [discord.SelectOption(label=cut(label(text), 100), value=f"{i}:{value}")
               for i, (value, text) in enumerate(zip(sub.options, multi.option_labels,
                                                     strict=True))]
    return SubsetSelect(game_id, version, head, options, min_values=sub.min_values,
                        max_values=sub.most, placeholder=cut(label(multi.label), 150))


def _safe_group(name: str) -> str:
    return re.sub(r"[^a-z0-9_]", "_", name.lower())[:40]


def _style(choice: Choice, spec: Spec) -> discord.ButtonStyle:
    """Colours from the game's declared kinds: green ends or confirms, grey passes."""
    kind = choice.action.kind
    if kind in spec.ending_kinds:
        return discord.ButtonStyle.success
    if kind in spec.passing_kinds:
        return discord.ButtonStyle.secondary
    return discord.ButtonStyle.primary
