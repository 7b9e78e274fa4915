"""The repository on both backends (SQLite and a real PostgreSQL server): migrations,
constraints, atomic moves; SQLite's pragmas and lock retries."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path

import asyncpg
import pytest

from bot.core.models import ACTIVE, CANCELLED, FINISHED, LOBBY, DeadlinePolicy, Seat
from bot.core.shards import Shards
from bot.core.storage import (
    AwaitedSeat,
    ChannelTaken,
    Repository,
    RequestPending,
    SeatTaken,
    SqliteRepository,
    VersionConflict,
    open_repository,
)
from bot.core.storage.base import Outgoing, SeatClock, Vacation
from bot.core.storage.db import Conn
from bot.core.storage.postgres import migrations as postgres_migrations
from bot.core.storage.sqlite import SqliteDatabase, migrations
from bot.postgres_server import PostgresServer
from engines.base import TURN_END, Event
from tests.bot.conftest import both_backends

NOW = 1000.0


NewDatabase = Callable[..., Awaitable[str]]


@pytest.fixture
async def new_postgres(postgres_server: PostgresServer) -> AsyncIterator[NewDatabase]:
    """Makes fresh PostgreSQL databases for one test (dropped after it)."""
    made: list[str] = []

    async def make(*, migrated: bool = True) -> str:
        made.append(await postgres_server.create_database(migrated=migrated))
        return made[-1]

    yield make
    for dsn in made:
        await postgres_server.drop_database(dsn)


async def _lobby(repo: Repository, channel: int = 10, **kw: object) -> int:
    game = await repo.create_game(
        guild_id=1, channel_id=channel, game_key="race", creator_id=7, options={"goal": 6},
        seed=42, max_seats=3, reminder_hours=24.0, seats=[Seat(0, 7, "Ann")], now=NOW)
    return game.id


async def _active(repo: Repository, channel: int = 10) -> int:
    game_id = await _lobby(repo, channel)
    await repo.set_seats(game_id, [Seat(0, 7, "Ann"), Seat(1, 8, "Bob")], now=NOW)
    await repo.start_game(game_id, {"n": 0}, now=NOW, awaited=[])
    return game_id


async def _move(repo: Repository, game_id: int, version: int, *, turn_end: bool = False,
                public: tuple[Event, ...] = ()) -> None:
    await repo.save_move(game_id, expected_version=version, state={"n": version + 1}, seat=0,
                         action=f"go {version}", public=public, private=(Event("p", {}, 0),),
                         turn_end=turn_end, finished=False, awaited=[], now=NOW + version)


async def test_migrations_are_recorded_and_idempotent(db_path: Path) -> None:
    repo = await SqliteRepository.open(db_path)
    latest = migrations()[-1][0]
    assert await repo.schema_version() == latest
    await repo.close()
    again = await SqliteRepository.open(db_path)
    assert await again.migrate() == []
    assert await again.schema_version() == latest
    await again.close()
    with sqlite3.connect(db_path) as raw:
        rows = raw.execute("SELECT version, name FROM schema_version").fetchall()
    assert rows == [(n, name) for n, name, _ in migrations()]


async def test_wal_and_foreign_keys_are_on(repo: Repository) -> None:
    assert await repo.pragma("journal_mode") == "wal"
    assert await repo.pragma("foreign_keys") == 1
    with pytest.raises(VersionConflict):  # a seat of a game that does not exist
        await repo.replace_seat(999, Seat(0, None, "AI 1"), now=NOW)


@both_backends
async def test_one_open_game_per_channel_and_finished_games_are_kept(
        repo: Repository) -> None:
    first = await _lobby(repo, channel=10)
    with pytest.raises(ChannelTaken):
        await _lobby(repo, channel=10)
    other = await _lobby(repo, channel=11)  # another channel (or thread) is free
    assert (await repo.open_game_in_channel(10)).id == first
    await repo.set_status(first, CANCELLED, expected=(LOBBY, ACTIVE), now=NOW)
    assert await repo.open_game_in_channel(10) is None
    third = await _lobby(repo, channel=10)
    assert len({first, other, third}) == 3
    assert await repo.count_games() == 3
    assert (await repo.get_game(first)).status == CANCELLED
    with pytest.raises(VersionConflict):
        await repo.set_status(first, CANCELLED, expected=(LOBBY, ACTIVE), now=NOW)


@both_backends
async def test_lobby_seats_are_unique_per_user(repo: Repository) -> None:
    game_id = await _lobby(repo)
    with pytest.raises(SeatTaken):
        await repo.set_seats(game_id, [Seat(0, 7, "Ann"), Seat(1, 7, "Ann again")], now=NOW)
    game = await repo.get_game(game_id)
    assert game.seats == (Seat(0, 7, "Ann"),)  # the failed change left nothing behind
    game = await repo.set_seats(game_id, [Seat(0, 7, "Ann"), Seat(1, None, "AI 1")], now=NOW)
    assert game.seats[1].is_ai


@both_backends
async def test_a_move_is_one_versioned_transaction(repo: Repository) -> None:
    game_id = await _active(repo)
    await _move(repo, game_id, 0)
    info, state = await repo.load_game(game_id)
    assert (info.version, state) == (1, {"n": 1})
    with pytest.raises(VersionConflict):
        await _move(repo, game_id, 0)  # someone else already moved from version 0
    info, state = await repo.load_game(game_id)
    assert (info.version, state) == (1, {"n": 1})
    assert [r.seq for r in await repo.log(game_id)] == [1]


@both_backends
async def test_a_failure_after_the_update_rolls_everything_back(repo: Repository) -> None:
    game_id = await _active(repo)
    unserialisable = (Event("x", {"bad": object()}),)
    with pytest.raises(TypeError):
        await _move(repo, game_id, 0, public=unserialisable)
    info, state = await repo.load_game(game_id)
    assert (info.version, state) == (0, {"n": 0})
    assert await repo.log(game_id) == []


async def test_a_cancelled_caller_leaves_its_transaction_whole(db_path: Path) -> None:
    """A caller cancelled mid-transaction (a task stopped at shutdown) gets its
    CancelledError, its transaction still runs to its end, and the next one commits: the
    one shared connection is never left with a statement half-run."""
    db = await SqliteDatabase.open(db_path)
    running, go_on = asyncio.Event(), asyncio.Event()

    async def two_inserts(conn: Conn) -> None:
        await conn.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)")
        await conn.execute("INSERT INTO t VALUES (1)")
        running.set()
        await go_on.wait()
        await conn.execute("INSERT INTO t VALUES (2)")

    caller = asyncio.create_task(db.write(two_inserts))
    await running.wait()
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    go_on.set()

    async def one_more(conn: Conn) -> list[int]:
        await conn.execute("INSERT INTO t VALUES (3)")
        return [r[0] for r in await conn.fetch("SELECT x FROM t ORDER BY x")]

    assert await db.write(one_more) == [1, 2, 3]
    await db.close()


@both_backends
async def test_finishing_a_game_keeps_it_and_closes_the_channel(repo: Repository) -> None:
    game_id = await _active(repo)
    await repo.save_move(game_id, expected_version=0, state={"n": 1}, seat=0, action="go 1",
                         public=(), private=(), turn_end=True, finished=True,
                         awaited=[AwaitedSeat(1, 8, NOW)], now=NOW)
    assert (await repo.get_game(game_id)).status == FINISHED
    assert await repo.reminders(game_id) == []
    assert await repo.open_game_in_channel(10) is None
    with pytest.raises(VersionConflict):  # no moves after the end
        await _move(repo, game_id, 1)


async def test_the_action_log_is_append_only(repo: Repository, db_path: Path) -> None:
    game_id = await _active(repo)
    await _move(repo, game_id, 0)
    with sqlite3.connect(db_path) as raw:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("UPDATE actions SET action = 'cheat'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM actions")


@both_backends
async def test_log_pages_and_turn_batches(repo: Repository) -> None:
    game_id = await _active(repo)
    end = (Event(TURN_END, {}),)
    for version in range(6):
        await _move(repo, game_id, version, turn_end=version in (1, 3), public=end
                    if version in (1, 3) else ())
    assert [r.seq for r in await repo.log(game_id, limit=3)] == [4, 5, 6]
    assert [r.seq for r in await repo.log(game_id, limit=2, before_seq=4)] == [2, 3]
    assert [r.seq for r in await repo.turn_batch(game_id, 2)] == [1, 2]
    assert [r.seq for r in await repo.turn_batch(game_id, 4)] == [2, 3, 4]
    assert [r.seq for r in await repo.turn_batch(game_id, 6)] == [4, 5, 6]
    row = (await repo.log(game_id, limit=1))[0]
    assert row.private == (Event("p", {}, 0),) and not row.turn_end


@both_backends
async def test_settings_upsert_and_clear(repo: Repository) -> None:
    assert (await repo.guild_settings(5)).locale is None
    s = await repo.update_guild_settings(5, {"locale": "fr"}, now=NOW)
    s = await repo.update_guild_settings(5, {"reminder_hours": 6.0}, now=NOW)
    assert (s.locale, s.reminder_hours) == ("fr", 6.0)
    s = await repo.update_guild_settings(5, {"locale": None}, now=NOW)
    assert (s.locale, s.reminder_hours) == (None, 6.0)
    u = await repo.update_user_settings(9, {"dm_opt_in": True, "reminder_hours": 2.0}, now=NOW)
    assert (u.dm_opt_in, u.reminder_hours, u.locale) == (True, 2.0, None)
    with pytest.raises(ValueError):
        await repo.update_user_settings(9, {"admin": True}, now=NOW)


def _hold_write_lock(path: Path, seconds: float, ready: threading.Event) -> None:
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("BEGIN IMMEDIATE")
    ready.set()
    time.sleep(seconds)
    raw.execute("COMMIT")
    raw.close()


async def test_a_locked_database_is_retried_and_logged(
        db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    repo = await SqliteRepository.open(db_path, busy_timeout_ms=20, retries=8,
                                       retry_delay=0.05)
    ready = threading.Event()
    holder = threading.Thread(target=_hold_write_lock, args=(db_path, 0.3, ready))
    holder.start()
    ready.wait()
    with caplog.at_level(logging.WARNING, logger="bot.core.storage.sqlite"):
        game_id = await _lobby(repo)
    holder.join()
    assert (await repo.get_game(game_id)).status == LOBBY
    assert any("database is locked" in r.getMessage() for r in caplog.records)
    await repo.close()


async def test_retries_give_up_with_the_error(db_path: Path) -> None:
    repo = await open_repository(db_path, busy_timeout_ms=10, retries=1, retry_delay=0.01)
    ready = threading.Event()
    holder = threading.Thread(target=_hold_write_lock, args=(db_path, 0.5, ready))
    holder.start()
    ready.wait()
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        await _lobby(repo)
    await asyncio.to_thread(holder.join)
    assert await repo.count_games() == 0
    await repo.close()


async def test_postgres_migrations_are_recorded_and_idempotent(
        new_postgres: NewDatabase) -> None:
    dsn = await new_postgres(migrated=False)
    assert [n for n, _, _ in postgres_migrations()] == [n for n, _, _ in migrations()]
    repo = await open_repository(dsn)
    assert await repo.schema_version() == migrations()[-1][0]
    await repo.close()
    again = await open_repository(dsn)  # a second process starting on the same database
    assert await again.migrate() == []
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch("SELECT version, name FROM schema_version ORDER BY version")
        assert [tuple(r) for r in rows] == [(n, name) for n, name, _ in postgres_migrations()]
        game_id = await _active(again)
        await _move(again, game_id, 0)
        for sql in ("UPDATE actions SET action = 'cheat'", "DELETE FROM actions"):
            with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
                await conn.execute(sql)
    finally:
        await conn.close()
        await again.close()


async def test_postgres_processes_migrating_together_apply_each_migration_once(
        new_postgres: NewDatabase) -> None:
    dsn = await new_postgres(migrated=False)
    repos = await asyncio.gather(*(open_repository(dsn) for _ in range(3)))
    try:
        assert {await r.schema_version() for r in repos} == {migrations()[-1][0]}
    finally:
        for repo in repos:
            await repo.close()


@both_backends
async def test_big_discord_ids_and_fractional_times_round_trip(repo: Repository) -> None:
    snowflake = 1_234_567_890_123_456_789  # Discord ids do not fit in 32 bits
    game = await repo.create_game(
        guild_id=snowflake, channel_id=snowflake + 1, game_key="race", creator_id=snowflake,
        options={"goal": 6}, seed=2 ** 40, max_seats=2, reminder_hours=0.5,
        seats=[Seat(0, snowflake, "Ann")], now=NOW + 0.25)
    again = await repo.get_game(game.id)
    assert again == game
    assert (again.guild_id, again.seats[0].user_id, again.reminder_hours,
            again.created_at) == (snowflake, snowflake, 0.5, NOW + 0.25)
    await repo.set_lobby_message(game.id, snowflake + 2)
    assert (await repo.get_game(game.id)).lobby_message_id == snowflake + 2
    assert [g.id for g in await repo.games_with_user(snowflake, (LOBBY,))] == [game.id]
    assert await repo.guild_games(snowflake, (LOBBY,), limit=5) == [
        await repo.get_game(game.id)]
    assert await repo.count_guild_games(snowflake, (LOBBY,)) == 1


@both_backends
async def test_votes_and_ballots(repo: Repository) -> None:
    game_id = await _active(repo)
    cancel = await repo.create_vote(game_id, "cancel", user_id=7, now=NOW)
    with pytest.raises(RequestPending):  # one open vote per topic
        await repo.create_vote(game_id, "cancel", user_id=8, now=NOW)
    undo = await repo.create_vote(game_id, "undo", user_id=7, now=NOW, voters=[8],
                                  expires_at=NOW + 60, version=0, seat=0, rewind_to=0)
    assert (undo.voters, undo.version, undo.seat, undo.rewind_to) == ((8,), 0, 0, 0)
    await repo.cast_ballot(cancel.id, 7, True, now=NOW)
    voted = await repo.cast_ballot(cancel.id, 8, False, now=NOW)
    voted = await repo.cast_ballot(cancel.id, 8, True, now=NOW)  # changed
    assert dict(voted.votes) == {7: True, 8: True}
    await repo.withdraw_ballots(game_id, 8)
    assert dict((await repo.open_vote(game_id, "cancel")).votes) == {7: True}
    assert await repo.close_vote(undo.id, "accepted", now=NOW)
    assert not await repo.close_vote(undo.id, "void", now=NOW)
    assert (await repo.vote(undo.id)).status == "accepted"
    with pytest.raises(VersionConflict):
        await repo.cast_ballot(undo.id, 8, False, now=NOW)
    await repo.create_vote(game_id, "pause", user_id=8, now=NOW)
    assert await repo.close_open_votes(game_id, "void", now=NOW, keep=["pause"]) == 1
    assert await repo.open_vote(game_id, "cancel") is None
    assert await repo.open_vote(game_id, "pause") is not None


@both_backends
async def test_undo_entries_and_replay_snapshots(repo: Repository) -> None:
    game_id = await _active(repo)
    repo.snapshot_every = 2
    for version in range(4):
        await _move(repo, game_id, version)
    game = await repo.save_undo(game_id, expected_version=4, state={"n": 2}, seat=0,
                                rewind_to=2, undone=[3, 4], awaited=[], now=NOW)
    assert (game.version, game.moves) == (5, 2)
    history = await repo.history(game_id)
    assert [(r.seq, r.undone, r.is_undo) for r in history] == [
        (1, False, False), (2, False, False), (3, True, False), (4, True, False),
        (5, False, True)]
    assert [r.seq for r in await repo.entries(game_id, 2, 3)] == [2, 3]
    base = await repo.replay_base(game_id, 2)  # snapshot at position 2 is not before 2
    assert (base.position, base.state, [m.seq for m in base.moves]) == (0, None, [1, 2])
    await _move(repo, game_id, 5)
    await _move(repo, game_id, 6)  # position 4: a new snapshot, the old one at 4 was undone
    base = await repo.replay_base(game_id, 4)
    assert (base.position, base.state, [m.seq for m in base.moves]) == (2, {"n": 2}, [6, 7])
    assert [r.seq for r in await repo.undo_tail(game_id, 0)] == [6, 7]
    assert await repo.moved_since(game_id, 1, 4)  # the undo entry counts
    assert not await repo.moved_since(game_id, 1, 5)


@both_backends
async def test_timing_rows_follow_the_turns(repo: Repository) -> None:
    game_id = await _active(repo)
    awaited = [AwaitedSeat(0, 7, NOW + 3600, deadline_at=NOW + 100, warn_at=NOW + 50)]
    await repo.save_move(game_id, expected_version=0, state={"n": 1}, seat=1, action="go",
                         public=(), private=(), turn_end=True, finished=False,
                         awaited=awaited, now=NOW)
    (row,) = await repo.reminders(game_id)
    assert (row.seat, row.user_id, row.turn_version, row.next_at) == (0, 7, 1, NOW + 3600)
    assert [r.seat for r in await repo.due_warnings(NOW + 60)] == [0]
    assert await repo.due_deadlines(NOW + 60) == []
    await repo.set_game_reminder_hours(game_id, 0.5, now=NOW)
    assert (await repo.reminders(game_id))[0].next_at == NOW + 1800
    assert [r.seat for r in await repo.due_reminders(NOW + 1800)] == [0]
    assert await repo.mute_reminders(game_id, 7) == 1
    assert await repo.due_reminders(NOW + 1800) == []
    assert await repo.claim_timeout(game_id, 0, 7, 1, expected_version=1, now=NOW + 50) is None
    assert await repo.claim_timeout(game_id, 0, 7, 1, expected_version=1, now=NOW + 100) == 1
    assert await repo.claim_timeout(game_id, 0, 7, 1, expected_version=1, now=NOW + 100) == 1
    await repo.reset_misses(game_id, 0)
    ai = Seat(0, None, "AI 1")
    game = await repo.abandon_seat(game_id, ai, 7, 1, now=NOW)
    assert game.seats[0].is_ai and await repo.abandoned_seats(game_id) == {0: 7}
    assert await repo.reminders(game_id) == []
    game = await repo.take_over_seat(game_id, Seat(0, 9, "Cy"), version=1, now=NOW)
    assert game.seats[0].user_id == 9 and await repo.abandoned_seats(game_id) == {}
    assert (await repo.reliability(7)).timeouts == 1
    policy = DeadlinePolicy(hours=12.5, on_timeout="skip", abandon_after=2)
    await repo.set_deadline_policy(game_id, policy, now=NOW)
    assert await repo.deadline_policy(game_id) == policy


@both_backends
async def test_calendar_vacations_and_held_notices(repo: Repository) -> None:
    game_id = await _active(repo)
    vacation = await repo.add_vacation(7, NOW, NOW + 100)
    assert await repo.current_vacation(7, NOW + 1) == vacation
    await repo.end_vacation(vacation.id, NOW - 50)  # never before its start
    assert await repo.vacations_since(7, 0) == [
        Vacation(vacation.id, 7, NOW, NOW, False)]
    assert [v.id for v in await repo.vacations_to_resume(NOW)] == [vacation.id]
    await repo.mark_vacation_resumed(vacation.id)
    assert await repo.vacations_to_resume(NOW) == []
    await repo.add_notice(game_id, 0, 1, 7, "turn", NOW + 10)
    (notice,) = await repo.due_notices(NOW + 10)
    await repo.delete_notice(notice.id)
    assert await repo.due_notices(NOW + 10) == []


@both_backends
async def test_ratings_rate_a_game_once(repo: Repository) -> None:
    game_id = await _active(repo)

    def update(known: Mapping[int, tuple[float, float]]) -> dict[int, tuple[float, float, bool]]:
        return {u: (known.get(u, (25.0, 8.0))[0] + 1, 7.5, u == 7) for u in (7, 8)}

    assert await repo.update_ratings(game_id, "race", [0, 1], [7, 8], update, now=NOW)
    assert not await repo.update_ratings(game_id, "race", [0, 1], [7, 8], update, now=NOW)
    board = await repo.leaderboard(0, "race", limit=10)
    assert [(r.user_id, r.mu, r.games, r.wins) for r in board] == [(7, 26.0, 1, 1),
                                                                   (8, 26.0, 1, 0)]
    assert await repo.count_rated(1, "race") == 2
    assert [r.game_key for r in await repo.user_ratings(8, 1)] == ["race"]
    secret = await repo.secret("signing", lambda: b"\x00key")
    assert await repo.secret("signing", lambda: b"other") == secret == b"\x00key"


async def _due_everywhere(repo: Repository, channel: int) -> int:
    """An active game whose awaited seat's reminder, warning and deadline are all due."""
    game_id = await _active(repo, channel)
    awaited = [AwaitedSeat(0, 7, NOW, deadline_at=NOW, warn_at=NOW)]
    await repo.save_move(game_id, expected_version=0, state={"n": 1}, seat=1, action="go",
                         public=(), private=(), turn_end=True, finished=False,
                         awaited=awaited, now=NOW,
                         outbox=[Outgoing("turn", {"v": 1}, f"nonce-{channel}-1")])
    await repo.save_move(game_id, expected_version=1, state={"n": 2}, seat=0, action="go",
                         public=(), private=(), turn_end=False, finished=False,
                         awaited=awaited, now=NOW,
                         outbox=[Outgoing("turn", {"v": 2}, f"nonce-{channel}-2")])
    return game_id


