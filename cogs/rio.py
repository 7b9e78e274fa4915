"""Río de la Plata in Discord: its slash commands and how its private panel and status read.

The rules live in ``engines/rio``; the board and the quarter close-up in ``renderers/rio``.
The engine splits large decisions into menu steps (quarter → cell → side, side → edge); the
commands below name those steps by verb, so each autocomplete lists only the current step's
choices. Three commands are more than one step: ``keep`` (one subset of groups), ``offer``
(a whole trade draft sent at once) and ``answer`` (opens the trade menu when needed).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.adapter import panels, replies
from bot.adapter.client import LudoBot
from bot.adapter.game_commands import GameCog, Verb, command_text
from bot.adapter.presenter import PanelImage
from bot.adapter.translator import L
from bot.core.errors import NoGameHere, ServiceError
from bot.core.i18n import t, translator
from engines.base import Action, GameError, MultiChoice
from renderers.rio import render_quarter

KEY = "rio"
GOODS = ("silver", "wood", "stone", "precious")
TRADE_KINDS = ("trade", "tnew", "tgive", "twant", "tamount", "tto", "tsend", "tcancel",
               "taccept", "tdecline", "twithdraw", "trust", "untrust")

VERBS = (  # names and descriptions in the catalogues: rio.cmd.<verb>, rio.cmd.<verb>.desc
    Verb("move"),
    Verb("place", ("city", "ladder", "prod", "agri", "crafts", "quay", "order", "chars", "ship",
                   "put", "evict", "act", "upgrade", "space", "count", "claim")),
    Verb("pick", ("quarter", "cell", "side", "edge", "site", "back")),
    Verb("resolve", ("prod", "take", "build", "convert", "load", "income", "free_road",
                     "free_wall", "claim", "auto")),
    Verb("stage", ("side", "edge", "stack", "unstage", "staged", "auto", "back")),
    Verb("cannon", ("fire", "hold", "kill", "side", "auto", "back")),
    Verb("recruit", ("recruit", "buy", "quarter", "cell", "auto", "done", "back")),
    Verb("group", ("stacks", "size", "group", "outside", "enter", "step", "merge", "bonus",
                   "stop", "end", "hold", "unhold", "side", "quarter", "cell", "back", "auto")),
    Verb("merge", ("accept", "refuse")),
    Verb("trade", TRADE_KINDS),
    Verb("done", ("done", "end")),
)


def _res(view: dict[str, Any], me: dict[str, Any], locale: str) -> str:
    return t("rio.panel.stock", locale, silver=me["silver"], wood=me["wood"],
             stone=me["stone"], precious=me["precious"], vp=me["vp"], supply=me["supply"],
             placed=me["placed"])


def goods_text(goods: dict[str, int], locale: str) -> str:
    """``{"wood": 2, "general": 1}`` as "2 wood, General"."""
    parts = []
    for item, n in goods.items():
        if item in GOODS:
            parts.append(f"{n} {t(f'rio.res.{item}', locale)}")
        else:
            parts.append(t(f"rio.char.{item}", locale))
    return ", ".join(parts) or "—"


def step_of(view: dict[str, Any]) -> str:
    """What the awaited seats decide now: the phase, or the combat's step."""
    combat = view.get("combat")
    if view["phase"] == "combat" and combat:
        return f"combat_{combat['step']}"
    return str(view["phase"])


def _offers(view: dict[str, Any], seat: int, locale: str) -> list[str]:
    lines = []
    for offer in view.get("trades", []):
        if offer["from"] == seat:
            key = "rio.panel.offer_mine"
        elif offer["to"] in (-1, seat) and seat not in offer["declined"]:
            key = "rio.panel.offer_to_me"
        else:
            continue
        lines.append(t(key, locale, id=offer["id"], seat=offer["from"] + 1,
                       give=goods_text(offer["give"], locale),
                       want=goods_text(offer["want"], locale)))
    return lines


