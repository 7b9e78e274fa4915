"""Undo, as on Board Game Arena: the rules (pure: no storage, no service).

A player takes back their own last move freely while it is still their turn and nothing
hidden was revealed and nothing was drawn since: the moves taken back are theirs alone,
none is ``irreversible`` (:class:`engines.base.Outcome`) and none ended a turn. Anything
else — crossing another player's (or an AI's) move, a reveal, a draw, a finished turn —
needs every other human player's consent: a vote with a time limit, where one refusal or
the expiry refuses, and any new move voids it (it was asked about another position).
The service offers the free take-back on the panel (:attr:`bot.core.models.Panel.take_back`)
and runs requests, votes (one vote model, :mod:`bot.core.votes`) and the rewind:
the log stays append-only, an undo entry (``rewind_to``, the last entry kept) marks the
taken-back entries as undone, and the new snapshot is the replay of the effective log. The
version still grows, so every panel drawn before the undo is out of date.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.models import GameInfo, Seat
from bot.core.storage.base import LogRow, Vote

VOTE_HOURS = 24.0
OWN, OTHER_PLAYER, IRREVERSIBLE, TURN_ENDED = "own", "other_player", "irreversible", "turn_end"


@dataclass(frozen=True, slots=True)
class UndoPlan:
    """What taking back a seat's last move means now."""

    rewind_to: int  # the last entry kept (0 = the setup)
    taken_back: tuple[LogRow, ...]
    reason: str  # OWN (free) or why consent is needed

    @property
    def needs_consent(self) -> bool:
        return self.reason != OWN


def plan_undo(rows: Sequence[LogRow], seat: int) -> UndoPlan | None:
    """Take back ``seat``'s last effective move and everything after it; None if the seat
    has no move to take back."""
    moves = [r for r in rows if r.effective]  # undo entries and taken-back moves left out
    mine = [i for i, r in enumerate(moves) if r.seat == seat]
    if not mine:
        return None
    first = mine[-1]
    taken = tuple(moves[first:])
    rewind_to = moves[first - 1].seq if first else 0
    if any(r.seat != seat for r in taken):
        reason = OTHER_PLAYER
    elif any(r.irreversible for r in taken):
        reason = IRREVERSIBLE
    elif any(r.turn_end for r in taken):
        reason = TURN_ENDED
    else:
        reason = OWN
    return UndoPlan(rewind_to, taken, reason)


@dataclass(frozen=True, slots=True)
class UndoResult:
    """What happened: applied, waiting for votes, or refused (the board is drawn by whoever
    announces it, in the language of the place it is shown)."""

    game: GameInfo
    requester: Seat
    applied: bool = False
    refused: str | None = None  # "refused" | "expired" when a vote failed
    request: Vote | None = None  # the undo vote, when consent is needed
    reason: str = OWN
    taken_back: tuple[LogRow, ...] = ()
    awaited: tuple[Seat, ...] = ()
