"""One vote model (bot/core/votes.py) for cancel, pause/resume, a new deadline policy and
undo: the rule, its storage (the votes aggregate, migration 007) and the service's use."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core import errors, votes
from bot.core.models import ACTIVE, GameInfo, Seat
from bot.core.service import GameService
from bot.core.storage import RequestPending, SqliteRepository, VersionConflict, Vote
from bot.core.storage.sqlite import _statements, migrations
from tests.bot.conftest import both_backends
from tests.bot.playout import USERS, new_table

NOW = 1_000.0


def _game(version: int = 5) -> GameInfo:
    seats = (Seat(0, 1, "Ann"), Seat(1, 2, "Bob"), Seat(2, None, "AI 1"))
    return GameInfo(id=7, guild_id=1, channel_id=2, game_key="havana", status=ACTIVE,
                    creator_id=1, options={}, seed=5, version=version, max_seats=4, seats=seats,
                    created_at=0.0, updated_at=0.0)


def _vote(ballots: dict[int, bool], **fields: Any) -> Vote:
    return Vote(id=1, game_id=7, topic=fields.pop("topic", votes.CANCEL), user_id=1,
                status=votes.OPEN, created_at=NOW, votes=ballots, **fields)


def test_the_rule() -> None:
    game = _game()
    assert votes.humans(game) == {1, 2}  # an AI seat has no say
    assert votes.outcome(_vote({1: True}), game, NOW) == votes.OPEN
    assert votes.outcome(_vote({1: True, 2: True}), game, NOW) == votes.ACCEPTED
    assert votes.outcome(_vote({1: True, 2: False}), game, NOW) == votes.REFUSED
    assert votes.outcome(_vote({9: False, 1: True, 2: True}), game, NOW) == votes.ACCEPTED
    undo = {"topic": votes.UNDO, "voters": (2,), "expires_at": NOW + 10, "version": 5}
    assert votes.outcome(_vote({}, **undo), game, NOW) == votes.OPEN
    assert votes.outcome(_vote({2: True}, **undo), game, NOW) == votes.ACCEPTED
    assert votes.outcome(_vote({}, **undo), game, NOW + 10) == votes.EXPIRED
    assert votes.outcome(_vote({2: True}, **undo), _game(version=6), NOW) == votes.VOID
    result = votes.tally(_vote({1: True, 9: True}), game)
    assert result.votes == {1} and result.needed == {1, 2} and not result.passed
    assert votes.is_table_topic("pause") and votes.is_table_topic("deadline:24:ai:3")
    assert not votes.is_table_topic(votes.CANCEL) and not votes.is_table_topic(votes.UNDO)


@both_backends
async def test_the_votes_aggregate(service: GameService) -> None:
    repo = service.repo
    game_id = await new_table(service, "havana", 3, seed=2)
    vote = await repo.create_vote(game_id, "pause", user_id=USERS[0], now=NOW)
    assert await repo.open_vote(game_id, "pause") == vote and vote.votes == {}
    with pytest.raises(RequestPending):  # one open vote per topic
        await repo.create_vote(game_id, "pause", user_id=USERS[1], now=NOW)
    other = await repo.create_vote(game_id, "cancel", user_id=USERS[1], now=NOW)
    vote = await repo.cast_ballot(vote.id, USERS[0], True, now=NOW)
    vote = await repo.cast_ballot(vote.id, USERS[1], False, now=NOW)
    vote = await repo.cast_ballot(vote.id, USERS[1], True, now=NOW)  # changed
    assert vote.votes == {USERS[0]: True, USERS[1]: True}
    await repo.withdraw_ballots(game_id, USERS[1])  # left the table
    assert (await repo.vote(vote.id)).votes == {USERS[0]: True}  # type: ignore[union-attr]
    assert await repo.close_open_votes(game_id, votes.VOID, now=NOW, keep=("cancel",)) == 1
    assert (await repo.vote(vote.id)).status == votes.VOID  # type: ignore[union-attr]
    assert await repo.open_vote(game_id, "cancel") == other
    with pytest.raises(VersionConflict):
        await repo.cast_ballot(vote.id, USERS[2], True, now=NOW)
    assert await repo.close_vote(other.id, votes.ACCEPTED, now=NOW)
    assert not await repo.close_vote(other.id, votes.REFUSED, now=NOW)  # already closed
    assert await repo.vote(10 ** 9) is None


@both_backends
async def test_a_passing_table_vote_voids_the_other_clock_proposals(
        service: GameService) -> None:
    game_id = await new_table(service, "havana", 2, seed=2)
    await service.vote(game_id, "deadline:48:ai:3", USERS[0])
    await service.vote_cancel(game_id, USERS[0])
    first = await service.vote(game_id, votes.PAUSE, USERS[0])
    assert not first.passed and first.needed == {USERS[0], USERS[1]}
    assert (await service.vote(game_id, votes.PAUSE, USERS[1])).passed
    assert await service.repo.open_vote(game_id, "deadline:48:ai:3") is None
    assert await service.repo.open_vote(game_id, votes.PAUSE) is None
    assert await service.repo.open_vote(game_id, votes.CANCEL) is not None  # kept
    with pytest.raises(errors.NotSeated):
        await service.vote(game_id, votes.RESUME, USERS[3])


async def test_migration_007_carries_the_old_votes_over(service: GameService) -> None:
    """Open cancel and table votes and every undo request (with its ballots and its id: a
    posted vote button still finds it) become votes; the old tables are dropped."""
    repo = service.repo
    assert isinstance(repo, SqliteRepository)
    game_id = await new_table(service, "havana", 3, seed=2)
    old_tables = [s for number, _name, text in migrations() if number in (1, 2, 3)
                  for s in _statements(text)
                  if any(f"CREATE TABLE {t} " in s or f"ON {t} " in s for t in
                         ("cancel_votes", "table_votes", "undo_requests", "undo_votes"))]
    assert len(old_tables) == 5  # four tables and the one-open-request index
    carry = [s for number, _name, text in migrations() if number == 7
             for s in _statements(text) if s.startswith(("INSERT", "DROP"))]
    a, b, c = USERS[:3]

    async def old_then_migrate(conn: Any) -> None:
        for statement in old_tables:
            await conn.execute(statement)
        await conn.execute("INSERT INTO cancel_votes VALUES (?, ?, ?), (?, ?, ?)",
                           (game_id, b, 3.0, game_id, a, 4.0))
        await conn.execute("INSERT INTO table_votes VALUES (?, 'pause', ?, 5.0)", (game_id, c))
        await conn.execute(
            "INSERT INTO undo_requests (id, game_id, user_id, seat, version, rewind_to, voters, "
            "status, created_at, expires_at) VALUES (41, ?, ?, 1, 9, 4, ?, 'open', 6.0, 99.0)",
            (game_id, b, f"[{a}, {c}]"))
        await conn.execute("INSERT INTO undo_votes VALUES (41, ?, 1, 7.0)", (a,))
        for statement in carry:
            await conn.execute(statement)

    await repo.db.write(old_then_migrate)
    undo = await repo.vote(41)
    assert undo is not None and undo.topic == votes.UNDO and undo.status == votes.OPEN
    assert (undo.voters, undo.votes, undo.version, undo.seat, undo.rewind_to,
            undo.expires_at) == ((a, c), {a: True}, 9, 1, 4, 99.0)
    cancel = await repo.open_vote(game_id, votes.CANCEL)
    assert cancel is not None and cancel.votes == {a: True, b: True} and cancel.voters == ()
    pause = await repo.open_vote(game_id, votes.PAUSE)
    assert pause is not None and pause.votes == {c: True} and pause.expires_at is None

    async def tables(conn: Any) -> set[str]:
        return {r[0] for r in await conn.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}

    left = await repo.db.read(tables)
    assert {"votes", "ballots"} <= left
    assert not left & {"cancel_votes", "table_votes", "undo_requests", "undo_votes"}
