"""Components that survive restarts and the private panel built from legal choices.

Every component is a ``discord.ui.DynamicItem`` whose custom_id carries the game id and the
state version it was drawn for, so a click after a restart still finds its game, and a click
on an outdated panel is refused by the service's version check (never a wrong move). The
handlers only parse and hand over to :mod:`bot.adapter.panels`, which talks to the service.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.error_handler import handled
from bot.adapter.guard import Guarded
from bot.core import messages
from bot.core.i18n import t
from bot.core.models import Panel
from engines.base import Action, Choice, MultiChoice, Spec, Subset

if TYPE_CHECKING:
    from bot.adapter.app import LudoBot

MAX_ID = 100  # Discord's custom_id limit
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25


def _client(interaction: discord.Interaction[Any]) -> LudoBot:
    return interaction.client  # type: ignore[no-any-return]


def encode_action(text: str) -> str:
    return text.replace(" ", "~")


def decode_action(text: str) -> str:
    return text.replace("~", " ")


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class PanelButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"ludo:panel:(?P<game>[0-9]+)"):
    """On a public turn message: opens the clicker's private panel (always fresh)."""

    seated = True

    def __init__(self, game_id: int, label: str = "My panel") -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=f"ludo:panel:{game_id}", emoji="🎴"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: re.Match[str], /
                             ) -> PanelButton:
        return cls(int(match["game"]))

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.adapter import panels

        await panels.open_panel(interaction, self.game_id)


class ActButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"ludo:do:(?P<game>[0-9]+):(?P<ver>[0-9]+):(?P<act>[a-z0-9_:.=+~\-]+)"):
    """One legal action of the panel's step, bound to the version it was offered at."""

    seated = True

    def __init__(self, game_id: int, version: int, action: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        self.game_id, self.version, self.action = game_id, version, action
        super().__init__(discord.ui.Button(
            label=_cut(label or action, 80), style=style,
            custom_id=f"ludo:do:{game_id}:{version}:{encode_action(action)}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: re.Match[str], /
                             ) -> ActButton:
        return cls(int(match["game"]), int(match["ver"]), decode_action(match["act"]))

    def ids(self) -> tuple[int, ...]:
        return self.game_id, self.version

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.adapter import panels

        await panels.act_from_component(interaction, self.game_id, self.version, self.action)


class ActSelect(Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]],
                template=r"ludo:sel:(?P<game>[0-9]+):(?P<ver>[0-9]+):(?P<group>[a-z0-9_]{0,40})"):
    """A select of the legal actions of one group; option values are action texts."""

    seated = True

    def __init__(self, game_id: int, version: int, group: str,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        self.game_id, self.version, self.group = game_id, version, group
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"ludo:sel:{game_id}:{version}:{group}",
            options=options or [discord.SelectOption(label="-", value="-")],
            placeholder=placeholder, min_values=1, max_values=1)
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Select[Any], match: re.Match[str], /
                             ) -> ActSelect:
        made = cls(int(match["game"]), int(match["ver"]), match["group"])
        made.item.options = item.options
        return made

    def ids(self) -> tuple[int, ...]:
        return self.game_id, self.version

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.adapter import panels

        values = (interaction.data or {}).get("values") or []  # type: ignore[call-overload]
        if not values:
            await interaction.response.send_message(
                t("ui.nothing_chosen", panels.user_locale(interaction)), ephemeral=True)
            return
        await panels.act_from_component(interaction, self.game_id, self.version, str(values[0]))


