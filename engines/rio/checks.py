"""Why an action is refused: a typed, translatable error naming the reason."""

from __future__ import annotations

from engines.base import (
    Action,
    GameError,
    IllegalAction,
    InvalidAction,
    Message,
    NotYourTurn,
)

from . import rules, trades
from .combat import by_id, refused
from .data import BOARD
from .state import State

KINDS = frozenset({
    "city", "ladder", "prod", "agri", "crafts", "quay", "order", "chars", "ship", "done", "back",
    "quarter", "cell", "put", "evict", "act", "upgrade", "space", "count", "claim", "income",
    "free_road", "free_wall", "load", "take", "build", "convert", "side", "edge", "auto", "site",
    "stack", "unstage", "staged", "fire", "hold", "kill", "recruit", "buy", "accept", "refuse",
    "stacks", "size", "group", "unhold", "outside", "enter", "step", "merge", "bonus", "stop",
    "end", "keep",
    *trades.KINDS})


def reason(s: State, seat: int, action: Action) -> GameError:
    """The most specific reason ``action`` is not offered to ``seat`` now."""
    from .engine import active

    if action.kind not in KINDS:
        return InvalidAction(f"Unknown Río action {action.kind!r}", key="rio.error.unknown",
                             action=action.kind)
    if seat not in active(s) and action.kind not in trades.KINDS:
        return NotYourTurn(f"Seat {seat} is not awaited now", key="error.not_your_turn")
    for token in action.args:
        if "." in token and token.count(".") == 1 and BOARD.parse_cell(token) is None:
            return InvalidAction(f"No cell {token}", key="rio.error.cell", cell=token)
    if s.phase == "place" and action.kind in ("put", "evict", "act", "upgrade", "space",
                                              "count", "claim", "prod"):
        if rules.left_to_place(s, seat) <= 0:
            return IllegalAction("No worker left to place this round",
                                 key="rio.error.no_workers")
        if action.kind == "space":
            return IllegalAction("You cannot pay for that space", key="rio.error.cost")
    if s.phase == "place" and action.kind == "claim" and action.args:
        char = action.args[0]
        if s.players[seat].claim:
            return IllegalAction("One character per round", key="rio.error.one_character")
        if char in s.chars or char in s.claims:
            return IllegalAction("That character is taken", key="rio.error.character_taken",
                                 char=Message(f"rio.char.{char}"))
    if s.phase == "place" and action.kind == "ship":
        return IllegalAction("The ship cannot be ordered to sail now", key="rio.error.ship")
    if s.phase == "place" and action.kind == "ladder" and action.args:
        return IllegalAction("That ladder takes no worker now", key="rio.error.ladder",
                             ladder=Message(f"rio.ladder.{action.args[0]}"))
    if s.phase == "combat" and action.kind == "merge" and _refused(s, action):
        return IllegalAction("That merge request was refused this combat round",
                             key="rio.error.merge_refused")
    if s.phase == "combat" and action.kind in ("step", "enter", "merge"):
        return IllegalAction("That group cannot go there", key="rio.error.cannot_step")
    if s.phase == "combat" and action.kind == "fire":
        return IllegalAction("That bet is not allowed", key="rio.error.bet")
    if s.phase == "effects" and action.kind in ("build", "convert"):
        return IllegalAction("That building cannot be built or used here now",
                             key="rio.error.cannot_build", building=action.args[0]
                             if action.args else "")
    return IllegalAction(f"{action} is not possible now", key="rio.error.not_offered",
                         action=str(action))


def _refused(s: State, action: Action) -> bool:
    """Whether the selected group already asked this neighbour this combat round."""
    c = s.combat
    if c is None or not c.sel or not action.args:
        return False
    g = by_id(c, c.sel)
    j = BOARD.nb4[g.cell].get(action.args[0]) if g.cell >= 0 else None
    return j is not None and refused(c, g, j)
