"""A game's past, rebuilt from its seed and action log: pages, replays, export and import.

Same seed + same effective log = same game, so every past position is the replay of a
prefix of the effective log (the moves not taken back by an undo, see :mod:`bot.core.undo`). To
keep that cheap however long the game, the storage keeps a snapshot every few moves and a
position is replayed from the nearest one (:func:`bot.core.replay.rebuild_position`).
Replays only ever show spectator views.

Exports hold the options, the seats, the seed, the whole log (undo entries included), a
digest of the final state and an HMAC signature by the bot's own key; an import checks the
signature, then replays the log through the engine — events and flags are recomputed, never
read from the file — and refuses a file whose replay does not reach the same digest. Only
finished or cancelled games are exported: the seed of a game in progress tells every card
still to come.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import math
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from bot.core import errors
from bot.core.i18n import normalise
from bot.core.models import ACTIVE, CANCELLED, FINISHED, LOBBY, GameInfo, Seat
from bot.core.render import draw, off_loop
from bot.core.replay import effective, replay_from, state_at, states
from bot.core.service import GameService
from bot.core.service.lobby import validate_options
from bot.core.storage.base import SNAPSHOT_EVERY, LogRow, undone_by
from engines.base import TURN_END, Action, Engine, GameError

log = logging.getLogger(__name__)

EXPORT_FORMAT = "ludotheque.game/1"
MAX_IMPORT_BYTES = 2 * 1024 * 1024
MAX_NAME = 32  # Discord display names are at most 32 characters
SIGNING_KEY = "export_signing_key"
ENDED = (FINISHED, CANCELLED)
STARTED = (ACTIVE, FINISHED, CANCELLED)


def digest(engine: Engine[Any], state: Any) -> str:
    """A stable fingerprint of a state (its canonical JSON)."""
    text = json.dumps(engine.to_dict(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def sample(positions: Sequence[int], limit: int) -> list[int]:
    """At most ``limit`` positions, evenly spread, always keeping the first and the last."""
    if len(positions) <= limit:
        return list(positions)
    if limit < 2:
        return [positions[-1]]
    step = (len(positions) - 1) / (limit - 1)
    picked = sorted({positions[round(i * step)] for i in range(limit)})
    return picked


def key_positions(moves: Sequence[LogRow]) -> list[int]:
    """The setup, every completed turn and the last position: the frames of an animation."""
    out = [0]
    for i, row in enumerate(moves, start=1):
        if row.turn_end or i == len(moves):
            out.append(i)
    return out


# ------------------------------------------------------------------ export / import

def export_document(engine: Engine[Any], game: GameInfo, rows: Sequence[LogRow],
                    final_state: Any, *, now: float) -> dict[str, Any]:
    log_entries: list[dict[str, Any]] = []
    for row in rows:
        entry: dict[str, Any] = {"seq": row.seq, "seat": row.seat, "at": row.created_at}
        if row.rewind_to is None:
            entry["action"] = row.action
        else:
            entry["undo_to"] = row.rewind_to
        log_entries.append(entry)
    return {
        "format": EXPORT_FORMAT,
        "game": game.game_key,
        "status": game.status,
        "seed": game.seed,
        "options": game.options,
        "seats": [{"seat": s.seat, "user_id": s.user_id, "name": s.name} for s in game.seats],
        "source": {"game_id": game.id, "guild_id": game.guild_id},
        "exported_at": now,
        "log": log_entries,
        "state_sha256": digest(engine, final_state),
    }


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """An imported game replayed: its seats, final state, status and recomputed log, with
    the replay snapshots of its effective moves."""

    game_key: str
    options: dict[str, Any]
    seed: int
    seats: tuple[Seat, ...]
    state: Any
    status: str
    rows: tuple[LogRow, ...]
    snapshots: tuple[tuple[int, int, dict[str, Any]], ...] = ()


def _bad(reason: str, **params: Any) -> errors.ServiceError:
    """A file that is not a valid export; ``reason`` names the field (not translated)."""
    return errors.InvalidOption(key="history.import_invalid",
                                reason=reason.format(**params) if params else reason)


class _Unreadable(Exception):
    """Raised from the JSON hooks: a value no export holds (caught in :func:`parse_export`)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > 19:  # also spares int() thousands of digits
        raise _Unreadable("history.import_big_number")
    value = int(text)
    if not -errors.MAX_ID - 1 <= value <= errors.MAX_ID:
        raise _Unreadable("history.import_big_number")
    return value


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Unreadable("history.import_not_finite")
    return value


