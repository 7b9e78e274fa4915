"""What every part of the game service shares: one repository, one clock, one lock per game,
loading a game once, and the few steps more than one part takes (who is awaited, the
reminder plan of a move, a seat's panel, the public board, a status change).

Each part (:mod:`~bot.core.service.lobby`, :mod:`~bot.core.service.moves`…) derives from
:class:`ServiceBase` and from nothing else, so a part calls only what is here and its own
methods: the parts never call one another.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from typing import Any

from bot.core import errors, move_clocks
from bot.core.i18n import normalise
from bot.core.image_cache import ImageCache
from bot.core.models import ACTIVE, LOBBY, OPEN_STATUSES, GameInfo, Panel, Seat
from bot.core.ratings import Ratings
from bot.core.render import render_board
from bot.core.storage.base import AwaitedSeat, Repository, VersionConflict
from bot.core.thinker import Thinker
from bot.core.undo import VOTE_HOURS, plan_undo
from engines import registry
from engines.ai import DEFAULT_LEVEL, LEVELS
from engines.base import Engine, GameError, GameOver

log = logging.getLogger(__name__)

RenderFn = Callable[[str, Mapping[str, Any], Sequence[str], str], Awaitable[bytes]]
MAX_REMINDER_HOURS = 24.0 * 30


@contextlib.contextmanager
def logged(op: str, **context: Any) -> Iterator[None]:
    """One log line per refused call (the accepted ones log their own line)."""
    try:
        yield
    except (errors.ServiceError, GameError) as err:
        where = " ".join(f"{k}={v}" for k, v in context.items())
        log.debug("%s refused (%s: %s) %s", op, type(err).__name__, err, where)
        raise


def check_hours(hours: float) -> float:
    """A reminder interval in hours, from 0 (never) to :data:`MAX_REMINDER_HOURS`."""
    try:
        value = float(hours)
    except (TypeError, ValueError):
        raise errors.InvalidOption(key="service.invalid_hours", hours=hours,
                                   max=MAX_REMINDER_HOURS) from None
    if not 0 <= value <= MAX_REMINDER_HOURS:
        raise errors.InvalidOption(key="service.invalid_hours", hours=hours,
                                   max=MAX_REMINDER_HOURS)
    return value


def check_level(level: str) -> str:
    """An AI level the engines know (:data:`engines.ai.LEVELS`)."""
    if level not in LEVELS:
        raise errors.InvalidOption(option="level", value=level, choices=", ".join(LEVELS))
    return level


class ServiceBase:
    def __init__(self, repo: Repository, *, clock: Callable[[], float] = time.time,
                 ai_delay: float = 0.0, render: RenderFn = render_board,
                 engine_for: Callable[[str], Engine[Any]] = registry.get,
                 default_locale: str = "en", default_reminder_hours: float = 24.0,
                 render_turns: bool = True, thinker: Thinker | None = None,
                 default_ai_level: str = DEFAULT_LEVEL) -> None:
        """``render_turns``: draw the public board into each :class:`MoveResult` (the demo
        and tests); the bot leaves it to the outbox deliverer, which draws it in the
        channel's language. ``thinker`` runs the AI searches (:mod:`bot.core.thinker`)."""
        self.repo = repo
        self.render_turns = render_turns
        self.default_ai_level = check_level(default_ai_level)
        self.thinker = thinker or Thinker()
        self.clock = clock
        self.ai_delay = ai_delay
        self._render_fn = render
        self.images = ImageCache()
        self._engine_for = engine_for
        self.default_locale = normalise(default_locale)
        self.default_reminder_hours = default_reminder_hours
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.ratings = Ratings(repo, self.engine, clock=clock)
        self.undo_vote_hours = VOTE_HOURS  # how long the others have to answer an undo vote

    # --- loading -----------------------------------------------------------------------
    def engine(self, game_key: str) -> Engine[Any]:
        try:
            return self._engine_for(game_key)
        except KeyError:
            raise errors.UnknownGameKey(game=game_key) from None

    async def get(self, game_id: int) -> GameInfo:
        game = await self.repo.get_game(errors.check_id(game_id))
        if game is None:
            raise errors.UnknownGame(game_id=game_id)
        return game

    async def load(self, game_id: int) -> tuple[GameInfo, Engine[Any], Any]:
        """Game, engine and decoded state (``None`` in the lobby), read together."""
        loaded = await self.repo.load_game(errors.check_id(game_id))
        if loaded is None:
            raise errors.UnknownGame(game_id=game_id)
        game, data = loaded
        engine = self.engine(game.game_key)
        return game, engine, (None if data is None else engine.from_dict(data))

    async def _load_started(self, game_id: int) -> tuple[GameInfo, Engine[Any], Any]:
        game, engine, state = await self.load(game_id)
        if game.status == LOBBY:
            raise errors.NotStarted(game_id=game_id)
        return game, engine, state

    async def _load_active(self, game_id: int) -> tuple[GameInfo, Engine[Any], Any]:
        game, engine, state = await self._load_started(game_id)
        if game.status != ACTIVE:
            raise GameOver(f"game {game_id} is {game.status}")
        return game, engine, state

    @staticmethod
    def _awaited(game: GameInfo, engine: Engine[Any], state: Any) -> tuple[Seat, ...]:
        if game.status != ACTIVE or state is None or engine.is_over(state):
            return ()
        return tuple(game.seats[s] for s in sorted(engine.active_players(state)))

    async def _set_status(self, game_id: int, status: str) -> GameInfo:
        try:
            return await self.repo.set_status(game_id, status, expected=OPEN_STATUSES,
                                              now=self.clock())
        except VersionConflict:
            raise GameOver(f"game {game_id} is already over") from None

    # --- the clocks a move starts ------------------------------------------------------
    async def _reminder_plan(self, game: GameInfo,
                             awaited: Sequence[Seat]) -> list[AwaitedSeat]:
        """First reminder time of each awaited human (their own interval, else the game's)
        and the clock of their move deadline (:mod:`bot.core.move_clocks`)."""
        now = self.clock()
        humans = [s for s in awaited if s.user_id is not None]
        timing = await move_clocks.plan(self.repo, game.id, [s.user_id for s in humans
                                                        if s.user_id is not None], now)
        plan = []
        for seat in humans:
            assert seat.user_id is not None
            prefs = await self.repo.user_settings(seat.user_id)
            hours = game.reminder_hours if prefs.reminder_hours is None else prefs.reminder_hours
            plan.append(AwaitedSeat(seat.seat, seat.user_id,
                                    now + hours * 3600 if hours > 0 else None,
                                    *timing[seat.user_id]))
        return plan

    # --- what a player and the channel see ---------------------------------------------
    async def _panel(self, game: GameInfo, engine: Engine[Any], state: Any,
                     seat: Seat) -> Panel:
        """The seat's panel: its view, its legal choices when awaited (else its game's free
        actions, e.g. Río's trades, offered whether awaited or not), and whether it may
        take back its last move freely (read from the log's tail, not the whole log)."""
        awaited = seat in self._awaited(game, engine, state)
        free = engine.spec.free_kinds and game.status == ACTIVE  # e.g. trades any time
        choices = tuple(engine.choices(state, seat.seat)) if awaited or free else ()
        plan = (plan_undo(await self.repo.undo_tail(game.id, seat.seat), seat.seat)
                if awaited else None)
        return Panel(game=game, seat=seat.seat, view=engine.view(state, seat.seat),
                     choices=choices, awaited=awaited,
                     take_back=plan is not None and not plan.needs_consent)

    async def names(self, game: GameInfo) -> list[str]:
        return [s.name for s in game.seats]

    async def guild_locale(self, guild_id: int | None) -> str | None:
        """The server's language override for public messages (None: no override)."""
        if guild_id is None:
            return None
        return (await self.repo.guild_settings(guild_id)).locale

    async def image(self, game: GameInfo, engine: Engine[Any], state: Any, seat: int | None,
                    locale: str) -> bytes:
        """The board of ``state`` (at ``game.version``) as ``seat`` sees it (None: spectator),
        drawn once per (game, version, viewer, locale, names) however many ask."""
        names = await self.names(game)
        key = ("board", game.id, game.version, seat, locale, tuple(names))
        return await self.images.get(key, lambda: self._render_fn(
            game.game_key, engine.view(state, seat), names, locale))

    async def _render(self, game: GameInfo, engine: Engine[Any], state: Any) -> bytes | None:
        """The public (spectator) board in the server's language; a drawing bug must not
        lose an already saved move, so it is logged and the message goes without image."""
        try:
            locale = await self.guild_locale(game.guild_id) or self.default_locale
            return await self.image(game, engine, state, None, locale)
        except Exception:
            log.exception("game %d: rendering the board failed", game.id)
            return None