@both_backends
async def test_claims_hand_each_job_to_one_holder_until_done_or_its_lease_ends(
        repo: Repository, database: str | Path) -> None:
    other = await open_repository(database)  # a second process on the same database
    try:
        game_id = await _due_everywhere(repo, 10)
        for claim in ("claim_due_reminders", "claim_due_warnings", "claim_due_deadlines"):
            mine = await getattr(repo, claim)(NOW, lease=60)
            assert [(r.game_id, r.seat) for r in mine] == [(game_id, 0)], claim
            for poller in (other, repo):  # held: neither process gets it again
                assert await getattr(poller, claim)(NOW + 59, lease=60) == [], claim
        # The holder died: once its lease is over, the other process does the job.
        assert len(await other.claim_due_deadlines(NOW + 120, lease=60)) == 1
        # Doing the job releases it: the next ping or warning is claimable when due.
        await repo.reschedule_reminder(game_id, 0, NOW + 10)
        assert len(await other.claim_due_reminders(NOW + 10)) == 1
        await repo.set_warn_at(game_id, 0, 1, NOW + 10)
        assert len(await other.claim_due_warnings(NOW + 10)) == 1

        # The outbox hands out only a game's oldest pending message: the next one waits.
        (first,) = await repo.claim_outbox(NOW, lease=60)
        assert first.payload == {"v": 1}
        assert await other.claim_outbox(NOW) == []
        await repo.release_outbox(first.id)  # the post failed for now: anyone may retry
        assert await other.claim_outbox(NOW, lease=60) == [first]
        await other.outbox_done(first.id, now=NOW, message_id=5)
        (second,) = await repo.claim_outbox(NOW, lease=60)
        assert second.payload == {"v": 2}
        assert await other.claim_outbox(NOW) == []

        # The AI move awaited at one version is thought by one process.
        assert not await repo.claim_ai_turn(game_id, 1, now=NOW)  # not the game's version
        assert await repo.claim_ai_turn(game_id, 2, now=NOW, lease=60)
        assert not await other.claim_ai_turn(game_id, 2, now=NOW + 59)
        assert not await repo.claim_ai_turn(game_id, 2, now=NOW + 59)
        assert await other.claim_ai_turn(game_id, 2, now=NOW + 60)  # the lease ran out
    finally:
        await other.close()