class RioPresenter:
    key = KEY

    def panel_text(self, view: dict[str, Any], seat: int, locale: str) -> str:
        me = view["players"][seat]
        lines = [_res(view, me, locale)]
        mine = [k for k, v in view.get("characters", {}).items() if v["owner"] == seat]
        if mine:
            lines.append(t("rio.panel.characters", locale, chars=", ".join(
                t(f"rio.char.{k}", locale) for k in mine)))
        if me.get("cargo") and any(me["cargo"]):
            lines.append(t("rio.panel.cargo", locale, cargo=" · ".join(
                f"{t(f'rio.res.{r}', locale)} {n}" for r, n in zip(
                    ("wood", "stone", "precious"), me["cargo"], strict=False) if n) or "—"))
        draft = view.get("draft")
        if draft:
            to = (t("rio.panel.to_all", locale) if draft["to"] < 0
                  else t("rio.panel.to_seat", locale, seat=draft["to"] + 1))
            lines.append(t("rio.panel.draft", locale, give=goods_text(draft["give"], locale),
                           want=goods_text(draft["want"], locale), to=to))
        lines.extend(_offers(view, seat, locale))
        if seat in view.get("active", []):
            lines.append(t(f"rio.panel.ask.{step_of(view)}", locale))
            picker = view.get("picker")
            if picker and picker["quarter"]:
                lines.append(t("rio.panel.closeup", locale, quarter=picker["quarter"]))
        return "\n".join(lines)

    def status_text(self, view: dict[str, Any], names: list[str], locale: str) -> str:
        who = ", ".join(names[s] for s in view.get("active", []))
        line = t("rio.status", locale, year=view["year"], round=min(view["round"],
                                                                     view["rounds"]),
                 rounds=view["rounds"], phase=t(f"rio.phase.{view['phase']}", locale),
                 who=who or "—")
        combat = view.get("combat")
        if combat:
            line += " · " + t("rio.status_combat", locale, round=combat["round"],
                              enemy=t(f"rio.enemy.{combat['enemy']}", locale),
                              attacker=names[combat["attacker"]])
        return line

    def panel_image(self, view: dict[str, Any], seat: int, locale: str) -> PanelImage | None:
        """The quarter close-up with the offered cells highlighted and labelled, when the
        seat's menu asks for a cell of a quarter."""
        picker = view.get("picker")
        if not picker or not picker["quarter"] or seat not in view.get("active", []):
            return None
        return render_quarter(view, picker["quarter"], picker["cells"],
                              words=translator(locale))


PRESENTER = RioPresenter()  # read by the bot when it loads this extension


async def _game_and_panel(interaction: discord.Interaction[Any]) -> tuple[Any, Any] | None:
    bot = replies.bot_of(interaction)
    game = await bot.service.in_channel(interaction.channel_id or 0)
    if game is None or game.game_key != KEY:
        return None
    try:
        panel = await bot.service.panel(game.id, interaction.user.id)
    except (ServiceError, GameError):
        return None
    return game, panel


async def _run(interaction: discord.Interaction[Any], actions: list[str]) -> None:
    """Apply several steps of one decision in order, each durable on its own, then show
    the refreshed panel once. A refused step stops there; the bot's one error handler says
    why. The interaction is already deferred (privately)."""
    bot = replies.bot_of(interaction)
    game = await bot.service.in_channel(interaction.channel_id or 0)
    if game is None or game.game_key != KEY:
        raise NoGameHere()
    private = []
    try:
        for action in actions:
            result = await bot.service.act(game.id, interaction.user.id, action)
            seat = result.game.seat_of(interaction.user.id)
            if seat is not None:
                private += result.private_events.get(seat.seat, [])
            await bot.publish(result)
    finally:
        bot.schedule_ai(game.id)
    await panels.send_panel(interaction, game.id, private=private)


def keep_suggestions(options: tuple[str, ...], typed: str) -> list[str]:
    """Autocomplete for a subset typed as space-separated cells: what is typed so far
    (known cells only) plus each cell not yet in it; "all" and "none" first."""
    chosen = [c for c in typed.replace(",", " ").split() if c in options]
    rest = [o for o in options if o not in chosen]
    base = " ".join(chosen)
    out = ["all", "none"] if not chosen else [base]
    out += [f"{base} {o}".strip() for o in rest]
    return out[:25]


def parse_offer(text: str) -> list[tuple[str, int]]:
    """"2 wood, 1 silver, general" → [("wood", 2), ("silver", 1), ("general", 1)]."""
    out = []
    for part in text.replace(";", ",").split(","):
        words = part.split()
        if not words:
            continue
        if len(words) == 2 and words[0].isdigit():
            out.append((words[1].lower(), int(words[0])))
        elif len(words) == 1:
            out.append((words[0].lower(), 1))
        else:
            raise ServiceError(key="rio.cmd.bad_goods", goods=part.strip()[:40])
    return out