class SubsetSelect(Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"ludo:sub:(?P<game>[0-9]+):(?P<ver>[0-9]+):(?P<act>[a-z0-9_:.=+~\-]+)"):
    """One subset decision (keep some dice, pay with some cards) as ONE multi-select.

    The custom_id carries the game, the version and the subset's kind and fixed arguments;
    option values are ``<index>:<option>`` (unique even when two options are equal). The
    chosen values become ``Subset.action`` of the subset the select shows, which the
    service hands to the engine like any move (the engine accepts only what it offers).
    """

    seated = True

    def __init__(self, game_id: int, version: int, head: str,
                 options: list[discord.SelectOption] | None = None, *,
                 min_values: int = 1, max_values: int = 1,
                 placeholder: str | None = None) -> None:
        self.game_id, self.version, self.head = game_id, version, head
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"ludo:sub:{game_id}:{version}:{encode_action(head)}",
            options=options or [discord.SelectOption(label="-", value="0:-")],
            placeholder=placeholder, min_values=min_values, max_values=max_values)
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Select[Any], match: re.Match[str], /
                             ) -> SubsetSelect:
        return cls(int(match["game"]), int(match["ver"]), decode_action(match["act"]),
                   list(item.options), min_values=item.min_values,
                   max_values=item.max_values)

    def ids(self) -> tuple[int, ...]:
        return self.game_id, self.version

    def subset(self) -> Subset:
        """The subset this select offers, read back from the select itself."""
        head = Action.parse(self.head)
        options = tuple(option_value(o.value) for o in self.item.options)
        return Subset(head.kind, options, self.item.min_values, self.item.max_values,
                      head.args)

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.adapter import panels

        values = (interaction.data or {}).get("values") or []  # type: ignore[call-overload]
        action = self.subset().action(option_value(str(v)) for v in values)  # checked here
        await panels.act_from_component(interaction, self.game_id, self.version, str(action))


def option_value(value: str) -> str:
    """A subset option from its select value ``<index>:<option>``."""
    return value.split(":", 1)[1] if ":" in value else value


class MuteButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"ludo:mute:(?P<game>[0-9]+)"):
    """On a reminder: silence reminders for the clicker until their next turn."""

    seated = True

    def __init__(self, game_id: int, label: str = "Mute for this turn") -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Button(label=label, emoji="🔕",
                                           custom_id=f"ludo:mute:{game_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: re.Match[str], /
                             ) -> MuteButton:
        return cls(int(match["game"]))

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.adapter import panels

        await panels.mute(interaction, self.game_id)


LOBBY_OPS = ("join", "leave", "ai", "start")


class LobbyButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"ludo:lobby:(?P<game>[0-9]+):(?P<op>join|leave|ai|start)"):
    """Join / Leave / Add bot / Start on the lobby message, which updates in place."""

    STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
              "ai": discord.ButtonStyle.secondary, "start": discord.ButtonStyle.primary}

    def __init__(self, game_id: int, op: str, label: str | None = None) -> None:
        self.game_id, self.op = game_id, op
        super().__init__(discord.ui.Button(label=label or op, style=self.STYLES[op],
                                           custom_id=f"ludo:lobby:{game_id}:{op}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: re.Match[str], /
                             ) -> LobbyButton:
        return cls(int(match["game"]), match["op"])

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.adapter import panels

        await panels.lobby_click(interaction, self.game_id, self.op)


class CancelVoteButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=r"ludo:vote:(?P<game>[0-9]+)"):
    """A human player's vote to cancel a started game."""

    seated = True

    def __init__(self, game_id: int, label: str = "Vote to cancel") -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger,
                                           custom_id=f"ludo:vote:{game_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: re.Match[str], /
                             ) -> CancelVoteButton:
        return cls(int(match["game"]))

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.adapter import panels

        await panels.vote_cancel(interaction, self.game_id)


DYNAMIC_ITEMS = (PanelButton, ActButton, ActSelect, SubsetSelect, MuteButton, LobbyButton,
                 CancelVoteButton)


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
                label=_cut(label(c.label), 100), value=str(c.action),
                description=_cut(label(c.description), 100) if c.description else None)
                for c in chunk]
            name = f"{group}{start // MAX_SELECT_OPTIONS or ''}"[:40]
            placeholder = _cut(t("ui.choose", locale), 150)
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
    options = [discord.SelectOption(label=_cut(label(text), 100), value=f"{i}:{value}")
               for i, (value, text) in enumerate(zip(sub.options, multi.option_labels,
                                                     strict=True))]
    return SubsetSelect(game_id, version, head, options, min_values=sub.min_values,
                        max_values=sub.most, placeholder=_cut(label(multi.label), 150))


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


def turn_message_view(game_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PanelButton(game_id, label=t("ui.open_panel", locale)))
    return view


def lobby_view(game_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in LOBBY_OPS:
        view.add_item(LobbyButton(game_id, op, label=t(f"lobby.button.{op}", locale)))
    return view