@both_backends
async def test_a_restarted_process_gives_back_the_claims_of_its_previous_life(
        database: str | Path) -> None:
    before = await open_repository(database, owner="bot-1")
    game_id = await _due_everywhere(before, 10)
    assert len(await before.claim_due_reminders(NOW)) == 1
    assert len(await before.claim_outbox(NOW)) == 1
    assert await before.claim_ai_turn(game_id, 2, now=NOW)
    await before.close()  # it died holding them
    other = await open_repository(database, owner="bot-2")
    after = await open_repository(database, owner="bot-1")  # the same process, restarted
    try:
        assert await other.release_claims() == 0  # not its claims
        assert await other.claim_due_reminders(NOW) == []
        assert await after.release_claims() == 3
        assert len(await after.claim_due_reminders(NOW)) == 1
        assert len(await after.claim_outbox(NOW)) == 1
        assert await after.claim_ai_turn(game_id, 2, now=NOW)
    finally:
        await other.close()
        await after.close()


async def _poll(repo: Repository, claim: str) -> list[object]:
    """One pass of a process's periodic job: claim what is due, then do it (the job is
    then no longer due). Returns the jobs it did."""
    done: list[object] = []
    for row in await getattr(repo, claim)(NOW, lease=60, limit=4):
        if claim == "claim_outbox":
            await repo.outbox_done(row.id, now=NOW, message_id=1)
            done.append(row.id)
            continue
        if claim == "claim_due_reminders":
            await repo.reschedule_reminder(row.game_id, row.seat, NOW + 3600)
        else:
            await repo.set_clocks(row.game_id, [SeatClock(row.seat, None, None, None)])
        done.append((row.game_id, row.seat))
    return done


