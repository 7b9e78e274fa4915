"""The SQLite backend of :class:`bot.core.storage.base.Repository` — the only module with SQL.

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

from bot.core.i18n import stored_event
from bot.core.models import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    DeadlinePolicy,
    GameInfo,
    GuildSettings,
    Reliability,
    Seat,
    UserSettings,
)
from bot.core.shards import Shards
from bot.core.storage.base import (
    AwaitedSeat,
    ChannelTaken,
    LogRow,
    Notice,
    OutboxRow,
    Outgoing,
    RatingRow,
    RatingUpdate,
    Reminder,
    ReplayBase,
    Repository,
    RequestPending,
    SeatClock,
    SeatTaken,
    Vacation,
    VersionConflict,
    Vote,
    undone_by,
)
from engines.base import Event

log = logging.getLogger(__name__)
T = TypeVar("T")
_MIGRATION_NAME = re.compile(r"^(\d+)_[a-z0-9_]+\.sql$")
_GAME_COLUMNS = ("id, guild_id, channel_id, game_key, status, creator_id, options, seed, "
                 "version, max_seats, created_at, updated_at, lobby_message_id, reminder_hours, "
                 "moves, imported, ai_level")
_GUILD_FIELDS = ("locale", "reminder_hours", "vacation_days")
_USER_FIELDS = ("locale", "dm_opt_in", "reminder_hours", "timezone", "quiet_start", "quiet_end",
                "notify_before")
# An entry that counts (not an undo entry, not taken back); ``a`` is the actions alias.
_EFFECTIVE = ("a.rewind_to IS NULL AND NOT EXISTS (SELECT 1 FROM undone_actions u "
              "WHERE u.game_id = a.game_id AND u.seq = a.seq)")

# A reminder row ``r`` whose clocks are stopped: its game is paused or its player is on
# vacation (two ``now`` parameters). Reminders wait too.
_CLOCKS_STOPPED = (
    "EXISTS (SELECT 1 FROM deadline_policies d WHERE d.game_id = r.game_id "
    "AND d.paused_at IS NOT NULL) OR EXISTS (SELECT 1 FROM vacations v "
    "WHERE v.user_id = r.user_id AND v.start_at <= ? AND v.end_at > ?)")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _events(raw: str) -> tuple[Event, ...]:
    """Logged events; those written before nested Messages get their "@key" texts back as
    Messages (:func:`bot.i18n.stored_event`)."""
    return tuple(stored_event(Event.from_dict(e)) for e in json.loads(raw))


def _is_busy(err: sqlite3.OperationalError) -> bool:
    text = str(err).lower()
    return "locked" in text or "busy" in text


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every bundled migration, in order."""
    found = []
    for entry in resources.files("bot.core.storage").joinpath("migrations").iterdir():
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
        self.rows_read = 0  # log rows and snapshots read so far (tests bound the costs)

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
        sql = (f"SELECT game_id, seat, user_id, name, ai_level FROM seats "
               f"WHERE game_id IN ({marks}) "
               "ORDER BY game_id, seat")
        async with conn.execute(sql, ids) as cur:
            async for row in cur:
                by_game[row["game_id"]].append(Seat(row["seat"], row["user_id"], row["name"],
                                                   row["ai_level"]))
        return by_game

    @staticmethod
    def _info(row: sqlite3.Row, seats: Sequence[Seat]) -> GameInfo:
        return GameInfo(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
            game_key=row["game_key"], status=row["status"], creator_id=row["creator_id"],
            options=json.loads(row["options"]), seed=row["seed"], version=row["version"],
            max_seats=row["max_seats"], seats=tuple(seats), created_at=row["created_at"],
            updated_at=row["updated_at"], lobby_message_id=row["lobby_message_id"],
            reminder_hours=row["reminder_hours"], moves=row["moves"],
            imported=bool(row["imported"]), ai_level=row["ai_level"])

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
                "INSERT INTO seats (game_id, seat, user_id, name, ai_level) "
                "VALUES (?, ?, ?, ?, ?)",
                [(game_id, s.seat, s.user_id, s.name, s.level) for s in seats])
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
                "UPDATE seats SET user_id = ?, name = ?, ai_level = ? "
                "WHERE game_id = ? AND seat = ?",
                (seat.user_id, seat.name, seat.level, game_id, seat.seat))
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
                              awaited: Sequence[AwaitedSeat], now: float,
                              keep_others: bool = False) -> None:
        """Keep one reminder row per awaited human; a seat still awaited keeps its row."""
        seats = [a.seat for a in awaited]
        marks = ",".join("?" * len(seats))
        keep = f" AND seat NOT IN ({marks})" if seats else ""
        if not keep_others:
            await conn.execute(f"DELETE FROM reminders WHERE game_id = ?{keep}",
                               (game_id, *seats))
        await conn.executemany(
            "INSERT OR IGNORE INTO reminders (game_id, seat, user_id, turn_version, since, "
            "next_at, deadline_at, deadline_left, warn_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, a.seat, a.user_id, version, now, a.next_at, a.deadline_at,
              a.deadline_left, a.warn_at) for a in awaited])

    async def start_game(self, game_id: int, state: Mapping[str, Any], *, now: float,
                         awaited: Sequence[AwaitedSeat],
                         outbox: Sequence[Outgoing] = ()) -> GameInfo:
        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            cur = await conn.execute(
                "UPDATE games SET status = ?, state = ?, version = 0, updated_at = ? "
                "WHERE id = ? AND status = ?", (ACTIVE, _dumps(state), now, game_id, LOBBY))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is not a lobby")
            await self._sync_reminders(conn, game_id, 0, awaited, now)
            await self._queue(conn, game_id, 0, outbox, now)
            return await self._game(conn, game_id)

        return await self._write(tx)

    async def save_move(self, game_id: int, *, expected_version: int, state: Mapping[str, Any],
                        seat: int, action: str, public: Sequence[Event],
                        private: Sequence[Event], turn_end: bool, finished: bool,
                        awaited: Sequence[AwaitedSeat], now: float,
                        irreversible: bool = True,
                        outbox: Sequence[Outgoing] = ()) -> GameInfo:
        version = expected_version + 1

        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            status = FINISHED if finished else ACTIVE
            snapshot = _dumps(state)
            cur = await conn.execute(
                "UPDATE games SET state = ?, version = version + 1, moves = moves + 1, "
                "status = ?, updated_at = ?, finished_at = ? "
                "WHERE id = ? AND version = ? AND status = ?",
                (snapshot, status, now, now if finished else None, game_id,
                 expected_version, ACTIVE))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is no longer at version "
                                      f"{expected_version}")
            moves = await self._scalar(conn, "SELECT moves FROM games WHERE id = ?", (game_id,))
            await conn.execute("INSERT INTO effective_moves (game_id, position, seq, seat) "
                               "VALUES (?, ?, ?, ?)", (game_id, moves, version, seat))
            if moves % self.snapshot_every == 0:
                await conn.execute("INSERT INTO snapshots (game_id, seq, position, state) "
                                   "VALUES (?, ?, ?, ?)", (game_id, version, moves, snapshot))
            await conn.execute(
                "INSERT INTO actions (game_id, seq, seat, action, public_events, "
                "private_events, turn_end, irreversible, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, version, seat, action, _dumps([e.to_dict() for e in public]),
                 _dumps([e.to_dict() for e in private]), int(turn_end), int(irreversible),
                 now))
            if turn_end:  # whoever is awaited after a turn end begins a new turn
                await conn.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
            await self._sync_reminders(conn, game_id, version, () if finished else awaited, now)
            await self._queue(conn, game_id, version, outbox, now)
            return await self._game(conn, game_id)

        return await self._write(tx)

    # --- outbox ------------------------------------------------------------------------
    @staticmethod
    async def _queue(conn: aiosqlite.Connection, game_id: int, version: int,
                     outbox: Sequence[Outgoing], now: float | None) -> None:
        created = time.time() if now is None else now
        await conn.executemany(
            "INSERT INTO outbox (game_id, version, kind, payload, nonce, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, version, o.kind, _dumps(o.payload), o.nonce, created) for o in outbox])

    async def pending_outbox(self, *, limit: int = 50,
                             shards: Shards | None = None) -> list[OutboxRow]:
        sql, params = "SELECT * FROM outbox WHERE sent_at IS NULL", [max(0, limit)]
        if shards is not None and not shards.everything:  # the games of these shards' guilds
            owned, values = shards.where("g.guild_id")
            sql = ("SELECT o.* FROM outbox o JOIN games g ON g.id = o.game_id "
                   f"WHERE o.sent_at IS NULL AND {owned}")
            params = [*values, *params]

        async def q(conn: aiosqlite.Connection) -> list[OutboxRow]:
            async with conn.execute(sql + " ORDER BY id LIMIT ?", params) as cur:
                rows = await cur.fetchall()
            return [OutboxRow(id=r["id"], game_id=r["game_id"], version=r["version"],
                              kind=r["kind"], payload=json.loads(r["payload"]),
                              nonce=r["nonce"], created_at=r["created_at"],
                              attempts=r["attempts"]) for r in rows]

        return await self._read(q)

    async def outbox_attempt(self, row_id: int) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute("UPDATE outbox SET attempts = attempts + 1 WHERE id = ?",
                               (row_id,))

        await self._write(tx)

    async def outbox_done(self, row_id: int, *, now: float, message_id: int | None = None,
                          failure: str | None = None) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            # The payload (a state snapshot) is no longer needed once the message is out.
            await conn.execute(
                "UPDATE outbox SET sent_at = ?, message_id = ?, failure = ?, payload = '{}' "
                "WHERE id = ?", (now, message_id, failure, row_id))

        await self._write(tx)

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

    async def set_game_ai_level(self, game_id: int, level: str, *, now: float) -> GameInfo:
        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            await conn.execute("UPDATE games SET ai_level = ?, updated_at = ? WHERE id = ?",
                               (level, now, game_id))
            return await self._game(conn, game_id)

        return await self._write(tx)

    # --- action log --------------------------------------------------------------------
    @staticmethod
    def _log_row(row: sqlite3.Row) -> LogRow:
        return LogRow(seq=row["seq"], seat=row["seat"], action=row["action"],
                      public=_events(row["public_events"]),
                      private=_events(row["private_events"]), turn_end=bool(row["turn_end"]),
                      created_at=row["created_at"], irreversible=bool(row["irreversible"]),
                      rewind_to=row["rewind_to"],
                      undone=bool(row["undone"]) if "undone" in row.keys()  # noqa: SIM118
                      else False)

    async def _log_rows(self, sql: str, params: Sequence[Any]) -> list[LogRow]:
        async def q(conn: aiosqlite.Connection) -> list[LogRow]:
            async with conn.execute(sql, params) as cur:
                return [self._log_row(r) for r in await cur.fetchall()]

        rows = await self._read(q)
        self.rows_read += len(rows)
        return rows

    async def log(self, game_id: int, *, limit: int = 20,
                  before_seq: int | None = None) -> list[LogRow]:
        before = before_seq if before_seq is not None else 2 ** 62
        rows = await self._log_rows(
            "SELECT * FROM actions WHERE game_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
            (game_id, before, max(0, limit)))
        return rows[::-1]

    async def turn_batch(self, game_id: int, upto_seq: int) -> list[LogRow]:
        # Only effective entries: a move taken back by an undo was never part of a turn.
        return await self._log_rows(
            f"SELECT * FROM actions a WHERE a.game_id = ? AND a.seq <= ? AND {_EFFECTIVE} "
            "AND a.seq >= COALESCE((SELECT MAX(b.seq) FROM actions b WHERE b.game_id = ? "
            "AND b.turn_end = 1 AND b.seq < ? AND NOT EXISTS (SELECT 1 FROM undone_actions u "
            "WHERE u.game_id = b.game_id AND u.seq = b.seq)), 1) ORDER BY a.seq",
            (game_id, upto_seq, game_id, upto_seq))

    async def history(self, game_id: int) -> list[LogRow]:
        return await self._log_rows(
            "SELECT a.*, (u.seq IS NOT NULL) AS undone FROM actions a LEFT JOIN undone_actions u "
            "ON u.game_id = a.game_id AND u.seq = a.seq WHERE a.game_id = ? ORDER BY a.seq",
            (game_id,))

    async def entries(self, game_id: int, first: int, last: int) -> list[LogRow]:
        return await self._log_rows(
            "SELECT a.*, (u.seq IS NOT NULL) AS undone FROM actions a LEFT JOIN undone_actions u "
            "ON u.game_id = a.game_id AND u.seq = a.seq WHERE a.game_id = ? AND a.seq >= ? "
            "AND a.seq <= ? ORDER BY a.seq", (game_id, first, last))

    async def undo_tail(self, game_id: int, seat: int) -> list[LogRow]:
        async def last(conn: aiosqlite.Connection) -> int | None:
            found = await self._scalar(
                conn, "SELECT position FROM effective_moves WHERE game_id = ? AND seat = ? "
                "ORDER BY position DESC LIMIT 1", (game_id, seat))
            return None if found is None else int(found)

        position = await self._read(last)
        if position is None:
            return []
        return await self._log_rows(
            "SELECT a.* FROM effective_moves e JOIN actions a ON a.game_id = e.game_id "
            "AND a.seq = e.seq WHERE e.game_id = ? AND e.position >= ? ORDER BY e.position",
            (game_id, max(1, position - 1)))

    async def moved_since(self, game_id: int, seat: int, since: int) -> bool:
        return bool(await self._read(lambda c: self._scalar(
            c, "SELECT 1 FROM actions WHERE game_id = ? AND seq > ? "
               "AND (seat = ? OR rewind_to IS NOT NULL) LIMIT 1", (game_id, since, seat))))

    async def replay_base(self, game_id: int, position: int) -> ReplayBase:
        async def q(conn: aiosqlite.Connection) -> tuple[int, str | None]:
            async with conn.execute(
                    "SELECT s.position, s.state FROM snapshots s JOIN effective_moves e "
                    "ON e.game_id = s.game_id AND e.position = s.position AND e.seq = s.seq "
                    "WHERE s.game_id = ? AND s.position < ? ORDER BY s.position DESC LIMIT 1",
                    (game_id, position)) as cur:
                row = await cur.fetchone()
            return (0, None) if row is None else (row[0], row[1])

        base, state = await self._read(q)
        self.rows_read += state is not None
        moves = await self._log_rows(
            "SELECT a.* FROM effective_moves e JOIN actions a ON a.game_id = e.game_id "
            "AND a.seq = e.seq WHERE e.game_id = ? AND e.position > ? AND e.position <= ? "
            "ORDER BY e.position", (game_id, base, position))
        return ReplayBase(base, None if state is None else json.loads(state), tuple(moves))

    async def secret(self, name: str, make: Callable[[], bytes]) -> bytes:
        async def tx(conn: aiosqlite.Connection) -> bytes:
            await conn.execute("INSERT OR IGNORE INTO bot_secrets (name, value, created_at) "
                               "VALUES (?, ?, ?)", (name, make(), time.time()))
            return bytes(await self._scalar(
                conn, "SELECT value FROM bot_secrets WHERE name = ?", (name,)))

        return await self._write(tx)

    # --- settings ----------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async def q(conn: aiosqlite.Connection) -> GuildSettings:
            async with conn.execute("SELECT * FROM guild_settings WHERE guild_id = ?",
                                    (guild_id,)) as cur:
                row = await cur.fetchone()
            if row is None:
                return GuildSettings(guild_id)
            return GuildSettings(guild_id, row["locale"], row["reminder_hours"],
                                 row["vacation_days"])

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
                                row["reminder_hours"], row["timezone"], row["quiet_start"],
                                row["quiet_end"], bool(row["notify_before"]))

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
                        next_at=row["next_at"], muted_at_version=row["muted_at_version"],
                        deadline_at=row["deadline_at"], deadline_left=row["deadline_left"],
                        warn_at=row["warn_at"], before_sent=bool(row["before_sent"]))

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
            f"AND NOT ({_CLOCKS_STOPPED}) "
            "ORDER BY r.next_at, r.game_id, r.seat", (now, ACTIVE, now, now))

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

    # --- undo ---------------------------------------------------------------------------
    async def save_undo(self, game_id: int, *, expected_version: int,
                        state: Mapping[str, Any], seat: int, rewind_to: int,
                        undone: Sequence[int], awaited: Sequence[AwaitedSeat],
                        now: float) -> GameInfo:
        version = expected_version + 1

        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            cur = await conn.execute(
                "UPDATE games SET state = ?, version = version + 1, moves = moves - ?, "
                "updated_at = ? WHERE id = ? AND version = ? AND status = ?",
                (_dumps(state), len(undone), now, game_id, expected_version, ACTIVE))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is no longer at version "
                                      f"{expected_version}")
            await conn.execute(
                "INSERT INTO actions (game_id, seq, seat, action, turn_end, irreversible, "
                "rewind_to, created_at) VALUES (?, ?, ?, 'undo', 0, 0, ?, ?)",
                (game_id, version, seat, rewind_to, now))
            await conn.executemany(
                "INSERT INTO undone_actions (game_id, seq, undo_seq) VALUES (?, ?, ?)",
                [(game_id, seq, version) for seq in undone])
            await conn.execute(
                "DELETE FROM effective_moves WHERE game_id = ? AND position > "
                "(SELECT moves FROM games WHERE id = ?)", (game_id, game_id))
            await conn.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
            await self._sync_reminders(conn, game_id, version, awaited, now)
            return await self._game(conn, game_id)

        return await self._write(tx)

    # --- votes (the votes aggregate: VoteStore) ---------------------------------------
    @staticmethod
    async def _vote(conn: aiosqlite.Connection, where: str,
                    params: Sequence[Any]) -> Vote | None:
        async with conn.execute(f"SELECT * FROM votes WHERE {where}", params) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        async with conn.execute("SELECT user_id, accept FROM ballots WHERE vote_id = ?",
                                (row["id"],)) as cur:
            votes = {r[0]: bool(r[1]) for r in await cur.fetchall()}
        return Vote(id=row["id"], game_id=row["game_id"], topic=row["topic"],
                    user_id=row["user_id"], status=row["status"], created_at=row["created_at"],
                    votes=votes, voters=tuple(json.loads(row["voters"])),
                    expires_at=row["expires_at"], version=row["version"], seat=row["seat"],
                    rewind_to=row["rewind_to"])

    async def create_vote(self, game_id: int, topic: str, *, user_id: int, now: float,
                          voters: Sequence[int] = (), expires_at: float | None = None,
                          version: int | None = None, seat: int | None = None,
                          rewind_to: int | None = None) -> Vote:
        async def tx(conn: aiosqlite.Connection) -> Vote:
            try:
                cur = await conn.execute(
                    "INSERT INTO votes (game_id, topic, user_id, voters, created_at, "
                    "expires_at, version, seat, rewind_to) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (game_id, topic, user_id, _dumps(list(voters)), now, expires_at, version,
                     seat, rewind_to))
            except sqlite3.IntegrityError as err:
                raise RequestPending(f"game {game_id} has an open {topic} vote") from err
            found = await self._vote(conn, "id = ?", (cur.lastrowid,))
            assert found is not None
            return found

        return await self._write(tx)

    async def vote(self, vote_id: int) -> Vote | None:
        return await self._read(lambda c: self._vote(c, "id = ?", (vote_id,)))

    async def open_vote(self, game_id: int, topic: str) -> Vote | None:
        return await self._read(lambda c: self._vote(
            c, "game_id = ? AND topic = ? AND status = 'open'", (game_id, topic)))

    async def cast_ballot(self, vote_id: int, user_id: int, accept: bool, *,
                          now: float) -> Vote:
        async def tx(conn: aiosqlite.Connection) -> Vote:
            if not await self._scalar(conn, "SELECT 1 FROM votes WHERE id = ? AND "
                                      "status = 'open'", (vote_id,)):
                raise VersionConflict(f"vote {vote_id} is closed")
            await conn.execute(
                "INSERT INTO ballots (vote_id, user_id, accept, created_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (vote_id, user_id) DO UPDATE SET "
                "accept = excluded.accept, created_at = excluded.created_at",
                (vote_id, user_id, int(accept), now))
            found = await self._vote(conn, "id = ?", (vote_id,))
            assert found is not None
            return found

        return await self._write(tx)

    async def close_vote(self, vote_id: int, status: str, *, now: float) -> bool:
        async def tx(conn: aiosqlite.Connection) -> bool:
            cur = await conn.execute(
                "UPDATE votes SET status = ?, resolved_at = ? WHERE id = ? AND status = 'open'",
                (status, now, vote_id))
            return cur.rowcount == 1

        return await self._write(tx)

    async def close_open_votes(self, game_id: int, status: str, *, now: float,
                               keep: Sequence[str] = ()) -> int:
        async def tx(conn: aiosqlite.Connection) -> int:
            kept = ", ".join("?" * len(keep))
            cur = await conn.execute(
                "UPDATE votes SET status = ?, resolved_at = ? WHERE game_id = ? AND "
                f"status = 'open' AND topic NOT IN ({kept})", (status, now, game_id, *keep))
            return cur.rowcount

        return await self._write(tx)

    async def withdraw_ballots(self, game_id: int, user_id: int) -> None:
        await self._write(lambda conn: self._withdraw(conn, game_id, user_id))

    @staticmethod
    async def _withdraw(conn: aiosqlite.Connection, game_id: int, user_id: int) -> None:
        await conn.execute("DELETE FROM ballots WHERE user_id = ? AND vote_id IN (SELECT id "
                           "FROM votes WHERE game_id = ? AND status = 'open')",
                           (user_id, game_id))

    # --- archives -----------------------------------------------------------------------
    async def import_game(self, *, guild_id: int | None, channel_id: int, game_key: str,
                          creator_id: int, options: Mapping[str, Any], seed: int,
                          seats: Sequence[Seat], status: str, state: Mapping[str, Any],
                          rows: Sequence[LogRow], now: float,
                          snapshots: Sequence[tuple[int, int, Mapping[str, Any]]] = ()
                          ) -> GameInfo:
        if status not in (FINISHED, CANCELLED):
            raise ValueError(f"only finished or cancelled games are imported, not {status}")

        def values(game_id: int) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
            """The rows to insert, serialised in a worker thread (a large import)."""
            actions = [(game_id, r.seq, r.seat, r.action,
                        _dumps([e.to_dict() for e in r.public]),
                        _dumps([e.to_dict() for e in r.private]), int(r.turn_end),
                        int(r.irreversible), r.rewind_to, r.created_at) for r in rows]
            kept = [(game_id, seq, position, _dumps(dict(data)))
                    for seq, position, data in snapshots]
            return actions, kept

        gone = undone_by(rows)
        path = [(r.seq, r.seat) for r in rows if r.rewind_to is None and r.seq not in gone]

        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            cur = await conn.execute(
                "INSERT INTO games (guild_id, channel_id, game_key, status, creator_id, "
                "options, seed, max_seats, state, version, moves, created_at, updated_at, "
                "finished_at, imported) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
                (guild_id, channel_id, game_key, status, creator_id, _dumps(dict(options)),
                 seed, len(seats), _dumps(state), len(rows), len(path), now, now, now))
            game_id = cur.lastrowid
            assert game_id is not None
            await self._insert_seats(conn, game_id, seats)
            actions, kept = await asyncio.to_thread(values, game_id)
            await conn.executemany(
                "INSERT INTO actions (game_id, seq, seat, action, public_events, "
                "private_events, turn_end, irreversible, rewind_to, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", actions)
            await conn.executemany(
                "INSERT INTO undone_actions (game_id, seq, undo_seq) VALUES (?, ?, ?)",
                [(game_id, seq, by) for seq, by in gone.items()])
            await conn.executemany(
                "INSERT INTO snapshots (game_id, seq, position, state) VALUES (?, ?, ?, ?)",
                kept)
            await conn.executemany(
                "INSERT INTO effective_moves (game_id, position, seq, seat) VALUES (?, ?, ?, ?)",
                [(game_id, n, seq, seat) for n, (seq, seat) in enumerate(path, start=1)])
            return await self._game(conn, game_id)

        return await self._write(tx)

    async def is_imported(self, game_id: int) -> bool:
        return bool(await self._read(lambda c: self._scalar(
            c, "SELECT imported FROM games WHERE id = ?", (game_id,))))

    async def guild_games(self, guild_id: int, statuses: Sequence[str], *, limit: int,
                          offset: int = 0) -> list[GameInfo]:
        marks = ",".join("?" * len(statuses))
        return await self._read(lambda c: self._games(
            c, f"guild_id = ? AND status IN ({marks}) "
               "ORDER BY COALESCE(finished_at, updated_at) DESC, id DESC LIMIT ? OFFSET ?",
            (guild_id, *statuses, max(0, limit), max(0, offset))))

    async def count_guild_games(self, guild_id: int, statuses: Sequence[str]) -> int:
        marks = ",".join("?" * len(statuses))
        return int(await self._read(lambda c: self._scalar(
            c, f"SELECT COUNT(*) FROM games WHERE guild_id = ? AND status IN ({marks})",
            (guild_id, *statuses))))

    async def latest_game_in_channel(self, channel_id: int) -> GameInfo | None:
        games = await self._read(lambda c: self._games(
            c, "channel_id = ? AND status != ? ORDER BY id DESC LIMIT 1", (channel_id, LOBBY)))
        return games[0] if games else None

    # --- ratings ------------------------------------------------------------------------
    @staticmethod
    def _rating(row: sqlite3.Row) -> RatingRow:
        return RatingRow(scope=row["scope"], game_key=row["game_key"], user_id=row["user_id"],
                         mu=row["mu"], sigma=row["sigma"], games=row["games"], wins=row["wins"])

    async def update_ratings(self, game_id: int, game_key: str, scopes: Sequence[int],
                             user_ids: Sequence[int], update: RatingUpdate, *,
                             now: float) -> bool:
        async def tx(conn: aiosqlite.Connection) -> bool:
            cur = await conn.execute(
                "INSERT OR IGNORE INTO rated_games (game_id, players, rated_at) VALUES (?, ?, ?)",
                (game_id, len(user_ids), now))
            if cur.rowcount != 1:
                return False
            marks = ",".join("?" * len(user_ids))
            for scope in scopes if user_ids else ():
                async with conn.execute(
                        f"SELECT user_id, mu, sigma FROM ratings WHERE scope = ? AND "
                        f"game_key = ? AND user_id IN ({marks})",
                        (scope, game_key, *user_ids)) as rows:
                    known = {r[0]: (r[1], r[2]) for r in await rows.fetchall()}
                new = update(known)
                await conn.executemany(
                    "INSERT INTO ratings (scope, game_key, user_id, mu, sigma, games, wins, "
                    "updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (scope, game_key, "
                    "user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                    "games = games + 1, wins = wins + excluded.wins, "
                    "updated_at = excluded.updated_at",
                    [(scope, game_key, user, mu, sigma, int(won), now)
                     for user, (mu, sigma, won) in new.items()])
            return True

        return await self._write(tx)

    async def unrated_finished_games(self) -> list[int]:
        async def q(conn: aiosqlite.Connection) -> list[int]:
            async with conn.execute(
                    "SELECT id FROM games WHERE status = ? AND imported = 0 AND id NOT IN "
                    "(SELECT game_id FROM rated_games) ORDER BY finished_at, id",
                    (FINISHED,)) as cur:
                return [r[0] for r in await cur.fetchall()]

        return await self._read(q)

    async def _ratings(self, sql: str, params: Sequence[Any]) -> list[RatingRow]:
        async def q(conn: aiosqlite.Connection) -> list[RatingRow]:
            async with conn.execute(sql, params) as cur:
                return [self._rating(r) for r in await cur.fetchall()]

        return await self._read(q)

    async def leaderboard(self, scope: int, game_key: str, *, limit: int,
                          offset: int = 0) -> list[RatingRow]:
        return await self._ratings(
            "SELECT * FROM ratings WHERE scope = ? AND game_key = ? "
            "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ? OFFSET ?",
            (scope, game_key, max(0, limit), max(0, offset)))

    async def count_rated(self, scope: int, game_key: str) -> int:
        return int(await self._read(lambda c: self._scalar(
            c, "SELECT COUNT(*) FROM ratings WHERE scope = ? AND game_key = ?",
            (scope, game_key))))

    async def user_ratings(self, user_id: int, scope: int) -> list[RatingRow]:
        return await self._ratings(
            "SELECT * FROM ratings WHERE user_id = ? AND scope = ? ORDER BY game_key",
            (user_id, scope))


    # --- deadlines and absence (docs/ASYNC.md) -----------------------------------------
    async def deadline_policy(self, game_id: int) -> DeadlinePolicy:
        async def q(conn: aiosqlite.Connection) -> DeadlinePolicy:
            async with conn.execute("SELECT * FROM deadline_policies WHERE game_id = ?",
                                    (game_id,)) as cur:
                row = await cur.fetchone()
            if row is None:
                return DeadlinePolicy()
            return DeadlinePolicy(row["hours"], row["on_timeout"], row["abandon_after"],
                                  row["warn_hours"], row["paused_at"])

        return await self._read(q)

    async def set_deadline_policy(self, game_id: int, policy: DeadlinePolicy, *,
                                  now: float) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "INSERT INTO deadline_policies (game_id, hours, on_timeout, abandon_after, "
                "warn_hours, paused_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET hours = excluded.hours, "
                "on_timeout = excluded.on_timeout, abandon_after = excluded.abandon_after, "
                "warn_hours = excluded.warn_hours, paused_at = excluded.paused_at, "
                "updated_at = excluded.updated_at",
                (game_id, policy.hours, policy.on_timeout, policy.abandon_after,
                 policy.warn_hours, policy.paused_at, now))

        await self._write(tx)

    async def set_clocks(self, game_id: int, clocks: Sequence[SeatClock]) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.executemany(
                "UPDATE reminders SET deadline_at = ?, deadline_left = ?, warn_at = ? "
                "WHERE game_id = ? AND seat = ?",
                [(c.deadline_at, c.deadline_left, c.warn_at, game_id, c.seat) for c in clocks])

        if clocks:
            await self._write(tx)

    async def start_clock(self, game_id: int, awaited: AwaitedSeat, *, version: int,
                          now: float) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await self._sync_reminders(conn, game_id, version, [awaited], now, keep_others=True)

        await self._write(tx)

    async def user_clocks(self, user_id: int) -> list[Reminder]:
        return await self._reminders(
            "SELECT r.* FROM reminders r JOIN games g ON g.id = r.game_id "
            "WHERE r.user_id = ? AND g.status = ? ORDER BY r.game_id, r.seat",
            (user_id, ACTIVE))

    async def due_warnings(self, now: float) -> list[Reminder]:
        return await self._reminders(
            "SELECT r.* FROM reminders r JOIN games g ON g.id = r.game_id "
            "WHERE r.warn_at IS NOT NULL AND r.warn_at <= ? AND r.deadline_at IS NOT NULL "
            "AND g.status = ? ORDER BY r.warn_at, r.game_id, r.seat", (now, ACTIVE))

    async def set_warn_at(self, game_id: int, seat: int, turn_version: int,
                          warn_at: float | None, *, outbox: Sequence[Outgoing] = (),
                          now: float | None = None) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "UPDATE reminders SET warn_at = ? WHERE game_id = ? AND seat = ? "
                "AND turn_version = ?", (warn_at, game_id, seat, turn_version))
            await self._queue(conn, game_id, turn_version, outbox, now)

        await self._write(tx)

    async def due_deadlines(self, now: float) -> list[Reminder]:
        return await self._reminders(
            "SELECT r.* FROM reminders r JOIN games g ON g.id = r.game_id "
            "WHERE r.deadline_at IS NOT NULL AND r.deadline_at <= ? AND g.status = ? "
            "ORDER BY r.deadline_at, r.game_id, r.seat", (now, ACTIVE))

    async def claim_timeout(self, game_id: int, seat: int, user_id: int, turn_version: int, *,
                            expected_version: int, now: float,
                            owed: Callable[[int], Sequence[Outgoing]] | None = None
                            ) -> int | None:
        async def tx(conn: aiosqlite.Connection) -> int | None:
            guard = await self._scalar(
                conn, "SELECT 1 FROM games g JOIN reminders r ON r.game_id = g.id "
                "WHERE g.id = ? AND g.version = ? AND g.status = ? AND r.seat = ? "
                "AND r.user_id = ? AND r.turn_version = ? AND r.deadline_at <= ?",
                (game_id, expected_version, ACTIVE, seat, user_id, turn_version, now))
            if not guard:
                return None
            cur = await conn.execute(
                "INSERT OR IGNORE INTO absence_events (game_id, seat, user_id, kind, "
                "turn_version, created_at) VALUES (?, ?, ?, 'timeout', ?, ?)",
                (game_id, seat, user_id, turn_version, now))
            counted = cur.rowcount == 1  # a retry after a crash finds it already counted
            if counted:
                await conn.execute(
                    "INSERT INTO seat_absence (game_id, seat, user_id, misses) "
                    "VALUES (?, ?, ?, 1) ON CONFLICT (game_id, seat) DO UPDATE SET "
                    "misses = CASE WHEN user_id = excluded.user_id THEN misses + 1 ELSE 1 END, "
                    "user_id = excluded.user_id", (game_id, seat, user_id))
            misses = int(await self._scalar(
                conn, "SELECT misses FROM seat_absence WHERE game_id = ? AND seat = ?",
                (game_id, seat)))
            if counted and owed is not None:
                await self._queue(conn, game_id, expected_version, owed(misses), now)
            return misses

        return await self._write(tx)

    async def reset_misses(self, game_id: int, seat: int) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "UPDATE seat_absence SET misses = 0 WHERE game_id = ? AND seat = ? "
                "AND misses > 0", (game_id, seat))

        await self._write(tx)

    async def abandon_seat(self, game_id: int, seat: Seat, user_id: int, turn_version: int, *,
                           now: float, outbox: Sequence[Outgoing] = ()) -> GameInfo:
        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            cur = await conn.execute(
                "UPDATE seats SET user_id = NULL, name = ?, ai_level = ? WHERE game_id = ? "
                "AND seat = ? AND user_id = ?",
                (seat.name, seat.level, game_id, seat.seat, user_id))
            if cur.rowcount != 1:
                raise VersionConflict(f"seat {seat.seat} of game {game_id} changed hands")
            await conn.execute("DELETE FROM reminders WHERE game_id = ? AND seat = ?",
                               (game_id, seat.seat))
            await self._withdraw(conn, game_id, user_id)
            await conn.execute(
                "INSERT INTO seat_absence (game_id, seat, user_id, misses, abandoned_at) "
                "VALUES (?, ?, ?, 0, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "user_id = excluded.user_id, abandoned_at = excluded.abandoned_at",
                (game_id, seat.seat, user_id, now))
            await conn.execute(
                "INSERT OR IGNORE INTO absence_events (game_id, seat, user_id, kind, "
                "turn_version, created_at) VALUES (?, ?, ?, 'abandon', ?, ?)",
                (game_id, seat.seat, user_id, turn_version, now))
            await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            game = await self._game(conn, game_id)
            await self._queue(conn, game_id, game.version, outbox, now)
            return game

        return await self._write(tx)

    async def abandoned_seats(self, game_id: int) -> dict[int, int]:
        async def q(conn: aiosqlite.Connection) -> dict[int, int]:
            async with conn.execute(
                    "SELECT a.seat, a.user_id FROM seat_absence a JOIN seats s "
                    "ON s.game_id = a.game_id AND s.seat = a.seat WHERE a.game_id = ? "
                    "AND a.abandoned_at IS NOT NULL AND s.user_id IS NULL ORDER BY a.seat",
                    (game_id,)) as cur:
                return {r[0]: r[1] for r in await cur.fetchall()}

        return await self._read(q)

    async def take_over_seat(self, game_id: int, seat: Seat, *, version: int,
                             now: float) -> GameInfo:
        assert seat.user_id is not None

        async def tx(conn: aiosqlite.Connection) -> GameInfo:
            cur = await conn.execute(
                "DELETE FROM seat_absence WHERE game_id = ? AND seat = ? "
                "AND abandoned_at IS NOT NULL", (game_id, seat.seat))
            if cur.rowcount != 1:
                raise VersionConflict(f"seat {seat.seat} of game {game_id} is not abandoned")
            try:
                cur = await conn.execute(
                    "UPDATE seats SET user_id = ?, name = ? WHERE game_id = ? AND seat = ? "
                    "AND user_id IS NULL", (seat.user_id, seat.name, game_id, seat.seat))
            except sqlite3.IntegrityError as err:
                raise SeatTaken(str(err)) from err
            if cur.rowcount != 1:
                raise VersionConflict(f"seat {seat.seat} of game {game_id} is not free")
            await conn.execute(
                "INSERT OR IGNORE INTO absence_events (game_id, seat, user_id, kind, "
                "turn_version, created_at) VALUES (?, ?, ?, 'takeover', ?, ?)",
                (game_id, seat.seat, seat.user_id, version, now))
            await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            return await self._game(conn, game_id)

        return await self._write(tx)

    async def pending_before(self) -> list[Reminder]:
        return await self._reminders(
            "SELECT r.* FROM reminders r JOIN games g ON g.id = r.game_id "
            "WHERE r.before_sent = 0 AND g.status = ? ORDER BY r.game_id, r.seat", (ACTIVE,))

    async def mark_before_sent(self, game_id: int, seat: int, turn_version: int, *,
                               outbox: Sequence[Outgoing] = (),
                               now: float | None = None) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "UPDATE reminders SET before_sent = 1 WHERE game_id = ? AND seat = ? "
                "AND turn_version = ?", (game_id, seat, turn_version))
            await self._queue(conn, game_id, turn_version, outbox, now)

        await self._write(tx)

    async def add_notice(self, game_id: int, seat: int, turn_version: int, user_id: int,
                         kind: str, due_at: float) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "INSERT INTO notices (game_id, seat, turn_version, user_id, kind, due_at) "
                "VALUES (?, ?, ?, ?, ?, ?)", (game_id, seat, turn_version, user_id, kind, due_at))

        await self._write(tx)

    async def due_notices(self, now: float) -> list[Notice]:
        async def q(conn: aiosqlite.Connection) -> list[Notice]:
            async with conn.execute("SELECT * FROM notices WHERE due_at <= ? ORDER BY due_at, id",
                                    (now,)) as cur:
                return [Notice(r["id"], r["game_id"], r["seat"], r["turn_version"],
                               r["user_id"], r["kind"], r["due_at"])
                        for r in await cur.fetchall()]

        return await self._read(q)

    async def delete_notice(self, notice_id: int, *, outbox: Sequence[Outgoing] = (),
                            now: float | None = None) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            async with conn.execute("SELECT game_id, turn_version FROM notices WHERE id = ?",
                                    (notice_id,)) as cur:
                row = await cur.fetchone()
            if row is None:  # handled already
                return
            await conn.execute("DELETE FROM notices WHERE id = ?", (notice_id,))
            await self._queue(conn, row[0], row[1], outbox, now)

        await self._write(tx)

    @staticmethod
    def _vacation(row: sqlite3.Row) -> Vacation:
        return Vacation(row["id"], row["user_id"], row["start_at"], row["end_at"],
                        bool(row["resumed"]))

    async def _vacations(self, sql: str, params: Sequence[Any]) -> list[Vacation]:
        async def q(conn: aiosqlite.Connection) -> list[Vacation]:
            async with conn.execute(sql, params) as cur:
                return [self._vacation(r) for r in await cur.fetchall()]

        return await self._read(q)

    async def add_vacation(self, user_id: int, start_at: float, end_at: float) -> Vacation:
        async def tx(conn: aiosqlite.Connection) -> int:
            cur = await conn.execute(
                "INSERT INTO vacations (user_id, start_at, end_at) VALUES (?, ?, ?)",
                (user_id, start_at, end_at))
            assert cur.lastrowid is not None
            return cur.lastrowid

        return Vacation(await self._write(tx), user_id, start_at, end_at, False)

    async def current_vacation(self, user_id: int, now: float) -> Vacation | None:
        found = await self._vacations(
            "SELECT * FROM vacations WHERE user_id = ? AND start_at <= ? AND end_at > ? "
            "ORDER BY id DESC LIMIT 1", (user_id, now, now))
        return found[0] if found else None

    async def vacations_since(self, user_id: int, since: float) -> list[Vacation]:
        return await self._vacations(
            "SELECT * FROM vacations WHERE user_id = ? AND start_at >= ? ORDER BY start_at",
            (user_id, since))

    async def end_vacation(self, vacation_id: int, at: float) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute("UPDATE vacations SET end_at = MAX(start_at, ?) WHERE id = ?",
                               (at, vacation_id))

        await self._write(tx)

    async def vacations_to_resume(self, now: float) -> list[Vacation]:
        return await self._vacations(
            "SELECT * FROM vacations WHERE resumed = 0 AND end_at <= ? ORDER BY end_at, id",
            (now,))

    async def mark_vacation_resumed(self, vacation_id: int) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute("UPDATE vacations SET resumed = 1 WHERE id = ?", (vacation_id,))

        await self._write(tx)

    async def reliability(self, user_id: int) -> Reliability:
        async def q(conn: aiosqlite.Connection) -> Reliability:
            finished = await self._scalar(
                conn, "SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE s.user_id = ? AND g.status = ? AND g.imported = 0", (user_id, FINISHED))
            counts: dict[str, int] = {}
            async with conn.execute(
                    "SELECT kind, COUNT(*) FROM absence_events WHERE user_id = ? "
                    "GROUP BY kind", (user_id,)) as cur:
                for row in await cur.fetchall():
                    counts[row[0]] = row[1]
            return Reliability(user_id, int(finished or 0), counts.get("timeout", 0),
                               counts.get("abandon", 0))

        return await self._read(q)
