"""The game service: every game operation the cogs need, without Discord.

One call does load -> check the player -> apply -> save -> render, and returns plain records
(:mod:`bot.core.models`). The service is the only writer of games, so its invariants hold for
every front end (slash commands, buttons, the demo, tests):

* a move is durable before anyone hears of it (one transaction: log row + snapshot);
* a per-game ``asyncio.Lock`` serialises calls in this process and the storage version check
  guards against other processes: two identical clicks apply once; the second gets
  :class:`StaleVersion` (with ``expected_version``) or the engine's own error;
* the public channel only ever sees spectator views, and hears of a turn once, when it ends
  (``MoveResult.turn_completed``) with all the public events of that turn;
* rules errors (:class:`engines.base.GameError`) pass through unchanged; everything else is a
  :class:`bot.core.errors.ServiceError` with a translation key.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import secrets
import time
from collections import defaultdict
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator, Mapping, Sequence
from typing import Any

from bot.core import errors, move_clocks, votes
from bot.core.i18n import LOCALES, normalise
from bot.core.image_cache import ImageCache
from bot.core.models import (
    ACTIVE,
    CANCELLED,
    LOBBY,
    OPEN_STATUSES,
    DeadlinePolicy,
    GameInfo,
    GuildSettings,
    LogEntry,
    MoveResult,
    Panel,
    Reliability,
    Seat,
    UserSettings,
)
from bot.core.ratings import Ratings
from bot.core.render import render_board
from bot.core.replay import rebuild_position
from bot.core.shards import ALL, Shards
from bot.core.storage.base import (
    AwaitedSeat,
    ChannelTaken,
    LogRow,
    Outgoing,
    Repository,
    RequestPending,
    SeatTaken,
    Vacation,
    VersionConflict,
    Vote,
)
from bot.core.thinker import Thinker
from bot.core.undo import VOTE_HOURS, UndoResult, plan_undo
from bot.core.votes import VoteResult
from engines import registry
from engines.ai import DEFAULT_LEVEL, LEVELS
from engines.base import (
    TURN_END,
    Action,
    Engine,
    Event,
    GameError,
    GameOver,
    NotYourTurn,
    Result,
    Spec,
)

log = logging.getLogger(__name__)

RenderFn = Callable[[str, Mapping[str, Any], Sequence[str], str], Awaitable[bytes]]
MAX_REMINDER_HOURS = 24.0 * 30
MAX_PANEL_AGE = 64  # entries after which a panel is out of date whoever moved
AI_NAME = "AI {n}"
ABANDONED_NAME = "{name} 🤖"  # an abandoned seat, played by the AI until taken over
TURN_MESSAGE = "turn"  # the outbox kind of a turn message (board, account, who is next)
ANNOUNCEMENT = "announce"  # the outbox kind of a public notice (a missed deadline, a seat left)
NOTICE = "notice"  # the outbox kind of a message to one player (a deadline warning, "you're next")


def _nonce() -> str:
    """A Discord message nonce (at most 25 characters), unique per outbox message."""
    return "ludo-" + secrets.token_hex(8)


def turn_message(state: Mapping[str, Any], *, events: Sequence[Event],
                 awaited: Sequence[Seat], plan: Sequence[AwaitedSeat], over: bool,
                 started: bool = False) -> Outgoing:
    """The turn message a move (or the start) owes the channel, as outbox data: the state
    it shows (the board is drawn from its spectator view at delivery, in the channel's
    language), the turn's public events, who is next and their move deadlines."""
    return Outgoing(TURN_MESSAGE, {
        "state": state, "events": [e.to_dict() for e in events],
        "awaited": [s.seat for s in awaited], "over": over, "started": started,
        "deadlines": {str(a.seat): a.deadline_at for a in plan if a.deadline_at is not None},
    }, _nonce())


def announcement(key: str, params: Mapping[str, str | int]) -> Outgoing:
    """A public notice the deadline pass owes the channel (``key`` of the catalogues and
    its plain parameters), written with the state change that causes it: translated at
    delivery into the channel's language."""
    return Outgoing(ANNOUNCEMENT, {"key": key, "params": dict(params)}, _nonce())


def notice(user_id: int, key: str, params: Mapping[str, Any], *, dm: bool) -> Outgoing:
    """A message the deadline pass owes one player, by DM when ``dm`` (falling back to a
    mention in the game's channel when DMs are closed); ``params`` may nest Messages."""
    return Outgoing(NOTICE, {"user": user_id, "dm": dm,
                             "message": Event(key, params).to_dict()}, _nonce())


@contextlib.contextmanager
def _logged(op: str, **context: Any) -> Iterator[None]:
    """One log line per refused call (the accepted ones log their own line)."""
    try:
        yield
    except (errors.ServiceError, GameError) as err:
        where = " ".join(f"{k}={v}" for k, v in context.items())
        log.debug("%s refused (%s: %s) %s", op, type(err).__name__, err, where)
        raise


def _turn_events(rows: Sequence[LogRow], upto_seq: int) -> list[Event]:
    """Public events of the turn that ended at ``upto_seq``: after the previous TURN_END
    (possibly inside an earlier entry) up to the last TURN_END of entry ``upto_seq``."""
    out: list[Event] = []
    for row in rows:
        events = list(row.public)
        ends = [i for i, e in enumerate(events) if e.key == TURN_END]
        if row.seq < upto_seq and ends:
            out = []
            events = events[ends[-1] + 1:]
        elif row.seq == upto_seq and ends:
            events = events[:ends[-1] + 1]
        out.extend(events)
    return out


def _check_hours(hours: float) -> float:
    try:
        value = float(hours)
    except (TypeError, ValueError):
        raise errors.InvalidOption(key="service.invalid_hours", hours=hours,
                                   max=MAX_REMINDER_HOURS) from None
    if not 0 <= value <= MAX_REMINDER_HOURS:
        raise errors.InvalidOption(key="service.invalid_hours", hours=hours,
                                   max=MAX_REMINDER_HOURS)
    return value


def _check_locale(locale: str | None) -> str | None:
    if locale is not None and locale not in LOCALES:
        raise errors.InvalidOption(key="service.invalid_locale", locale=locale,
                                   choices=", ".join(LOCALES))
    return locale