def offer_actions(give: list[tuple[str, int]], want: list[tuple[str, int]],
                  to: int | None, trade_menu: str) -> list[str]:
    """The engine's trade-menu steps for one whole offer (each checked when applied)."""
    steps = [] if trade_menu else ["trade"]
    steps.append("tnew")
    for verb, side in (("tgive", give), ("twant", want)):
        for item, n in side:
            steps.append(f"{verb} {item}")
            if item in GOODS:
                steps.append(f"tamount {n}")
    if to is not None:
        steps.append(f"tto {to}")
    steps.append("tsend")
    return steps


class Rio(GameCog):
    def __init__(self, bot: LudoBot) -> None:
        super().__init__(bot, KEY, VERBS)
        keep: app_commands.Command[Any, Any, None] = app_commands.Command(
            name=L("keep", "rio.cmd.keep"),
            description=command_text("rio.cmd.keep.desc"),
            callback=self.keep)
        keep.autocomplete("cells")(self.keep_complete)
        offer: app_commands.Command[Any, Any, None] = app_commands.Command(
            name=L("offer", "rio.cmd.offer"),
            description=command_text("rio.cmd.offer.desc"),
            callback=self.offer)
        answer: app_commands.Command[Any, Any, None] = app_commands.Command(
            name=L("answer", "rio.cmd.answer"),
            description=command_text("rio.cmd.answer.desc"),
            callback=self.answer)
        answer.autocomplete("offer")(self.answer_complete)
        for command in (keep, offer, answer):
            self.group.add_command(command)

    @app_commands.describe(cells=command_text("rio.cmd.keep.cells"))
    async def keep(self, interaction: discord.Interaction[Any], cells: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        words = cells.replace(",", " ").split()
        found = await _game_and_panel(interaction)
        subset = None
        if found is not None:
            subset = next((c.subset for c in found[1].choices
                           if isinstance(c, MultiChoice)), None)
        if words == ["all"] and subset is not None:
            words = list(subset.options)
        elif words == ["none"]:
            words = []
        await _run(interaction, [str(Action("keep", tuple(words)))])

    async def keep_complete(self, interaction: discord.Interaction[Any],
                            current: str) -> list[app_commands.Choice[str]]:
        found = await _game_and_panel(interaction)
        if found is None:
            return []
        subset = next((c.subset for c in found[1].choices if isinstance(c, MultiChoice)), None)
        if subset is None:
            return []
        return [app_commands.Choice(name=s[:100], value=s[:100])
                for s in keep_suggestions(subset.options, current)]

    @app_commands.describe(give=command_text("rio.cmd.offer.give"),
                           want=command_text("rio.cmd.offer.want"),
                           player=command_text("rio.cmd.offer.player"))
    async def offer(self, interaction: discord.Interaction[Any], give: str = "",
                    want: str = "", player: app_commands.Range[int, 1, 5] | None = None
                    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        gives, wants = parse_offer(give), parse_offer(want)
        found = await _game_and_panel(interaction)
        trade_menu = found[1].view.get("trade_menu", "") if found else ""
        steps = offer_actions(gives, wants, None if player is None else player - 1,
                              trade_menu)
        if trade_menu and trade_menu != "menu":
            steps = ["tcancel", *steps]  # an unsent draft is replaced
        await _run(interaction, steps)

    @app_commands.describe(offer=command_text("rio.cmd.answer.offer"))
    async def answer(self, interaction: discord.Interaction[Any], offer: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await _game_and_panel(interaction)
        trade_menu = found[1].view.get("trade_menu", "") if found else ""
        steps = [] if trade_menu == "menu" else (["tcancel"] if trade_menu else ["trade"])
        await _run(interaction, [*steps, offer.strip()])

    async def answer_complete(self, interaction: discord.Interaction[Any],
                              current: str) -> list[app_commands.Choice[str]]:
        found = await _game_and_panel(interaction)
        if found is None:
            return []
        view, seat = found[1].view, found[1].seat
        locale = replies.user_locale(interaction)
        out = []
        for o in view.get("trades", []):
            text = t("rio.panel.offer_line", locale, id=o["id"], seat=o["from"] + 1,
                     give=goods_text(o["give"], locale), want=goods_text(o["want"], locale))
            if o["from"] == seat:
                verbs = ["twithdraw"]
            elif o["to"] in (-1, seat) and seat not in o["declined"]:
                verbs = ["taccept", "tdecline"]
            else:
                verbs = []
            for verb in verbs:
                label = t(f"rio.choice.{verb}", locale, a0=o["id"]) + " — " + text
                if current.lower() in label.lower():
                    out.append(app_commands.Choice(name=label[:100], value=f"{verb} {o['id']}"))
        return out[:25]


async def setup(bot: LudoBot) -> None:
    await bot.add_cog(Rio(bot))