async def test_postgres_concurrent_claims_never_hand_out_a_job_twice(
        new_postgres: NewDatabase) -> None:
    """Two processes (two pools, three pollers each) work through the same due jobs at
    once: every job is done exactly once, by one of them."""
    dsn = await new_postgres()
    setup, first, second = [await open_repository(dsn) for _ in range(3)]
    pollers = (first, second) * 3
    try:
        games = [await _due_everywhere(setup, channel) for channel in range(100, 140)]
        for claim in ("claim_due_reminders", "claim_due_deadlines", "claim_outbox"):
            done: list[tuple[int, object]] = []
            for _ in range(100):  # bounded: each pass does at least one job until none left
                passes = await asyncio.gather(*(_poll(repo, claim) for repo in pollers))
                if not any(passes):
                    break
                done += [(id(repo), job) for repo, jobs in zip(pollers, passes, strict=True)
                         for job in jobs]
            jobs = [job for _, job in done]
            assert len(jobs) == len(set(jobs)), claim  # never twice
            # Every game's job was done (the outbox: both messages of each game, in turn).
            assert len(jobs) == len(games) * (2 if claim == "claim_outbox" else 1), claim
            assert {holder for holder, _ in done} == {id(first), id(second)}, claim

        won = await asyncio.gather(*(repo.claim_ai_turn(g, 2, now=NOW, lease=60)
                                     for g in games for repo in (first, second)))
        assert [a + b for a, b in zip(won[::2], won[1::2], strict=True)] == [1] * len(games)
    finally:
        for repo in (setup, first, second):
            await repo.close()


