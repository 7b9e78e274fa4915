"""Games: the game rows with their seats and state snapshot, and every write that moves one.

Two rules every backend keeps:

* a move is one transaction: append the log row and ``UPDATE games ... WHERE version = ?``;
  if another writer got there first, nothing is written and :class:`VersionConflict` is
  raised (optimistic concurrency, like boardgame.io's ``stateID``);
* at most one open (lobby or active) game per channel, enforced by the database itself.

Between processes, the AI move a game awaits is claimed (:meth:`GameStore.claim_ai_turn`)
so one process thinks it; the version check keeps a second one from storing it anyway.
"""

from __future__ import annotations

import asyncio
import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.core.models import ACTIVE, CANCELLED, FINISHED, LOBBY, OPEN_STATUSES, GameInfo, Seat
from bot.core.storage.db import Conn, Database, dumps, marks
from bot.core.storage.outbox import queue
from bot.core.storage.records import (
    SNAPSHOT_EVERY,
    AwaitedSeat,
    ChannelTaken,
    LogRow,
    Outgoing,
    SeatTaken,
    VersionConflict,
    undone_by,
)
from bot.core.storage.timing import sync_reminders
from bot.core.storage.votes import withdraw
from engines.base import Event

_GAME_COLUMNS = ("id, guild_id, channel_id, game_key, status, creator_id, options, seed, "
                 "version, max_seats, created_at, updated_at, lobby_message_id, reminder_hours, "
                 "moves, imported, ai_level")


def events_json(events: Iterable[Event]) -> str:
    return dumps([e.to_dict() for e in events])


async def _seats(conn: Conn, ids: Iterable[int]) -> dict[int, list[Seat]]:
    ids = list(ids)
    by_game: dict[int, list[Seat]] = {i: [] for i in ids}
    if not ids:
        return by_game
    rows = await conn.fetch(
        f"SELECT game_id, seat, user_id, name, ai_level FROM seats "
        f"WHERE game_id IN ({marks(ids)}) ORDER BY game_id, seat", ids)
    for row in rows:
        by_game[row["game_id"]].append(Seat(row["seat"], row["user_id"], row["name"],
                                           row["ai_level"]))
    return by_game


def _info(row: Any, seats: Sequence[Seat]) -> GameInfo:
    return GameInfo(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        game_key=row["game_key"], status=row["status"], creator_id=row["creator_id"],
        options=json.loads(row["options"]), seed=row["seed"], version=row["version"],
        max_seats=row["max_seats"], seats=tuple(seats), created_at=row["created_at"],
        updated_at=row["updated_at"], lobby_message_id=row["lobby_message_id"],
        reminder_hours=row["reminder_hours"], moves=row["moves"],
        imported=bool(row["imported"]), ai_level=row["ai_level"])


async def select_games(conn: Conn, where: str, params: Sequence[Any] = ()) -> list[GameInfo]:
    rows = await conn.fetch(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where}", params)
    seats = await _seats(conn, (r["id"] for r in rows))
    return [_info(r, seats[r["id"]]) for r in rows]


async def select_game(conn: Conn, game_id: int) -> GameInfo:
    games = await select_games(conn, "id = ?", (game_id,))
    if not games:
        raise VersionConflict(f"game {game_id} does not exist")
    return games[0]


