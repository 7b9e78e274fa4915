"""A game's log: the append-only action entries, the undo marks and the replay snapshots.

The writes that append to the log move the game's version, so they live with the games
(:mod:`bot.core.storage.games`); this store only reads.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from bot.core.i18n import stored_event
from bot.core.storage.db import Conn, Database
from bot.core.storage.records import LogRow, ReplayBase
from engines.base import Event

# An entry that counts (not an undo entry, not taken back); ``a`` is the actions alias.
_EFFECTIVE = ("a.rewind_to IS NULL AND NOT EXISTS (SELECT 1 FROM undone_actions u "
              "WHERE u.game_id = a.game_id AND u.seq = a.seq)")


def _events(raw: str) -> tuple[Event, ...]:
    """Logged events; those written before nested Messages get their "@key" texts back as
    Messages (:func:`bot.core.i18n.stored_event`)."""
    return tuple(stored_event(Event.from_dict(e)) for e in json.loads(raw))


def _log_row(row: Any) -> LogRow:
    return LogRow(seq=row["seq"], seat=row["seat"], action=row["action"],
                  public=_events(row["public_events"]),
                  private=_events(row["private_events"]), turn_end=bool(row["turn_end"]),
                  created_at=row["created_at"], irreversible=bool(row["irreversible"]),
                  rewind_to=row["rewind_to"],
                  undone=bool(row["undone"]) if "undone" in row.keys()  # noqa: SIM118
                  else False)


class LogStore(ABC):
    """Reads of a game's log."""

    @abstractmethod
    async def log(self, game_id: int, *, limit: int = 20,
                  before_seq: int | None = None) -> list[LogRow]:
        """The newest ``limit`` entries before ``before_seq``, oldest first."""

    @abstractmethod
    async def turn_batch(self, game_id: int, upto_seq: int) -> list[LogRow]:
        """Entries from the last turn-ending one before ``upto_seq`` (inclusive) to it."""

    @abstractmethod
    async def history(self, game_id: int) -> list[LogRow]:
        """Every entry, oldest first, with its ``undone`` flag (export, animation)."""

    @abstractmethod
    async def entries(self, game_id: int, first: int, last: int) -> list[LogRow]:
        """Entries ``first`` to ``last`` (seq, inclusive), with their ``undone`` flag."""

    @abstractmethod
    async def undo_tail(self, game_id: int, seat: int) -> list[LogRow]:
        """The effective moves from the one before ``seat``'s last effective move to the end
        (all a take-back needs, see :func:`bot.core.undo_rules.plan_undo`); [] if it has none.
        Its cost follows the moves since that seat last played, not the length of the game."""

    @abstractmethod
    async def moved_since(self, game_id: int, seat: int, since: int) -> bool:
        """Whether an entry after version ``since`` is ``seat``'s own or an undo."""

    @abstractmethod
    async def replay_base(self, game_id: int, position: int) -> ReplayBase:
        """The nearest valid snapshot strictly before ``position`` (position 0: the setup)
        and the effective moves after it up to ``position``: at most
        :data:`~bot.core.storage.records.SNAPSHOT_EVERY` moves to replay, however long the game."""


class SqlLog(LogStore):
    db: Database
    rows_read: int  # log rows and snapshots read so far (tests bound the costs)

    async def _log_rows(self, sql: str, params: Sequence[Any]) -> list[LogRow]:
        async def q(conn: Conn) -> list[LogRow]:
            return [_log_row(r) for r in await conn.fetch(sql, params)]

        rows = await self.db.read(q)
        self.rows_read += len(rows)
        return rows

    async def log(self, game_id: int, *, limit: int = 20,
                  before_seq: int | None = None) -> list[LogRow]:
        before = before_seq if before_seq is not None else 2 ** 31 - 1  # past any seq
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
        position = await self.db.read(lambda c: c.fetchval(
            "SELECT position FROM effective_moves WHERE game_id = ? AND seat = ? "
            "ORDER BY position DESC LIMIT 1", (game_id, seat)))
        if position is None:
            return []
        return await self._log_rows(
            "SELECT a.* FROM effective_moves e JOIN actions a ON a.game_id = e.game_id "
            "AND a.seq = e.seq WHERE e.game_id = ? AND e.position >= ? ORDER BY e.position",
            (game_id, max(1, int(position) - 1)))

    async def moved_since(self, game_id: int, seat: int, since: int) -> bool:
        return bool(await self.db.read(lambda c: c.fetchval(
            "SELECT 1 FROM actions WHERE game_id = ? AND seq > ? "
            "AND (seat = ? OR rewind_to IS NOT NULL) LIMIT 1", (game_id, since, seat))))

    async def replay_base(self, game_id: int, position: int) -> ReplayBase:
        async def q(conn: Conn) -> tuple[int, str | None, list[LogRow]]:
            row = await conn.fetchrow(
                "SELECT s.position, s.state FROM snapshots s JOIN effective_moves e "
                "ON e.game_id = s.game_id AND e.position = s.position AND e.seq = s.seq "
                "WHERE s.game_id = ? AND s.position < ? ORDER BY s.position DESC LIMIT 1",
                (game_id, position))
            base, state = (0, None) if row is None else (row[0], row[1])
            moves = await conn.fetch(
                "SELECT a.* FROM effective_moves e JOIN actions a ON a.game_id = e.game_id "
                "AND a.seq = e.seq WHERE e.game_id = ? AND e.position > ? AND e.position <= ? "
                "ORDER BY e.position", (game_id, base, position))
            return base, state, [_log_row(r) for r in moves]

        # The snapshot and the moves after it are read in one transaction, so they match.
        base, state, moves = await self.db.read(q)
        self.rows_read += len(moves) + (state is not None)
        return ReplayBase(base, None if state is None else json.loads(state), tuple(moves))