async def test_postgres_two_concurrent_moves_at_one_version_store_one(
        new_postgres: NewDatabase) -> None:
    dsn = await new_postgres()
    one, two = await open_repository(dsn), await open_repository(dsn)
    try:
        for round_ in range(10):
            game_id = await _active(one, channel=200 + round_)
            results = await asyncio.gather(
                *(repo.save_move(game_id, expected_version=0, state={"by": n}, seat=n,
                                 action=f"go {n}", public=(), private=(), turn_end=False,
                                 finished=False, awaited=[], now=NOW)
                  for n, repo in enumerate((one, two))), return_exceptions=True)
            stale = [r for r in results if isinstance(r, VersionConflict)]
            stored = [r for r in results if not isinstance(r, BaseException)]
            assert (len(stored), len(stale)) == (1, 1), results
            info, state = await two.load_game(game_id)
            winner = stored[0].seats  # the game as the winner saw it
            assert info.version == 1 and state["by"] in (0, 1) and winner
            assert [r.seq for r in await one.log(game_id)] == [1]
    finally:
        await one.close()
        await two.close()


@both_backends
async def test_claims_of_a_sharded_process_are_its_own_guilds_jobs(repo: Repository) -> None:
    """Discord's rule: a guild is on shard (guild_id >> 22) % count."""
    game_id = await _due_everywhere(repo, 10)  # guild 1: shard 0 of 2
    other, mine = Shards(2, frozenset({1})), Shards(2, frozenset({0}))
    for claim in ("claim_due_reminders", "claim_due_warnings", "claim_due_deadlines",
                  "claim_outbox"):
        assert await getattr(repo, claim)(NOW, shards=other) == [], claim
        assert [r.game_id for r in await getattr(repo, claim)(NOW, shards=mine)] == [
            game_id], claim
    assert [r.game_id for r in await repo.pending_outbox(shards=mine)] == [game_id] * 2
    assert await repo.pending_outbox(shards=other) == []
    # The deadline pass's reads that claim nothing are filtered the same way.
    assert [r.game_id for r in await repo.pending_before(shards=mine)] == [game_id]
    assert await repo.pending_before(shards=other) == []
    await repo.add_notice(game_id, 0, 2, 7, "before", NOW)
    assert [n.game_id for n in await repo.due_notices(NOW, shards=mine)] == [game_id]
    assert await repo.due_notices(NOW, shards=other) == []
