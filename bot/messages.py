"""Text of the public and private messages: event accounts, standings, lobby, jump links.

Engine events carry seat numbers; here they become player names. A parameter counts as a
seat when it is named ``seat``, ``player``, ``target``, ``victim``, ``by`` or ends in
``_seat``; a list under ``seats``/``players``/``winners`` is a list of seats.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.i18n import t
from bot.models import GameInfo
from engines.base import TURN_END, Event, Result

_SEAT_KEYS = {"seat", "player", "target", "victim", "by"}
_SEAT_LIST_KEYS = {"seats", "players", "winners"}
MAX_CONTENT = 2000  # Discord's message content limit


def _named(params: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    def name(seat: Any) -> str:
        return f"**{names[seat]}**" if isinstance(seat, int) and 0 <= seat < len(names) else str(
            seat)

    out: dict[str, Any] = {}
    for key, value in params.items():
        if key in _SEAT_KEYS or key.endswith("_seat"):
            out[key] = name(value)
        elif key in _SEAT_LIST_KEYS and isinstance(value, list):
            out[key] = ", ".join(name(v) for v in value)
        else:
            out[key] = value
    return out


def event_text(event: Event, names: Sequence[str], locale: str) -> str:
    return t(event.key, locale, **_named(dict(event.params), names))


def account(events: Iterable[Event], names: Sequence[str], locale: str) -> str:
    """The public account of a turn: one line per public event, TURN_END markers dropped."""
    lines = [f"• {event_text(e, names, locale)}" for e in events
             if e.to is None and e.key != TURN_END]
    return clip("\n".join(lines))


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def mentions(game: GameInfo, seats: Iterable[int]) -> str:
    return " ".join(game.seat(s).mention() for s in sorted(set(seats)))


def standings(game: GameInfo, result: Result, locale: str) -> str:
    names = [s.name for s in game.seats]
    lines = [t("ui.final_title", locale, game=t(f"{game.game_key}.name", locale))]
    for place, seats in enumerate(result.ranking, start=1):
        for seat in seats:
            lines.append(t("ui.final_line", locale, place=place, name=names[seat],
                           score=result.scores.get(seat, 0)))
    for detail in result.details:
        lines.append(t(detail.key, locale, **_named(dict(detail.params), names)))
    winners = ", ".join(f"**{names[s]}**" for s in sorted(result.winners))
    lines.append(t("ui.final_winners", locale, winners=winners))
    return clip("\n".join(lines))


def jump_link(game: GameInfo) -> str:
    guild = game.guild_id if game.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{game.channel_id}"
