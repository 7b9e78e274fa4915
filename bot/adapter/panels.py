"""The interaction flows shared by every game: panels, moves, turn messages, AI turns.

Cogs and components parse what the user did and call these; these call the service and
present its result. Nothing here knows a game's rules: panels come from the engine's
``choices`` and the game's :class:`~bot.adapter.presenter.Presenter`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.components import (
    CancelVoteButton,
    MuteButton,
    button_groups,
    lobby_view,
    panel_components,
    turn_message_view,
)
from bot.core import messages
from bot.core.deadlines import stamp
from bot.core.errors import ServiceError, StaleVersion
from bot.core.i18n import normalise, t
from bot.core.models import ACTIVE, GameInfo, MoveResult, Panel
from bot.core.render import off_loop
from engines.base import Event, GameError
from renderers.common import encode_png

if TYPE_CHECKING:
    from bot.adapter.app import LudoBot

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


async def reply(interaction: discord.Interaction[Any], content: str, *,
                view: discord.ui.View | None = None, ephemeral: bool = True,
                files: Sequence[discord.File] = ()) -> None:
    """Answer whether or not the interaction was already acknowledged."""
    kwargs: dict[str, Any] = {"content": messages.clip(content), "ephemeral": ephemeral}
    if view is not None:
        kwargs["view"] = view
    if files:
        kwargs["files"] = list(files)
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def defer_public(interaction: discord.Interaction[Any]) -> None:
    """Defer a command whose success is public; a refusal will still be private
    (:mod:`bot.adapter.error_handler` removes the public "thinking…" first)."""
    await interaction.response.defer(thinking=True)


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
    return messages.clip("\n".join(parts))


def _explained(panel: Panel, locale: str) -> list[str]:
    """One line on what each button does: buttons carry no description (selects do)."""
    spec, names = messages.spec_of(panel.game), [s.name for s in panel.game.seats]
    return [f"• **{messages.label(c.label, spec, names, locale)}** — "
            f"{messages.label(c.description, spec, names, locale)}"
            for group in button_groups(panel.choices) for c in group
            if c.description is not None]


async def send_panel(interaction: discord.Interaction[Any], game_id: int, *,
                     prefix: str = "", private: Sequence[Event] = (),
                     edit: bool = False) -> None:
    """Show the user's fresh private panel (ephemeral), editing the current one if asked."""
    bot = bot_of(interaction)
    locale = user_locale(interaction)
    panel = await bot.service.panel(game_id, interaction.user.id)
    content = (prefix + "\n" if prefix else "") + panel_content(bot, panel, locale, private)
    view = panel_components(panel, locale) if panel.awaited else discord.ui.View()
    if panel.awaited:  # a free take-back within the turn (bot/core/undo.py) on a free row
        from bot.adapter.history_pages import undo_button
        from bot.core.undo import plan_undo

        row = max((getattr(item, "item", item).row or 0 for item in view.children),
                  default=-1) + 1
        plan = plan_undo(await bot.service.repo.undo_tail(game_id, panel.seat), panel.seat)
        if row < 5 and plan is not None and not plan.needs_consent:
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


