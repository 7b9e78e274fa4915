"""Turn reminders with a fake clock: due, repeated, muted, DM fallback, kept across restarts."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.adapter.periodic import Periodic
from bot.core import errors
from bot.core.models import GameInfo, Seat
from bot.core.reminders import Reminders
from bot.core.service import GameService
from bot.core.storage import SqliteRepository
from tests.bot.conftest import FakeClock, FakeRender, both_backends, engine_for

pytestmark = both_backends  # the repository-level parts run on SQLite and PostgreSQL

ANN, BOB = 101, 102
HOUR = 3600.0


class Pings:
    """A notify callback that records calls; DMs to users in ``closed_dms`` fail."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int | None, bool]] = []
        self.closed_dms: set[int] = set()

    async def __call__(self, game: GameInfo, seat: Seat, *, dm: bool) -> bool:
        self.calls.append((game.id, seat.user_id, dm))
        return not (dm and seat.user_id in self.closed_dms)

    def users(self) -> list[int | None]:
        out = [user for _, user, _ in self.calls]
        self.calls.clear()
        return out


async def _game(service: GameService, hours: float = 1.0, channel: int = 9) -> int:
    game = await service.create(guild_id=1, channel_id=channel, game_key="race",
                                creator_id=ANN, creator_name="Ann", reminder_hours=hours)
    await service.join(game.id, BOB, "Bob")
    await service.start(game.id, ANN)
    return game.id


async def test_due_then_every_interval(service: GameService, clock: FakeClock) -> None:
    pings = Pings()
    reminders = Reminders(service, pings, clock)
    t0 = clock.now
    game_id = await _game(service)
    assert await reminders.run_due(t0 + HOUR - 1) == 0
    assert await reminders.run_due(t0 + HOUR) == 2
    assert sorted(pings.users()) == [ANN, BOB]
    assert await reminders.run_due(t0 + HOUR + 60) == 0  # not again before the next interval
    assert await reminders.run_due(t0 + 2 * HOUR) == 2
    pings.users()

    clock.now = t0 + 2 * HOUR + 100
    await service.act(game_id, ANN, "go 1")  # Ann's part is done; Bob's turn goes on
    assert [r.seat for r in await service.repo.reminders(game_id)] == [1]
    assert await reminders.run_due(t0 + 3 * HOUR) == 1
    assert pings.users() == [BOB]


async def test_mute_lasts_until_the_next_turn(service: GameService, clock: FakeClock) -> None:
    pings = Pings()
    reminders = Reminders(service, pings, clock)
    t0 = clock.now
    game_id = await _game(service)
    assert await reminders.mute(game_id, BOB)
    with pytest.raises(errors.NotSeated):  # not playing: refused, not "muted"
        await reminders.mute(game_id, 999)
    assert await reminders.run_due(t0 + 5 * HOUR) == 1
    assert pings.users() == [ANN]
    clock.now = t0 + 6 * HOUR
    await service.act(game_id, ANN, "go 1")
    assert await reminders.run_due(t0 + 9 * HOUR) == 0  # still Bob's muted turn
    await service.act(game_id, BOB, "go 1")  # the round ends: a new turn for both
    assert await reminders.run_due(clock.now + HOUR - 1) == 0
    assert await reminders.run_due(clock.now + HOUR) == 2
    assert sorted(pings.users()) == [ANN, BOB]


async def test_dm_when_opted_in_with_channel_fallback(service: GameService,
                                                      clock: FakeClock) -> None:
    pings = Pings()
    reminders = Reminders(service, pings, clock)
    await service.set_user_settings(ANN, dm_opt_in=True)
    await service.set_user_settings(BOB, dm_opt_in=True)
    pings.closed_dms.add(BOB)
    game_id = await _game(service)
    assert await reminders.run_due(clock.now + HOUR) == 2
    assert sorted(pings.calls) == [(game_id, ANN, True), (game_id, BOB, False),
                                   (game_id, BOB, True)]


async def test_intervals_off_and_per_user(service: GameService, clock: FakeClock) -> None:
    pings = Pings()
    reminders = Reminders(service, pings, clock)
    await service.set_user_settings(BOB, reminder_hours=0.5)
    game_id = await _game(service, hours=2)
    assert await reminders.run_due(clock.now + HOUR) == 1
    assert pings.users() == [BOB]
    await service.set_reminder_hours(game_id, 0, by_user_id=ANN)  # the table turns them off
    assert await reminders.run_due(clock.now + 100 * HOUR) == 0
    await service.set_reminder_hours(game_id, 3, by_user_id=ANN)
    assert await reminders.run_due(clock.now + 3 * HOUR) == 2


async def test_no_reminders_once_the_game_is_over(service: GameService,
                                                  clock: FakeClock) -> None:
    pings = Pings()
    reminders = Reminders(service, pings, clock)
    game_id = await _game(service)
    await service.cancel(game_id, ANN, is_admin=True)
    assert await service.repo.reminders(game_id) == []
    assert await reminders.run_due(clock.now + 10 * HOUR) == 0 and pings.calls == []


async def test_a_failing_notify_is_logged_and_rescheduled(
        service: GameService, clock: FakeClock, caplog: pytest.LogCaptureFixture) -> None:
    async def broken(game: GameInfo, seat: Seat, *, dm: bool) -> bool:
        raise RuntimeError("discord is down")

    reminders = Reminders(service, broken, clock)
    await _game(service)
    assert await reminders.run_due(clock.now + HOUR) == 0
    assert "reminder for seat" in caplog.text
    assert await reminders.run_due(clock.now + HOUR + 1) == 0  # no storm: next one in 1 h
    assert caplog.text.count("reminder for seat") == 2


async def test_reminders_survive_a_restart(db_path: Path, clock: FakeClock) -> None:
    repo = await SqliteRepository.open(db_path)
    service = GameService(repo, clock=clock, render=FakeRender(), engine_for=engine_for)
    pings = Pings()
    t0 = clock.now
    game_id = await _game(service)
    await Reminders(service, pings, clock).mute(game_id, ANN)
    await repo.close()

    repo = await SqliteRepository.open(db_path)
    service = GameService(repo, clock=clock, render=FakeRender(), engine_for=engine_for)
    reminders = Reminders(service, pings, clock)
    assert await reminders.run_due(t0 + HOUR - 1) == 0
    assert await reminders.run_due(t0 + HOUR) == 1
    assert pings.users() == [BOB]  # Ann's mute was kept too
    await repo.close()


async def test_the_periodic_loop_runs_the_reminder_pass(service: GameService,
                                                       clock: FakeClock) -> None:
    """Driven by the bot's one periodic loop (bot/adapter/periodic.py), as in production."""
    pings = Pings()
    reminders = Reminders(service, pings, clock)
    await _game(service)
    periodic = Periodic((("reminders", reminders.run_due),), seconds=0.01)
    periodic.start()
    periodic.start()  # idempotent
    assert periodic.running
    clock.advance(HOUR)
    for _ in range(2000):  # bounded in steps; a hang is caught by pytest-timeout
        if len(pings.calls) == 2:
            break
        await asyncio.sleep(0.01)
    await periodic.stop()
    assert not periodic.running and len(pings.calls) == 2
    await periodic.stop()  # stopping twice is harmless