def _json_constant(text: str) -> Any:
    raise _Unreadable("history.import_not_finite")  # NaN, Infinity, -Infinity


def parse_export(data: bytes) -> dict[str, Any]:
    """The JSON object of an export file, or a translated refusal: too large, not JSON,
    nested too deeply, numbers beyond 64 bits or not finite (CPU only: a worker thread)."""
    if len(data) > MAX_IMPORT_BYTES:
        raise errors.InvalidOption(key="history.import_too_big", max=MAX_IMPORT_BYTES // 1024)
    try:
        document = json.loads(data.decode("utf-8"), parse_int=_json_int,
                              parse_float=_json_float, parse_constant=_json_constant)
    except _Unreadable as err:
        raise errors.InvalidOption(key=err.key) from None
    except RecursionError:
        raise errors.InvalidOption(key="history.import_nested") from None
    except (UnicodeDecodeError, ValueError):
        raise _bad("JSON") from None
    if not isinstance(document, dict):
        raise _bad("JSON")
    return document


def _canonical(document: Mapping[str, Any]) -> bytes:
    unsigned = {k: v for k, v in document.items() if k != "signature"}
    return json.dumps(unsigned, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True, allow_nan=False).encode()


def sign(document: dict[str, Any], key: bytes) -> dict[str, Any]:
    """The document with its HMAC-SHA256 signature (by the bot's own key)."""
    signed = dict(document)
    signed["signature"] = hmac.new(key, _canonical(document), hashlib.sha256).hexdigest()
    return signed


def check_signature(document: Mapping[str, Any], key: bytes) -> None:
    """Only files this bot exported, unchanged: reassigned seats, another seed or options
    are refused before anything is replayed."""
    given = document.get("signature")
    if not isinstance(given, str):
        raise errors.InvalidOption(key="history.import_unsigned")
    expected = hmac.new(key, _canonical(document), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given, expected):
        raise errors.InvalidOption(key="history.import_tampered")


def _id(value: object) -> TypeGuard[int]:
    """An id or seed of the file: a plain int within the ids' range."""
    return isinstance(value, int) and not isinstance(value, bool) and \
        0 <= value <= errors.MAX_ID


def _name(value: object) -> TypeGuard[str]:
    """A player's name of the file: printable, not blank, not too long."""
    return (isinstance(value, str) and value.strip() != "" and len(value) <= MAX_NAME
            and value.isprintable())


def _seats(raw: Any) -> tuple[Seat, ...]:
    if not isinstance(raw, list) or not raw:
        raise _bad("seats")
    seats = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or item.get("seat") != i:
            raise _bad("seat {i}", i=i)
        user = item.get("user_id")
        if user is not None and not _id(user):
            raise _bad("seat {i}", i=i)
        name = item.get("name")
        if not _name(name):
            raise _bad("seat {i} name", i=i)
        seats.append(Seat(i, user, name))
    users = [s.user_id for s in seats if s.user_id is not None]
    if len(users) != len(set(users)):
        raise _bad("seats")
    return tuple(seats)


def _time(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value) or value < 0:
        raise errors.InvalidOption(key="history.import_not_finite")
    return float(value)


def rebuild(engine_for: Any, document: Mapping[str, Any], *,
            snapshot_every: int = SNAPSHOT_EVERY) -> Rebuilt:
    """Check an export and replay it through the engine (in a worker thread: CPU only).

    Linear in the log: an undo entry finds its target through a dict of the live entries,
    and only the states of live entries (at most the game's length) are kept."""
    if document.get("format") != EXPORT_FORMAT:
        raise _bad("format")
    try:
        engine: Engine[Any] = engine_for(str(document.get("game")))
    except (KeyError, errors.ServiceError):
        raise errors.UnknownGameKey(game=str(document.get("game"))) from None
    seed, raw_options = document.get("seed"), document.get("options")
    if not _id(seed) or not isinstance(raw_options, dict):
        raise _bad("seed/options")
    options = validate_options(engine.spec, raw_options)
    _time(document.get("exported_at", 0))
    source = document.get("source", {})
    if not isinstance(source, dict) or not all(v is None or _id(v) for v in source.values()):
        raise _bad("source")
    seats = _seats(document.get("seats"))
    spec = engine.spec
    if not spec.min_players <= len(seats) <= spec.max_players:
        raise _bad("seats")
    entries = document.get("log")
    if not isinstance(entries, list):
        raise _bad("log")
    try:
        state = engine.new_game(len(seats), seed, options)
    except GameError as err:
        raise _bad("setup: {err}", err=err) from None
    live: list[tuple[int, Any]] = [(0, state)]  # the effective path: (seq, state after it)
    where: dict[int, int] = {0: 0}  # seq -> index in live
    rows: list[LogRow] = []
    for seq, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or entry.get("seq") != seq:
            raise _bad("entry {seq}", seq=seq)
        seat = entry.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(seats):
            raise _bad("entry {seq}", seq=seq)
        created = _time(entry.get("at", 0.0))
        if "undo_to" in entry:
            target = entry["undo_to"]
            if not isinstance(target, int) or target not in where:
                raise _bad("entry {seq}", seq=seq)
            while live[-1][0] > target:
                del where[live.pop()[0]]
            state = live[-1][1]
            rows.append(LogRow(seq, seat, "undo", (), (), False, created, irreversible=False,
                               rewind_to=target))
            continue
        action_text = entry.get("action")
        if not isinstance(action_text, str):
            raise _bad("entry {seq}", seq=seq)
        try:
            action = Action.parse(action_text)
            outcome = engine.apply(state, seat, action)
        except GameError as err:
            raise _bad("entry {seq}: {err}", seq=seq, err=err) from None
        state = outcome.state
        where[seq] = len(live)
        live.append((seq, state))
        public = tuple(e for e in outcome.events if e.to is None)
        private = tuple(e for e in outcome.events if e.to is not None)
        rows.append(LogRow(seq, seat, str(action), public, private,
                           any(e.key == TURN_END for e in public), created,
                           irreversible=outcome.irreversible))
    if digest(engine, state) != document.get("state_sha256"):
        raise errors.InvalidOption(key="history.import_mismatch")
    status = FINISHED if engine.is_over(state) else CANCELLED
    if document.get("status") not in ENDED or (document.get("status") == FINISHED) != (
            status == FINISHED):
        raise _bad("status")
    gone = undone_by(rows)
    rows = [r if r.seq not in gone else _undone(r) for r in rows]
    snapshots = tuple((seq, position, engine.to_dict(kept))
                      for position, (seq, kept) in enumerate(live)
                      if position and position % snapshot_every == 0)
    return Rebuilt(spec.key, options, seed, seats, state, status, tuple(rows), snapshots)


def _undone(row: LogRow) -> LogRow:
    return LogRow(row.seq, row.seat, row.action, row.public, row.private, row.turn_end,
                  row.created_at, irreversible=row.irreversible, rewind_to=row.rewind_to,
                  undone=True)


# ------------------------------------------------------------------ the service side

@dataclass(frozen=True, slots=True)
class LogPage:
    game: GameInfo
    rows: tuple[LogRow, ...]
    page: int  # 0-based
    pages: int


@dataclass(frozen=True, slots=True)
class Frame:
    """One replayed position: the spectator view and the move that led to it."""

    game: GameInfo
    position: int
    total: int
    view: dict[str, Any]
    move: LogRow | None
    image: bytes | None


@dataclass(frozen=True, slots=True)
class GamesPage:
    games: tuple[GameInfo, ...]
    page: int
    pages: int
    total: int


class History:
    """Reading a game's past; built on the service (its storage, engines and renderer)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.repo = service.repo

    async def resolve(self, *, guild_id: int | None, channel_id: int,
                      game_id: int | None = None) -> GameInfo:
        """The game named by id (it must belong to this server), else the channel's open
        game, else the channel's latest game."""
        if game_id is not None:
            game = await self.repo.get_game(errors.check_id(game_id))
            if game is None or game.guild_id != guild_id:
                raise errors.UnknownGame(game_id=game_id)
            return game
        game = (await self.repo.open_game_in_channel(channel_id)
                or await self.repo.latest_game_in_channel(channel_id))
        if game is None:
            raise errors.NoGameHere()
        return game

    async def _started(self, game_id: int) -> tuple[GameInfo, Engine[Any], list[LogRow]]:
        game = await self._started_game(game_id)
        return game, self.service.engine(game.game_key), await self.repo.history(game_id)

    async def log_page(self, game_id: int, page: int | None = None,
                       size: int = 12) -> LogPage:
        """Every entry of the log, ``size`` a page; ``None`` = the last page (one page read:
        entry n is version n, so the count is the game's version)."""
        game = await self._started_game(game_id)
        pages = max(1, math.ceil(game.version / size))
        index = pages - 1 if page is None else min(max(0, page), pages - 1)
        rows = await self.repo.entries(game_id, index * size + 1, (index + 1) * size)
        return LogPage(game, tuple(rows), index, pages)

    async def _started_game(self, game_id: int) -> GameInfo:
        game = await self.service.get(game_id)
        if game.status == LOBBY:
            raise errors.NotStarted(game_id=game_id)
        return game

    async def moves(self, game_id: int) -> tuple[GameInfo, Engine[Any], list[LogRow]]:
        game, engine, rows = await self._started(game_id)
        return game, engine, effective(rows)

    async def frame(self, game_id: int, position: int | None, locale: str) -> Frame:
        """The spectator view after ``position`` moves (None = the last), drawn; rebuilt
        from the nearest stored snapshot, so its cost does not grow with the game. The
        image is drawn once per (game, version, position, locale, names) however many ask
        (:mod:`bot.core.image_cache`): the version changes with any move or undo, which is what
        could change the position's picture."""
        game = await self._started_game(game_id)
        engine = self.service.engine(game.game_key)
        total = game.moves
        pos = total if position is None else min(max(0, position), total)
        base = await self.repo.replay_base(game.id, pos)
        state = await asyncio.to_thread(replay_from, engine, game, base)
        view = engine.view(state, None)
        names = [s.name for s in game.seats]
        locale = normalise(locale)
        key = ("replay", game.id, game.version, pos, locale, tuple(names))
        try:
            image: bytes | None = await self.service.images.get(
                key, lambda: self.service.draw_view(game.game_key, view, names, locale))
        except Exception:
            log.exception("game %d: drawing replay position %d failed", game.id, pos)
            image = None
        return Frame(game, pos, total, view, base.moves[-1] if pos and base.moves else None,
                     image)

    async def export(self, game_id: int) -> bytes:
        game, engine, rows = await self._started(game_id)
        if game.status not in ENDED:
            raise errors.Forbidden(key="history.export_running")
        state = await asyncio.to_thread(state_at, engine, game, effective(rows),
                                        len(effective(rows)))
        document = export_document(engine, game, rows, state, now=self.service.clock())
        signed = sign(document, await self.signing_key())
        return json.dumps(signed, indent=1, sort_keys=True).encode()

    async def signing_key(self) -> bytes:
        """The bot's own export key: made once, kept in the database."""
        return await self.repo.secret(SIGNING_KEY, lambda: secrets.token_bytes(32))

    async def import_game(self, data: bytes, *, guild_id: int | None, channel_id: int,
                          user_id: int) -> GameInfo:
        """Re-create an exported game (never rated, never counted in profiles). Parsing,
        the signature check and the replay run in a worker thread: the event loop keeps
        answering while a large file is read."""
        if len(data) > MAX_IMPORT_BYTES:
            raise errors.InvalidOption(key="history.import_too_big",
                                       max=MAX_IMPORT_BYTES // 1024)
        key = await self.signing_key()

        def read() -> Rebuilt:
            document = parse_export(data)
            check_signature(document, key)
            return rebuild(self.service.engine, document,
                           snapshot_every=self.repo.snapshot_every)

        built = await asyncio.to_thread(read)
        engine = self.service.engine(built.game_key)
        game = await self.service.import_game(
            guild_id=guild_id, channel_id=channel_id, user_id=user_id, game_key=built.game_key,
            options=built.options, seed=built.seed, seats=built.seats, status=built.status,
            state=engine.to_dict(built.state), rows=built.rows, snapshots=built.snapshots)
        log.info("game %d imported by %d: %s, %d entries", game.id, user_id, game.game_key,
                 len(built.rows))
        return game

    async def ended_games(self, guild_id: int, page: int = 0, size: int = 10) -> GamesPage:
        total = await self.repo.count_guild_games(guild_id, ENDED)
        pages = max(1, math.ceil(total / size))
        index = min(max(0, page), pages - 1)
        games = await self.repo.guild_games(guild_id, ENDED, limit=size, offset=index * size)
        return GamesPage(tuple(games), index, pages, total)

    async def result(self, game: GameInfo) -> Any:
        """The final standings of a finished game (None otherwise)."""
        if game.status != FINISHED:
            return None
        loaded = await self.repo.load_game(game.id)
        if loaded is None or loaded[1] is None:
            return None
        engine = self.service.engine(game.game_key)
        return engine.result(engine.from_dict(loaded[1]))

    async def search(self, guild_id: int, needle: str, limit: int = 25) -> list[GameInfo]:
        """This server's started games for an autocomplete, newest first."""
        games = await self.repo.guild_games(guild_id, STARTED, limit=200)
        needle = needle.strip().lower().lstrip("#")
        return [g for g in games
                if not needle or needle in str(g.id) or needle in g.game_key
                or any(needle in s.name.lower() for s in g.seats)][:limit]


# ------------------------------------------------------------------ animation

MAX_FRAMES = 40


@dataclass(frozen=True, slots=True)
class Animation:
    data: bytes
    frames: int
    seconds: float


def draw_animation(engine: Engine[Any], game: GameInfo, moves: Sequence[LogRow], locale: str,
                   *, max_frames: int = MAX_FRAMES) -> tuple[bytes, int]:
    """CPU work for a worker thread: replay, draw the sampled positions, encode the GIF."""
    from renderers.animation import animate

    wanted = set(sample(key_positions(moves), max_frames))
    names = [s.name for s in game.seats]
    frames = [draw(game.game_key, engine.view(state, None), names, locale)
              for position, state in enumerate(states(engine, game, moves))
              if position in wanted]
    return animate(frames), len(frames)


async def animation(history: History, game_id: int, locale: str) -> Animation:
    """The whole finished game as an animated GIF (one frame per turn, sampled)."""
    import time

    game, engine, moves = await history.moves(game_id)
    if game.status != FINISHED:
        raise errors.Forbidden(key="history.animation_unfinished")
    started = time.perf_counter()
    async with _ANIMATION_SLOT:
        data, frames = await off_loop(draw_animation, engine, game, moves, locale)
    return Animation(data, frames, time.perf_counter() - started)


class _Slot:
    """One animation at a time per event loop: it is the heaviest drawing the bot does."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}

    async def __aenter__(self) -> None:
        loop = id(asyncio.get_running_loop())
        await self._locks.setdefault(loop, asyncio.Lock()).acquire()

    async def __aexit__(self, *exc: object) -> None:
        self._locks[id(asyncio.get_running_loop())].release()


_ANIMATION_SLOT = _Slot()