class GameStore(ABC):
    """Games and their seats; the writes that append to a game's log live here too, since
    they move the game's version in the same transaction."""

    snapshot_every: int = SNAPSHOT_EVERY  # effective moves between two replay snapshots

    @abstractmethod
    async def create_game(self, *, guild_id: int | None, channel_id: int, game_key: str,
                          creator_id: int, options: Mapping[str, Any], seed: int,
                          max_seats: int, reminder_hours: float, seats: Sequence[Seat],
                          now: float) -> GameInfo:
        """Insert a lobby; :class:`ChannelTaken` if the channel has an open game."""

    @abstractmethod
    async def get_game(self, game_id: int) -> GameInfo | None: ...

    @abstractmethod
    async def load_game(self, game_id: int) -> tuple[GameInfo, dict[str, Any] | None] | None:
        """The game and its state snapshot (None before start)."""

    @abstractmethod
    async def open_game_in_channel(self, channel_id: int) -> GameInfo | None: ...

    @abstractmethod
    async def games_with_user(self, user_id: int, statuses: Sequence[str]) -> list[GameInfo]: ...

    @abstractmethod
    async def games_with_status(self, statuses: Sequence[str]) -> list[GameInfo]: ...

    @abstractmethod
    async def count_games(self, statuses: Sequence[str] | None = None) -> int: ...

    @abstractmethod
    async def set_seats(self, game_id: int, seats: Sequence[Seat], *, now: float) -> GameInfo:
        """Replace a lobby's seats (join/leave/AI); :class:`SeatTaken` on a duplicate user,
        :class:`VersionConflict` if the game is no longer a lobby."""

    @abstractmethod
    async def replace_seat(self, game_id: int, seat: Seat, *, now: float) -> GameInfo:
        """Change who sits at one seat of a started game (a player replaced by an AI)."""

    @abstractmethod
    async def start_game(self, game_id: int, state: Mapping[str, Any], *, now: float,
                         awaited: Sequence[AwaitedSeat],
                         outbox: Sequence[Outgoing] = ()) -> GameInfo:
        """Lobby -> active with the initial snapshot; :class:`VersionConflict` if not a lobby.
        ``outbox``: the messages the start owes, stored in the same transaction."""

    @abstractmethod
    async def save_move(self, game_id: int, *, expected_version: int, state: Mapping[str, Any],
                        seat: int, action: str, public: Sequence[Event],
                        private: Sequence[Event], turn_end: bool, finished: bool,
                        awaited: Sequence[AwaitedSeat], now: float,
                        irreversible: bool = True,
                        outbox: Sequence[Outgoing] = ()) -> GameInfo:
        """Append log row ``expected_version + 1`` and the new snapshot, atomically, with
        the messages the move owes (``outbox``) in the same transaction.

        Reminder rows follow ``awaited``: a seat still awaited keeps its row (its turn goes
        on) unless ``turn_end``, after which every awaited seat begins a new turn."""

    @abstractmethod
    async def save_undo(self, game_id: int, *, expected_version: int,
                        state: Mapping[str, Any], seat: int, rewind_to: int,
                        undone: Sequence[int], awaited: Sequence[AwaitedSeat],
                        now: float) -> GameInfo:
        """Append an undo entry (version + 1) marking ``undone`` entries (effective moves)
        as taken back, with the rewound snapshot; every awaited seat begins a new turn."""

    @abstractmethod
    async def set_status(self, game_id: int, status: str, *, expected: Sequence[str],
                         now: float) -> GameInfo:
        """Change status if the current one is in ``expected``, else :class:`VersionConflict`."""

    @abstractmethod
    async def set_lobby_message(self, game_id: int, message_id: int | None) -> None: ...

    @abstractmethod
    async def set_game_reminder_hours(self, game_id: int, hours: float, *,
                                      now: float) -> GameInfo:
        """Also re-times pending reminders: ``next_at = since + hours`` (None if hours <= 0)."""

    @abstractmethod
    async def set_game_ai_level(self, game_id: int, level: str, *, now: float) -> GameInfo:
        """The level of AIs that take over a seat at this table from now on."""

    @abstractmethod
    async def abandon_seat(self, game_id: int, seat: Seat, user_id: int, turn_version: int, *,
                           now: float, outbox: Sequence[Outgoing] = ()) -> GameInfo:
        """Hand a missing player's seat to the AI (``seat`` is the AI seat) and mark it
        abandoned, with the messages that owes (``outbox``) in the same transaction;
        :class:`VersionConflict` if ``user_id`` no longer holds it."""

    @abstractmethod
    async def take_over_seat(self, game_id: int, seat: Seat, *, version: int,
                             now: float) -> GameInfo:
        """Seat a new player on an abandoned seat; :class:`VersionConflict` if it is not
        abandoned any more, :class:`SeatTaken` if that player already has a seat."""

    @abstractmethod
    async def claim_ai_turn(self, game_id: int, version: int, *, now: float,
                            lease: float = 300.0) -> bool:
        """Claim the AI move a game awaits at ``version`` for ``lease`` seconds (storing the
        move ends it: the version changes). False if the game is not at ``version`` or
        someone — this process or another — holds it: that one thinks and plays it."""

    @abstractmethod
    async def import_game(self, *, guild_id: int | None, channel_id: int, game_key: str,
                          creator_id: int, options: Mapping[str, Any], seed: int,
                          seats: Sequence[Seat], status: str, state: Mapping[str, Any],
                          rows: Sequence[LogRow], now: float,
                          snapshots: Sequence[tuple[int, int, Mapping[str, Any]]] = ()
                          ) -> GameInfo:
        """Insert a finished or cancelled game with its whole log (flagged imported) and
        its replay snapshots ``(seq, position, state)``."""

    @abstractmethod
    async def is_imported(self, game_id: int) -> bool: ...

    @abstractmethod
    async def guild_games(self, guild_id: int, statuses: Sequence[str], *, limit: int,
                          offset: int = 0) -> list[GameInfo]:
        """This server's games in those statuses, newest first."""

    @abstractmethod
    async def count_guild_games(self, guild_id: int, statuses: Sequence[str]) -> int: ...

    @abstractmethod
    async def latest_game_in_channel(self, channel_id: int) -> GameInfo | None:
        """The newest started game of a channel, whatever its status."""


