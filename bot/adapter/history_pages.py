"""A game's past on Discord: the log a page at a time, the step-through replay with its
animation, and the list of a server's ended games (the history itself: :mod:`bot.core.history`).

Their buttons and selects are in :mod:`bot.adapter.components`; a click on one comes back
here through :mod:`bot.adapter.clicks` and redraws the page in place.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.adapter.client import LudoBot
from bot.adapter.components import GamesPageButton, LogPageButton, ReplayButton, ReplaySelect
from bot.adapter.replies import acknowledge, bot_of, reply, user_locale
from bot.core import messages
from bot.core.history import History, animation
from bot.core.i18n import t
from bot.core.models import FINISHED, GameInfo
from bot.core.storage.base import LogRow

log = logging.getLogger(__name__)

NAV = ("first", "back", "next", "last")
LOG_PAGE = 12


def history_of(bot: LudoBot) -> History:
    return History(bot.service)


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
    bot = bot_of(interaction)
    locale = user_locale(interaction)
    text, view = await log_message(bot, game_id, None, locale, size)
    await reply(interaction, text, view=view)


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
    bot = bot_of(interaction)
    locale = user_locale(interaction)
    if not interaction.response.is_done():  # the command may have deferred already
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


async def show_position(interaction: discord.Interaction[Any], game_id: int,
                         position: int) -> None:
    bot = bot_of(interaction)
    await acknowledge(interaction, "update")
    text, view, files = await replay_message(bot, game_id, position,
                                             user_locale(interaction))
    await interaction.edit_original_response(content=text, view=view, attachments=files)


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