async def defer_private(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge at once with a private "thinking…": the answer may wait on the database
    and an image under load, and Discord drops an interaction not acknowledged within 3 s."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def open_panel(interaction: discord.Interaction[Any], game_id: int) -> None:
    """The clicker's private panel; acknowledged before anything is read or drawn."""
    await defer_private(interaction)
    async with answering():
        await send_panel(interaction, game_id)


# ---------------------------------------------------------------- moves

async def act_from_component(interaction: discord.Interaction[Any], game_id: int,
                             version: int, action: str) -> None:
    """A click in a private panel: defer, apply, then refresh that panel in place."""
    await interaction.response.defer()
    async with answering():
        await _act(interaction, game_id, action, expected_version=version, edit=True)


async def act_from_command(interaction: discord.Interaction[Any], action: str) -> None:
    """A slash command move: the game is the one in this channel."""
    bot = bot_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
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
        await send_panel(interaction, game_id, private=private, edit=edit)
    except discord.HTTPException as err:  # the panel message may be gone; the move is saved
        log.warning("could not refresh panel for game %s: %s", game_id, err)
    await publish(bot, result)
    bot.schedule_ai(game_id)


async def publish(bot: LudoBot, result: MoveResult) -> None:
    """Post what the move owes the channel (turn message, standings): the move wrote it to
    the outbox in its own transaction; here it is delivered (:mod:`bot.adapter.outbox_delivery`)."""
    if result.turn_completed or result.result is not None:
        await bot.outbox.flush()


def deadline_line(result: MoveResult, locale: str) -> list[str]:
    """The move deadline under the turn ping, as a Discord timestamp ("in 2 days")."""
    if not result.deadlines:
        return []
    return [t("deadline.turn_due", locale, deadline=stamp(min(result.deadlines.values())))]


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


async def run_ai(bot: LudoBot, game_id: int) -> None:
    """Play every AI move now awaited, posting each completed turn."""
    async for result in bot.service.ai_moves(game_id):
        await publish(bot, result)


# ---------------------------------------------------------------- lobby

async def lobby_text(bot: LudoBot, game: GameInfo, locale: str) -> str:
    engine_name = t(f"{game.game_key}.name", locale)
    seats = "\n".join(
        f"{s.seat + 1}. {s.mention()}"
        + (" " + t("ai.seat", locale, level=t(f"ai.level.{s.level}", locale)) if s.is_ai else "")
        for s in game.seats) or "—"
    text = t("lobby.text", locale, game=engine_name, seats=seats, taken=len(game.seats),
             max=game.max_seats, creator=f"<@{game.creator_id}>")
    if game.options:  # the table's variant, as /game new options: takes it
        chosen = " ".join(f"`{k}={str(v).lower() if isinstance(v, bool) else v}`"
                          for k, v in sorted(game.options.items()))
        text += "\n" + t("lobby.options", locale, options=chosen)
    return text


async def lobby_click(interaction: discord.Interaction[Any], game_id: int, op: str) -> None:
    bot = bot_of(interaction)
    user = interaction.user
    await interaction.response.defer()  # acknowledged before the database (and the board)
    if op == "start":
        result = await bot.service.start(game_id, user.id)
        await interaction.edit_original_response(
            content=await lobby_text(bot, result.game, user_locale(interaction)),
            view=None)
        await after_start(bot, result)
        return
    game = await seat_change(bot, game_id, user, op)
    locale = await public_locale(bot, game.guild_id)
    await interaction.edit_original_response(content=await lobby_text(bot, game, locale),
                                             view=lobby_view(game.id, locale))


async def seat_change(bot: LudoBot, game_id: int, user: discord.abc.User, op: str,
                      level: str | None = None) -> GameInfo:
    """Join, leave or add an AI seat (the lobby's button and slash command share it)."""
    if op == "join":
        return await bot.service.join(game_id, user.id, user.display_name)
    if op == "leave":
        return await bot.service.leave(game_id, user.id)
    return await bot.service.add_ai(game_id, user.id, level)


async def refresh_lobby(bot: LudoBot, game: GameInfo) -> bool:
    """Redraw the lobby message in place after a change made by slash command."""
    if game.lobby_message_id is None:
        return False
    locale = await public_locale(bot, game.guild_id)
    try:
        channel = bot.get_channel(game.channel_id) or await bot.fetch_channel(game.channel_id)
        message = channel.get_partial_message(game.lobby_message_id)  # type: ignore[union-attr]
        await message.edit(content=await lobby_text(bot, game, locale),
                           view=lobby_view(game.id, locale))
        return True
    except (discord.HTTPException, AttributeError) as err:
        log.info("lobby message of game %s not updated: %s", game.id, err)
        return False


async def after_start(bot: LudoBot, result: MoveResult) -> None:
    """Post the start message (written to the outbox with the start), then let the AI
    seats play."""
    await bot.outbox.flush()
    bot.schedule_ai(result.game.id)


async def vote_cancel(interaction: discord.Interaction[Any], game_id: int) -> None:
    bot = bot_of(interaction)
    game, votes, cancelled = await bot.service.vote_cancel(game_id, interaction.user.id)
    locale = await public_locale(bot, game.guild_id)
    if cancelled:
        await reply(interaction, t("lobby.cancelled_by_vote", locale), ephemeral=False)
    else:
        await reply(interaction, t("lobby.vote_recorded", locale, votes=len(votes),
                                   needed=len(game.humans)),
                    view=cancel_vote_view(game.id, locale), ephemeral=False)


def cancel_vote_view(game_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CancelVoteButton(game_id, label=t("lobby.button.vote", locale)))
    return view


async def mute(interaction: discord.Interaction[Any], game_id: int) -> None:
    bot = bot_of(interaction)
    muted = await bot.scheduler.mute(game_id, interaction.user.id)
    await reply(interaction, t("ui.muted" if muted else "ui.mute_not_awaited",
                               user_locale(interaction)))


def reminder_view(game_id: int, locale: str) -> discord.ui.View:
    view = turn_message_view(game_id, locale)
    view.add_item(MuteButton(game_id, label=t("ui.mute", locale)))
    return view

