"""What each click on a restart-proof component does: one table from component to flow.

The components (:mod:`bot.adapter.components`) only say what a click means (a game, a
version, an action, a page); the flows build their views from those components. This router
sits above both, so neither imports the other: :mod:`bot.adapter.app` installs it as the
client's ``on_click``. Errors raised here reach the one error handler (the components'
``callback`` is wrapped by :func:`bot.adapter.error_handler.handled`).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.adapter import history_pages, lobby, panels, reminder_messages, undo_votes
from bot.adapter.components import (
    ActButton,
    ActSelect,
    CancelVoteButton,
    GamesPageButton,
    LobbyButton,
    LogPageButton,
    MuteButton,
    PanelButton,
    ReplayButton,
    ReplaySelect,
    SubsetSelect,
    UndoButton,
    UndoVoteButton,
    chosen_position,
)
from bot.adapter.replies import bot_of, reply, update, user_locale
from bot.core.i18n import t


async def route(item: Any, interaction: discord.Interaction[Any]) -> None:
    """Run the flow of a click on ``item`` (already guarded by its ``interaction_check``)."""
    match item:
        case PanelButton():
            await panels.open_panel(interaction, item.game_id)
        case ActButton():
            await panels.act_from_component(interaction, item.game_id, item.version,
                                            item.action)
        case ActSelect():
            action = item.chosen(interaction)
            if action is None:
                await reply(interaction, t("ui.nothing_chosen", user_locale(interaction)))
                return
            await panels.act_from_component(interaction, item.game_id, item.version, action)
        case SubsetSelect():
            action = item.chosen(interaction)  # checked against the subset it offers
            await panels.act_from_component(interaction, item.game_id, item.version, action)
        case MuteButton():
            await reminder_messages.mute(interaction, item.game_id)
        case LobbyButton():
            await lobby.lobby_click(interaction, item.game_id, item.op)
        case CancelVoteButton():
            await lobby.vote_cancel(interaction, item.game_id)
        case UndoButton():
            await undo_votes.undo(interaction, item.game_id, expected_version=item.version)
        case UndoVoteButton():
            await undo_votes.vote(interaction, item.request_id, item.accept)
        case LogPageButton():
            text, view = await history_pages.log_message(
                bot_of(interaction), item.game_id, item.page, user_locale(interaction),
                item.size)
            await update(interaction, text, view)
        case ReplayButton():
            await history_pages.show_position(interaction, item.game_id, item.position)
        case ReplaySelect():
            await history_pages.show_position(interaction, item.game_id,
                                              chosen_position(interaction))
        case GamesPageButton():
            text, view = await history_pages.games_message(
                bot_of(interaction), item.guild_id, item.page, user_locale(interaction))
            await update(interaction, text, view)
        case _:
            raise TypeError(f"no flow for the component {type(item).__name__}")
