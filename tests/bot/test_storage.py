"""The SQLite repository: migrations, pragmas, constraints, atomic moves, lock retries."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from bot.core.models import ACTIVE, CANCELLED, FINISHED, LOBBY, Seat
from bot.core.storage import (
    AwaitedSeat,
    ChannelTaken,
    SeatTaken,
    SqliteRepository,
    VersionConflict,
    open_repository,
)
from bot.core.storage.sqlite import migrations
from engines.base import TURN_END, Event

NOW = 1000.0


async def _lobby(repo: SqliteRepository, channel: int = 10, **kw: object) -> int:
    game = await repo.create_game(
        guild_id=1, channel_id=channel, game_key="race", creator_id=7, options={"goal": 6},
        seed=42, max_seats=3, reminder_hours=24.0, seats=[Seat(0, 7, "Ann")], now=NOW)
    return game.id


async def _active(repo: SqliteRepository, channel: int = 10) -> int:
    game_id = await _lobby(repo, channel)
    await repo.set_seats(game_id, [Seat(0, 7, "Ann"), Seat(1, 8, "Bob")], now=NOW)
    await repo.start_game(game_id, {"n": 0}, now=NOW, awaited=[])
    return game_id


async def _move(repo: SqliteRepository, game_id: int, version: int, *, turn_end: bool = False,
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


async def test_wal_and_foreign_keys_are_on(repo: SqliteRepository) -> None:
    assert await repo.pragma("journal_mode") == "wal"
    assert await repo.pragma("foreign_keys") == 1
    with pytest.raises(VersionConflict):  # a seat of a game that does not exist
        await repo.replace_seat(999, Seat(0, None, "AI 1"), now=NOW)


async def test_one_open_game_per_channel_and_finished_games_are_kept(
        repo: SqliteRepository) -> None:
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


async def test_lobby_seats_are_unique_per_user(repo: SqliteRepository) -> None:
    game_id = await _lobby(repo)
    with pytest.raises(SeatTaken):
        await repo.set_seats(game_id, [Seat(0, 7, "Ann"), Seat(1, 7, "Ann again")], now=NOW)
    game = await repo.get_game(game_id)
    assert game.seats == (Seat(0, 7, "Ann"),)  # the failed change left nothing behind
    game = await repo.set_seats(game_id, [Seat(0, 7, "Ann"), Seat(1, None, "AI 1")], now=NOW)
    assert game.seats[1].is_ai


async def test_a_move_is_one_versioned_transaction(repo: SqliteRepository) -> None:
    game_id = await _active(repo)
    await _move(repo, game_id, 0)
    info, state = await repo.load_game(game_id)
    assert (info.version, state) == (1, {"n": 1})
    with pytest.raises(VersionConflict):
        await _move(repo, game_id, 0)  # someone else already moved from version 0
    info, state = await repo.load_game(game_id)
    assert (info.version, state) == (1, {"n": 1})
    assert [r.seq for r in await repo.log(game_id)] == [1]


async def test_a_failure_after_the_update_rolls_everything_back(repo: SqliteRepository) -> None:
    game_id = await _active(repo)
    unserialisable = (Event("x", {"bad": object()}),)
    with pytest.raises(TypeError):
        await _move(repo, game_id, 0, public=unserialisable)
    info, state = await repo.load_game(game_id)
    assert (info.version, state) == (0, {"n": 0})
    assert await repo.log(game_id) == []


async def test_finishing_a_game_keeps_it_and_closes_the_channel(repo: SqliteRepository) -> None:
    game_id = await _active(repo)
    await repo.save_move(game_id, expected_version=0, state={"n": 1}, seat=0, action="go 1",
                         public=(), private=(), turn_end=True, finished=True,
                         awaited=[AwaitedSeat(1, 8, NOW)], now=NOW)
    assert (await repo.get_game(game_id)).status == FINISHED
    assert await repo.reminders(game_id) == []
    assert await repo.open_game_in_channel(10) is None
    with pytest.raises(VersionConflict):  # no moves after the end
        await _move(repo, game_id, 1)


async def test_the_action_log_is_append_only(repo: SqliteRepository, db_path: Path) -> None:
    game_id = await _active(repo)
    await _move(repo, game_id, 0)
    with sqlite3.connect(db_path) as raw:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("UPDATE actions SET action = 'cheat'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM actions")


async def test_log_pages_and_turn_batches(repo: SqliteRepository) -> None:
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


async def test_settings_upsert_and_clear(repo: SqliteRepository) -> None:
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
