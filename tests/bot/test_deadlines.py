"""Move deadlines with a fake clock and a real SQLite file: warnings, the timeout policies,
abandoned seats and takeovers, vacations, table pauses, quiet hours, "you're next" — and the
same after a restart (a new service and keeper on the same file)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.core.absence_policies import Absence
from bot.core.deadlines import DeadlineKeeper
from bot.core.errors import ServiceError
from bot.core.models import GameInfo, MoveResult, Seat
from bot.core.reminders import Reminders
from bot.core.service import GameService
from bot.core.service.outbox import ANNOUNCEMENT, NOTICE, announcement
from bot.core.shards import Shards
from bot.core.storage import Repository, open_repository
from bot.core.storage.base import Outgoing, VersionConflict
from engines.base import Engine
from tests.bot.conftest import FakeClock, FakeRender, both_backends
from tests.bot.conftest import engine_for as base_engines
from tests.bot.relay import RELAY

pytestmark = both_backends  # the repository-level parts run on SQLite and PostgreSQL

ANN, BOB, CARL = 101, 102, 103
HOUR, DAY = 3600.0, 86400.0
# 2001-09-09 01:46:40 UTC: far from midnight, so quiet hours are easy to place.
T0 = 1_000_000_000.0


def engine_for(key: str) -> Engine:
    return RELAY if key == "relay" else base_engines(key)


@dataclass
class Out:
    """Records everything the keeper says; its public notices are read from the outbox,
    where the keeper writes them with their state change."""

    repo: Repository
    public: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    private: list[tuple[int, str, bool]] = field(default_factory=list)
    moves: list[MoveResult] = field(default_factory=list)
    ai: list[int] = field(default_factory=list)
    closed_dms: set[int] = field(default_factory=set)

    async def flush(self) -> None:
        """Deliver the pending notices as the outbox deliverer does, a DM falling back to
        the channel when closed (turn messages are the outbox tests' business)."""
        for row in await self.repo.pending_outbox(limit=1000):
            if row.kind == ANNOUNCEMENT:
                self.public.append((row.game_id, row.payload["key"],
                                    dict(row.payload["params"])))
            elif row.kind == NOTICE:
                user, key = row.payload["user"], row.payload["message"]["key"]
                if row.payload["dm"]:
                    self.private.append((user, key, True))
                if not row.payload["dm"] or user in self.closed_dms:
                    self.private.append((user, key, False))
            else:
                continue
            await self.repo.outbox_done(row.id, now=0.0, message_id=row.id)

    async def moved(self, result: MoveResult) -> None:
        self.moves.append(result)

    def resume_ai(self, game_id: int) -> None:
        self.ai.append(game_id)

    def keys(self) -> list[str]:
        out = [k for _, k, _ in self.public]
        self.public.clear()
        return out


@dataclass
class Table:
    db_path: str | Path  # a SQLite file or a PostgreSQL database (both backends)
    clock: FakeClock
    repo: Repository
    service: GameService
    absence: Absence
    keeper: DeadlineKeeper
    out: Out

    @classmethod
    async def open(cls, db_path: str | Path, clock: FakeClock) -> Table:
        repo = await open_repository(db_path)
        service = GameService(repo, clock=clock, render=FakeRender(), engine_for=engine_for)
        out = Out(repo)
        return cls(db_path, clock, repo, service, Absence(service, clock=clock),
                   DeadlineKeeper(service, out, clock), out)

    async def restart(self) -> Table:
        await self.repo.close()
        return await Table.open(self.db_path, self.clock)

    async def game(self, key: str = "race", *, hours: float = 24, on_timeout: str = "ai",
                   abandon_after: int = 3, players: tuple[int, ...] = (ANN, BOB),
                   channel: int = 9, reminder_hours: float = 0) -> int:
        game = await self.service.create(guild_id=1, channel_id=channel, game_key=key,
                                         creator_id=players[0], creator_name="Ann",
                                         reminder_hours=reminder_hours)
        await self.absence.configure(game.id, players[0], hours=hours, on_timeout=on_timeout,
                                     abandon_after=abandon_after)
        for user in players[1:]:
            await self.service.join(game.id, user, f"P{user}")
        await self.service.start(game.id, players[0])
        return game.id

    async def run(self, at: float) -> Any:
        self.clock.now = at
        return await self.keeper.run_due(at)


@pytest.fixture
async def table(database: str | Path) -> AsyncIterator[Table]:
    t = await Table.open(database, FakeClock(T0))
    yield t
    await t.repo.close()


async def _clock(t: Table, game_id: int, seat: int) -> Any:
    return next((r for r in await t.repo.reminders(game_id) if r.seat == seat), None)


# ---------------------------------------------------------------- policy and display

async def test_the_turn_message_carries_the_deadline(table: Table) -> None:
    game = await table.service.create(guild_id=1, channel_id=5, game_key="race",
                                      creator_id=ANN, creator_name="Ann")
    await table.absence.configure(game.id, ANN, hours=48)
    await table.service.join(game.id, BOB, "Bob")
    result = await table.service.start(game.id, ANN)
    assert result.deadlines == {0: T0 + 48 * HOUR, 1: T0 + 48 * HOUR}
    table.clock.now = T0 + HOUR
    await table.service.act(game.id, ANN, "go 1")
    turn = await table.service.act(game.id, BOB, "go 2")
    assert turn.turn_completed and turn.deadlines == {0: T0 + 49 * HOUR, 1: T0 + 49 * HOUR}


async def test_no_deadline_by_default_and_policy_checks(table: Table) -> None:
    game = await table.service.create(guild_id=1, channel_id=5, game_key="race",
                                      creator_id=ANN, creator_name="Ann")
    await table.service.join(game.id, BOB, "Bob")
    with pytest.raises(ServiceError):
        await table.absence.configure(game.id, BOB, hours=5)  # not the creator
    with pytest.raises(ServiceError):
        await table.absence.configure(game.id, ANN, hours=-1)
    with pytest.raises(ServiceError):
        await table.absence.configure(game.id, ANN, on_timeout="nap")
    result = await table.service.start(game.id, ANN)
    assert result.deadlines == {}
    with pytest.raises(ServiceError):
        await table.absence.configure(game.id, ANN, hours=5)  # started: a vote is needed
    assert not await table.run(T0 + 1000 * DAY)


# ---------------------------------------------------------------- warnings

async def test_warning_at_a_quarter_of_the_deadline_then_never_again(table: Table) -> None:
    game_id = await table.game(hours=24)
    assert (await table.run(T0 + 18 * HOUR - 1)).warned == 0
    assert (await table.run(T0 + 18 * HOUR)).warned == 2
    assert sorted(u for u, k, _ in table.out.private if k == "deadline.warning") == [ANN, BOB]
    assert (await table.run(T0 + 20 * HOUR)).warned == 0
    assert (await _clock(table, game_id, 0)).warn_at is None


async def test_warning_is_at_least_an_hour_and_goes_by_dm_when_opted_in(table: Table) -> None:
    await table.service.set_user_settings(BOB, dm_opt_in=True)
    table.out.closed_dms.add(BOB)
    await table.game(hours=2)  # 25 % would be 30 min: 1 h before instead
    assert (await table.run(T0 + HOUR - 1)).warned == 0
    assert (await table.run(T0 + HOUR)).warned == 2
    assert sorted(table.out.private) == [(ANN, "deadline.warning", False),
                                         (BOB, "deadline.warning", False),
                                         (BOB, "deadline.warning", True)]


# ---------------------------------------------------------------- expiry policies

async def test_expiry_ai_plays_announces_and_counts_once(table: Table) -> None:
    game_id = await table.game(hours=24)
    table.clock.now = T0 + HOUR
    await table.service.act(game_id, ANN, "go 3")
    report = await table.run(T0 + 24 * HOUR)
    assert report.expired == 1
    assert table.out.keys() == ["deadline.expired_ai"]
    assert [m.turn_completed for m in table.out.moves] == [True]  # the round was posted
    log = await table.service.log(game_id)
    assert [(e.seat, e.action.split()[0]) for e in log] == [(0, "go"), (1, "go")]
    assert (await table.run(T0 + 24 * HOUR)).expired == 0  # once
    assert (await table.service.reliability(BOB)).timeouts == 1
    assert (await table.service.reliability(ANN)).timeouts == 0
    assert table.out.ai == [game_id]


async def test_a_player_who_moved_in_time_is_not_timed_out(table: Table) -> None:
    game_id = await table.game(hours=24)
    table.clock.now = T0 + 24 * HOUR - 1
    await table.service.act(game_id, ANN, "go 1")
    await table.service.act(game_id, BOB, "go 1")  # a new round: new clocks from now
    assert (await table.run(T0 + 24 * HOUR + 5)).expired == 0
    assert (await table.run(T0 + 48 * HOUR - 1)).expired == 2


async def test_skip_policy_uses_the_engine_skip_else_the_ai(table: Table) -> None:
    game_id = await table.game("relay", hours=10, on_timeout="skip")
    await table.run(T0 + 10 * HOUR)  # first turn: relay cannot skip it -> the AI plays
    assert table.out.keys() == ["deadline.expired_ai"]
    await table.run(T0 + 20 * HOUR)  # Bob's first turn, same
    assert table.out.keys() == ["deadline.expired_ai"]
    await table.run(T0 + 30 * HOUR)
    assert table.out.keys() == ["deadline.expired_skip"]
    log = await table.service.log(game_id)
    assert log[-1].action == "rest" and log[-1].seat == 0
    assert len(log) == 3  # one turn per expiry, never the next one


async def test_abandon_after_consecutive_misses_then_takeover(table: Table) -> None:
    game_id = await table.game("relay", hours=10, abandon_after=2)
    await table.service.act(game_id, ANN, "go")
    await table.run(T0 + 10 * HOUR)  # Bob misses (1)
    table.clock.now = T0 + 11 * HOUR
    await table.service.act(game_id, ANN, "go")
    report = await table.run(T0 + 21 * HOUR)  # Bob misses again (2): abandoned
    assert report.abandoned == 1
    assert table.out.keys() == ["deadline.expired_ai", "deadline.expired_ai",
                                "deadline.abandoned"]
    game = await table.service.get(game_id)
    assert game.seats[1].is_ai and game.seats[1].name == "P102 🤖"
    assert await table.absence.abandoned(game_id) == {1: BOB}
    assert (await table.service.reliability(BOB)).abandoned == 1

    with pytest.raises(ServiceError):
        await table.absence.takeover(game_id, ANN, "Ann")  # already playing
    table.clock.now = T0 + 22 * HOUR
    game = await table.absence.takeover(game_id, CARL, "Carl")
    assert game.seats[1] == Seat(1, CARL, "Carl")
    assert await table.absence.abandoned(game_id) == {}
    with pytest.raises(ServiceError):
        await table.absence.takeover(game_id, 999, "Dan")  # nothing left to take
    await table.service.act(game_id, ANN, "go")
    assert (await _clock(table, game_id, 1)).user_id == CARL  # Carl's clock runs


async def test_takeover_of_an_awaited_seat_starts_its_clock(table: Table) -> None:
    game_id = await table.game("relay", hours=10, abandon_after=1)
    await table.service.act(game_id, ANN, "go")
    await table.run(T0 + 10 * HOUR)  # Bob abandons; the AI has not played his next turn
    await table.service.act(game_id, ANN, "go")
    table.clock.now = T0 + 12 * HOUR
    await table.absence.takeover(game_id, CARL, "Carl", seat=1)
    clock = await _clock(table, game_id, 1)
    assert clock.user_id == CARL and clock.deadline_at == T0 + 22 * HOUR


async def test_a_move_in_time_resets_the_misses(table: Table) -> None:
    game_id = await table.game("relay", hours=10, abandon_after=2)
    await table.run(T0 + 10 * HOUR)  # Ann misses (1)
    table.clock.now = T0 + 11 * HOUR
    await table.service.act(game_id, BOB, "go")
    await table.service.act(game_id, ANN, "go")  # Ann is back: 0
    await table.service.act(game_id, BOB, "go")
    await table.run(T0 + 21 * HOUR)  # Ann misses (1), not abandoned
    assert table.out.keys() == ["deadline.expired_ai", "deadline.expired_ai"]
    assert not (await table.service.get(game_id)).seats[0].is_ai


# ---------------------------------------------------------------- vacations

async def test_vacation_stops_the_clock_and_gives_the_rest_back(table: Table) -> None:
    game_id = await table.game(hours=24)
    table.clock.now = T0 + 4 * HOUR
    status = await table.absence.start_vacation(BOB, 1, 3)
    assert status.current is not None and status.left == 7 and status.allowance == 10
    bob = await _clock(table, game_id, 1)
    assert bob.deadline_at is None and bob.deadline_left == 20 * HOUR
    report = await table.run(T0 + 2 * DAY)
    assert report.expired == 1  # Ann only
    assert (await _clock(table, game_id, 1)).deadline_at is None
    back = T0 + 4 * HOUR + 3 * DAY
    assert (await table.run(back)).resumed == 1
    assert (await _clock(table, game_id, 1)).deadline_at == back + 20 * HOUR
    assert (await table.run(back + 20 * HOUR - 1)).expired == 0
    assert (await table.run(back + 20 * HOUR)).expired == 1


async def test_vacation_allowance_early_return_and_new_turns(table: Table) -> None:
    await table.absence.set_vacation_allowance(1, 4)
    with pytest.raises(ServiceError):
        await table.absence.start_vacation(BOB, 1, 5)
    await table.absence.start_vacation(BOB, 1, 3)
    with pytest.raises(ServiceError):
        await table.absence.start_vacation(BOB, 1, 1)  # already away
    game_id = await table.game(hours=24)  # a turn that begins during the vacation
    bob = await _clock(table, game_id, 1)
    assert bob.deadline_at is None and bob.deadline_left == 24 * HOUR
    table.clock.now = T0 + DAY + HOUR  # back early: 2 whole days used, 2 left
    status = await table.absence.end_vacation(BOB, 1)
    assert status.current is None and status.used_days == 2 and status.left == 2
    assert (await _clock(table, game_id, 1)).deadline_at == table.clock.now + 24 * HOUR
    with pytest.raises(ServiceError):
        await table.absence.end_vacation(BOB, 1)
    assert (await table.run(table.clock.now + HOUR)).resumed == 0  # already given back


# ---------------------------------------------------------------- table votes

async def test_pause_and_resume_need_every_player(table: Table) -> None:
    game_id = await table.game(hours=24, reminder_hours=1)
    reminders = Reminders(table.service, _never_pinged, table.clock)
    table.clock.now = T0 + 2 * HOUR
    first = await table.absence.vote_pause(game_id, ANN)
    assert not first.passed and first.votes == {ANN}
    with pytest.raises(ServiceError):
        await table.absence.vote_pause(game_id, CARL)  # not playing
    assert (await table.absence.vote_pause(game_id, BOB)).passed
    assert (await table.absence.policy(game_id)).paused_at == T0 + 2 * HOUR
    assert {r.deadline_left for r in await table.repo.reminders(game_id)} == {22 * HOUR}
    assert not await table.run(T0 + 30 * DAY)
    assert await reminders.run_due(T0 + 30 * DAY) == 0  # reminders wait too

    table.clock.now = T0 + 30 * DAY
    assert not (await table.absence.vote_pause(game_id, BOB)).passed  # a resume vote
    assert (await table.absence.vote_pause(game_id, ANN)).passed
    assert {r.deadline_at for r in await table.repo.reminders(game_id)} == {
        T0 + 30 * DAY + 22 * HOUR}


async def _never_pinged(game: GameInfo, seat: Seat, *, dm: bool) -> bool:
    raise AssertionError("no reminder while paused")


async def test_a_new_deadline_policy_by_unanimous_vote(table: Table) -> None:
    game_id = await table.game(hours=24)
    table.clock.now = T0 + 5 * HOUR
    vote = await table.absence.propose(game_id, ANN, hours=72, on_timeout="skip")
    assert not vote.passed and (await table.absence.policy(game_id)).hours == 24
    other = await table.absence.propose(game_id, BOB, hours=48)  # another proposal
    assert not other.passed and other.votes == {BOB}
    assert (await table.absence.propose(game_id, BOB, hours=72, on_timeout="skip")).passed
    policy = await table.absence.policy(game_id)
    assert (policy.hours, policy.on_timeout, policy.abandon_after) == (72, "skip", 3)
    assert {r.deadline_at for r in await table.repo.reminders(game_id)} == {
        T0 + 5 * HOUR + 72 * HOUR}


# ---------------------------------------------------------------- quiet hours

async def test_quiet_hours_delay_warnings_and_reminders_not_deadlines(table: Table) -> None:
    # T0 is 01:46 UTC. Bob sleeps 23:00-10:00 in Paris (UTC+2 in September): 21:00-08:00 UTC.
    await table.absence.set_quiet(BOB, timezone_name="Europe/Paris", start="23:00",
                                  end="10:00")
    game_id = await table.game(hours=8, reminder_hours=2)
    reminders_sent: list[int | None] = []

    async def ping(game: GameInfo, seat: Seat, *, dm: bool) -> bool:
        reminders_sent.append(seat.user_id)
        return True

    reminders = Reminders(table.service, ping, table.clock)
    assert await reminders.run_due(T0 + 2 * HOUR) == 1 and reminders_sent == [ANN]
    wake = T0 - (HOUR + 46 * 60 + 40) + 8 * HOUR  # 08:00 UTC the same day
    assert (await _clock(table, game_id, 1)).next_at == wake
    report = await table.run(T0 + 6 * HOUR)  # the warnings fall due at 07:46 UTC
    assert report.warned == 1 and (await _clock(table, game_id, 1)).warn_at == wake
    assert (await table.run(wake)).warned == 1
    assert [u for u, k, _ in table.out.private if k == "deadline.warning"] == [ANN, BOB]
    assert (await table.run(T0 + 8 * HOUR)).expired == 2  # deadlines did not move


async def test_quiet_settings_are_checked(table: Table) -> None:
    with pytest.raises(ServiceError):
        await table.absence.set_quiet(ANN, timezone_name="Mars/Olympus")
    with pytest.raises(ServiceError):
        await table.absence.set_quiet(ANN, start="25:00")
    prefs = await table.absence.set_quiet(ANN, timezone_name="America/Montreal",
                                          start="22:30", end="7", notify_before=True)
    assert (prefs.timezone, prefs.quiet_start, prefs.quiet_end, prefs.notify_before) == (
        "America/Montreal", 22 * 60 + 30, 7 * 60, True)


# ---------------------------------------------------------------- notify before

async def test_notify_before_tells_the_next_player_once(table: Table) -> None:
    await table.absence.set_quiet(CARL, notify_before=True)
    game_id = await table.game("relay", hours=0, players=(ANN, BOB, CARL))
    assert (await table.run(T0 + 60)).notices == 0  # Ann plays first; Bob did not opt in
    await table.service.act(game_id, ANN, "go")  # Bob's turn: Carl is next
    assert (await table.run(T0 + 120)).notices == 1
    assert table.out.private == [(CARL, "deadline.you_are_next", True)]
    assert (await table.run(T0 + 180)).notices == 0


async def test_notify_before_waits_for_the_end_of_quiet_hours(table: Table) -> None:
    await table.absence.set_quiet(CARL, timezone_name="UTC", start="01:00", end="03:00",
                                  notify_before=True)
    game_id = await table.game("relay", hours=0, players=(ANN, BOB, CARL))
    await table.service.act(game_id, ANN, "go")
    assert (await table.run(T0 + 60)).notices == 0  # 01:47 UTC: Carl sleeps
    morning = T0 + (3 * HOUR - (HOUR + 46 * 60 + 40))
    assert (await table.run(morning)).notices == 1
    await table.service.act(game_id, BOB, "go")  # an outdated notice is dropped
    await table.absence.set_quiet(ANN, timezone_name="UTC", start="00:00", end="23:59",
                                  notify_before=True)
    await table.run(morning + 60)
    assert len(await table.repo.due_notices(T0 + DAY)) == 1
    await table.service.act(game_id, CARL, "go")  # Carl's turn ended: the notice is stale
    assert (await table.run(T0 + DAY)).notices == 0
    assert await table.repo.due_notices(T0 + DAY) == []


# ---------------------------------------------------------------- after a restart

async def test_a_deadline_missed_while_down_is_handled_once_after_restart(
        table: Table) -> None:
    game_id = await table.game(hours=24)
    table.clock.now = T0 + HOUR
    await table.service.act(game_id, ANN, "go 2")
    t2 = await table.restart()
    table.repo = t2.repo
    t2.clock.now = T0 + 5 * DAY
    assert (await t2.keeper.run_due()).expired == 1
    assert t2.out.keys() == ["deadline.expired_ai"]
    t3 = await t2.restart()
    table.repo = t3.repo
    assert (await t3.keeper.run_due()).expired == 0 and t3.out.public == []
    assert (await t3.service.reliability(BOB)).timeouts == 1
    assert len(await t3.service.log(game_id)) == 2


async def test_pause_vacation_and_abandon_survive_a_restart(table: Table) -> None:
    paused = await table.game(hours=24, channel=1)
    await table.absence.vote_pause(paused, ANN)
    await table.absence.vote_pause(paused, BOB)
    relay = await table.game("relay", hours=10, abandon_after=1, players=(CARL, ANN),
                             channel=2)
    await table.absence.start_vacation(ANN, 1, 2)
    t2 = await table.restart()
    table.repo = t2.repo
    report = await t2.run(T0 + DAY)
    assert report.expired == 1 and report.abandoned == 1  # Carl, in the relay game
    assert (await t2.service.get(relay)).seats[0].is_ai
    assert (await t2.absence.policy(paused)).paused_at is not None
    assert (await t2.absence.vacation_status(ANN, 1)).current is not None
    report = await t2.run(T0 + 2 * DAY + 1)
    assert report.resumed == 1 and report.expired == 0  # the pause still holds


# ---------------------------------------------------------------- game skips

def test_havana_and_tuscany_skip_only_what_the_rules_let_a_player_decline() -> None:
    from engines.ai import ai_rng, random_action
    from engines.base import Action
    from engines.havana import ENGINE as HAVANA
    from engines.tuscany import ENGINE as TUSCANY

    tuscany = TUSCANY.new_game(2, 7)
    assert TUSCANY.skip_action(tuscany, 0) == Action("confirm")  # keep the dealt region
    havana = HAVANA.new_game(2, 7)
    assert HAVANA.skip_action(havana, 0) is None  # a hidden pick: the AI plays it
    seen: set[str] = set()
    for move in range(400):
        if HAVANA.is_over(havana):
            break
        seat = min(HAVANA.active_players(havana))
        skip = HAVANA.skip_action(havana, seat)
        if skip is not None:
            assert skip in HAVANA.legal_actions(havana, seat)
            seen.add(str(skip))
        elif havana.phase == "actions":
            assert havana.step not in ("build", "refreshment", "conservation")
        action = random_action(HAVANA, havana, seat, ai_rng(7, seat, move))
        havana = HAVANA.apply(havana, seat, action).state
    assert "end" in seen


async def test_a_claim_retried_after_a_crash_counts_one_miss(table: Table) -> None:
    game_id = await table.game(hours=1)
    row = await _clock(table, game_id, 1)
    game = await table.service.get(game_id)
    claim = {"expected_version": game.version, "now": T0 + HOUR}
    assert await table.repo.claim_timeout(game_id, 1, BOB, row.turn_version, **claim) == 1
    assert await table.repo.claim_timeout(game_id, 1, BOB, row.turn_version, **claim) == 1
    assert await table.repo.claim_timeout(game_id, 1, BOB, row.turn_version,
                                          expected_version=game.version + 1,
                                          now=T0 + HOUR) is None  # the game moved on
    assert await table.repo.claim_timeout(game_id, 1, BOB, row.turn_version,
                                          expected_version=game.version,
                                          now=T0 + HOUR - 1) is None  # not expired yet
    report = await table.run(T0 + HOUR)  # the pass finishes the claimed timeout
    assert report.expired == 2
    assert (await table.service.reliability(BOB)).timeouts == 1


async def test_notices_are_written_with_the_miss_and_outlive_a_failed_post(
        table: Table) -> None:
    """Issue 13 §1: "ran out of time" and "seat abandoned" are written to the outbox in the
    transaction of the miss and of the abandon; a process that dies before posting them
    leaves them owed, and a second pass does not owe them twice."""
    game_id = await table.game("relay", hours=10, abandon_after=1)
    await table.service.act(game_id, ANN, "go")

    async def died() -> None:
        raise ConnectionError("the process died before the post")

    table.out.flush = died  # type: ignore[method-assign]
    await table.run(T0 + 10 * HOUR)  # Bob misses; the AI plays; then nothing is posted
    owed = [r for r in await table.repo.pending_outbox() if r.kind == ANNOUNCEMENT]
    assert [(r.payload["key"], r.payload["params"]) for r in owed] == [
        ("deadline.expired_ai", {"player": f"<@{BOB}>", "misses": 1})]

    t2 = await table.restart()
    table.repo = t2.repo
    report = await t2.run(T0 + 10 * HOUR)  # the retried pass: the miss is counted already
    assert report.expired == 0
    await t2.out.flush()  # the restarted bot's deliverer
    assert t2.out.keys() == ["deadline.expired_ai"]
    assert (await t2.service.reliability(BOB)).timeouts == 1


async def test_a_claim_and_an_abandon_queue_their_notice_in_their_transaction(
        table: Table) -> None:
    game_id = await table.game(hours=1)
    row = await _clock(table, game_id, 1)
    game = await table.service.get(game_id)

    def owed(misses: int) -> list[Outgoing]:
        return [announcement("deadline.expired_ai", {"player": "<@102>", "misses": misses})]

    claim = {"expected_version": game.version, "now": T0 + HOUR, "owed": owed}
    assert await table.repo.claim_timeout(game_id, 1, BOB, row.turn_version, **claim) == 1
    assert await table.repo.claim_timeout(game_id, 1, BOB, row.turn_version, **claim) == 1
    notices = [r for r in await table.repo.pending_outbox() if r.kind == ANNOUNCEMENT]
    assert [(r.version, r.payload["params"]["misses"]) for r in notices] == [(game.version, 1)]

    abandoned = announcement("deadline.abandoned", {"player": "<@102>", "misses": 1, "seat": 2})
    await table.repo.abandon_seat(game_id, Seat(1, None, "P102 🤖"), BOB, row.turn_version,
                                  now=T0 + HOUR, outbox=[abandoned])
    with pytest.raises(VersionConflict):  # no longer Bob's: nothing is written
        await table.repo.abandon_seat(game_id, Seat(1, None, "P102 🤖"), BOB, row.turn_version,
                                      now=T0 + HOUR, outbox=[announcement("x", {})])
    notices = [r for r in await table.repo.pending_outbox() if r.kind == ANNOUNCEMENT]
    assert [r.payload["key"] for r in notices] == ["deadline.expired_ai", "deadline.abandoned"]


async def test_a_warning_is_queued_with_its_mark_and_outlives_a_failed_post(
        table: Table) -> None:
    """A deadline warning is written to the outbox in the transaction that clears its time:
    a process that dies before the post leaves it owed; the next pass does not warn again."""
    await table.service.set_user_settings(BOB, dm_opt_in=True)
    await table.game(hours=24)

    async def died() -> None:
        raise ConnectionError("the process died before the post")

    table.out.flush = died  # type: ignore[method-assign]
    with pytest.raises(ConnectionError):
        await table.run(T0 + 18 * HOUR)
    owed = [r for r in await table.repo.pending_outbox() if r.kind == NOTICE]
    assert sorted((r.payload["user"], r.payload["message"]["key"], r.payload["dm"])
                  for r in owed) == [(ANN, "deadline.warning", False),
                                     (BOB, "deadline.warning", True)]
    t2 = await table.restart()
    table.repo = t2.repo
    assert (await t2.run(T0 + 19 * HOUR)).warned == 0  # warned already
    await t2.out.flush()  # the restarted bot's deliverer
    assert sorted(t2.out.private) == [(ANN, "deadline.warning", False),
                                      (BOB, "deadline.warning", True)]


async def test_a_process_handles_only_its_shards_games(table: Table) -> None:
    """Guild 1 is on shard 0 of 2: the process holding shard 1 leaves its warnings and
    timeouts alone, however overdue; the one holding shard 0 handles them, once."""
    await table.game(hours=24)
    other = DeadlineKeeper(table.service, table.out, table.clock,
                           shards=Shards(2, frozenset({1})))
    own = DeadlineKeeper(table.service, table.out, table.clock,
                         shards=Shards(2, frozenset({0})))
    table.clock.now = T0 + 24 * HOUR
    assert not await other.run_due(T0 + 24 * HOUR)
    assert table.out.keys() == []
    report = await own.run_due(T0 + 24 * HOUR)
    seen = table.out.keys()
    assert report.expired == 2 and "deadline.expired_ai" in seen
    assert not await other.run_due(T0 + 25 * HOUR) and not await own.run_due(T0 + 24 * HOUR)


async def test_you_are_next_and_held_notices_are_the_owning_shards(table: Table) -> None:
    """Guild 1 is on shard 0 of 2: the process holding shard 1 neither handles a "you're
    next" nor delivers one held back by quiet hours; the one holding shard 0 does both."""
    await table.absence.set_quiet(CARL, timezone_name="UTC", start="01:00", end="03:00",
                                  notify_before=True)
    game_id = await table.game("relay", hours=0, players=(ANN, BOB, CARL))
    other = DeadlineKeeper(table.service, table.out, table.clock,
                           shards=Shards(2, frozenset({1})))
    own = DeadlineKeeper(table.service, table.out, table.clock,
                         shards=Shards(2, frozenset({0})))
    await table.service.act(game_id, ANN, "go")  # Bob's turn: Carl is next, asleep
    assert not await other.run_due(T0 + 60)
    assert await table.repo.due_notices(T0 + DAY) == []  # not handled: nothing held yet
    assert (await own.run_due(T0 + 60)).notices == 0  # 01:47 UTC: held until Carl wakes
    assert len(await table.repo.due_notices(T0 + DAY)) == 1
    morning = T0 + (3 * HOUR - (HOUR + 46 * 60 + 40))
    assert not await other.run_due(morning)
    assert table.out.private == []
    assert (await own.run_due(morning)).notices == 1
    assert table.out.private == [(CARL, "deadline.you_are_next", True)]
