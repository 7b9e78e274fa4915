"""Discord side of undo, logs and replays: restart-proof components and the flows they run.

Like :mod:`bot.adapter.components`, every component is a ``DynamicItem`` whose custom_id
carries what it needs (game id and version, vote id, page or position), so it works after a
restart; the handlers call :mod:`bot.core.undo` / :mod:`bot.core.history` and present the result.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter import panels
from bot.adapter.components import turn_message_view
from bot.adapter.error_handler import handled
from bot.adapter.guard import Guarded, digits
from bot.core import messages
from bot.core.errors import ServiceError, StaleVersion
from bot.core.history import History, animation
from bot.core.i18n import t
from bot.core.models import FINISHED, GameInfo
from bot.core.storage.base import LogRow
from bot.core.undo import Undo, UndoResult

if TYPE_CHECKING:
    from bot.adapter.app import LudoBot

log = logging.getLogger(__name__)

NAV = ("first", "back", "next", "last")
LOG_PAGE = 12


def history_of(bot: LudoBot) -> History:
    return History(bot.service)


def undo_of(bot: LudoBot) -> Undo:
    return Undo(bot.service)


def _target(op: str, current: int, last: int) -> int:
    return {"first": 0, "back": max(0, current - 1), "next": min(last, current + 1),
            "last": last}[op]


def _nav_buttons(view: discord.ui.View, make: Any, current: int, last: int,
                 locale: str) -> None:
    for op in NAV:
        target = _target(op, current, last)
        button = make(target, op, t(f"history.button.{op}", locale))
        button.item.disabled = target == current
        view.add_item(button)


# ------------------------------------------------------------------ undo

async def undo(interaction: discord.Interaction[Any], game_id: int, *,
               expected_version: int | None = None) -> None:
    """``expected_version``: the version the Undo button was drawn at (None: the command)."""
    bot = panels.bot_of(interaction)
    try:
        result = await undo_of(bot).request(game_id, interaction.user.id,
                                            expected_version=expected_version)
    except StaleVersion as err:
        await panels.reply(interaction, err.text(panels.user_locale(interaction)))
        await panels.send_panel(interaction, game_id)
        return
    await announce_undo(interaction, bot, result)


async def _board_file(bot: LudoBot, game: GameInfo, locale: str) -> list[discord.File]:
    """The public board after an undo, in the channel's language (the turn message's rule);
    a drawing bug must not hold back the announcement."""
    try:
        image = await bot.service.board(game.id, locale=locale)
    except Exception:
        log.exception("game %d: drawing the board after an undo failed", game.id)
        return []
    return [discord.File(io.BytesIO(image), filename=f"{game.game_key}.png")]


async def announce_undo(interaction: discord.Interaction[Any], bot: LudoBot,
                        result: UndoResult) -> None:
    game = result.game
    locale = await panels.public_locale(bot, game.guild_id)
    player = result.requester.mention()
    if result.refused:
        await panels.reply(interaction, t(f"history.undo_{result.refused}", locale, player=player),
                         ephemeral=False)
        return
    if result.applied:
        key = "history.undo_done_vote" if result.reason == "vote" else "history.undo_done"
        lines = [t(key, locale, player=player, n=len(result.taken_back))]
        if result.awaited:
            lines.append(t("ui.next", locale, players=messages.mentions(
                game, [s.seat for s in result.awaited])))
        files = await _board_file(bot, game, locale)
        await panels.reply(interaction, lines[0])
        await panels.send_to_channel(bot, game, "\n".join(lines), files=files,
                                   view=turn_message_view(game.id, locale),
                                   ping=[s.user_id for s in result.awaited if s.user_id])
        bot.schedule_ai(game.id)
        return
    request = result.request
    assert request is not None
    if request.votes:
        yes = sum(1 for v in request.votes.values() if v)
        await panels.reply(interaction, t("history.undo_progress", locale, yes=yes,
                                        needed=len(request.voters)))
        return
    text = t("history.undo_ask", locale, player=player, n=len(result.taken_back),
             reason=t(f"history.undo_reason.{result.reason}", locale),
             voters=" ".join(f"<@{u}>" for u in request.voters),
             deadline=discord.utils.format_dt(
                 datetime.fromtimestamp(request.expires_at, tz=UTC), "R"))
    view = discord.ui.View(timeout=None)
    for accept in (True, False):
        view.add_item(UndoVoteButton(request.id, accept, t(
            "history.button.accept" if accept else "history.button.refuse", locale)))
    await panels.reply(interaction, text, view=view, ephemeral=False)


async def vote(interaction: discord.Interaction[Any], request_id: int, accept: bool) -> None:
    bot = panels.bot_of(interaction)
    await interaction.response.defer()
    result = await undo_of(bot).vote(request_id, interaction.user.id, accept)
    if result.applied or result.refused:
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(view=None)
    await announce_undo(interaction, bot, result)


class UndoButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"ludo:undo:(?P<game>[0-9]+):(?P<ver>[0-9]+)"):
    """On a private panel: take back my last move (or ask the others), as of the version it
    was drawn at: a second click, or a click after any later move, is out of date."""

    seated = True

    def __init__(self, game_id: int, version: int, label: str = "Undo") -> None:
        self.game_id, self.version = game_id, version
        super().__init__(discord.ui.Button(label=label, emoji="↩️",
                                           custom_id=f"ludo:undo:{game_id}:{version}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: re.Match[str], /
                             ) -> UndoButton:
        return cls(int(match["game"]), int(match["ver"]))

    def ids(self) -> tuple[int, ...]:
        return self.game_id, self.version

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await undo(interaction, self.game_id, expected_version=self.version)


class UndoVoteButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"ludo:uvote:(?P<req>[0-9]+):(?P<yes>[01])"):
    def __init__(self, request_id: int, accept: bool, label: str = "") -> None:
        self.request_id, self.accept = request_id, accept
        style = discord.ButtonStyle.success if accept else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(
            label=label or ("Agree" if accept else "Refuse"), style=style,
            custom_id=f"ludo:uvote:{request_id}:{int(accept)}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: re.Match[str], /
                             ) -> UndoVoteButton:
        return cls(int(match["req"]), match["yes"] == "1")

    def ids(self) -> tuple[int, ...]:
        return (self.request_id,)

    async def game(self, bot: LudoBot) -> GameInfo | None:
        request = await bot.service.repo.undo_request(self.request_id)
        if request is None:
            raise ServiceError(key="history.undo_closed")
        return await bot.service.get(request.game_id)

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await vote(interaction, self.request_id, self.accept)


def undo_button(game_id: int, version: int, locale: str) -> UndoButton:
    return UndoButton(game_id, version, t("history.button.undo", locale))


# ------------------------------------------------------------------ the log

def _row_text(row: LogRow, game: GameInfo, locale: str) -> str:
    names = [s.name for s in game.seats]
    who = names[row.seat] if 0 <= row.seat < len(names) else "?"
    if row.is_undo:
        return f"`#{row.seq}` " + t("history.log_undo", locale, player=who, to=row.rewind_to)
    spec = messages.spec_of(game)
    text = messages.account(row.public, spec, names, locale).replace("\n", " · ")
    if not text:  # the raw action only when it hid nothing: a hidden pick stays hidden
        text = t("history.log_hidden", locale) if row.private else row.action
    line = f"`#{row.seq}` {who}: {text}"
    return f"~~{line}~~ {t('history.log_undone', locale)}" if row.undone else line


async def log_message(bot: LudoBot, game_id: int, page: int | None, locale: str,
                      size: int = LOG_PAGE) -> tuple[str, discord.ui.View]:
    found = await history_of(bot).log_page(game_id, page, size)
    game = found.game
    lines = [t("history.log_title", locale, game=t(f"{game.game_key}.name", locale),
               id=game.id, page=found.page + 1, pages=found.pages)]
    lines += [_row_text(r, game, locale) for r in found.rows] or [t("history.log_empty", locale)]
    view = discord.ui.View(timeout=None)
    _nav_buttons(view, lambda p, op, label: LogPageButton(game.id, p, size, op, label),
                 found.page, found.pages - 1, locale)
    return messages.clip("\n".join(lines)), view


async def send_log(interaction: discord.Interaction[Any], game_id: int,
                   size: int = LOG_PAGE) -> None:
    bot = panels.bot_of(interaction)
    locale = panels.user_locale(interaction)
    text, view = await log_message(bot, game_id, None, locale, size)
    await panels.reply(interaction, text, view=view)


class LogPageButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"ludo:logp:(?P<game>[0-9]+):(?P<page>[0-9]+):(?P<size>[0-9]+):"
                             r"(?P<op>first|back|next|last)"):
    def __init__(self, game_id: int, page: int, size: int, op: str, label: str = "") -> None:
        self.game_id, self.page, self.size = game_id, page, max(1, min(50, size))
        super().__init__(discord.ui.Button(
            label=label or op, custom_id=f"ludo:logp:{game_id}:{page}:{self.size}:{op}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: re.Match[str], /
                             ) -> LogPageButton:
        return cls(int(match["game"]), int(match["page"]), int(match["size"]), match["op"])

    def ids(self) -> tuple[int, ...]:
        return self.game_id, self.page, self.size

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = panels.bot_of(interaction)
        text, view = await log_message(bot, self.game_id, self.page,
                                       panels.user_locale(interaction), self.size)
        await interaction.response.edit_message(content=text, view=view)


# ------------------------------------------------------------------ replay

async def replay_message(bot: LudoBot, game_id: int, position: int | None,
                         locale: str) -> tuple[str, discord.ui.View, list[discord.File]]:
    frame = await history_of(bot).frame(game_id, position, locale)
    game = frame.game
    lines = [t("history.replay_title", locale, game=t(f"{game.game_key}.name", locale),
               id=game.id, position=frame.position, total=frame.total)]
    lines.append(_row_text(frame.move, game, locale) if frame.move
                 else t("history.replay_start", locale))
    view = discord.ui.View(timeout=None)
    _nav_buttons(view, lambda p, op, label: ReplayButton(game.id, p, op, label),
                 frame.position, frame.total, locale)
    marks = sorted({0, frame.total, frame.position,
                    *range(0, frame.total + 1, max(1, frame.total // 22))})
    while len(marks) > 25:
        marks.remove(min((m for m in marks if m not in (0, frame.total, frame.position)),
                         key=lambda m: abs(m - frame.position), default=marks[1]))
    options = [discord.SelectOption(label=f"{m}/{frame.total}", value=str(m),
                                    default=m == frame.position) for m in marks]
    select = ReplaySelect(game.id, options, t("history.replay_choose", locale))
    select.item.row = 1
    view.add_item(select)
    files = ([discord.File(io.BytesIO(frame.image), filename=f"{game.game_key}.png")]
             if frame.image else [])
    return messages.clip("\n".join(lines)), view, files


async def send_replay(interaction: discord.Interaction[Any], game_id: int, *,
                      public: bool) -> None:
    """The step-through view, then (finished games) the animated whole game."""
    bot = panels.bot_of(interaction)
    locale = panels.user_locale(interaction)
    await interaction.response.defer(ephemeral=not public, thinking=True)
    text, view, files = await replay_message(bot, game_id, 0, locale)
    await interaction.followup.send(text, view=view, files=files, ephemeral=not public)
    game = await bot.service.get(game_id)
    if game.status == FINISHED:
        made = await animation(history_of(bot), game_id, locale)
        await interaction.followup.send(
            t("history.animation_caption", locale, frames=made.frames),
            file=discord.File(io.BytesIO(made.data), filename=f"{game.game_key}.gif"),
            ephemeral=not public)


async def _show_position(interaction: discord.Interaction[Any], game_id: int,
                         position: int) -> None:
    bot = panels.bot_of(interaction)
    await interaction.response.defer()
    text, view, files = await replay_message(bot, game_id, position,
                                             panels.user_locale(interaction))
    await interaction.edit_original_response(content=text, view=view, attachments=files)


class ReplayButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"ludo:rp:(?P<game>[0-9]+):(?P<pos>[0-9]+):(?P<op>first|back|next|last)"):
    def __init__(self, game_id: int, position: int, op: str, label: str = "") -> None:
        self.game_id, self.position = game_id, position
        super().__init__(discord.ui.Button(label=label or op,
                                           custom_id=f"ludo:rp:{game_id}:{position}:{op}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: re.Match[str], /
                             ) -> ReplayButton:
        return cls(int(match["game"]), int(match["pos"]), match["op"])

    def ids(self) -> tuple[int, ...]:
        return self.game_id, self.position

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _show_position(interaction, self.game_id, self.position)


def _chosen(interaction: discord.Interaction[Any]) -> int:
    """The position picked in a replay select (ASCII digits within 64 bits, else BadId)."""
    values = (interaction.data or {}).get("values") or ["0"]  # type: ignore[call-overload]
    return digits(str(values[0]))


class ReplaySelect(Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"ludo:rsel:(?P<game>[0-9]+)"):
    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Select(
            custom_id=f"ludo:rsel:{game_id}", placeholder=placeholder,
            options=options or [discord.SelectOption(label="0", value="0")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Select[Any], match: re.Match[str], /
                             ) -> ReplaySelect:
        return cls(int(match["game"]), item.options)

    async def allowed(self, interaction: discord.Interaction[Any]) -> None:
        await super().allowed(interaction)
        _chosen(interaction)  # the chosen position is a number from the client too

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _show_position(interaction, self.game_id, _chosen(interaction))


# ------------------------------------------------------------------ finished games

async def games_message(bot: LudoBot, guild_id: int, page: int,
                        locale: str) -> tuple[str, discord.ui.View]:
    history = history_of(bot)
    found = await history.ended_games(guild_id, page)
    lines = [t("history.games_title", locale, page=found.page + 1, pages=found.pages)]
    for game in found.games:
        names = [s.name for s in game.seats]
        result = await history.result(game)
        status = (t("history.status.finished", locale, winners=", ".join(
            names[s] for s in result.winners)) if result is not None
            else t("history.status.cancelled", locale))
        if game.imported:  # re-created from a file: it counts nowhere
            status += f" ({t('history.status.imported', locale)})"
        lines.append(t("history.games_line", locale, id=game.id,
                       game=t(f"{game.game_key}.name", locale), players=", ".join(names),
                       status=status))
    if not found.games:
        lines.append(t("history.games_empty", locale))
    view = discord.ui.View(timeout=None)
    _nav_buttons(view, lambda p, op, label: GamesPageButton(guild_id, p, op, label),
                 found.page, found.pages - 1, locale)
    return messages.clip("\n".join(lines)), view


class GamesPageButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"ludo:hist:(?P<guild>[0-9]+):(?P<page>[0-9]+):(?P<op>first|back|next|last)"):
    def __init__(self, guild_id: int, page: int, op: str, label: str = "") -> None:
        self.guild_id, self.page = guild_id, page
        super().__init__(discord.ui.Button(label=label or op,
                                           custom_id=f"ludo:hist:{guild_id}:{page}:{op}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Button[Any], match: re.Match[str], /
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

    @handled
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        text, view = await games_message(panels.bot_of(interaction), self.guild_id, self.page,
                                         panels.user_locale(interaction))
        await interaction.response.edit_message(content=text, view=view)


HISTORY_ITEMS = (UndoButton, UndoVoteButton, LogPageButton, ReplayButton, ReplaySelect,
                 GamesPageButton)
