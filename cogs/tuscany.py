"""The Castles of Tuscany in Discord: its slash commands and how its private panel reads.

The rules live in ``engines/tuscany``; the images in ``renderers/tuscany``. This cog names
the decisions for slash commands (one verb per kind of decision, every engine action kind
covered), words the private panel (cards by colour, storage, pieces, what the step asks) and
attaches the player's labelled region when the step asks for a space: the space ids the
commands take are printed on it.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.adapter import replies
from bot.adapter.client import LudoBot
from bot.adapter.game_commands import GameCog, Verb, command_text
from bot.adapter.presenter import PanelImage
from bot.adapter.translator import L
from bot.core.errors import NoGameHere, ServiceError
from bot.core.i18n import t, translator
from bot.core.render import off_loop
from engines.tuscany.rules import payment
from renderers.common import encode_png
from renderers.tuscany import render_region

KEY = "tuscany"
COLOURS = ("c", "r", "i", "f", "q", "v", "m", "t")
SETUP_PHASES = ("arrange", "castle", "improve")
ASKS = frozenset({"setup_arrange", "setup_castle", "setup_improve", "main", "take", "replace",
                  "place", "space", "pay", "castle", "improve", "extra", "play", "over"})

VERBS = (
    Verb("move"),
    Verb("region", ("arrange", "confirm")),
    Verb("castle", ("castle",)),
    Verb("improve", ("improve",)),
    Verb("action", ("draw", "take", "place")),
    Verb("take", ("pick", "swap", "discard", "skip")),
    Verb("place", ("tile", "space")),
    Verb("pay", ("pay",)),
    Verb("end", ("marble", "end")),
)


def step_of(view: dict[str, Any]) -> str:
    """What the acting seat is deciding: a setup phase or the pending frame of a turn."""
    phase = str(view["phase"])
    if phase in SETUP_PHASES:
        return f"setup_{phase}"
    pending = view.get("pending")
    step = str(pending["kind"]) if phase == "play" and pending else phase
    return step if step in ASKS else phase


def asks_for_space(view: dict[str, Any], seat: int) -> bool:
    """The seat must choose a space (or arrange its region): its region image helps."""
    if seat not in view.get("active", []):
        return False
    return step_of(view) in ("setup_arrange", "setup_castle", "space")


def tile_name(tile: dict[str, Any] | None, locale: str) -> str:
    if tile is None:
        return t("tuscany.tile.none", locale)
    return t(f"tuscany.tile.{tile['kind']}", locale)


def _hand(me: dict[str, Any], locale: str) -> str:
    hand: dict[str, int] = me.get("hand") or {}
    cards = ", ".join(f"{hand[c]} × {t(f'tuscany.colour.{c}', locale)}"
                      for c in COLOURS if hand.get(c))
    return t("tuscany.panel.hand", locale, count=me["hand_count"], cards=cards or "—")


def _storage(me: dict[str, Any], locale: str) -> str:
    fresh = set(me.get("fresh_jokers", []))
    slots = []
    for i, tile in enumerate(me["storage"]):
        name = tile_name(tile, locale) if tile else t("tuscany.panel.empty_slot", locale)
        if i in fresh:
            name += " " + t("tuscany.panel.fresh", locale)
        slots.append(f"{i + 1}. {name}")
    return t("tuscany.panel.storage", locale, slots=" · ".join(slots) or "—")


def _arrangement(me: dict[str, Any], locale: str) -> str:
    """The arrangement in the terms of the choices (and of ``/tuscany region`` typed)."""
    a = me["arrangement"]
    return t("tuscany.panel.arrangement", locale, arrangement=t(
        "tuscany.choice.arrange", locale, order=a["order"].upper(), turns=a["turns"],
        shifts=a["shifts"]))


def _pending(view: dict[str, Any], locale: str) -> list[str]:
    pending = view.get("pending")
    if not pending or pending.get("tile") is None:
        return []
    lines = [t("tuscany.panel.placing", locale, tile=tile_name(pending["tile"], locale))]
    units: list[str] = list(pending.get("units") or [])
    if units:
        lines.append(t("tuscany.panel.paid", locale, units=payment(units)))
    return lines


def _ask(view: dict[str, Any], locale: str) -> list[str]:
    """What the step asks; when no stored tile can be placed, the action menu says so and
    why (the engine names the reason in the seat's own view), and likewise when there is no
    card left to draw (the view's ``no_draw``)."""
    step = step_of(view)
    if step != "main":
        return [t(f"tuscany.panel.ask.{step}", locale)]
    cannot_place = view.get("cannot_place")
    keys = {(False, False): "main", (False, True): "main_no_place",
            (True, False): "main_no_draw", (True, True): "main_take_only"}
    key = keys[bool(view.get("no_draw")), bool(cannot_place)]
    lines = [t(f"tuscany.panel.ask.{key}", locale)]
    if cannot_place:
        lines.append(t("tuscany.panel.no_place", locale, reason=t(cannot_place, locale)))
    return lines


class TuscanyPresenter:
    key = KEY

    def panel_text(self, view: dict[str, Any], seat: int, locale: str) -> str:
        me = view["players"][seat]
        jokers = sum(1 for tile in me["storage"] if tile and tile["kind"] == "j")
        lines = [
            _hand(me, locale),
            _storage(me, locale),
            t("tuscany.panel.pieces", locale, workers=me["workers"], marbles=me["marbles"],
              jokers=jokers, red=me["red"], green=me["green"]),
            *_pending(view, locale),
        ]
        if view["phase"] == "arrange":
            lines.append(_arrangement(me, locale))
        if seat in view.get("active", []):
            lines.extend(_ask(view, locale))
            if view["phase"] == "play" and view.get("marble_used"):
                lines.append(t("tuscany.panel.marble_used", locale))
        return "\n".join(lines)

    def status_text(self, view: dict[str, Any], names: list[str], locale: str) -> str:
        current = view.get("current")
        who = names[current] if isinstance(current, int) else ", ".join(
            names[s] for s in view.get("active", []))
        return t("tuscany.status", locale, round=view["round"],
                 phase=t(f"tuscany.phase.{view['phase']}", locale), who=who or "—")

    def panel_image(self, view: dict[str, Any], seat: int, locale: str) -> PanelImage | None:
        """The seat's region with every empty space labelled, when the step asks for one
        (and while arranging: a live preview of the arrangement)."""
        if not asks_for_space(view, seat):
            return None
        names = [t("tuscany.panel.region_title", locale)] * len(view["players"])
        return render_region(view, seat, names=names, words=translator(locale),
                             labels=view["phase"] != "arrange")


PRESENTER = TuscanyPresenter()  # read by the bot when it loads this extension


class Tuscany(GameCog):
    def __init__(self, bot: LudoBot) -> None:
        super().__init__(bot, KEY, VERBS)
        self.group.add_command(app_commands.Command(
            name=L("look", "tuscany.cmd.look"),
            description=command_text("tuscany.cmd.look.desc"),
            callback=self.look))

    @app_commands.describe(player=command_text("tuscany.cmd.look.player"))
    async def look(self, interaction: discord.Interaction[Any],
                   player: app_commands.Range[int, 1, 4] | None = None) -> None:
        """Any player's region, larger, from the public view (no card is ever drawn)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = replies.user_locale(interaction)
        game = await self.bot.service.in_channel(interaction.channel_id or 0)
        if game is None or game.game_key != KEY:
            raise NoGameHere()
        own = game.seat_of(interaction.user.id)
        seat = player - 1 if player is not None else (own.seat if own else 0)
        if not 0 <= seat < len(game.seats):
            raise ServiceError(key="service.not_seated")
        game, view = await self.bot.service.spectator(game.id)
        names = [s.name for s in game.seats]
        # Drawn once per (game, version, region, locale, names) however many look at it.
        key = ("look", game.id, game.version, seat, locale, tuple(names))
        png = await self.bot.service.images.get(key, lambda: off_loop(
            lambda: encode_png(render_region(view, seat, names=names, words=translator(locale)))))
        await interaction.followup.send(
            t("tuscany.panel.region_of", locale, name=names[seat]),
            file=discord.File(io.BytesIO(png), filename="region.png"), ephemeral=True)


async def setup(bot: LudoBot) -> None:
    await bot.add_cog(Tuscany(bot))
