"""Minos in Discord: its slash commands and how its private panel reads.

The rules live in ``engines/minos``; the images in ``renderers/minos``. This cog names the
decisions for slash commands (one verb per kind of decision, every engine action kind
covered), words the private panel (the player's talents, rings, stock, the current throw and
what the step asks) and attaches the current throw drawn as dice — or, in a conflict, the
throw the player answers or re-throws.
"""

from __future__ import annotations

from typing import Any

from bot.adapter.client import LudoBot
from bot.adapter.game_commands import GameCog, Verb
from bot.adapter.presenter import PanelImage
from bot.core.i18n import t
from engines.minos.data import SITES
from renderers.minos import render_dice

KEY = "minos"
COMBAT_PHASES = ("order", "attack", "defend")

VERBS = (
    Verb("move"),
    Verb("keep", ("keep",)),
    Verb("use", ("use", "dice", "cancel")),
    Verb("sail", ("piece", "step")),
    Verb("build", ("build", "type", "cancel")),
    Verb("recruit", ("recruit",)),
    Verb("rings", ("buy",)),
    Verb("fight", ("face", "rethrow", "stand")),
    Verb("end", ("end",)),
)


def _dice(faces: list[str], used: list[bool], locale: str) -> str:
    shown = []
    for i, face in enumerate(faces):
        name = t(f"minos.face.{face}", locale)
        shown.append(f"{i + 1}. {name}" + (" ✓" if i < len(used) and used[i] else ""))
    return " · ".join(shown)


def _place(place: str, locale: str) -> str:
    return t(f"minos.site.{place}", locale) if place in SITES else place.upper()


class MinosPresenter:
    key = KEY

    def panel_text(self, view: dict[str, Any], seat: int, locale: str) -> str:
        me = view["players"][seat]
        lines = [t("minos.panel.me", locale, value=me["value"], talents=me["talents"],
                   rings=me["rings"], ships=me["ships"], guards=me["guards"])]
        if me["out"]:
            lines.append(t("minos.panel.out", locale))
        combat = view.get("combat")
        if view["current"] == seat and view["phase"] != "over":
            lines.append(t("minos.panel.throw", locale, n=view["throws"],
                           dice=_dice(view["dice"], view["used"], locale)))
            lines.append(t("minos.panel.points", locale, mp=view["mp"], bp=view["bp"]))
        if combat and seat in (combat["attacker"], combat["defender"]):
            lines.append(t("minos.panel.combat", locale,
                           place=_place(combat["target"], locale),
                           attack=combat["attack_value"] if combat["attack_value"] is not None
                           else "—",
                           defence=combat["defence_value"]
                           if combat["defence_value"] is not None else "—"))
        if seat in view.get("active", []):
            lines.append(t(f"minos.panel.ask.{view['phase']}", locale))
        return "\n".join(lines)

    def status_text(self, view: dict[str, Any], names: list[str], locale: str) -> str:
        who = ", ".join(names[s] for s in view.get("active", []))
        return t("minos.status", locale, round=view["round"],
                 phase=t(f"minos.phase.{view['phase']}", locale), who=who or "—")

    def panel_image(self, view: dict[str, Any], seat: int, locale: str) -> PanelImage | None:
        """The dice the seat decides about: its current throw in its turn, or its combat
        throw in a conflict (the attacker's value known to the defender is in the text)."""
        if seat not in view.get("active", []):
            return None
        combat = view.get("combat")
        if combat and view["phase"] in ("attack", "defend"):
            faces = combat["attack"] if view["phase"] == "attack" else combat["defence"]
            return render_dice(faces)
        if view["phase"] in ("act", "combo"):
            return render_dice(view["dice"], view["used"])
        return None


PRESENTER = MinosPresenter()  # read by the bot when it loads this extension


class Minos(GameCog):
    def __init__(self, bot: LudoBot) -> None:
        super().__init__(bot, KEY, VERBS)


async def setup(bot: LudoBot) -> None:
    await bot.add_cog(Minos(bot))