class SqlGames(GameStore):
    db: Database
    owner: str

    async def create_game(self, *, guild_id: int | None, channel_id: int, game_key: str,
                          creator_id: int, options: Mapping[str, Any], seed: int,
                          max_seats: int, reminder_hours: float, seats: Sequence[Seat],
                          now: float) -> GameInfo:
        async def tx(conn: Conn) -> GameInfo:
            try:
                game_id = await conn.fetchval(
                    "INSERT INTO games (guild_id, channel_id, game_key, status, creator_id, "
                    "options, seed, max_seats, reminder_hours, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (guild_id, channel_id, game_key, LOBBY, creator_id, dumps(dict(options)),
                     seed, max_seats, reminder_hours, now, now))
            except self.db.integrity_errors as err:
                raise ChannelTaken(f"channel {channel_id} already has an open game") from err
            await self._insert_seats(conn, game_id, seats)
            return await select_game(conn, game_id)

        return await self.db.write(tx)

    async def _insert_seats(self, conn: Conn, game_id: int, seats: Sequence[Seat]) -> None:
        try:
            await conn.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name, ai_level) "
                "VALUES (?, ?, ?, ?, ?)",
                [(game_id, s.seat, s.user_id, s.name, s.level) for s in seats])
        except self.db.integrity_errors as err:
            raise SeatTaken(str(err)) from err

    async def get_game(self, game_id: int) -> GameInfo | None:
        games = await self.db.read(lambda c: select_games(c, "id = ?", (game_id,)))
        return games[0] if games else None

    async def load_game(self, game_id: int) -> tuple[GameInfo, dict[str, Any] | None] | None:
        # Game row and snapshot are read in one transaction so they always match.
        async def q(conn: Conn) -> tuple[GameInfo, dict[str, Any] | None] | None:
            games = await select_games(conn, "id = ?", (game_id,))
            if not games:
                return None
            raw = await conn.fetchval("SELECT state FROM games WHERE id = ?", (game_id,))
            return games[0], (None if raw is None else json.loads(raw))

        return await self.db.read(q)

    async def open_game_in_channel(self, channel_id: int) -> GameInfo | None:
        games = await self.db.read(lambda c: select_games(
            c, "channel_id = ? AND status IN (?, ?)", (channel_id, *OPEN_STATUSES)))
        return games[0] if games else None

    async def games_with_user(self, user_id: int, statuses: Sequence[str]) -> list[GameInfo]:
        return await self.db.read(lambda c: select_games(
            c, f"status IN ({marks(statuses)}) AND id IN (SELECT game_id FROM seats "
               "WHERE user_id = ?) ORDER BY id", (*statuses, user_id)))

    async def games_with_status(self, statuses: Sequence[str]) -> list[GameInfo]:
        return await self.db.read(lambda c: select_games(
            c, f"status IN ({marks(statuses)}) ORDER BY id", tuple(statuses)))

    async def count_games(self, statuses: Sequence[str] | None = None) -> int:
        if statuses is None:
            return int(await self.db.read(lambda c: c.fetchval("SELECT COUNT(*) FROM games")))
        return int(await self.db.read(lambda c: c.fetchval(
            f"SELECT COUNT(*) FROM games WHERE status IN ({marks(statuses)})",
            tuple(statuses))))

    async def set_seats(self, game_id: int, seats: Sequence[Seat], *, now: float) -> GameInfo:
        async def tx(conn: Conn) -> GameInfo:
            if await conn.execute("UPDATE games SET updated_at = ? WHERE id = ? AND status = ?",
                                  (now, game_id, LOBBY)) != 1:
                raise VersionConflict(f"game {game_id} is not a lobby")
            await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self._insert_seats(conn, game_id, seats)
            return await select_game(conn, game_id)

        return await self.db.write(tx)

    async def replace_seat(self, game_id: int, seat: Seat, *, now: float) -> GameInfo:
        async def tx(conn: Conn) -> GameInfo:
            if await conn.execute(
                    "UPDATE seats SET user_id = ?, name = ?, ai_level = ? "
                    "WHERE game_id = ? AND seat = ?",
                    (seat.user_id, seat.name, seat.level, game_id, seat.seat)) != 1:
                raise VersionConflict(f"game {game_id} has no seat {seat.seat}")
            await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            if seat.user_id is None:
                await conn.execute("DELETE FROM reminders WHERE game_id = ? AND seat = ?",
                                   (game_id, seat.seat))
            return await select_game(conn, game_id)

        return await self.db.write(tx)

    async def start_game(self, game_id: int, state: Mapping[str, Any], *, now: float,
                         awaited: Sequence[AwaitedSeat],
                         outbox: Sequence[Outgoing] = ()) -> GameInfo:
        async def tx(conn: Conn) -> GameInfo:
            if await conn.execute(
                    "UPDATE games SET status = ?, state = ?, version = 0, updated_at = ? "
                    "WHERE id = ? AND status = ?",
                    (ACTIVE, dumps(state), now, game_id, LOBBY)) != 1:
                raise VersionConflict(f"game {game_id} is not a lobby")
            await sync_reminders(conn, game_id, 0, awaited, now)
            await queue(conn, game_id, 0, outbox, now)
            return await select_game(conn, game_id)

        return await self.db.write(tx)

    async def save_move(self, game_id: int, *, expected_version: int, state: Mapping[str, Any],
                        seat: int, action: str, public: Sequence[Event],
                        private: Sequence[Event], turn_end: bool, finished: bool,
                        awaited: Sequence[AwaitedSeat], now: float,
                        irreversible: bool = True,
                        outbox: Sequence[Outgoing] = ()) -> GameInfo:
        version = expected_version + 1

        async def tx(conn: Conn) -> GameInfo:
            status = FINISHED if finished else ACTIVE
            snapshot = dumps(state)
            moves = await conn.fetchval(
                "UPDATE games SET state = ?, version = version + 1, moves = moves + 1, "
                "status = ?, updated_at = ?, finished_at = ? "
                "WHERE id = ? AND version = ? AND status = ? RETURNING moves",
                (snapshot, status, now, now if finished else None, game_id,
                 expected_version, ACTIVE))
            if moves is None:
                raise VersionConflict(f"game {game_id} is no longer at version "
                                      f"{expected_version}")
            await conn.execute("INSERT INTO effective_moves (game_id, position, seq, seat) "
                               "VALUES (?, ?, ?, ?)", (game_id, moves, version, seat))
            if moves % self.snapshot_every == 0:
                await conn.execute("INSERT INTO snapshots (game_id, seq, position, state) "
                                   "VALUES (?, ?, ?, ?)", (game_id, version, moves, snapshot))
            await conn.execute(
                "INSERT INTO actions (game_id, seq, seat, action, public_events, "
                "private_events, turn_end, irreversible, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, version, seat, action, events_json(public), events_json(private),
                 int(turn_end), int(irreversible), now))
            if turn_end:  # whoever is awaited after a turn end begins a new turn
                await conn.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
            await sync_reminders(conn, game_id, version, () if finished else awaited, now)
            await queue(conn, game_id, version, outbox, now)
            return await select_game(conn, game_id)

        return await self.db.write(tx)

    async def save_undo(self, game_id: int, *, expected_version: int,
                        state: Mapping[str, Any], seat: int, rewind_to: int,
                        undone: Sequence[int], awaited: Sequence[AwaitedSeat],
                        now: float) -> GameInfo:
        version = expected_version + 1

        async def tx(conn: Conn) -> GameInfo:
            moves = await conn.fetchval(
                "UPDATE games SET state = ?, version = version + 1, moves = moves - ?, "
                "updated_at = ? WHERE id = ? AND version = ? AND status = ? RETURNING moves",
                (dumps(state), len(undone), now, game_id, expected_version, ACTIVE))
            if moves is None:
                raise VersionConflict(f"game {game_id} is no longer at version "
                                      f"{expected_version}")
            await conn.execute(
                "INSERT INTO actions (game_id, seq, seat, action, turn_end, irreversible, "
                "rewind_to, created_at) VALUES (?, ?, ?, 'undo', 0, 0, ?, ?)",
                (game_id, version, seat, rewind_to, now))
            await conn.executemany(
                "INSERT INTO undone_actions (game_id, seq, undo_seq) VALUES (?, ?, ?)",
                [(game_id, seq, version) for seq in undone])
            await conn.execute("DELETE FROM effective_moves WHERE game_id = ? AND position > ?",
                               (game_id, moves))
            await conn.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
            await sync_reminders(conn, game_id, version, awaited, now)
            return await select_game(conn, game_id)

        return await self.db.write(tx)

    async def set_status(self, game_id: int, status: str, *, expected: Sequence[str],
                         now: float) -> GameInfo:
        async def tx(conn: Conn) -> GameInfo:
            ended = status not in OPEN_STATUSES
            if await conn.execute(
                    f"UPDATE games SET status = ?, updated_at = ?, finished_at = ? "
                    f"WHERE id = ? AND status IN ({marks(expected)})",
                    (status, now, now if ended else None, game_id, *expected)) != 1:
                raise VersionConflict(f"game {game_id} is not {'/'.join(expected)}")
            if ended:
                await conn.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
            return await select_game(conn, game_id)

        return await self.db.write(tx)

    async def set_lobby_message(self, game_id: int, message_id: int | None) -> None:
        async def tx(conn: Conn) -> None:
            await conn.execute("UPDATE games SET lobby_message_id = ? WHERE id = ?",
                               (message_id, game_id))

        await self.db.write(tx)

    async def set_game_reminder_hours(self, game_id: int, hours: float, *,
                                      now: float) -> GameInfo:
        async def tx(conn: Conn) -> GameInfo:
            await conn.execute("UPDATE games SET reminder_hours = ?, updated_at = ? WHERE id = ?",
                               (hours, now, game_id))
            await conn.execute(
                "UPDATE reminders SET next_at = CASE WHEN CAST(? AS DOUBLE PRECISION) > 0 "
                "THEN since + CAST(? AS DOUBLE PRECISION) * 3600 END WHERE game_id = ?",
                (hours, hours, game_id))
            return await select_game(conn, game_id)

        return await self.db.write(tx)

    async def set_game_ai_level(self, game_id: int, level: str, *, now: float) -> GameInfo:
        async def tx(conn: Conn) -> GameInfo:
            await conn.execute("UPDATE games SET ai_level = ?, updated_at = ? WHERE id = ?",
                               (level, now, game_id))
            return await select_game(conn, game_id)

        return await self.db.write(tx)

    async def abandon_seat(self, game_id: int, seat: Seat, user_id: int, turn_version: int, *,
                           now: float, outbox: Sequence[Outgoing] = ()) -> GameInfo:
        async def tx(conn: Conn) -> GameInfo:
            if await conn.execute(
                    "UPDATE seats SET user_id = NULL, name = ?, ai_level = ? WHERE game_id = ? "
                    "AND seat = ? AND user_id = ?",
                    (seat.name, seat.level, game_id, seat.seat, user_id)) != 1:
                raise VersionConflict(f"seat {seat.seat} of game {game_id} changed hands")
            await conn.execute("DELETE FROM reminders WHERE game_id = ? AND seat = ?",
                               (game_id, seat.seat))
            await withdraw(conn, game_id, user_id)
            await conn.execute(
                "INSERT INTO seat_absence (game_id, seat, user_id, misses, abandoned_at) "
                "VALUES (?, ?, ?, 0, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "user_id = excluded.user_id, abandoned_at = excluded.abandoned_at",
                (game_id, seat.seat, user_id, now))
            await conn.execute(
                "INSERT INTO absence_events (game_id, seat, user_id, kind, turn_version, "
                "created_at) VALUES (?, ?, ?, 'abandon', ?, ?) ON CONFLICT DO NOTHING",
                (game_id, seat.seat, user_id, turn_version, now))
            await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            game = await select_game(conn, game_id)
            await queue(conn, game_id, game.version, outbox, now)
            return game

        return await self.db.write(tx)

    async def take_over_seat(self, game_id: int, seat: Seat, *, version: int,
                             now: float) -> GameInfo:
        assert seat.user_id is not None

        async def tx(conn: Conn) -> GameInfo:
            if await conn.execute(
                    "DELETE FROM seat_absence WHERE game_id = ? AND seat = ? "
                    "AND abandoned_at IS NOT NULL", (game_id, seat.seat)) != 1:
                raise VersionConflict(f"seat {seat.seat} of game {game_id} is not abandoned")
            try:
                taken = await conn.execute(
                    "UPDATE seats SET user_id = ?, name = ? WHERE game_id = ? AND seat = ? "
                    "AND user_id IS NULL", (seat.user_id, seat.name, game_id, seat.seat))
            except self.db.integrity_errors as err:
                raise SeatTaken(str(err)) from err
            if taken != 1:
                raise VersionConflict(f"seat {seat.seat} of game {game_id} is not free")
            await conn.execute(
                "INSERT INTO absence_events (game_id, seat, user_id, kind, turn_version, "
                "created_at) VALUES (?, ?, ?, 'takeover', ?, ?) ON CONFLICT DO NOTHING",
                (game_id, seat.seat, seat.user_id, version, now))
            await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            return await select_game(conn, game_id)

        return await self.db.write(tx)

    async def claim_ai_turn(self, game_id: int, version: int, *, now: float,
                            lease: float = 300.0) -> bool:
        async def tx(conn: Conn) -> bool:
            return await conn.execute(
                "UPDATE games SET ai_claim_version = ?, ai_claimed_until = ?, "
                "ai_claim_owner = ? WHERE id = ? AND version = ? AND status = ? "
                "AND (ai_claim_version IS NULL OR ai_claim_version <> ? "
                "OR ai_claimed_until <= ?)",
                (version, now + lease, self.owner, game_id, version, ACTIVE, version,
                 now)) == 1

        return await self.db.write(tx)

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
            actions = [(game_id, r.seq, r.seat, r.action, events_json(r.public),
                        events_json(r.private), int(r.turn_end), int(r.irreversible),
                        r.rewind_to, r.created_at) for r in rows]
            kept = [(game_id, seq, position, dumps(dict(data)))
                    for seq, position, data in snapshots]
            return actions, kept

        gone = undone_by(rows)
        path = [(r.seq, r.seat) for r in rows if r.rewind_to is None and r.seq not in gone]

        async def tx(conn: Conn) -> GameInfo:
            game_id = await conn.fetchval(
                "INSERT INTO games (guild_id, channel_id, game_key, status, creator_id, "
                "options, seed, max_seats, state, version, moves, created_at, updated_at, "
                "finished_at, imported) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1) "
                "RETURNING id",
                (guild_id, channel_id, game_key, status, creator_id, dumps(dict(options)),
                 seed, len(seats), dumps(state), len(rows), len(path), now, now, now))
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
            return await select_game(conn, game_id)

        return await self.db.write(tx)

    async def is_imported(self, game_id: int) -> bool:
        return bool(await self.db.read(lambda c: c.fetchval(
            "SELECT imported FROM games WHERE id = ?", (game_id,))))

    async def guild_games(self, guild_id: int, statuses: Sequence[str], *, limit: int,
                          offset: int = 0) -> list[GameInfo]:
        return await self.db.read(lambda c: select_games(
            c, f"guild_id = ? AND status IN ({marks(statuses)}) "
               "ORDER BY COALESCE(finished_at, updated_at) DESC, id DESC LIMIT ? OFFSET ?",
            (guild_id, *statuses, max(0, limit), max(0, offset))))

    async def count_guild_games(self, guild_id: int, statuses: Sequence[str]) -> int:
        return int(await self.db.read(lambda c: c.fetchval(
            f"SELECT COUNT(*) FROM games WHERE guild_id = ? AND status IN ({marks(statuses)})",
            (guild_id, *statuses))))

    async def latest_game_in_channel(self, channel_id: int) -> GameInfo | None:
        games = await self.db.read(lambda c: select_games(
            c, "channel_id = ? AND status != ? ORDER BY id DESC LIMIT 1", (channel_id, LOBBY)))
        return games[0] if games else None
