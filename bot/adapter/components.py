"""Every component that survives a restart: what each click means, not what it does.

Every component is a ``discord.ui.DynamicItem`` whose custom_id carries what it needs (the
game id and the state version it was drawn for, a vote, a page or a position), so a click
after a restart still finds its game, and a click on an outdated panel is refused by the
service's version check (never a wrong move). A component parses its custom_id, checks the
clicker (:class:`~bot.adapter.guard.Guarded`) and hands the click to the client's router
(:mod:`bot.adapter.clicks`), which runs the flow: the flows build their views from these
classes, so the classes import no flow.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from bot.adapter.client import LudoBot
from bot.adapter.error_handler import handled
from bot.adapter.guard import Guarded, digits
from bot.core.errors import ServiceError
from bot.core.i18n import t
from bot.core.models import GameInfo
from engines.base import Action, Subset

MAX_ID = 100  # Discord's custom_id limit


class Clickable(Guarded):
    """A guarded component whose click goes to the client's router (put it first)."""

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.client.on_click(self, interaction)


def encode_action(text: str) -> str:
    return text.replace(" ", "~")


def decode_action(text: str) -> str:
    return text.replace("~", " ")


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clicked_select(item: discord.ui.Item[Any]) -> discord.ui.Select[Any]:
    """The select a click came from: discord.py hands ``from_custom_id`` the message's
    component of the template's type, typed as any item."""
    if not isinstance(item, discord.ui.Select):
        raise TypeError(f"a select's custom_id on a {type(item).__name__}")
    return item


def selected(interaction: discord.Interaction[Any]) -> list[str]:
    """The values a select sent back (none when it came back empty)."""
    data: Mapping[str, object] = interaction.data or {}
    values = data.get("values")
    return [str(v) for v in values] if isinstance(values, list) else []


class PanelButton(Clickable, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"ludo:panel:(?P<game>[0-9]+)"):
    """On a public turn message: opens the clicker's private panel (always fresh)."""

    seated = True
    ack = "private"

    def __init__(self, game_id: int, label: str = "My panel") -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=f"ludo:panel:{game_id}", emoji="🎴"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> PanelButton:
        return cls(int(match["game"]))


