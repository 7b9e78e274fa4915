"""A player's private panel and the moves taken from it, shared by every game.

Components and slash commands hand the click or command here; this calls the service and
presents its result: the panel (text, buttons and selects built from the engine's
``choices``, the game's :class:`~bot.adapter.presenter.Presenter` image), refreshed in place
after a move, and the turn messages the move owes, delivered through the outbox. Nothing
here knows a game's rules.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.adapter.client import LudoBot
from bot.adapter.components import undo_button
from bot.adapter.panel_layout import button_groups, panel_components
from bot.adapter.replies import (
    acknowledge,
    answering,
    bot_of,
    defer_private,
    reply,
    user_locale,
)
from bot.core import messages
from bot.core.errors import ServiceError, StaleVersion
from bot.core.i18n import t
from bot.core.models import ACTIVE, Panel
from bot.core.render import off_loop
from engines.base import Event, GameError
from renderers.common import encode_png

log = logging.getLogger(__name__)


# ---------------------------------------------------------------- panels

def panel_content(bot: LudoBot, panel: Panel, locale: str,
                  private: Sequence[Event] = ()) -> str:
    game = panel.game
    names = [s.name for s in game.seats]
    presenter = bot.presenter(game.game_key)
    parts = [t("ui.panel_title", locale, game=t(f"{game.game_key}.name", locale),
               name=names[panel.seat])]
    view = panel.view
    if game.status != ACTIVE:  # a finished or cancelled game awaits nobody: no step prompt
        view = {**view, "active": []}
    body = presenter.panel_text(view, panel.seat, locale)
    if body:
        parts.append(body)
    for event in private:
        parts.append(f"› {messages.event_text(event, messages.spec_of(game), names, locale)}")
    if game.status != ACTIVE:
        parts.append(t("ui.game_not_active", locale))
    elif panel.awaited:
        parts.append(t("ui.your_move", locale))
        parts.extend(_explained(panel, locale))
    else:
        awaited = [s for s in panel.view.get("active", [])]
        parts.append(t("ui.waiting_for", locale,
                       players=", ".join(names[s] for s in awaited) or "—"))
        parts.extend(_explained(panel, locale))  # what the game lets anyone do any time
    return messages.clip("\n".join(parts))


def _explained(panel: Panel, locale: str) -> list[str]:
    """One line on what each button does: buttons carry no description (selects do)."""
    spec, names = messages.spec_of(panel.game), [s.name for s in panel.game.seats]
    return [f"• **{messages.label(c.label, spec, names, locale)}** — "
            f"{messages.label(c.description, spec, names, locale)}"
            for group in button_groups(panel.choices) for c in group
            if c.description is not None]


async def send_panel(interaction: discord.Interaction[Any], game_id: int, *,
                     prefix: str = "", private: Sequence[Event] = (), edit: bool = False,
                     panel: Panel | None = None) -> None:
    """Show the user's private panel (ephemeral), editing the current one if asked.
    ``panel``: the one the service drew with the move just made (else it is read now)."""
    bot = bot_of(interaction)
    locale = user_locale(interaction)
    if panel is None:
        panel = await bot.service.panel(game_id, interaction.user.id)
    content = (prefix + "\n" if prefix else "") + panel_content(bot, panel, locale, private)
    view = panel_components(panel, locale) if panel.choices else discord.ui.View()
    row = max((getattr(item, "item", item).row or 0 for item in view.children),
              default=-1) + 1
    if panel.take_back and row < 5:  # a free take-back within the turn, on a free row
        button = undo_button(game_id, panel.game.version, locale)
        button.row = row
        view.add_item(button)
    image = await panel_file(bot, panel, locale)
    if edit:  # an image from the previous step is replaced, or removed when there is none
        await interaction.edit_original_response(content=messages.clip(content), view=view,
                                                 attachments=[image] if image else [])
    else:
        await reply(interaction, content, view=view, files=[image] if image else [])


async def panel_file(bot: LudoBot, panel: Panel, locale: str) -> discord.File | None:
    """The presenter's private image for this panel (a board labelled for the choice), drawn
    and encoded in a worker thread so the event loop keeps answering, and kept in the image
    cache: it depends only on (game, version, seat, locale)."""
    if panel.game.status != ACTIVE:
        return None
    presenter = bot.presenter(panel.game.game_key)

    def draw() -> bytes:
        image = presenter.panel_image(panel.view, panel.seat, locale)
        return b"" if image is None else encode_png(image)  # b"": this step has no image

    game = panel.game
    key = ("panel", game.id, game.version, panel.seat, locale, tuple(s.name for s in game.seats))
    data = await bot.service.images.get(key, lambda: off_loop(draw))
    if not data:
        return None
    return discord.File(io.BytesIO(data), filename=f"{panel.game.game_key}_panel.png")


async def open_panel(interaction: discord.Interaction[Any], game_id: int) -> None:
    """The clicker's private panel; acknowledged before anything is read or drawn."""
    await defer_private(interaction)
    async with answering():
        await send_panel(interaction, game_id)


# ---------------------------------------------------------------- moves

async def act_from_component(interaction: discord.Interaction[Any], game_id: int,
                             version: int, action: str) -> None:
    """A click in a private panel: defer, apply, then refresh that panel in place."""
    await acknowledge(interaction, "update")
    async with answering():
        await _act(interaction, game_id, action, expected_version=version, edit=True)


async def act_from_command(interaction: discord.Interaction[Any], action: str) -> None:
    """A slash command move: the game is the one in this channel."""
    bot = bot_of(interaction)
    await defer_private(interaction)
    async with answering():
        game = await bot.service.in_channel(interaction.channel_id or 0)
        if game is None:
            await reply(interaction, t("service.no_game_here", user_locale(interaction)))
            return
        await _act(interaction, game.id, action, expected_version=None, edit=False)


async def _act(interaction: discord.Interaction[Any], game_id: int, action: str, *,
               expected_version: int | None, edit: bool) -> None:
    bot = bot_of(interaction)
    locale = user_locale(interaction)
    try:
        result = await bot.service.act(game_id, interaction.user.id, action,
                                       expected_version=expected_version)
    except StaleVersion as err:
        log.info("stale panel for game %s by %s", game_id, interaction.user.id)
        await reply(interaction, t(err.key, locale, **err.params))
        await send_panel(interaction, game_id)
        return
    except GameError as err:  # a refusal that names a seat names it as the panel does
        with contextlib.suppress(ServiceError):
            game = await bot.service.get(game_id)
            err.params = messages.named(err.params, messages.spec_of(game),
                                        [s.name for s in game.seats])
        raise  # answered by the one error handler
    seat = result.game.seat_of(interaction.user.id)
    private = result.private_events.get(seat.seat, []) if seat else []
    try:
        await send_panel(interaction, game_id, private=private, edit=edit, panel=result.panel)
    except discord.HTTPException as err:  # the panel message may be gone; the move is saved
        log.warning("could not refresh panel for game %s: %s", game_id, err)
    await bot.publish(result)
    bot.schedule_ai(game_id)
