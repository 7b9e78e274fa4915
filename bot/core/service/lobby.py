"""A table's life outside play: created in a channel, seats taken, left and given to AIs,
started (the first turn message written with the start) or cancelled, and games imported
from an export. Each change under the game's lock, refused with a typed error otherwise.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from bot.core import errors
from bot.core.models import ACTIVE, CANCELLED, LOBBY, OPEN_STATUSES, GameInfo, MoveResult, Seat
from bot.core.service.base import ServiceBase, check_hours, check_level, logged
from bot.core.service.outbox import turn_message
from bot.core.storage.base import ChannelTaken, LogRow, SeatTaken, VersionConflict
from engines.base import GameOver, Spec

log = logging.getLogger(__name__)

AI_NAME = "AI {n}"


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


def ai_name(game: GameInfo) -> str:
    """The first free "AI n" name at this table."""
    taken = {s.name for s in game.seats}
    n = 1
    while AI_NAME.format(n=n) in taken:
        n += 1
    return AI_NAME.format(n=n)


class Lobby(ServiceBase):
    async def create(self, *, guild_id: int | None, channel_id: int, game_key: str,
                     creator_id: int, creator_name: str, seats: int | None = None,
                     options: dict[str, Any] | None = None,
                     reminder_hours: float | None = None,
                     seed: int | None = None) -> GameInfo:
        """A lobby with the creator at seat 0. ``seed`` is for demos and replays; by
        default it is drawn from :mod:`secrets` so nobody can predict the game."""
        with logged("create", channel=channel_id, user=creator_id, game=game_key):
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
            hours = check_hours(reminder_hours)
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
        with logged("join", game=game_id, user=user_id):
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
        with logged("leave", game=game_id, user=user_id):
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
        with logged("add_ai", game=game_id, user=by_user_id):
            level = check_level(level or self.default_ai_level)
            async with self._locks[game_id]:
                game = await self._lobby(game_id)
                if by_user_id != game.creator_id:
                    raise errors.NotCreator(game_id=game_id)
                if len(game.seats) >= game.max_seats:
                    raise errors.LobbyFull(game_id=game_id, seats=game.max_seats)
                game = await self._set_seats(
                    game, [*game.seats, Seat(0, None, ai_name(game), level)])
        log.info("game %d: AI seat (%s) added by %d", game_id, level, by_user_id)
        return game

    async def set_ai_level(self, game_id: int, level: str, by_user_id: int) -> GameInfo:
        """The creator sets the level of AIs taking over seats at this table (a missed
        deadline, an abandoned seat, an admin's hand-over)."""
        with logged("set_ai_level", game=game_id, user=by_user_id):
            level = check_level(level)
            game = await self.get(game_id)
            if by_user_id != game.creator_id:
                raise errors.NotCreator(game_id=game_id)
            game = await self.repo.set_game_ai_level(game_id, level, now=self.clock())
        log.info("game %d: takeover AI level %s", game_id, level)
        return game

    async def remove_seat(self, game_id: int, seat: int, *, by_user_id: int,
                          is_admin: bool) -> GameInfo:
        """In the lobby the creator (or an admin) removes a seat; after the start an admin
        hands a seat to the AI so an absent player no longer blocks the table."""
        with logged("remove_seat", game=game_id, user=by_user_id, seat=seat):
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
                        game_id, Seat(seat, None, ai_name(game), game.ai_level),
                        now=self.clock())
                    if old.user_id is not None:
                        await self.repo.withdraw_ballots(game_id, old.user_id)
        log.info("game %d: seat %d removed by %d", game_id, seat, by_user_id)
        return game

    async def set_lobby_message(self, game_id: int, message_id: int | None) -> None:
        await self.repo.set_lobby_message(game_id, message_id)

    async def start(self, game_id: int, by_user_id: int) -> MoveResult:
        with logged("start", game=game_id, user=by_user_id):
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

    async def _deadlines(self, game_id: int) -> dict[int, float]:
        """Running move deadlines by seat, for the turn message."""
        return {r.seat: r.deadline_at for r in await self.repo.reminders(game_id)
                if r.deadline_at is not None}

    async def cancel(self, game_id: int, by_user_id: int, *, is_admin: bool = False) -> GameInfo:
        with logged("cancel", game=game_id, user=by_user_id):
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

    async def import_game(self, *, guild_id: int | None, channel_id: int, user_id: int,
                          game_key: str, options: Mapping[str, Any], seed: int,
                          seats: Sequence[Seat], status: str, state: Mapping[str, Any],
                          rows: Sequence[LogRow],
                          snapshots: Sequence[tuple[int, int, Mapping[str, Any]]]) -> GameInfo:
        """Store a game rebuilt from an export (checked and replayed by
        :mod:`bot.core.history`): finished or cancelled, kept for replays, never rated."""
        with logged("import_game", user=user_id, game_key=game_key):
            return await self.repo.import_game(
                guild_id=guild_id, channel_id=channel_id, game_key=game_key,
                creator_id=user_id, options=options, seed=seed, seats=seats, status=status,
                state=state, rows=rows, now=self.clock(), snapshots=snapshots)
