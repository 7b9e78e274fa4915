"""The messages a change owes the channel or a player, as outbox rows written in the same
transaction as the change (so they are delivered even across a crash). The adapter's
deliverer (:mod:`bot.adapter.outbox_delivery`) sends them by kind, in the reader's language.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.models import Seat
from bot.core.storage.base import AwaitedSeat, Outgoing
from engines.base import Event

TURN_MESSAGE = "turn"  # the outbox kind of a turn message (board, account, who is next)
ANNOUNCEMENT = "announce"  # the outbox kind of a public notice (a missed deadline, a seat left)
NOTICE = "notice"  # the outbox kind of a message to one player (a deadline warning, "you're next")


def _nonce() -> str:
    """A Discord message nonce (at most 25 characters), unique per outbox message."""
    return "ludo-" + secrets.token_hex(8)


def turn_message(state: Mapping[str, Any], *, events: Sequence[Event],
                 awaited: Sequence[Seat], plan: Sequence[AwaitedSeat], over: bool,
                 started: bool = False) -> Outgoing:
    """The turn message a move (or the start) owes the channel, as outbox data: the state
    it shows (the board is drawn from its spectator view at delivery, in the channel's
    language), the turn's public events, who is next and their move deadlines."""
    return Outgoing(TURN_MESSAGE, {
        "state": state, "events": [e.to_dict() for e in events],
        "awaited": [s.seat for s in awaited], "over": over, "started": started,
        "deadlines": {str(a.seat): a.deadline_at for a in plan if a.deadline_at is not None},
    }, _nonce())


def announcement(key: str, params: Mapping[str, str | int]) -> Outgoing:
    """A public notice the deadline pass owes the channel (``key`` of the catalogues and
    its plain parameters), written with the state change that causes it: translated at
    delivery into the channel's language."""
    return Outgoing(ANNOUNCEMENT, {"key": key, "params": dict(params)}, _nonce())


def notice(user_id: int, key: str, params: Mapping[str, Any], *, dm: bool) -> Outgoing:
    """A message the deadline pass owes one player, by DM when ``dm`` (falling back to a
    mention in the game's channel when DMs are closed); ``params`` may nest Messages."""
    return Outgoing(NOTICE, {"user": user_id, "dm": dm,
                             "message": Event(key, params).to_dict()}, _nonce())
