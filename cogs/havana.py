"""Havana in Discord: its slash commands and how its private panel and status read.

The rules live in ``engines/havana``; the board image in ``renderers/havana``. This cog only
names the decisions for slash commands and words the private panel (hand, discard, stock).
"""

from __future__ import annotations

from typing import Any

from bot.adapter.client import LudoBot
from bot.adapter.game_commands import GameCog, Verb
from bot.core.i18n import t

KEY = "havana"
MATERIALS = ("brick", "sandstone", "clay", "glass", "rubble")

VERBS = (
    Verb("move"),
    Verb("pick", ("pick", "cover")),
    Verb("play", ("play",)),
    Verb("resolve", ("target", "take", "tax", "remove", "restore", "pass")),
    Verb("build", ("build", "pay")),
    Verb("end", ("end",)),
)


def _cards(cards: list[str], locale: str) -> str:
    return ", ".join(t(f"havana.card.{c}", locale) for c in cards) or "—"


class HavanaPresenter:
    key = KEY

    def panel_text(self, view: dict[str, Any], seat: int, locale: str) -> str:
        me = view["players"][seat]
        stock = " · ".join(f"{t(f'havana.material.{m}', locale)} {me['materials'][m]}"
                           for m in MATERIALS)
        lines = [
            t("havana.panel.face_up", locale, cards=_cards(me.get("face_up", []), locale)),
            t("havana.panel.hand", locale, cards=_cards(me.get("hand", []), locale)),
            t("havana.panel.discard", locale, cards=_cards(me.get("discard", []), locale)),
            t("havana.panel.stock", locale, pesos=me["pesos"], workers=me["workers"],
              vp=me["vp"], stock=stock),
        ]
        if me.get("pending_picks"):
            lines.append(t("havana.panel.picked", locale,
                           cards=_cards(me["pending_picks"], locale)))
        if view["phase"] == "start_pick" and seat in view.get("active", []):
            # The start asks for two cards, one pick at a time: say so before the first.
            lines.append(t("havana.panel.ask.start_pick", locale,
                           n=len(me.get("pending_picks") or []) + 1))
        return "\n".join(lines)

    def status_text(self, view: dict[str, Any], names: list[str], locale: str) -> str:
        current = view.get("current")
        who = names[current] if isinstance(current, int) else ", ".join(
            names[s] for s in view.get("active", []))
        return t("havana.status", locale, round=view["round"],
                 phase=t(f"havana.phase.{view['phase']}", locale), who=who or "—")

    def panel_image(self, view: dict[str, Any], seat: int, locale: str) -> None:
        return None  # the hand is text; the public board shows the rest


PRESENTER = HavanaPresenter()  # read by the bot when it loads this extension


class Havana(GameCog):
    def __init__(self, bot: LudoBot) -> None:
        super().__init__(bot, KEY, VERBS)


async def setup(bot: LudoBot) -> None:
    await bot.add_cog(Havana(bot))