def validate_options(spec: Spec, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults merged with the creator's choices; values from slash commands may be text."""
    known = {o.name: o for o in spec.options}
    options = {o.name: o.default for o in spec.options}
    for name, value in (given or {}).items():
        option = known.get(name)
        if option is None:
            raise errors.InvalidOption(key="service.unknown_option", option=name)
        if option.choices:
            match = [c for c in option.choices if c == value or str(c) == str(value)]
            if not match:
                raise errors.InvalidOption(option=name, value=value,
                                           choices=", ".join(map(str, option.choices)))
            value = match[0]
        elif option.default is not None and not isinstance(value, type(option.default)):
            value = _coerce(name, value, type(option.default))
        options[name] = value
    return options


def _coerce(name: str, value: Any, kind: type) -> Any:
    """A typed option value from slash-command text ("true", "12"), else a refusal."""
    text = str(value).strip().lower()
    if kind is bool and text in ("true", "false"):
        return text == "true"
    try:
        if kind is int and len(text) <= 18:
            return int(text)
        if kind is float and len(text) <= 18 and math.isfinite(float(text)):
            return float(text)
    except ValueError:
        pass
    raise errors.InvalidOption(option=name, value=str(value)[:40], choices="-")


class GameService:
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
        self.default_ai_level = _check_level(default_ai_level)
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

    async def _load(self, game_id: int) -> tuple[GameInfo, Engine[Any], Any]:
        """Game, engine and state (``None`` in the lobby)."""
        loaded = await self.repo.load_game(errors.check_id(game_id))
        if loaded is None:
            raise errors.UnknownGame(game_id=game_id)
        game, data = loaded
        engine = self.engine(game.game_key)
        return game, engine, (None if data is None else engine.from_dict(data))

    async def load(self, game_id: int) -> tuple[GameInfo, Engine[Any], Any]:
        """:meth:`_load` for readers outside the service (tools, tests): a read, no lock."""
        return await self._load(game_id)

    async def _load_started(self, game_id: int) -> tuple[GameInfo, Engine[Any], Any]:
        game, engine, state = await self._load(game_id)
        if game.status == LOBBY:
            raise errors.NotStarted(game_id=game_id)
        return game, engine, state

    async def _load_active(self, game_id: int) -> tuple[GameInfo, Engine[Any], Any]:
        game, engine, state = await self._load_started(game_id)
        if game.status != ACTIVE:
            raise GameOver(f"game {game_id} is {game.status}")
        return game, engine, state

    async def in_channel(self, channel_id: int) -> GameInfo | None:
        return await self.repo.open_game_in_channel(channel_id)

    async def names(self, game: GameInfo) -> list[str]:
        return [s.name for s in game.seats]

    @staticmethod
    def _awaited(game: GameInfo, engine: Engine[Any], state: Any) -> tuple[Seat, ...]:
        if game.status != ACTIVE or state is None or engine.is_over(state):
            return ()
        return tuple(game.seats[s] for s in sorted(engine.active_players(state)))

    # --- lobby -------------------------------------------------------------------------
    async def create(self, *, guild_id: int | None, channel_id: int, game_key: str,
                     creator_id: int, creator_name: str, seats: int | None = None,
                     options: dict[str, Any] | None = None,
                     reminder_hours: float | None = None,
                     seed: int | None = None) -> GameInfo:
        """A lobby with the creator at seat 0. ``seed`` is for demos and replays; by
        default it is drawn from :mod:`secrets` so nobody can predict the game."""
        with _logged("create", channel=channel_id, user=creator_id, game=game_key):
            spec = self.engine(game_key).spec
            max_seats = spec.max_players if seats is None else int(seats)
            if not spec.min_players <= max_seats <= spec.max_players:
                raise errors.InvalidOption(key="service.invalid_seats", seats=max_seats,
                                           min=spec.min_players, max=spec.max_players)
            chosen = validate_options(spec, options)
            # The engine is the judge of its options (a variant may not suit every count):
            # a refusal now is a typed InvalidState, before any table exists.
            self.engine(game_key).new_game(max_seats, 0, chosen)
            if reminder_hours is None:
                guild = None if guild_id is None else await self.repo.guild_settings(guild_id)
                reminder_hours = (guild.reminder_hours if guild and guild.reminder_hours
                                  is not None else self.default_reminder_hours)
            hours = _check_hours(reminder_hours)
            try:
                game = await self.repo.create_game(
                    guild_id=guild_id, channel_id=channel_id, game_key=game_key,
                    creator_id=creator_id, options=chosen,
                    seed=secrets.randbits(62) if seed is None else seed,
                    max_seats=max_seats, reminder_hours=hours,
                    seats=[Seat(0, creator_id, creator_name)], now=self.clock())
            except ChannelTaken:
                busy = await self.repo.open_game_in_channel(channel_id)
                raise errors.ChannelBusy(game_id=busy.id if busy else "?",
                                         game=busy.game_key if busy else "?") from None
            if self.default_ai_level != game.ai_level:  # the bot's own default for takeovers
                game = await self.repo.set_game_ai_level(game.id, self.default_ai_level,
                                                         now=self.clock())
        log.info("game %d created: %s in channel %d by %d (%d seats, options %s)",
                 game.id, game_key, channel_id, creator_id, max_seats, chosen)
        return game

    async def _lobby(self, game_id: int) -> GameInfo:
        game = await self.get(game_id)
        if game.status == ACTIVE:
            raise errors.AlreadyStarted(game_id=game_id)
        if game.status != LOBBY:
            raise GameOver(f"game {game_id} is {game.status}")
        return game

    async def _set_seats(self, game: GameInfo, seats: Sequence[Seat]) -> GameInfo:
        renumbered = [dataclasses.replace(s, seat=i) for i, s in enumerate(seats)]
        try:
            return await self.repo.set_seats(game.id, renumbered, now=self.clock())
        except VersionConflict:
            raise errors.AlreadyStarted(game_id=game.id) from None
        except SeatTaken:
            raise errors.AlreadySeated(game_id=game.id) from None

    async def join(self, game_id: int, user_id: int, name: str) -> GameInfo:
        with _logged("join", game=game_id, user=user_id):
            async with self._locks[game_id]:
                game = await self._lobby(game_id)
                if game.seat_of(user_id) is not None:
                    raise errors.AlreadySeated(game_id=game_id)
                if len(game.seats) >= game.max_seats:
                    raise errors.LobbyFull(game_id=game_id, seats=game.max_seats)
                game = await self._set_seats(game, [*game.seats, Seat(0, user_id, name)])
        log.info("game %d: user %d joined (%d/%d)", game_id, user_id, len(game.seats),
                 game.max_seats)
        return game

    async def leave(self, game_id: int, user_id: int) -> GameInfo:
        with _logged("leave", game=game_id, user=user_id):
            async with self._locks[game_id]:
                game = await self._lobby(game_id)
                if game.seat_of(user_id) is None:
                    raise errors.NotSeated(game_id=game_id)
                if user_id == game.creator_id:
                    raise errors.Forbidden(key="service.creator_cannot_leave")
                game = await self._set_seats(
                    game, [s for s in game.seats if s.user_id != user_id])
        log.info("game %d: user %d left", game_id, user_id)
        return game

    async def add_ai(self, game_id: int, by_user_id: int,
                     level: str | None = None) -> GameInfo:
        """Seat an AI at ``level`` (default: the bot's, ``normal`` unless configured)."""
        with _logged("add_ai", game=game_id, user=by_user_id):
            level = _check_level(level or self.default_ai_level)
            async with self._locks[game_id]:
                game = await self._lobby(game_id)
                if by_user_id != game.creator_id:
                    raise errors.NotCreator(game_id=game_id)
                if len(game.seats) >= game.max_seats:
                    raise errors.LobbyFull(game_id=game_id, seats=game.max_seats)
                game = await self._set_seats(
                    game, [*game.seats, Seat(0, None, _ai_name(game), level)])
        log.info("game %d: AI seat (%s) added by %d", game_id, level, by_user_id)
        return game

    async def set_ai_level(self, game_id: int, level: str, by_user_id: int) -> GameInfo:
        """The creator sets the level of AIs taking over seats at this table (a missed
        deadline, an abandoned seat, an admin's hand-over)."""
        with _logged("set_ai_level", game=game_id, user=by_user_id):
            level = _check_level(level)
            game = await self.get(game_id)
            if by_user_id != game.creator_id:
                raise errors.NotCreator(game_id=game_id)
            game = await self.repo.set_game_ai_level(game_id, level, now=self.clock())
        log.info("game %d: takeover AI level %s", game_id, level)
        return game

    async def think(self, game: GameInfo, engine: Engine[Any], state: Any, seat: int,
                    level: str) -> Action:
        """An AI's move for ``seat``, computed off the event loop (:mod:`bot.core.thinker`)."""
        return await self.thinker.choose(engine, game.game_key, state, seat, level,
                                          game.seed, game.version)

    async def remove_seat(self, game_id: int, seat: int, *, by_user_id: int,
                          is_admin: bool) -> GameInfo:
        """In the lobby the creator (or an admin) removes a seat; after the start an admin
        hands a seat to the AI so an absent player no longer blocks the table."""
        with _logged("remove_seat", game=game_id, user=by_user_id, seat=seat):
            async with self._locks[game_id]:
                game = await self.get(game_id)
                if not 0 <= seat < len(game.seats):
                    raise errors.NotSeated(key="service.no_such_seat", seat=seat)
                if game.status == LOBBY:
                    if not is_admin and by_user_id != game.creator_id:
                        raise errors.NotCreator(game_id=game_id)
                    if seat == 0:
                        raise errors.Forbidden(key="service.cannot_remove_creator")
                    game = await self._set_seats(
                        game, [s for s in game.seats if s.seat != seat])
                else:
                    if game.status != ACTIVE:
                        raise GameOver(f"game {game_id} is {game.status}")
                    if not is_admin:
                        raise errors.Forbidden(key="service.admin_only")
                    old = game.seats[seat]
                    if old.is_ai:
                        return game
                    game = await self.repo.replace_seat(
                        game_id, Seat(seat, None, _ai_name(game), game.ai_level),
                        now=self.clock())
                    if old.user_id is not None:
                        await self.repo.withdraw_ballots(game_id, old.user_id)
        log.info("game %d: seat %d removed by %d", game_id, seat, by_user_id)
        return game

    async def set_lobby_message(self, game_id: int, message_id: int | None) -> None:
        await self.repo.set_lobby_message(game_id, message_id)

    async def set_reminder_hours(self, game_id: int, hours: float, by_user_id: int) -> GameInfo:
        with _logged("set_reminder_hours", game=game_id, user=by_user_id):
            game = await self.get(game_id)
            if by_user_id != game.creator_id:
                raise errors.NotCreator(game_id=game_id)
            value = _check_hours(hours)
            game = await self.repo.set_game_reminder_hours(game_id, value, now=self.clock())
        log.info("game %d: reminders every %.1f h", game_id, value)
        return game

    # --- start / cancel ----------------------------------------------------------------
    async def start(self, game_id: int, by_user_id: int) -> MoveResult:
        with _logged("start", game=game_id, user=by_user_id):
            async with self._locks[game_id]:
                game = await self._lobby(game_id)
                if by_user_id != game.creator_id:
                    raise errors.NotCreator(game_id=game_id)
                engine = self.engine(game.game_key)
                if len(game.seats) < engine.spec.min_players:
                    raise errors.TooFewPlayers(game_id=game_id, min=engine.spec.min_players,
                                               seats=len(game.seats))
                state = engine.new_game(len(game.seats), game.seed, game.options)
                running = dataclasses.replace(game, status=ACTIVE)
                awaited = self._awaited(running, engine, state)
                plan = await self._reminder_plan(running, awaited)
                data = engine.to_dict(state)
                try:
                    game = await self.repo.start_game(
                        game_id, data, now=self.clock(), awaited=plan,
                        outbox=[turn_message(data, events=(), awaited=awaited, plan=plan,
                                             over=False, started=True)])
                except VersionConflict:
                    raise errors.AlreadyStarted(game_id=game_id) from None
        log.info("game %d started: %s, %d seats", game_id, game.game_key, len(game.seats))
        image = await self._render(game, engine, state) if self.render_turns else None
        return MoveResult(game=game, image=image, awaited=self._awaited(game, engine, state),
                          deadlines=await self._deadlines(game_id))

    async def cancel(self, game_id: int, by_user_id: int, *, is_admin: bool = False) -> GameInfo:
        with _logged("cancel", game=game_id, user=by_user_id):
            async with self._locks[game_id]:
                game = await self.get(game_id)
                if game.status not in OPEN_STATUSES:
                    raise GameOver(f"game {game_id} is {game.status}")
                if not is_admin:
                    if game.status == ACTIVE:
                        raise errors.Forbidden(key="service.cancel_needs_vote")
                    if by_user_id != game.creator_id:
                        raise errors.NotCreator(game_id=game_id)
                game = await self._set_status(game_id, CANCELLED)
        log.info("game %d cancelled by %d%s", game_id, by_user_id, " (admin)" * is_admin)
        return game

    async def _set_status(self, game_id: int, status: str) -> GameInfo:
        try:
            return await self.repo.set_status(game_id, status, expected=OPEN_STATUSES,
                                              now=self.clock())
        except VersionConflict:
            raise GameOver(f"game {game_id} is already over") from None

    async def vote_cancel(self, game_id: int, user_id: int) -> VoteResult:
        """After the start, the game is cancelled once every human player voted for it."""
        with _logged("vote_cancel", game=game_id, user=user_id):
            async with self._locks[game_id]:
                result = await self._vote_yes(game_id, votes.CANCEL, user_id)
                if result.passed:
                    result = dataclasses.replace(
                        result, game=await self._set_status(game_id, CANCELLED))
        return result

    # --- votes (bot/core/votes.py) -------------------------------------------------------
    async def vote(self, game_id: int, topic: str, user_id: int) -> VoteResult:
        """A seated human's yes to a unanimous table vote (``pause``, ``resume``, a new
        deadline policy): opens it when none is open on ``topic``, closes it as accepted
        once every human seated agreed; the caller then acts on it."""
        with _logged("vote", game=game_id, user=user_id, topic=topic):
            async with self._locks[game_id]:
                return await self._vote_yes(game_id, topic, user_id)

    async def _vote_yes(self, game_id: int, topic: str, user_id: int) -> VoteResult:
        game = await self._seated_in_running_game(game_id, user_id)
        now = self.clock()
        vote = await self.repo.open_vote(game_id, topic) or await self.repo.create_vote(
            game_id, topic, user_id=user_id, now=now)
        result = votes.tally(await self.repo.cast_ballot(vote.id, user_id, True, now=now), game)
        if result.passed:
            await self.repo.close_vote(vote.id, votes.ACCEPTED, now=now)
            if votes.is_table_topic(topic):  # the clocks changed: the other proposals go
                await self.repo.close_open_votes(game_id, votes.VOID, now=now,
                                                 keep=(votes.CANCEL, votes.UNDO))
        log.info("game %d: vote %s by %d (%d/%d)%s", game_id, topic, user_id,
                 len(result.votes), len(result.needed), " -> passed" if result.passed else "")
        return result

    async def _seated_in_running_game(self, game_id: int, user_id: int) -> GameInfo:
        game = await self.get(game_id)
        if game.status == LOBBY:
            raise errors.NotStarted(game_id=game_id)
        if game.status != ACTIVE:
            raise GameOver(f"game {game_id} is {game.status}")
        if game.seat_of(user_id) is None:
            raise errors.NotSeated(game_id=game_id)
        return game

    # --- undo (the rules: bot/core/undo.py) ---------------------------------------
    async def request_undo(self, game_id: int, user_id: int, *,
                           expected_version: int | None = None) -> UndoResult:
        """Take back the user's last move, or open an ``undo`` vote when consent is needed.

        ``expected_version`` is the version the Undo button was drawn at: like every move,
        an undo asked of an older position is :class:`~bot.core.errors.StaleVersion` (a
        second click on the same button, or a click racing a move, takes nothing more)."""
        with _logged("request_undo", game=game_id, user=user_id):
            async with self._locks[game_id]:
                game, engine, _state = await self._load_active(game_id)
                seat = game.seat_of(user_id)
                if seat is None:
                    raise errors.NotSeated(game_id=game_id)
                if expected_version is not None and expected_version != game.version:
                    raise errors.StaleVersion(game_id=game_id, version=game.version)
                plan = plan_undo(await self.repo.undo_tail(game_id, seat.seat), seat.seat)
                if plan is None:
                    raise errors.Forbidden(key="history.undo_nothing")
                others = sorted(votes.humans(game) - {user_id})
                if not plan.needs_consent or not others:
                    return await self._rewind(game, engine, seat, plan.rewind_to, plan.reason)
                now = self.clock()
                pending = await self.repo.open_vote(game_id, votes.UNDO)
                if pending is not None:
                    status = votes.outcome(pending, game, now)
                    if status == votes.OPEN:
                        raise errors.Forbidden(key="history.undo_pending")
                    await self.repo.close_vote(pending.id, status, now=now)
                try:
                    vote = await self.repo.create_vote(
                        game_id, votes.UNDO, user_id=user_id, now=now, voters=others,
                        expires_at=now + self.undo_vote_hours * 3600, version=game.version,
                        seat=seat.seat, rewind_to=plan.rewind_to)
                except RequestPending:
                    raise errors.Forbidden(key="history.undo_pending") from None
        log.info("game %d: undo vote %d asked by %d (%s, %d move(s))", game_id, vote.id,
                 user_id, plan.reason, len(plan.taken_back))
        return UndoResult(game, seat, request=vote, reason=plan.reason,
                          taken_back=plan.taken_back)

    async def vote_undo(self, vote_id: int, user_id: int, accept: bool) -> UndoResult:
        """A voter's answer to an undo vote; the last yes applies the undo."""
        found = await self.undo_vote(vote_id)
        with _logged("vote_undo", game=found.game_id, user=user_id):
            async with self._locks[found.game_id]:
                vote = await self.undo_vote(vote_id)
                if vote.status != votes.OPEN:
                    raise errors.Forbidden(key="history.undo_closed")
                game = await self.get(vote.game_id)
                assert vote.seat is not None and vote.rewind_to is not None
                requester = game.seats[vote.seat]
                if user_id not in vote.voters:
                    raise errors.Forbidden(key="history.undo_not_voter")
                now = self.clock()
                status = votes.outcome(vote, game, now) if game.status == ACTIVE else votes.VOID
                if status in (votes.EXPIRED, votes.VOID):
                    await self.repo.close_vote(vote_id, status, now=now)
                    if status == votes.EXPIRED:
                        return UndoResult(game, requester, refused="expired", request=vote)
                    raise errors.Forbidden(key="history.undo_void")
                try:
                    vote = await self.repo.cast_ballot(vote_id, user_id, accept, now=now)
                except VersionConflict:
                    raise errors.Forbidden(key="history.undo_closed") from None
                status = votes.outcome(vote, game, now)
                if status == votes.REFUSED:
                    await self.repo.close_vote(vote_id, status, now=now)
                    log.info("game %d: undo vote %d refused by %d", game.id, vote_id, user_id)
                    return UndoResult(game, requester, refused="refused", request=vote)
                if status != votes.ACCEPTED:
                    return UndoResult(game, requester, request=vote)
                await self.repo.close_vote(vote_id, votes.ACCEPTED, now=now)
                game, engine, _state = await self._load_active(game.id)
                result = await self._rewind(game, engine, requester, vote.rewind_to, "vote")
        return dataclasses.replace(result, request=vote)

    async def undo_vote(self, vote_id: int) -> Vote:
        """An undo vote by id (a vote button names it); closed or not."""
        vote = await self.repo.vote(errors.check_id(vote_id))
        if vote is None or vote.topic != votes.UNDO:
            raise errors.Forbidden(key="history.undo_closed")
        return vote

    async def pending_undo(self, game_id: int) -> Vote | None:
        return await self.repo.open_vote(game_id, votes.UNDO)

    async def _rewind(self, game: GameInfo, engine: Engine[Any], seat: Seat, rewind_to: int,
                      reason: str) -> UndoResult:
        """Rewind to entry ``rewind_to`` (the game's lock is held): the state there is
        rebuilt from the nearest stored snapshot (:func:`bot.core.history.rebuild_position`),
        so its cost does not grow with the game. The log stays append-only: an undo entry
        marks the taken-back entries, and the version still grows."""
        plan = plan_undo(await self.repo.undo_tail(game.id, seat.seat), seat.seat)
        if plan is None:
            raise errors.Forbidden(key="history.undo_nothing")
        if plan.rewind_to != rewind_to:  # the game changed since the vote was asked
            raise errors.Forbidden(key="history.undo_void")
        taken = plan.taken_back
        state = await rebuild_position(self.repo, engine, game, game.moves - len(taken))
        awaited = self._awaited(game, engine, state)
        try:
            saved = await self.repo.save_undo(
                game.id, expected_version=game.version, state=engine.to_dict(state),
                seat=seat.seat, rewind_to=rewind_to, undone=[r.seq for r in taken],
                awaited=await self._reminder_plan(game, awaited), now=self.clock())
        except VersionConflict:
            raise errors.StaleVersion(game_id=game.id, version=game.version) from None
        log.info("game %d v%d: seat %d took back %d move(s) to #%d (%s)", game.id,
                 saved.version, seat.seat, len(taken), rewind_to, reason)
        return UndoResult(saved, seat, applied=True, reason=reason, taken_back=taken,
                          awaited=self._awaited(saved, engine, state))

    # --- the clocks of a game (bot/core/absence_policies.py decides, the service writes) -
    async def set_deadline_policy(self, game_id: int, policy: DeadlinePolicy, *,
                                  restart_clocks: bool) -> None:
        """Store the game's deadline policy; ``restart_clocks`` (a change after the start)
        restarts every running clock under it, players on vacation excepted."""
        async with self._locks[game_id]:
            now = self.clock()
            await self.repo.set_deadline_policy(game_id, policy, now=now)
            if restart_clocks:
                rows = await self.repo.reminders(game_id)
                away = [r.user_id for r in rows
                        if await self.repo.current_vacation(r.user_id, now)]
                await self.repo.set_clocks(game_id, move_clocks.restart(policy, rows, away, now))

    async def set_paused(self, game_id: int, paused: bool) -> bool:
        """Stop or restart every clock of the game (a vote passed, or an admin); False if
        it already was in that state. Open votes about the clocks are void then."""
        async with self._locks[game_id]:
            now = self.clock()
            policy = await self.repo.deadline_policy(game_id)
            if (policy.paused_at is not None) == paused:
                return False
            policy = dataclasses.replace(policy, paused_at=now if paused else None)
            await self.repo.set_deadline_policy(game_id, policy, now=now)
            rows = await self.repo.reminders(game_id)
            if paused:
                changed = move_clocks.stop(rows, now)
            else:
                here = [r for r in rows if not await self.repo.current_vacation(r.user_id, now)]
                changed = move_clocks.resume(policy, here, now, now)
            await self.repo.set_clocks(game_id, changed)
            await self.repo.close_open_votes(game_id, votes.VOID, now=now,
                                             keep=(votes.CANCEL, votes.UNDO))
        log.info("game %d %s", game_id, "paused" if paused else "resumed")
        return True

    async def stop_clocks(self, user_id: int, now: float) -> None:
        """A player went on vacation: their clocks stop in every game."""
        rows = await self.repo.user_clocks(user_id)
        for game_id in sorted({r.game_id for r in rows}):
            async with self._locks[game_id]:
                await self.repo.set_clocks(game_id, move_clocks.stop(
                    [r for r in rows if r.game_id == game_id], now))

    async def resume_clocks(self, user_id: int, at: float, now: float) -> int:
        """Restart a player's stopped clocks (their vacation ended at ``at``), except in
        games the table has paused; return how many were restarted."""
        rows = await self.repo.user_clocks(user_id)
        restarted = 0
        for game_id in sorted({r.game_id for r in rows}):
            async with self._locks[game_id]:
                policy = await self.repo.deadline_policy(game_id)
                if not policy.enabled or policy.paused_at is not None:
                    continue
                changed = move_clocks.resume(policy, [r for r in rows if r.game_id == game_id],
                                             at, now)
                await self.repo.set_clocks(game_id, changed)
                restarted += len(changed)
        return restarted

    async def start_vacation(self, user_id: int, start: float, end: float) -> None:
        """A player's vacation (its days checked by bot/core/absence_policies.py): their
        clocks stop in every game."""
        await self.repo.add_vacation(user_id, start, end)
        await self.stop_clocks(user_id, start)

    async def end_vacation(self, vacation: Vacation, now: float) -> None:
        """Back early: the vacation ends now and the player's clocks restart."""
        await self.repo.end_vacation(vacation.id, now)
        await self.resume_clocks(user_id=vacation.user_id, at=now, now=now)
        await self.repo.mark_vacation_resumed(vacation.id)

    async def vacation_over(self, vacation: Vacation, now: float) -> int:
        """A vacation that ran its course (the deadline pass): clocks restart from its end."""
        restarted = await self.resume_clocks(vacation.user_id, vacation.end_at, now)
        await self.repo.mark_vacation_resumed(vacation.id)
        return restarted

    async def abandon_seat(self, game_id: int, seat: int, user_id: int, turn_version: int, *,
                           now: float, outbox: Sequence[Outgoing] = ()) -> GameInfo | None:
        """The deadline pass declares a seat abandoned after too many missed deadlines: the
        AI plays it until someone takes it over; ``outbox``: the notices written with it.
        None if it no longer is that user's."""
        async with self._locks[game_id]:
            game = await self.get(game_id)
            if game.status != ACTIVE or game.seats[seat].user_id != user_id:
                return None
            name = ABANDONED_NAME.format(name=game.seats[seat].name)[:80]
            try:
                return await self.repo.abandon_seat(
                    game_id, Seat(seat, None, name, game.ai_level), user_id, turn_version,
                    now=now, outbox=outbox)
            except VersionConflict:
                return None

    async def take_over_seat(self, game_id: int, seat: int, user_id: int,
                             name: str) -> GameInfo:
        """Someone in the channel takes an abandoned seat (bot/core/absence_policies.py
        checks who may); the new player's clock starts."""
        async with self._locks[game_id]:
            game = await self.get(game_id)
            try:
                game = await self.repo.take_over_seat(game_id, Seat(seat, user_id, name),
                                                      version=game.version, now=self.clock())
            except SeatTaken:
                raise errors.AlreadySeated(game_id=game_id) from None
            except VersionConflict:
                raise errors.Forbidden(key="deadline.not_abandoned", seat=seat + 1) from None
            await self._restart_reminders(game_id)
        log.info("game %d: user %d took over seat %d", game_id, user_id, seat)
        return game

    # --- moves -------------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, action: str, *,
                  expected_version: int | None = None) -> MoveResult:
        with _logged("act", game=game_id, user=user_id, action=repr(action)):
            async with self._locks[game_id]:
                game, engine, state = await self._load_active(game_id)
                seat = game.seat_of(user_id)
                if seat is None:
                    raise errors.NotSeated(game_id=game_id)
                if expected_version is not None and expected_version != game.version \
                        and not await self._only_others_moved(game, seat.seat, expected_version):
                    raise errors.StaleVersion(game_id=game_id, version=game.version)
                move = Action.parse(action)
                if seat.seat not in engine.active_players(state) \
                        and move.kind not in engine.spec.free_kinds:
                    raise NotYourTurn(f"seat {seat.seat} is not awaited")
                result = await self._apply(game, engine, state, seat.seat, move,
                                           panel_for=seat)
                await self.repo.reset_misses(game_id, seat.seat)  # back in time: 0 misses
                return result

    async def _only_others_moved(self, game: GameInfo, seat: int, since: int) -> bool:
        """A panel drawn at ``since`` is still this seat's if every entry after it is another
        seat's plain move (e.g. the AI's pick in a simultaneous step): the click keeps its
        meaning and the engine checks it is still legal. The seat's own move, a move made for
        it on timeout, or an undo since makes the panel out of date, and so does a panel
        more than :data:`MAX_PANEL_AGE` entries old (the check reads no more than that)."""
        if not game.version - MAX_PANEL_AGE <= since <= game.version:
            return False
        return not await self.repo.moved_since(game.id, seat, since)

    async def panel_current(self, game_id: int, seat: int, since: int) -> bool:
        """Whether a panel of ``seat`` drawn at version ``since`` still holds: the check a
        click on it passes (:meth:`act`) before the engine sees the action. A read."""
        game, _engine, _state = await self._load(game_id)
        return since == game.version or await self._only_others_moved(game, seat, since)

    async def move_for(self, game_id: int, seat: int, user_id: int,
                       choose: Callable[[Engine[Any], Any, GameInfo], Action | Awaitable[Action]]
                       ) -> MoveResult | None:
        """Play one move chosen by ``choose`` for a player who let their time run out
        (:mod:`bot.core.deadlines`); None once that seat is no longer theirs or awaited.
        ``choose`` may be a coroutine (the AI thinks off the loop)."""
        async with self._locks[game_id]:
            game, engine, state = await self._load(game_id)
            awaited = self._awaited(game, engine, state)
            if not any(s.seat == seat and s.user_id == user_id for s in awaited):
                return None
            move = choose(engine, state, game)
            if not isinstance(move, Action):
                move = await move
            return await self._apply(game, engine, state, seat, move)

    async def _restart_reminders(self, game_id: int) -> None:
        """A seat changed hands while the game runs (a takeover): an awaited human without
        a reminder row gets one, with a fresh clock (the game's lock is held)."""
        game, engine, state = await self._load(game_id)
        for awaited in await self._reminder_plan(game, self._awaited(game, engine, state)):
            await self.repo.start_clock(game_id, awaited, version=game.version, now=self.clock())

    async def reliability(self, user_id: int) -> Reliability:
        """Games finished, deadlines missed and seats abandoned (``/game profile``)."""
        return await self.repo.reliability(user_id)

    async def ai_moves(self, game_id: int) -> AsyncGenerator[MoveResult, None]:
        """Play every awaited AI seat, one move at a time, until a human is awaited or the
        game ends. The AI thinks without holding the game's lock (players' requests are
        answered meanwhile); its move is applied, through the same durable path as
        :meth:`act`, only if the game has not moved on since."""
        while True:
            game, engine, state = await self._load(game_id)
            ai = [s for s in self._awaited(game, engine, state) if s.is_ai]
            if not ai:
                return
            # Claimed: while this process (or another) thinks this move, a second caller
            # stops here rather than think it twice.
            if not await self.repo.claim_ai_turn(game.id, game.version, now=self.clock()):
                return
            await asyncio.sleep(self.ai_delay)
            seat = ai[0]
            move = await self.think(game, engine, state, seat.seat, seat.level)
            async with self._locks[game_id]:
                current, engine, state = await self._load(game_id)
                if current.version != game.version or not any(
                        s.seat == seat.seat and s.is_ai
                        for s in self._awaited(current, engine, state)):
                    continue  # someone moved meanwhile: think again on the new state
                try:
                    result = await self._apply(current, engine, state, seat.seat, move)
                except errors.StaleVersion:
                    continue  # saved meanwhile by a writer outside this lock: think again
            yield result

    async def _apply(self, game: GameInfo, engine: Engine[Any], state: Any, seat: int,
                     action: Action, *, panel_for: Seat | None = None) -> MoveResult:
        """Apply and save one move; ``panel_for``: the mover, whose fresh panel is drawn
        from the new state here (a click then loads and deserialises the game once)."""
        outcome = engine.apply(state, seat, action)
        new_state = outcome.state
        public = [e for e in outcome.events if e.to is None]
        private = [e for e in outcome.events if e.to is not None]
        turn_end = any(e.key == TURN_END for e in public)
        over = engine.is_over(new_state)
        awaited = () if over else self._awaited(game, engine, new_state)
        plan = await self._reminder_plan(game, awaited)
        data = engine.to_dict(new_state)
        version = game.version + 1
        events = public
        if turn_end:  # the account covers the whole turn, from the previous TURN_END on
            this = LogRow(seq=version, seat=seat, action=str(action), public=tuple(public),
                          private=(), turn_end=True, created_at=self.clock())
            events = _turn_events([*await self.repo.turn_batch(game.id, version), this],
                                  version)
        # The turn message is written with the move, in its transaction (the outbox).
        owed = [turn_message(data, events=events, awaited=awaited, plan=plan, over=over)] \
            if turn_end or over else []
        try:
            saved = await self.repo.save_move(
                game.id, expected_version=game.version, state=data,
                seat=seat, action=str(action), public=public, private=private,
                turn_end=turn_end, finished=over, awaited=plan, now=self.clock(),
                irreversible=outcome.irreversible, outbox=owed)
        except VersionConflict:
            raise errors.StaleVersion(game_id=game.id, version=game.version) from None
        log.info("game %d v%d: seat %d played %r%s%s", game.id, saved.version, seat, str(action),
                 " (turn end)" if turn_end else "", " (game over)" if over else "")
        result = MoveResult(game=saved, turn_completed=turn_end, awaited=awaited,
                            public_events=events)
        for event in private:
            assert event.to is not None
            result.private_events.setdefault(event.to, []).append(event)
        if turn_end:
            result.deadlines = {a.seat: a.deadline_at for a in plan
                                if a.deadline_at is not None}
        if over:
            result.result = engine.result(new_state)
            await self._finished(saved)
        if (turn_end or over) and self.render_turns:
            result.image = await self._render(saved, engine, new_state)
        if panel_for is not None:
            result.panel = await self._panel(saved, engine, new_state, panel_for)
        return result

    async def _finished(self, game: GameInfo) -> None:
        """The finish path: rate the game once. A rating failure must not lose the saved
        last move; :meth:`bot.core.ratings.Ratings.catch_up` rates it at the next start."""
        try:
            await self.ratings.rate_game(game.id)
        except Exception:
            log.exception("game %d: rating failed", game.id)

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

    async def _deadlines(self, game_id: int) -> dict[int, float]:
        """Running move deadlines by seat, for the turn message."""
        return {r.seat: r.deadline_at for r in await self.repo.reminders(game_id)
                if r.deadline_at is not None}

    async def reminder_hours_for(self, game: GameInfo, user_id: int) -> float:
        """The interval between two reminders of this player in this game (0 = never)."""
        prefs = await self.repo.user_settings(user_id)
        return game.reminder_hours if prefs.reminder_hours is None else prefs.reminder_hours

    # --- reading -----------------------------------------------------------------------
    async def panel(self, game_id: int, user_id: int) -> Panel:
        with _logged("panel", game=game_id, user=user_id):
            game, engine, state = await self._load_started(game_id)
            seat = game.seat_of(user_id)
            if seat is None:
                raise errors.NotSeated(game_id=game_id)
            return await self._panel(game, engine, state, seat)

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

    async def view(self, game_id: int, seat: int | None) -> dict[str, Any]:
        with _logged("view", game=game_id, seat=seat):
            game, engine, state = await self._load_started(game_id)
            if seat is not None and not 0 <= seat < len(game.seats):
                raise errors.NotSeated(key="service.no_such_seat", seat=seat)
            return engine.view(state, seat)

    async def spectator(self, game_id: int) -> tuple[GameInfo, dict[str, Any]]:
        """The game and its public view, read together: the view is the one of
        ``game.version`` (an image cache key can rely on it)."""
        with _logged("spectator", game=game_id):
            game, engine, state = await self._load_started(game_id)
            return game, engine.view(state, None)

    async def board(self, game_id: int, *, user_id: int | None = None,
                    locale: str = "en") -> bytes:
        """The spectator board, or that player's own view when ``user_id`` is given (for an
        ephemeral reply only: the public board is always the spectator view)."""
        with _logged("board", game=game_id, user=user_id):
            game, engine, state = await self._load_started(game_id)
            seat: int | None = None
            if user_id is not None:
                found = game.seat_of(user_id)
                if found is None:
                    raise errors.NotSeated(game_id=game_id)
                seat = found.seat
            return await self.image(game, engine, state, seat, normalise(locale))

    async def image(self, game: GameInfo, engine: Engine[Any], state: Any, seat: int | None,
                    locale: str) -> bytes:
        """The board of ``state`` (at ``game.version``) as ``seat`` sees it (None: spectator),
        drawn once per (game, version, viewer, locale, names) however many ask."""
        names = await self.names(game)
        key = ("board", game.id, game.version, seat, locale, tuple(names))
        return await self.images.get(key, lambda: self._render_fn(
            game.game_key, engine.view(state, seat), names, locale))

    async def draw_view(self, game_key: str, view: Mapping[str, Any], names: Sequence[str],
                        locale: str) -> bytes:
        """A view drawn by the game's renderer (replay frames; their cache is the caller's)."""
        return await self._render_fn(game_key, view, names, locale)

    async def import_game(self, *, guild_id: int | None, channel_id: int, user_id: int,
                          game_key: str, options: Mapping[str, Any], seed: int,
                          seats: Sequence[Seat], status: str, state: Mapping[str, Any],
                          rows: Sequence[LogRow],
                          snapshots: Sequence[tuple[int, int, Mapping[str, Any]]]) -> GameInfo:
        """Store a game rebuilt from an export (checked and replayed by
        :mod:`bot.core.history`): finished or cancelled, kept for replays, never rated."""
        with _logged("import_game", user=user_id, game_key=game_key):
            return await self.repo.import_game(
                guild_id=guild_id, channel_id=channel_id, game_key=game_key,
                creator_id=user_id, options=options, seed=seed, seats=seats, status=status,
                state=state, rows=rows, now=self.clock(), snapshots=snapshots)

    async def _render(self, game: GameInfo, engine: Engine[Any], state: Any) -> bytes | None:
        """The public (spectator) board in the server's language; a drawing bug must not
        lose an already saved move, so it is logged and the message goes without image."""
        try:
            locale = await self.guild_locale(game.guild_id) or self.default_locale
            return await self.image(game, engine, state, None, locale)
        except Exception:
            log.exception("game %d: rendering the board failed", game.id)
            return None

    async def turn_board(self, game: GameInfo, state: Mapping[str, Any],
                         locale: str, *, version: int) -> bytes | None:
        """The spectator board of an outbox turn message (the state saved at ``version``),
        drawn in ``locale`` once however many ask (``/game board`` shares it); a drawing bug
        must not hold the message back, so it is logged and the message goes without it."""
        try:
            engine = self.engine(game.game_key)
            at = dataclasses.replace(game, version=version)
            return await self.image(at, engine, engine.from_dict(state), None,
                                    normalise(locale))
        except Exception:
            log.exception("game %d: rendering the board failed", game.id)
            return None

    def final_result(self, game: GameInfo, state: Mapping[str, Any]) -> Result:
        """The standings of a finished game's final state (an outbox turn message)."""
        engine = self.engine(game.game_key)
        return engine.result(engine.from_dict(state))

    async def log(self, game_id: int, *, limit: int = 20,
                  before_seq: int | None = None) -> list[LogEntry]:
        with _logged("log", game=game_id):
            await self.get(game_id)
        rows = await self.repo.log(game_id, limit=limit, before_seq=before_seq)
        return [LogEntry(r.seq, r.seat, r.action, r.created_at, r.public) for r in rows]

    async def mine(self, user_id: int) -> list[tuple[GameInfo, tuple[int, ...]]]:
        """Active games, in every server, where this user is awaited now."""
        out = []
        for info in await self.repo.games_with_user(user_id, (ACTIVE,)):
            game, engine, state = await self._load(info.id)
            seats = tuple(s.seat for s in self._awaited(game, engine, state)
                          if s.user_id == user_id)
            if seats:
                out.append((game, seats))
        return out

    # --- settings ----------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.repo.guild_settings(guild_id)

    async def guild_locale(self, guild_id: int | None) -> str | None:
        """The server's language override for public messages (None: no override)."""
        if guild_id is None:
            return None
        return (await self.repo.guild_settings(guild_id)).locale

    async def set_guild_settings(self, guild_id: int, *, locale: str | None = None,
                                 reminder_hours: float | None = None) -> GuildSettings:
        """Set the given overrides (None = leave unchanged)."""
        values: dict[str, Any] = {}
        if locale is not None:
            values["locale"] = _check_locale(locale)
        if reminder_hours is not None:
            values["reminder_hours"] = _check_hours(reminder_hours)
        if not values:
            return await self.repo.guild_settings(guild_id)
        settings = await self.repo.update_guild_settings(guild_id, values, now=self.clock())
        log.info("guild %d settings: %s", guild_id, values)
        return settings

    async def set_user_settings(self, user_id: int, *, locale: str | None = None,
                                dm_opt_in: bool | None = None,
                                reminder_hours: float | None = None) -> UserSettings:
        """Set the given preferences (None = leave unchanged)."""
        values: dict[str, Any] = {}
        if locale is not None:
            values["locale"] = _check_locale(locale)
        if dm_opt_in is not None:
            values["dm_opt_in"] = bool(dm_opt_in)
        if reminder_hours is not None:
            values["reminder_hours"] = _check_hours(reminder_hours)
        if not values:
            return await self.repo.user_settings(user_id)
        settings = await self.repo.update_user_settings(user_id, values, now=self.clock())
        log.info("user %d settings: %s", user_id, values)
        return settings

    async def user_locales(self) -> dict[int, str]:
        return await self.repo.user_locales()

    async def games_awaiting_ai(self, shards: Shards = ALL) -> list[int]:
        """Active games where an AI seat is awaited (to resume after a restart), among the
        games of the guilds on ``shards``."""
        out = []
        for info in await self.repo.games_with_status((ACTIVE,)):
            if not any(s.is_ai for s in info.seats) or not shards.owns(info.guild_id):
                continue
            game, engine, state = await self._load(info.id)
            if any(s.is_ai for s in self._awaited(game, engine, state)):
                out.append(game.id)
        return out

    async def set_guild_locale(self, guild_id: int, locale: str | None) -> GuildSettings:
        return await self.repo.update_guild_settings(
            guild_id, {"locale": _check_locale(locale)}, now=self.clock())

    async def set_guild_reminder_hours(self, guild_id: int,
                                       hours: float | None) -> GuildSettings:
        value = None if hours is None else _check_hours(hours)
        return await self.repo.update_guild_settings(
            guild_id, {"reminder_hours": value}, now=self.clock())

    async def set_vacation_days(self, guild_id: int, days: int) -> GuildSettings:
        """The server's yearly vacation allowance (checked by bot/core/absence_policies.py)."""
        return await self.repo.update_guild_settings(guild_id, {"vacation_days": days},
                                                     now=self.clock())

    async def user_settings(self, user_id: int) -> UserSettings:
        return await self.repo.user_settings(user_id)

    async def set_quiet_hours(self, user_id: int, values: Mapping[str, Any]) -> UserSettings:
        """Quiet-hour preferences, already checked by bot/core/absence_policies.py."""
        unknown = set(values) - {"timezone", "quiet_start", "quiet_end", "notify_before"}
        if unknown:
            raise ValueError(f"not a quiet-hour setting: {sorted(unknown)}")
        return await self.repo.update_user_settings(user_id, dict(values), now=self.clock())

    async def set_user_locale(self, user_id: int, locale: str | None) -> UserSettings:
        return await self.repo.update_user_settings(
            user_id, {"locale": _check_locale(locale)}, now=self.clock())

    async def set_dm_opt_in(self, user_id: int, opt_in: bool) -> UserSettings:
        return await self.repo.update_user_settings(
            user_id, {"dm_opt_in": bool(opt_in)}, now=self.clock())

    async def set_user_reminder_hours(self, user_id: int, hours: float | None) -> UserSettings:
        value = None if hours is None else _check_hours(hours)
        return await self.repo.update_user_settings(
            user_id, {"reminder_hours": value}, now=self.clock())


def _check_level(level: str) -> str:
    if level not in LEVELS:
        raise errors.InvalidOption(option="level", value=level, choices=", ".join(LEVELS))
    return level


def _ai_name(game: GameInfo) -> str:
    taken = {s.name for s in game.seats}
    n = 1
    while AI_NAME.format(n=n) in taken:
        n += 1
    return AI_NAME.format(n=n)
