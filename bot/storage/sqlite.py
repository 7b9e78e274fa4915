"""The SQLite backend of :class:`bot.storage.base.Repository` — the only module with SQL.

One aiosqlite connection per process, in WAL mode (readers never block the writer) with
foreign keys on. Coroutines share the connection, so an asyncio lock keeps each transaction
whole. Writes use ``BEGIN IMMEDIATE`` and are retried a few times, with a log line each, when
another process holds the write lock longer than ``busy_timeout``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.models import (
    ACTIVE,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    GameInfo,
    GuildSettings,
    Seat,
    UserSettings,
)
from bot.storage.base import (
    AwaitedSeat,
    ChannelTaken,
    LogRow,
    Reminder,
    Repository,
    SeatTaken,
    VersionConflict,
)
from engines.base import Event

log = logging.getLogger(__name__)
T = TypeVar("T")
_MIGRATION_NAME = re.compile(r"^(\d+)_[a-z0-9_]+\.sql$")
_GAME_COLUMNS = ("id, guild_id, channel_id, game_key, status, creator_id, options, seed, "
                 "version, max_seats, created_at, updated_at, lobby_message_id, reminder_hours")
_GUILD_FIELDS = ("locale", "reminder_hours")
_USER_FIELDS = ("locale", "dm_opt_in", "reminder_hours")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _events(raw: str) -> tuple[Event, ...]:
    return tuple(Event.from_dict(e) for e in json.loads(raw))


def _is_busy(err: sqlite3.OperationalError) -> bool:
    text = str(err).lower()
    return "locked" in text or "busy" in text


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every bundled migration, in order."""
    found = []
    for entry in resources.files("bot.storage").joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _, _ in found]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError(f"two migrations share a number: {numbers}")
    return found


def _statements(script: str) -> list[str]:
    """Split a script into statements (trigger bodies contain ';' too)."""
    out: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            out.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise RuntimeError(f"incomplete SQL statement at the end of a migration: {buffer!r}")
    return out


