"""One vote model for every decision a table takes together (stored as
:class:`~bot.core.storage.base.Vote`, one ``votes`` table with its ``ballots``).

* ``cancel`` — cancel a started game; ``pause`` / ``resume`` — stop or restart its clocks;
  ``deadline:…`` — a new deadline policy (docs/ASYNC.md). Unanimous: every human seated now
  says yes; a vote stays open, without a time limit, until then.
* ``undo`` — take back moves that need the others' consent (:mod:`bot.core.undo`):
  its voters are fixed when asked (every other human); one no refuses it, it expires after
  :data:`~bot.core.undo.VOTE_HOURS`, and any new move voids it (it was asked about
  another position).

This module holds the rule, pure; the service records ballots and acts on the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.models import GameInfo
from bot.core.storage.base import Vote

CANCEL, PAUSE, RESUME, UNDO = "cancel", "pause", "resume", "undo"
OPEN, ACCEPTED, REFUSED, EXPIRED, VOID = "open", "accepted", "refused", "expired", "void"
TABLE_TOPICS = (PAUSE, RESUME)  # with every ``deadline:…`` topic: the clocks' votes


def humans(game: GameInfo) -> frozenset[int]:
    """Every human seated now (an abandoned seat, now an AI's, has no say)."""
    return frozenset(s.user_id for s in game.humans if s.user_id is not None)


def voters(vote: Vote, game: GameInfo) -> frozenset[int]:
    """Whose yes the vote needs: its own list when fixed at asking, else every human."""
    return frozenset(vote.voters) if vote.voters else humans(game)


def outcome(vote: Vote, game: GameInfo, now: float) -> str:
    """Where the vote stands now: refused (a no), expired, void (the game moved on since an
    undo was asked), accepted (every voter said yes) or still open."""
    needed = voters(vote, game)
    if any(not yes for user, yes in vote.votes.items() if user in needed):
        return REFUSED
    if vote.expires_at is not None and now >= vote.expires_at:
        return EXPIRED
    if vote.version is not None and vote.version != game.version:
        return VOID
    if all(vote.votes.get(user) for user in needed):
        return ACCEPTED
    return OPEN


@dataclass(frozen=True, slots=True)
class VoteResult:
    """A unanimous table vote after one more yes: who agreed, who is needed, passed?"""

    game: GameInfo
    topic: str
    votes: frozenset[int]
    needed: frozenset[int]
    passed: bool


def is_table_topic(topic: str) -> bool:
    """A vote about the clocks (pause, resume, a new policy): one passing closes the rest."""
    return topic in TABLE_TOPICS or topic.startswith("deadline:")


def tally(vote: Vote, game: GameInfo) -> VoteResult:
    needed = voters(vote, game)
    yes = frozenset(u for u, v in vote.votes.items() if v) & needed
    return VoteResult(game, vote.topic, yes, needed, passed=needed <= yes)

