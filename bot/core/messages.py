"""Text of the public and private messages: event accounts, menu labels, standings, links.

Engine[Any] events and labels carry seat numbers; here they become player names. Which
parameters are seats is declared by the game (``Spec.seat_params`` and
``Spec.seat_list_params``), never guessed from their names; the mapping reaches into nested
:class:`Message` parameters too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.core.i18n import t
from bot.core.models import GameInfo
from engines import registry
from engines.base import TURN_END, Event, Message, Result, Spec

MAX_CONTENT = 2000  # Discord's message content limit


def spec_of(game: GameInfo) -> Spec:
    return registry.get(game.game_key).spec


def seat_name(seat: Any, names: Sequence[str], *, bold: bool = True) -> str:
    """A seat as its player's name; a number that is no seat is shown 1-based."""
    if isinstance(seat, int) and not isinstance(seat, bool):
        if 0 <= seat < len(names):
            return f"**{names[seat]}**" if bold else names[seat]
        return str(seat + 1)
    return str(seat)


def named(params: Mapping[str, Any], spec: Spec, names: Sequence[str], *,
          bold: bool = True) -> dict[str, Any]:
    """``params`` with every declared seat parameter replaced by a player's name."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key in spec.seat_params:
            out[key] = seat_name(value, names, bold=bold)
        elif key in spec.seat_list_params and isinstance(value, (list, tuple)):
            out[key] = ", ".join(seat_name(v, names, bold=bold) for v in value)
        elif isinstance(value, Message):
            out[key] = Message(value.key, named(value.params, spec, names, bold=bold))
        else:
            out[key] = value
    return out


def text(message: Message, spec: Spec, names: Sequence[str], locale: str, *,
         bold: bool = True) -> str:
    """A game's message (an event's or a menu label) with seats as names."""
    return t(message.key, locale, **named(message.params, spec, names, bold=bold))


def label(message: Message, spec: Spec, names: Sequence[str], locale: str) -> str:
    """A button or select label: names without markdown (labels show it raw)."""
    return text(message, spec, names, locale, bold=False)


def event_text(event: Event, spec: Spec, names: Sequence[str], locale: str, *,
               bold: bool = True) -> str:
    return text(Message(event.key, event.params), spec, names, locale, bold=bold)


def account(events: Iterable[Event], spec: Spec, names: Sequence[str], locale: str) -> str:
    """The public account of a turn: one line per public event, TURN_END markers dropped."""
    lines = [f"• {event_text(e, spec, names, locale)}" for e in events
             if e.to is None and e.key != TURN_END]
    return clip("\n".join(lines))


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def mentions(game: GameInfo, seats: Iterable[int]) -> str:
    return " ".join(game.seat(s).mention() for s in sorted(set(seats)))


def standings(game: GameInfo, result: Result, locale: str) -> str:
    names = [s.name for s in game.seats]
    spec = spec_of(game)
    lines = [t("ui.final_title", locale, game=t(f"{game.game_key}.name", locale))]
    for place, seats in enumerate(result.ranking, start=1):
        for seat in seats:
            lines.append(t("ui.final_line", locale, place=place, name=names[seat],
                           score=result.scores.get(seat, 0)))
    for detail in result.details:
        lines.append(text(detail, spec, names, locale))
    winners = ", ".join(f"**{names[s]}**" for s in sorted(result.winners))
    lines.append(t("ui.final_winners", locale, winners=winners))
    return clip("\n".join(lines))


def jump_link(game: GameInfo) -> str:
    guild = game.guild_id if game.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{game.channel_id}"