class SqliteRepository(Repository):
    """Open with :meth:`open` (applies pending migrations)."""

    def __init__(self, conn: aiosqlite.Connection, path: Path, *, retries: int,
                 retry_delay: float) -> None:
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._retries = retries
        self._retry_delay = retry_delay

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout_ms: int = 5000, retries: int = 5,
                   retry_delay: float = 0.05) -> SqliteRepository:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        repo = cls(conn, path, retries=retries, retry_delay=retry_delay)
        try:
            await repo.migrate()
        except BaseException:
            await conn.close()
            raise
        return repo

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    async def pragma(self, name: str) -> Any:
        """Read one PRAGMA (tests check WAL and foreign keys)."""
        if not name.isidentifier():
            raise ValueError(name)
        return await self._read(lambda c: self._scalar(c, f"PRAGMA {name}"))

    # --- transactions ------------------------------------------------------------------
    async def _run(self, fn: Callable[[aiosqlite.Connection], Awaitable[T]], *,
                   write: bool) -> T:
        attempt = 0
        async with self._lock:
            while True:
                try:
                    if not write:
                        return await fn(self._conn)
                    await self._conn.execute("BEGIN IMMEDIATE")
                    try:
                        result = await fn(self._conn)
                        await self._conn.commit()
                    except BaseException:
                        if self._conn.in_transaction:
                            await self._conn.rollback()
                        raise
                    return result
                except sqlite3.OperationalError as err:
                    if not _is_busy(err) or attempt >= self._retries:
                        raise
                    attempt += 1
                    delay = self._retry_delay * 2 ** (attempt - 1)
                    log.warning("database is locked (%s); retry %d/%d in %.2fs",
                                err, attempt, self._retries, delay)
                    await asyncio.sleep(delay)

    def _read(self, fn: Callable[[aiosqlite.Connection], Awaitable[T]]) -> Awaitable[T]:
        return self._run(fn, write=False)

    def _write(self, fn: Callable[[aiosqlite.Connection], Awaitable[T]]) -> Awaitable[T]:
        return self._run(fn, write=True)

    @staticmethod
    async def _scalar(conn: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> Any:
        async with conn.execute(sql, params) as cur:
            row = await cur.fetchone()
        return None if row is None else row[0]

    # --- migrations --------------------------------------------------------------------
    async def migrate(self) -> list[int]:
        """Apply pending migrations, each in its own transaction; return those applied."""
        applied: list[int] = []
        for number, name, script in migrations():
            async def step(conn: aiosqlite.Connection, number: int = number, name: str = name,
                           script: str = script) -> bool:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                    "name TEXT NOT NULL, applied_at REAL NOT NULL)")
                if await self._scalar(conn, "SELECT 1 FROM schema_version WHERE version = ?",
                                      (number,)):
                    return False
                for statement in _statements(script):
                    await conn.execute(statement)
                await conn.execute("INSERT INTO schema_version VALUES (?, ?, ?)",
                                   (number, name, time.time()))
                return True

            if await self._write(step):
                log.info("applied migration %s", name)
                applied.append(number)
        return applied

    async def schema_version(self) -> int:
        return int(await self._read(
            lambda c: self._scalar(c, "SELECT COALESCE(MAX(version), 0) FROM schema_version")))

    # --- row mapping -------------------------------------------------------------------
    @staticmethod
    async def _seats(conn: aiosqlite.Connection, ids: Iterable[int]) -> dict[int, list[Seat]]:
        ids = list(ids)
        by_game: dict[int, list[Seat]] = {i: [] for i in ids}
        if not ids:
            return by_game
        marks = ",".join("?" * len(ids))
        sql = (f"SELECT game_id, seat, user_id, name FROM seats WHERE game_id IN ({marks}) "
               "ORDER BY game_id, seat")
        async with conn.execute(sql, ids) as cur:
            async for row in cur:
                by_game[row["game_id"]].append(Seat(row["seat"], row["user_id"], row["name"]))
        return by_game

    @staticmethod
    def _info(row: sqlite3.Row, seats: Sequence[Seat]) -> GameInfo:
        return GameInfo(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
            game_key=row["game_key"], status=row["status"], creator_id=row["creator_id"],
            options=json.loads(row["options"]), seed=row["seed"], version=row["version"],
            max_seats=row["max_seats"], seats=tuple(seats), created_at=row["created_at"],
            updated_at=row["updated_at"], lobby_message_id=row["lobby_message_id"],
            reminder_hours=row["reminder_hours"])

    async def _games(self, conn: aiosqlite.Connection, where: str,
                     params: Sequence[Any] = ()) -> list[GameInfo]:
        async with conn.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where}",
                                params) as cur:
            rows = list(await cur.fetchall())
        seats = await self._seats(conn, (r["id"] for r in rows))
        return [self._info(r, seats[r["id"]]) for r in rows]

    async def _game(self, conn: aiosqlite.Connection, game_id: int) -> GameInfo:
        games = await self._games(conn, "id = ?", (game_id,))
        if not games:
            raise VersionConflict(f"game {game_id} does not exist")
        return games[0]

    # --- games -------------------------------------------------------------------------
    async def create_game(self, *, guild_id: int | None, channel_id: int, game_key: str,
                          creator_id: int, options: Mapping[str, Any], seed: int,
                          max_seats: int, reminder_hours: float, seats: Sequence[Seat],
                          now: float) -> GameInfo:
        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            try:
                cur = await conn.execute(
                    "INSERT INTO games (guild_id, channel_id, game_key, status, creator_id, "
                    "options, seed, max_seats, reminder_hours, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, game_key, LOBBY, creator_id, _dumps(dict(options)),
                     seed, max_seats, reminder_hours, now, now))
            except sqlite3.IntegrityError as err:
                raise ChannelTaken(f"channel {channel_id} already has an open game") from err
            game_id = cur.lastrowid
            assert game_id is not None
            await self._insert_seats(conn, game_id, seats)
            return await self._game(conn, game_id)

        return await self._write(tx)

    @staticmethod
    async def _insert_seats(conn: aiosqlite.Connection, game_id: int,
                            seats: Sequence[Seat]) -> None:
        try:
            await conn.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                [(game_id, s.seat, s.user_id, s.name) for s in seats])
        except sqlite3.IntegrityError as err:
            raise SeatTaken(str(err)) from err

    async def get_game(self, game_id: int) -> GameInfo | None:
        games = await self._read(lambda c: self._games(c, "id = ?", (game_id,)))
        return games[0] if games else None

    async def load_game(self, game_id: int) -> tuple[GameInfo, dict[str, Any] | None] | None:
        async def tx(conn: aiosqlite.Connection) -> tuple[GameInfo, dict[str, Any] | None] | None:
            games = await self._games(conn, "id = ?", (game_id,))
            if not games:
                return None
            raw = await self._scalar(conn, "SELECT state FROM games WHERE id = ?", (game_id,))
            return games[0], (None if raw is None else json.loads(raw))

        # Game row and snapshot read in one transaction so they always match.
        async def snapshot(conn: aiosqlite.Connection) -> Any:
            await conn.execute("BEGIN")
            try:
                return await tx(conn)
            finally:
                await conn.rollback()

        result: tuple[GameInfo, dict[str, Any] | None] | None = await self._read(snapshot)
        return result

    async def open_game_in_channel(self, channel_id: int) -> GameInfo | None:
        games = await self._read(lambda c: self._games(
            c, "channel_id = ? AND status IN (?, ?)", (channel_id, *OPEN_STATUSES)))
        return games[0] if games else None

    async def games_with_user(self, user_id: int, statuses: Sequence[str]) -> list[GameInfo]:
        marks = ",".join("?" * len(statuses))
        return await self._read(lambda c: self._games(
            c, f"status IN ({marks}) AND id IN (SELECT game_id FROM seats WHERE user_id = ?) "
               "ORDER BY id", (*statuses, user_id)))

    async def games_with_status(self, statuses: Sequence[str]) -> list[GameInfo]:
        marks = ",".join("?" * len(statuses))
        return await self._read(lambda c: self._games(
            c, f"status IN ({marks}) ORDER BY id", tuple(statuses)))

    async def count_games(self, statuses: Sequence[str] | None = None) -> int:
        if statuses is None:
            return int(await self._read(lambda c: self._scalar(c, "SELECT COUNT(*) FROM games")))
        marks = ",".join("?" * len(statuses))
        return int(await self._read(lambda c: self._scalar(
            c, f"SELECT COUNT(*) FROM games WHERE status IN ({marks})", tuple(statuses))))

    async def set_seats(self, game_id: int, seats: Sequence[Seat], *, now: float) -> GameInfo:
        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            cur = await conn.execute(
                "UPDATE games SET updated_at = ? WHERE id = ? AND status = ?",
                (now, game_id, LOBBY))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is not a lobby")
            await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self._insert_seats(conn, game_id, seats)
            return await self._game(conn, game_id)

        return await self._write(tx)

    async def replace_seat(self, game_id: int, seat: Seat, *, now: float) -> GameInfo:
        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            cur = await conn.execute(
                "UPDATE seats SET user_id = ?, name = ? WHERE game_id = ? AND seat = ?",
                (seat.user_id, seat.name, game_id, seat.seat))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} has no seat {seat.seat}")
            await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            if seat.user_id is None:
                await conn.execute("DELETE FROM reminders WHERE game_id = ? AND seat = ?",
                                   (game_id, seat.seat))
            return await self._game(conn, game_id)

        return await self._write(tx)

    @staticmethod
    async def _sync_reminders(conn: aiosqlite.Connection, game_id: int, version: int,
                              awaited: Sequence[AwaitedSeat], now: float) -> None:
        """Keep one reminder row per awaited human; a seat still awaited keeps its row."""
        seats = [a.seat for a in awaited]
        marks = ",".join("?" * len(seats))
        keep = f" AND seat NOT IN ({marks})" if seats else ""
        await conn.execute(f"DELETE FROM reminders WHERE game_id = ?{keep}", (game_id, *seats))
        await conn.executemany(
            "INSERT OR IGNORE INTO reminders (game_id, seat, user_id, turn_version, since, "
            "next_at) VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, a.seat, a.user_id, version, now, a.next_at) for a in awaited])

    async def start_game(self, game_id: int, state: Mapping[str, Any], *, now: float,
                         awaited: Sequence[AwaitedSeat]) -> GameInfo:
        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            cur = await conn.execute(
                "UPDATE games SET status = ?, state = ?, version = 0, updated_at = ? "
                "WHERE id = ? AND status = ?", (ACTIVE, _dumps(state), now, game_id, LOBBY))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is not a lobby")
            await self._sync_reminders(conn, game_id, 0, awaited, now)
            return await self._game(conn, game_id)

        return await self._write(tx)

    async def save_move(self, game_id: int, *, expected_version: int, state: Mapping[str, Any],
                        seat: int, action: str, public: Sequence[Event],
                        private: Sequence[Event], turn_end: bool, finished: bool,
                        awaited: Sequence[AwaitedSeat], now: float) -> GameInfo:
        version = expected_version + 1

        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            status = FINISHED if finished else ACTIVE
            cur = await conn.execute(
                "UPDATE games SET state = ?, version = version + 1, status = ?, updated_at = ?, "
                "finished_at = ? WHERE id = ? AND version = ? AND status = ?",
                (_dumps(state), status, now, now if finished else None, game_id,
                 expected_version, ACTIVE))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is no longer at version "
                                      f"{expected_version}")
            await conn.execute(
                "INSERT INTO actions (game_id, seq, seat, action, public_events, "
                "private_events, turn_end, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, version, seat, action, _dumps([e.to_dict() for e in public]),
                 _dumps([e.to_dict() for e in private]), int(turn_end), now))
            if turn_end:  # whoever is awaited after a turn end begins a new turn
                await conn.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
            await self._sync_reminders(conn, game_id, version, () if finished else awaited, now)
            return await self._game(conn, game_id)

        return await self._write(tx)

    async def set_status(self, game_id: int, status: str, *, expected: Sequence[str],
                         now: float) -> GameInfo:
        marks = ",".join("?" * len(expected))

        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            ended = status not in OPEN_STATUSES
            cur = await conn.execute(
                f"UPDATE games SET status = ?, updated_at = ?, finished_at = ? "
                f"WHERE id = ? AND status IN ({marks})",
                (status, now, now if ended else None, game_id, *expected))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is not {'/'.join(expected)}")
            if ended:
                await conn.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
            return await self._game(conn, game_id)

        return await self._write(tx)

    async def set_lobby_message(self, game_id: int, message_id: int | None) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute("UPDATE games SET lobby_message_id = ? WHERE id = ?",
                               (message_id, game_id))

        await self._write(tx)

    async def set_game_reminder_hours(self, game_id: int, hours: float, *,
                                      now: float) -> GameInfo:
        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            await conn.execute("UPDATE games SET reminder_hours = ?, updated_at = ? WHERE id = ?",
                               (hours, now, game_id))
            await conn.execute(
                "UPDATE reminders SET next_at = CASE WHEN ? > 0 THEN since + ? * 3600 END "
                "WHERE game_id = ?", (hours, hours, game_id))
            return await self._game(conn, game_id)

        return await self._write(tx)

    # --- action log --------------------------------------------------------------------
    @staticmethod
    def _log_row(row: sqlite3.Row) -> LogRow:
        return LogRow(seq=row["seq"], seat=row["seat"], action=row["action"],
                      public=_events(row["public_events"]),
                      private=_events(row["private_events"]), turn_end=bool(row["turn_end"]),
                      created_at=row["created_at"])

    async def _log_rows(self, sql: str, params: Sequence[Any]) -> list[LogRow]:
        async def q(conn: aiosqlite.Connection) -> list[LogRow]:
            async with conn.execute(sql, params) as cur:
                return [self._log_row(r) for r in await cur.fetchall()]

        return await self._read(q)

    async def log(self, game_id: int, *, limit: int = 20,
                  before_seq: int | None = None) -> list[LogRow]:
        before = before_seq if before_seq is not None else 2 ** 62
        rows = await self._log_rows(
            "SELECT * FROM actions WHERE game_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
            (game_id, before, max(0, limit)))
        return rows[::-1]

    async def turn_batch(self, game_id: int, upto_seq: int) -> list[LogRow]:
        return await self._log_rows(
            "SELECT * FROM actions WHERE game_id = ? AND seq <= ? AND seq >= COALESCE("
            "(SELECT MAX(seq) FROM actions WHERE game_id = ? AND turn_end = 1 AND seq < ?), 1) "
            "ORDER BY seq", (game_id, upto_seq, game_id, upto_seq))

    # --- cancel votes ------------------------------------------------------------------
    async def _voters(self, conn: aiosqlite.Connection, game_id: int) -> set[int]:
        async with conn.execute("SELECT user_id FROM cancel_votes WHERE game_id = ?",
                                (game_id,)) as cur:
            return {r[0] for r in await cur.fetchall()}

    async def add_cancel_vote(self, game_id: int, user_id: int, *, now: float) -> set[int]:
        async def tx(conn: aiosqlite.Connection) -> set[int]:
            await conn.execute("INSERT OR IGNORE INTO cancel_votes VALUES (?, ?, ?)",
                               (game_id, user_id, now))
            return await self._voters(conn, game_id)

        return await self._write(tx)

    async def cancel_votes(self, game_id: int) -> set[int]:
        return await self._read(lambda c: self._voters(c, game_id))

    async def remove_cancel_vote(self, game_id: int, user_id: int) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute("DELETE FROM cancel_votes WHERE game_id = ? AND user_id = ?",
                               (game_id, user_id))

        await self._write(tx)

    # --- settings ----------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async def q(conn: aiosqlite.Connection) -> GuildSettings:
            async with conn.execute("SELECT * FROM guild_settings WHERE guild_id = ?",
                                    (guild_id,)) as cur:
                row = await cur.fetchone()
            if row is None:
                return GuildSettings(guild_id)
            return GuildSettings(guild_id, row["locale"], row["reminder_hours"])

        return await self._read(q)

    async def update_guild_settings(self, guild_id: int, values: Mapping[str, Any], *,
                                    now: float) -> GuildSettings:
        await self._upsert("guild_settings", "guild_id", guild_id, _GUILD_FIELDS, values, now)
        return await self.guild_settings(guild_id)

    async def user_settings(self, user_id: int) -> UserSettings:
        async def q(conn: aiosqlite.Connection) -> UserSettings:
            async with conn.execute("SELECT * FROM user_settings WHERE user_id = ?",
                                    (user_id,)) as cur:
                row = await cur.fetchone()
            if row is None:
                return UserSettings(user_id)
            return UserSettings(user_id, row["locale"], bool(row["dm_opt_in"]),
                                row["reminder_hours"])

        return await self._read(q)

    async def update_user_settings(self, user_id: int, values: Mapping[str, Any], *,
                                   now: float) -> UserSettings:
        await self._upsert("user_settings", "user_id", user_id, _USER_FIELDS, values, now)
        return await self.user_settings(user_id)

    async def _upsert(self, table: str, key: str, key_value: int, allowed: Sequence[str],
                      values: Mapping[str, Any], now: float) -> None:
        unknown = set(values) - set(allowed)
        if unknown:
            raise ValueError(f"unknown {table} fields: {sorted(unknown)}")
        names = list(values)
        columns = ", ".join([key, *names, "updated_at"])
        marks = ", ".join("?" * (len(names) + 2))
        updates = ", ".join(f"{n} = excluded.{n}" for n in [*names, "updated_at"])
        sql = (f"INSERT INTO {table} ({columns}) VALUES ({marks}) "
               f"ON CONFLICT ({key}) DO UPDATE SET {updates}")

        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute(sql, (key_value, *(values[n] for n in names), now))

        await self._write(tx)

    async def user_locales(self) -> dict[int, str]:
        async def q(conn: aiosqlite.Connection) -> dict[int, str]:
            async with conn.execute("SELECT user_id, locale FROM user_settings "
                                    "WHERE locale IS NOT NULL") as cur:
                return {r[0]: r[1] for r in await cur.fetchall()}

        return await self._read(q)

    # --- reminders ---------------------------------------------------------------------
    @staticmethod
    def _reminder(row: sqlite3.Row) -> Reminder:
        return Reminder(game_id=row["game_id"], seat=row["seat"], user_id=row["user_id"],
                        turn_version=row["turn_version"], since=row["since"],
                        next_at=row["next_at"], muted_at_version=row["muted_at_version"])

    async def _reminders(self, sql: str, params: Sequence[Any]) -> list[Reminder]:
        async def q(conn: aiosqlite.Connection) -> list[Reminder]:
            async with conn.execute(sql, params) as cur:
                return [self._reminder(r) for r in await cur.fetchall()]

        return await self._read(q)

    async def reminders(self, game_id: int) -> list[Reminder]:
        return await self._reminders(
            "SELECT * FROM reminders WHERE game_id = ? ORDER BY seat", (game_id,))

    async def due_reminders(self, now: float) -> list[Reminder]:
        return await self._reminders(
            "SELECT r.* FROM reminders r JOIN games g ON g.id = r.game_id "
            "WHERE r.next_at IS NOT NULL AND r.next_at <= ? AND g.status = ? "
            "AND (r.muted_at_version IS NULL OR r.muted_at_version < r.turn_version) "
            "ORDER BY r.next_at, r.game_id, r.seat", (now, ACTIVE))

    async def reschedule_reminder(self, game_id: int, seat: int, next_at: float | None) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute("UPDATE reminders SET next_at = ? WHERE game_id = ? AND seat = ?",
                               (next_at, game_id, seat))

        await self._write(tx)

    async def mute_reminders(self, game_id: int, user_id: int) -> int:
        async def tx(conn: aiosqlite.Connection) -> int:
            cur = await conn.execute(
                "UPDATE reminders SET muted_at_version = "
                "(SELECT version FROM games WHERE id = ?) WHERE game_id = ? AND user_id = ?",
                (game_id, game_id, user_id))
            return cur.rowcount

        return await self._write(tx)