class ActButton(Clickable, discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"ludo:do:(?P<game>[0-9]+):(?P<ver>[0-9]+):(?P<act>[a-z0-9_:.=+~\-]+)"):
    """One legal action of the panel's step, bound to the version it was offered at."""

    seated = True
    ack = "update"

    def __init__(self, game_id: int, version: int, action: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        self.game_id, self.version, self.action = game_id, version, action
        super().__init__(discord.ui.Button(
            label=cut(label or action, 80), style=style,
            custom_id=f"ludo:do:{game_id}:{version}:{encode_action(action)}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> ActButton:
        return cls(int(match["game"]), int(match["ver"]), decode_action(match["act"]))

    def ids(self) -> tuple[int, ...]:
        return self.game_id, self.version


class ActSelect(Clickable, discord.ui.DynamicItem[discord.ui.Select[Any]],
                template=r"ludo:sel:(?P<game>[0-9]+):(?P<ver>[0-9]+):(?P<group>[a-z0-9_]{0,40})"):
    """A select of the legal actions of one group; option values are action texts."""

    seated = True
    ack = "update"

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
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> ActSelect:
        made = cls(int(match["game"]), int(match["ver"]), match["group"])
        made.item.options = clicked_select(item).options
        return made

    def ids(self) -> tuple[int, ...]:
        return self.game_id, self.version

    def chosen(self, interaction: discord.Interaction[Any]) -> str | None:
        """The action chosen (None when the select came back empty)."""
        values = selected(interaction)
        return values[0] if values else None


class SubsetSelect(Clickable, discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"ludo:sub:(?P<game>[0-9]+):(?P<ver>[0-9]+):(?P<act>[a-z0-9_:.=+~\-]+)"):
    """One subset decision (keep some dice, pay with some cards) as ONE multi-select.

    The custom_id carries the game, the version and the subset's kind and fixed arguments;
    option values are ``<index>:<option>`` (unique even when two options are equal). The
    chosen values become ``Subset.action`` of the subset the select shows, which the
    service hands to the engine like any move (the engine accepts only what it offers).
    """

    seated = True
    ack = "update"

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
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> SubsetSelect:
        select = clicked_select(item)
        return cls(int(match["game"]), int(match["ver"]), decode_action(match["act"]),
                   list(select.options), min_values=select.min_values,
                   max_values=select.max_values)

    def ids(self) -> tuple[int, ...]:
        return self.game_id, self.version

    def subset(self) -> Subset:
        """The subset this select offers, read back from the select itself."""
        head = Action.parse(self.head)
        options = tuple(option_value(o.value) for o in self.item.options)
        return Subset(head.kind, options, self.item.min_values, self.item.max_values,
                      head.args)

    def chosen(self, interaction: discord.Interaction[Any]) -> str:
        """The chosen values as the subset's action, checked (a typed refusal if not)."""
        return str(self.subset().action(option_value(v) for v in selected(interaction)))


def option_value(value: str) -> str:
    """A subset option from its select value ``<index>:<option>``."""
    return value.split(":", 1)[1] if ":" in value else value


class MuteButton(Clickable, discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"ludo:mute:(?P<game>[0-9]+)"):
    """On a reminder: silence reminders for the clicker until their next turn."""

    seated = True
    ack = "private"

    def __init__(self, game_id: int, label: str = "Mute for this turn") -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Button(label=label, emoji="🔕",
                                           custom_id=f"ludo:mute:{game_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> MuteButton:
        return cls(int(match["game"]))


LOBBY_OPS = ("join", "leave", "ai", "start")


class LobbyButton(Clickable, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"ludo:lobby:(?P<game>[0-9]+):(?P<op>join|leave|ai|start)"):
    """Join / Leave / Add bot / Start on the lobby message, which updates in place."""

    ack = "update"

    STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
              "ai": discord.ButtonStyle.secondary, "start": discord.ButtonStyle.primary}

    def __init__(self, game_id: int, op: str, label: str | None = None) -> None:
        self.game_id, self.op = game_id, op
        super().__init__(discord.ui.Button(label=label or op, style=self.STYLES[op],
                                           custom_id=f"ludo:lobby:{game_id}:{op}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> LobbyButton:
        return cls(int(match["game"]), match["op"])


class CancelVoteButton(Clickable, discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=r"ludo:vote:(?P<game>[0-9]+)"):
    """A human player's vote to cancel a started game."""

    seated = True
    ack = "public"

    def __init__(self, game_id: int, label: str = "Vote to cancel") -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger,
                                           custom_id=f"ludo:vote:{game_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> CancelVoteButton:
        return cls(int(match["game"]))


class UndoButton(Clickable, discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"ludo:undo:(?P<game>[0-9]+):(?P<ver>[0-9]+)"):
    """On a private panel: take back my last move (or ask the others), as of the version it
    was drawn at: a second click, or a click after any later move, is out of date."""

    seated = True
    ack = "private"

    def __init__(self, game_id: int, version: int, label: str = "Undo") -> None:
        self.game_id, self.version = game_id, version
        super().__init__(discord.ui.Button(label=label, emoji="↩️",
                                           custom_id=f"ludo:undo:{game_id}:{version}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> UndoButton:
        return cls(int(match["game"]), int(match["ver"]))

    def ids(self) -> tuple[int, ...]:
        return self.game_id, self.version


class UndoVoteButton(Clickable, discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"ludo:uvote:(?P<req>[0-9]+):(?P<yes>[01])"):
    ack = "update"

    def __init__(self, request_id: int, accept: bool, label: str = "") -> None:
        self.request_id, self.accept = request_id, accept
        style = discord.ButtonStyle.success if accept else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(
            label=label or ("Agree" if accept else "Refuse"), style=style,
            custom_id=f"ludo:uvote:{request_id}:{int(accept)}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> UndoVoteButton:
        return cls(int(match["req"]), match["yes"] == "1")

    def ids(self) -> tuple[int, ...]:
        return (self.request_id,)

    async def game(self, bot: LudoBot) -> GameInfo | None:
        return await bot.service.get((await bot.service.undo_vote(self.request_id)).game_id)


class LogPageButton(Clickable, discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"ludo:logp:(?P<game>[0-9]+):(?P<page>[0-9]+):(?P<size>[0-9]+):"
                             r"(?P<op>first|back|next|last)"):
    ack = "update"

    def __init__(self, game_id: int, page: int, size: int, op: str, label: str = "") -> None:
        self.game_id, self.page, self.size = game_id, page, max(1, min(50, size))
        super().__init__(discord.ui.Button(
            label=label or op, custom_id=f"ludo:logp:{game_id}:{page}:{self.size}:{op}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> LogPageButton:
        return cls(int(match["game"]), int(match["page"]), int(match["size"]), match["op"])

    def ids(self) -> tuple[int, ...]:
        return self.game_id, self.page, self.size


class ReplayButton(Clickable, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"ludo:rp:(?P<game>[0-9]+):(?P<pos>[0-9]+):(?P<op>first|back|next|last)"):
    ack = "update"

    def __init__(self, game_id: int, position: int, op: str, label: str = "") -> None:
        self.game_id, self.position = game_id, position
        super().__init__(discord.ui.Button(label=label or op,
                                           custom_id=f"ludo:rp:{game_id}:{position}:{op}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> ReplayButton:
        return cls(int(match["game"]), int(match["pos"]), match["op"])

    def ids(self) -> tuple[int, ...]:
        return self.game_id, self.position


def chosen_position(interaction: discord.Interaction[Any]) -> int:
    """The position picked in a replay select (ASCII digits within 64 bits, else BadId)."""
    values = selected(interaction)
    return digits(values[0] if values else "0")


class ReplaySelect(Clickable, discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"ludo:rsel:(?P<game>[0-9]+)"):
    ack = "update"

    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Select(
            custom_id=f"ludo:rsel:{game_id}", placeholder=placeholder,
            options=options or [discord.SelectOption(label="0", value="0")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> ReplaySelect:
        return cls(int(match["game"]), clicked_select(item).options)

    async def allowed(self, interaction: discord.Interaction[Any]) -> None:
        await super().allowed(interaction)
        chosen_position(interaction)  # the chosen position is a number from the client too


class GamesPageButton(Clickable, discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"ludo:hist:(?P<guild>[0-9]+):(?P<page>[0-9]+):(?P<op>first|back|next|last)"):
    ack = "update"

    def __init__(self, guild_id: int, page: int, op: str, label: str = "") -> None:
        self.guild_id, self.page = guild_id, page
        super().__init__(discord.ui.Button(label=label or op,
                                           custom_id=f"ludo:hist:{guild_id}:{page}:{op}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> GamesPageButton:
        return cls(int(match["guild"]), int(match["page"]), match["op"])

    def ids(self) -> tuple[int, ...]:
        return self.guild_id, self.page

    async def game(self, bot: LudoBot) -> GameInfo | None:
        return None  # not one game: the list of one server, checked in allowed()

    async def allowed(self, interaction: discord.Interaction[Any]) -> None:
        await super().allowed(interaction)
        if interaction.guild_id != self.guild_id:
            raise ServiceError(key="ui.not_allowed")


DYNAMIC_ITEMS = (PanelButton, ActButton, ActSelect, SubsetSelect, MuteButton, LobbyButton,
                 CancelVoteButton, UndoButton, UndoVoteButton, LogPageButton, ReplayButton,
                 ReplaySelect, GamesPageButton)


def turn_message_view(game_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PanelButton(game_id, label=t("ui.open_panel", locale)))
    return view


def lobby_view(game_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in LOBBY_OPS:
        view.add_item(LobbyButton(game_id, op, label=t(f"lobby.button.{op}", locale)))
    return view


def cancel_vote_view(game_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CancelVoteButton(game_id, label=t("lobby.button.vote", locale)))
    return view


def reminder_view(game_id: int, locale: str) -> discord.ui.View:
    view = turn_message_view(game_id, locale)
    view.add_item(MuteButton(game_id, label=t("ui.mute", locale)))
    return view


def undo_button(game_id: int, version: int, locale: str) -> UndoButton:
    return UndoButton(game_id, version, t("history.button.undo", locale))


def undo_vote_view(request_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for accept in (True, False):
        view.add_item(UndoVoteButton(request_id, accept, t(
            "history.button.accept" if accept else "history.button.refuse", locale)))
    return view
