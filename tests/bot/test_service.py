"""The game service without Discord: lobby flows, errors, moves, AI seats, concurrency."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.core import errors
from bot.core.models import ACTIVE, CANCELLED, FINISHED, LOBBY
from bot.core.service import GameService
from bot.core.storage import SqliteRepository
from engines.base import TURN_END, GameOver, IllegalAction, InvalidAction, NotYourTurn
from tests.bot.conftest import FakeClock, FakeRender, both_backends, engine_for

pytestmark = both_backends  # the repository-level parts run on SQLite and PostgreSQL

ANN, BOB, CAT, DAN = 101, 102, 103, 104


async def _table(service: GameService, *, players: tuple[int, ...] = (ANN, BOB),
                 ai: int = 0, channel: int = 500, **options: object) -> int:
    game = await service.create(guild_id=1, channel_id=channel, game_key="race",
                                creator_id=players[0], creator_name="Ann",
                                options=dict(options) or None)
    for user in players[1:]:
        await service.join(game.id, user, f"P{user}")
    for _ in range(ai):
        await service.add_ai(game.id, players[0])
    return game.id


async def _started(service: GameService, **kw: object) -> int:
    game_id = await _table(service, **kw)  # type: ignore[arg-type]
    await service.start(game_id, ANN)
    return game_id


# --- lobby ---------------------------------------------------------------------------------

async def test_create_seats_the_creator_with_defaults(service: GameService) -> None:
    game = await service.create(guild_id=1, channel_id=5, game_key="race", creator_id=ANN,
                                creator_name="Ann")
    assert game.status == LOBBY and game.version == 0
    assert [(s.seat, s.user_id, s.name) for s in game.seats] == [(0, ANN, "Ann")]
    assert game.max_seats == 3 and game.options == {"goal": 10, "fast": False}
    assert game.reminder_hours == 24.0 and 0 <= game.seed < 2 ** 62
    assert (await service.in_channel(5)) == game
    assert await service.in_channel(6) is None


async def test_create_validates_everything(service: GameService) -> None:
    def new(**kw: object) -> object:
        args = {"guild_id": 1, "channel_id": 5, "game_key": "race", "creator_id": ANN,
                "creator_name": "Ann", **kw}
        return service.create(**args)  # type: ignore[arg-type]

    with pytest.raises(errors.UnknownGameKey):
        await new(game_key="chess")
    with pytest.raises(errors.InvalidOption):
        await new(seats=4)
    with pytest.raises(errors.InvalidOption):
        await new(options={"goal": 7})
    with pytest.raises(errors.InvalidOption):
        await new(options={"colour": "red"})
    with pytest.raises(errors.InvalidOption):
        await new(options={"fast": "yes"})
    with pytest.raises(errors.InvalidOption):
        await new(reminder_hours=-1)
    game = await new(seats=2, options={"goal": "15", "fast": True}, reminder_hours=2)
    assert game.max_seats == 2 and game.options == {"goal": 15, "fast": True}  # type: ignore
    with pytest.raises(errors.ChannelBusy) as busy:
        await new()
    assert busy.value.params["game_id"] == game.id  # type: ignore[attr-defined]


async def test_options_typed_at_game_new_reach_the_engine(service: GameService) -> None:
    """``/game new options:"goal=6 fast=true"``: text parsed, typed by the Spec, judged by
    the engine's ``new_game`` (InvalidState, before any table exists)."""
    from bot.adapter.game_commands import parse_options
    from engines.base import InvalidState

    def new(text: str, seats: int, channel: int) -> object:
        return service.create(guild_id=1, channel_id=channel, game_key="race", creator_id=ANN,
                              creator_name="Ann", seats=seats, options=parse_options(text))

    game = await new("goal=6, fast=true", 2, 60)
    assert game.options == {"goal": 6, "fast": True}  # type: ignore[attr-defined]
    with pytest.raises(InvalidState):  # the race engine allows a fast race for 2 only
        await new("fast=true", 3, 61)
    assert await service.in_channel(61) is None
    for bad in ("goal", "goal=6 goal=10", "=6", "x" * 201):
        with pytest.raises(errors.InvalidOption):
            parse_options(bad)
    with pytest.raises(errors.InvalidOption):
        await new("fast=maybe", 2, 62)


async def test_join_leave_and_ai_seats(service: GameService) -> None:
    game = await service.create(guild_id=1, channel_id=5, game_key="race", creator_id=ANN,
                                creator_name="Ann")
    game = await service.join(game.id, BOB, "Bob")
    with pytest.raises(errors.AlreadySeated):
        await service.join(game.id, BOB, "Bob")
    with pytest.raises(errors.NotCreator):
        await service.add_ai(game.id, BOB)
    game = await service.add_ai(game.id, ANN)
    assert [s.name for s in game.seats] == ["Ann", "Bob", "AI 1"]
    with pytest.raises(errors.LobbyFull):
        await service.join(game.id, CAT, "Cat")
    with pytest.raises(errors.LobbyFull):
        await service.add_ai(game.id, ANN)
    game = await service.leave(game.id, BOB)
    assert [(s.seat, s.name) for s in game.seats] == [(0, "Ann"), (1, "AI 1")]
    with pytest.raises(errors.NotSeated):
        await service.leave(game.id, BOB)
    with pytest.raises(errors.Forbidden):
        await service.leave(game.id, ANN)
    game = await service.add_ai(game.id, ANN)
    assert [s.name for s in game.seats] == ["Ann", "AI 1", "AI 2"]
    game = await service.remove_seat(game.id, 1, by_user_id=ANN, is_admin=False)
    assert [s.name for s in game.seats] == ["Ann", "AI 2"]
    with pytest.raises(errors.Forbidden):
        await service.remove_seat(game.id, 0, by_user_id=ANN, is_admin=True)
    with pytest.raises(errors.NotSeated):
        await service.remove_seat(game.id, 5, by_user_id=ANN, is_admin=True)
    with pytest.raises(errors.UnknownGame):
        await service.join(999, BOB, "Bob")


async def test_start_rules(service: GameService, render: FakeRender) -> None:
    game = await service.create(guild_id=1, channel_id=5, game_key="race", creator_id=ANN,
                                creator_name="Ann")
    with pytest.raises(errors.TooFewPlayers):
        await service.start(game.id, ANN)
    await service.join(game.id, BOB, "Bob")
    with pytest.raises(errors.NotCreator):
        await service.start(game.id, BOB)
    with pytest.raises(errors.NotStarted):
        await service.act(game.id, ANN, "go 1")
    with pytest.raises(errors.NotStarted):
        await service.panel(game.id, ANN)
    result = await service.start(game.id, ANN)
    assert result.game.status == ACTIVE and result.game.version == 0
    assert [s.user_id for s in result.awaited] == [ANN, BOB]
    assert result.image is not None and render.calls[-1][1]["round"] == 1
    with pytest.raises(errors.AlreadyStarted):
        await service.start(game.id, ANN)
    with pytest.raises(errors.AlreadyStarted):
        await service.join(game.id, CAT, "Cat")


async def test_cancel_before_and_after_start(service: GameService) -> None:
    game_id = await _table(service)
    with pytest.raises(errors.NotCreator):
        await service.cancel(game_id, BOB)
    with pytest.raises(errors.NotStarted):
        await service.vote_cancel(game_id, ANN)
    assert (await service.cancel(game_id, ANN)).status == CANCELLED
    with pytest.raises(GameOver):
        await service.cancel(game_id, ANN)

    game_id = await _started(service, players=(ANN, BOB), ai=1, channel=501)
    with pytest.raises(errors.Forbidden):
        await service.cancel(game_id, ANN)  # the creator too must ask the others now
    with pytest.raises(errors.NotSeated):
        await service.vote_cancel(game_id, CAT)
    first = await service.vote_cancel(game_id, ANN)
    assert first.votes == {ANN} and not first.passed and first.game.status == ACTIVE
    last = await service.vote_cancel(game_id, BOB)  # AI seats do not vote
    assert last.votes == last.needed == {ANN, BOB} and last.passed
    assert last.game.status == CANCELLED
    assert await service.in_channel(501) is None

    game_id = await _started(service, channel=502)
    assert (await service.cancel(game_id, CAT, is_admin=True)).status == CANCELLED


async def test_admin_hands_a_seat_to_the_ai(service: GameService) -> None:
    game_id = await _started(service)
    with pytest.raises(errors.Forbidden):
        await service.remove_seat(game_id, 1, by_user_id=ANN, is_admin=False)
    game = await service.remove_seat(game_id, 1, by_user_id=CAT, is_admin=True)
    assert game.seats[1].is_ai and game.seats[1].name == "AI 1"
    # Bob's seat now plays by itself.
    moves = [r async for r in service.ai_moves(game_id)]
    assert len(moves) == 1 and moves[0].game.version == 1
    with pytest.raises(errors.NotSeated):
        await service.act(game_id, BOB, "go 1")


async def test_settings_and_reminder_hours(service: GameService) -> None:
    assert await service.guild_locale(1) is None
    gs = await service.set_guild_settings(1, locale="fr", reminder_hours=6)
    assert (gs.locale, gs.reminder_hours) == ("fr", 6.0)
    assert await service.guild_locale(1) == "fr"
    with pytest.raises(errors.InvalidOption):
        await service.set_guild_settings(1, locale="de")
    game = await service.create(guild_id=1, channel_id=5, game_key="race", creator_id=ANN,
                                creator_name="Ann")
    assert game.reminder_hours == 6.0  # the server's default
    with pytest.raises(errors.NotCreator):
        await service.set_reminder_hours(game.id, 1, by_user_id=BOB)
    assert (await service.set_reminder_hours(game.id, 1, by_user_id=ANN)).reminder_hours == 1
    us = await service.set_user_settings(BOB, locale="fr", dm_opt_in=True)
    us = await service.set_user_settings(BOB, reminder_hours=3)
    assert (us.locale, us.dm_opt_in, us.reminder_hours) == ("fr", True, 3.0)
    assert await service.user_locales() == {BOB: "fr"}
    us = await service.set_user_locale(BOB, None)
    assert us.locale is None and (await service.user_settings(BOB)).dm_opt_in
    assert (await service.set_guild_locale(1, None)).locale is None


# --- moves -----------------------------------------------------------------------------------

async def test_moves_events_and_turn_batching(service: GameService, render: FakeRender) -> None:
    game_id = await _started(service)
    drawn = len(render.calls)
    first = await service.act(game_id, ANN, "go 3")
    assert not first.turn_completed and first.image is None and len(render.calls) == drawn
    assert [e.key for e in first.public_events] == ["race.picked"]
    assert first.private_events == {0: [first.private_events[0][0]]}
    assert first.private_events[0][0].params == {"n": 3}
    assert [s.user_id for s in first.awaited] == [BOB]
    # Nothing public reveals Ann's pick.
    assert "3" not in json.dumps([e.params for e in first.public_events])
    assert (await service.view(game_id, None))["picked"] == [True, False]
    assert "my_pick" not in await service.view(game_id, None)

    second = await service.act(game_id, BOB, "GO 1")
    assert second.turn_completed and second.game.version == 2
    keys = [e.key for e in second.public_events]
    assert keys == ["race.picked", "race.picked", "race.moved", "race.moved", TURN_END]
    assert all(e.to is None for e in second.public_events)
    assert list(second.private_events) == [1]
    assert second.image is not None
    drawn_view = render.calls[-1][1]
    assert "my_pick" not in drawn_view and render.calls[-1][2] == ["Ann", f"P{BOB}"]
    assert sorted(s.user_id for s in second.awaited) == [ANN, BOB]

    third = await service.act(game_id, BOB, "go 2")  # the next turn starts a fresh batch
    assert [e.key for e in third.public_events] == ["race.picked"]
    fourth = await service.act(game_id, ANN, "go 2")
    assert [e.key for e in fourth.public_events][:2] == ["race.picked", "race.picked"]
    assert fourth.public_events[0].params == {"seat": 1}

    log = await service.log(game_id)
    assert [(e.seq, e.action) for e in log] == [(1, "go 3"), (2, "go 1"), (3, "go 2"),
                                                 (4, "go 2")]
    assert all(ev.to is None for e in log for ev in e.public)
    assert [e.seq for e in await service.log(game_id, limit=2, before_seq=4)] == [2, 3]


async def test_every_move_error(service: GameService) -> None:
    game_id = await _started(service)
    with pytest.raises(errors.NotSeated):
        await service.act(game_id, CAT, "go 1")
    with pytest.raises(InvalidAction):
        await service.act(game_id, ANN, "jump")
    with pytest.raises(InvalidAction):
        await service.act(game_id, ANN, "   ")
    with pytest.raises(IllegalAction):
        await service.act(game_id, ANN, "go 4")
    await service.act(game_id, ANN, "go 1")
    with pytest.raises(NotYourTurn):
        await service.act(game_id, ANN, "go 1")
    with pytest.raises(errors.StaleVersion):  # her own move since the panel was drawn
        await service.act(game_id, ANN, "go 2", expected_version=0)
    with pytest.raises(errors.StaleVersion):  # a version that does not exist yet
        await service.act(game_id, BOB, "go 1", expected_version=7)
    with pytest.raises(errors.UnknownGame):
        await service.act(12345, ANN, "go 1")
    assert (await service.get(game_id)).version == 1


async def test_a_panel_outdated_only_by_other_seats_still_acts(service: GameService) -> None:
    # Bob's panel was drawn before Ann's hidden pick: his choice keeps its meaning.
    game_id = await _started(service)
    await service.act(game_id, ANN, "go 1", expected_version=0)
    result = await service.act(game_id, BOB, "go 2", expected_version=0)
    assert result.game.version == 2
    log = await service.log(game_id, limit=10)
    assert [(e.seat, e.action) for e in log] == [(0, "go 1"), (1, "go 2")]


async def test_panel_and_boards(service: GameService, render: FakeRender) -> None:
    game_id = await _started(service)
    panel = await service.panel(game_id, ANN)
    assert panel.awaited and panel.seat == 0
    assert [str(c.action) for c in panel.choices] == ["go 1", "go 2", "go 3"]
    await service.act(game_id, ANN, "go 2")
    panel = await service.panel(game_id, ANN)
    assert not panel.awaited and panel.choices == () and panel.view["my_pick"] == 2
    with pytest.raises(errors.NotSeated):
        await service.panel(game_id, CAT)
    public = await service.board(game_id, locale="fr")
    assert b"my_pick" not in public and render.calls[-1][3] == "fr"
    mine = await service.board(game_id, user_id=ANN)
    assert b'"my_pick": 2' in mine
    with pytest.raises(errors.NotSeated):
        await service.board(game_id, user_id=CAT)
    with pytest.raises(errors.NotSeated):
        await service.view(game_id, 7)


async def test_mine_lists_games_awaiting_the_user(service: GameService) -> None:
    one = await _started(service, channel=1)
    two = await _started(service, channel=2)
    await _table(service, channel=3)  # a lobby awaits nobody
    await service.act(two, ANN, "go 1")
    assert [(g.id, seats) for g, seats in await service.mine(ANN)] == [(one, (0,))]
    assert [g.id for g, _ in await service.mine(BOB)] == [one, two]
    assert await service.mine(CAT) == []


async def test_a_full_game_with_ai_seats(service: GameService, render: FakeRender) -> None:
    game_id = await _started(service, players=(ANN,), ai=2, goal=15)
    assert await service.games_awaiting_ai() == [game_id]
    turns = 0
    while True:
        # The AI seats pick as soon as the step opens; the human's pick then ends the round.
        ai = [r async for r in service.ai_moves(game_id)]
        assert [r.game.version for r in ai] == [3 * turns + 1, 3 * turns + 2]
        assert not any(r.turn_completed for r in ai)
        assert [s.user_id for s in ai[-1].awaited] == [ANN]
        assert await service.games_awaiting_ai() == []
        result = await service.act(game_id, ANN, "go 3")
        turns += 1
        assert result.turn_completed and result.image is not None
        assert len([e for e in result.public_events if e.key == "race.picked"]) == 3
        if result.result is not None:
            break
    assert result.game.status == FINISHED and result.awaited == ()
    assert result.game.version == 3 * turns
    assert sorted(s for place in result.result.ranking for s in place) == [0, 1, 2]
    assert max(result.result.scores.values()) >= 15
    assert [s async for s in service.ai_moves(game_id)] == []
    with pytest.raises(GameOver):
        await service.act(game_id, ANN, "go 1")
    assert await service.in_channel(500) is None
    assert len(await service.log(game_id, limit=1000)) == result.game.version


async def test_ai_only_game_is_deterministic_for_a_seed(clock: FakeClock,
                                                        tmp_path: Path) -> None:
    async def play(path: Path) -> list[str]:
        r = await SqliteRepository.open(path)
        s = GameService(r, clock=clock, render=FakeRender(), engine_for=engine_for)
        g = await s.create(guild_id=1, channel_id=1, game_key="race", creator_id=ANN,
                           creator_name="Ann", seed=7)
        await s.add_ai(g.id, ANN)
        await s.add_ai(g.id, ANN)
        await s.start(g.id, ANN)
        await s.remove_seat(g.id, 0, by_user_id=ANN, is_admin=True)  # all seats are AIs
        moves = [m async for m in s.ai_moves(g.id)]
        assert moves[-1].result is not None
        actions = [e.action for e in await s.log(g.id, limit=10_000)]
        await r.close()
        return actions

    assert await play(tmp_path / "a.sqlite3") == await play(tmp_path / "b.sqlite3")


async def test_simultaneous_identical_clicks_apply_once(service: GameService) -> None:
    game_id = await _started(service)
    results = await asyncio.gather(
        *(service.act(game_id, ANN, "go 2", expected_version=0) for _ in range(2)),
        return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert sum(isinstance(r, errors.StaleVersion) for r in results) == 1
    assert (await service.get(game_id)).version == 1
    assert len(await service.log(game_id)) == 1
    # Without a panel version the engine refuses the second click itself.
    other = await _started(service, channel=501)
    results = await asyncio.gather(*(service.act(other, ANN, "go 2") for _ in range(2)),
                                   return_exceptions=True)
    assert sum(isinstance(r, NotYourTurn) for r in results) == 1
    assert (await service.get(other)).version == 1


async def test_two_processes_racing_one_wins(db_path: Path, clock: FakeClock) -> None:
    """Two services (as two processes would) on one file: the version check decides."""
    repos = [await SqliteRepository.open(db_path) for _ in range(2)]
    a, b = (GameService(r, clock=clock, render=FakeRender(), engine_for=engine_for)
            for r in repos)
    game_id = await _started(a)
    results = await asyncio.gather(a.act(game_id, ANN, "go 1"), b.act(game_id, ANN, "go 3"),
                                   return_exceptions=True)
    applied = [r for r in results if not isinstance(r, BaseException)]
    assert len(applied) == 1
    assert all(isinstance(r, errors.StaleVersion | NotYourTurn) for r in results
               if isinstance(r, BaseException))
    assert (await b.get(game_id)).version == 1
    for r in repos:
        await r.close()


async def test_a_new_service_on_the_same_file_continues(
        db_path: Path, clock: FakeClock) -> None:
    repo = await SqliteRepository.open(db_path)
    first = GameService(repo, clock=clock, render=FakeRender(), engine_for=engine_for)
    game_id = await _started(first)
    await first.act(game_id, ANN, "go 3")
    before = await first.view(game_id, 0)
    await repo.close()

    repo = await SqliteRepository.open(db_path)
    second = GameService(repo, clock=clock, render=FakeRender(), engine_for=engine_for)
    assert await second.view(game_id, 0) == before
    assert (await second.in_channel(500)).id == game_id
    result = await second.act(game_id, BOB, "go 1")
    assert result.turn_completed and len(result.public_events) == 5  # batch spans the restart
    await repo.close()


async def test_errors_are_translated(service: GameService) -> None:
    err = errors.LobbyFull(game_id=1, seats=4)
    assert str(err) == "This table is full (4 seats)."
    assert err.text("fr") == "Cette table est complète (4 places)."
    assert errors.StaleVersion().key == "service.stale_version"


async def test_a_render_failure_does_not_lose_the_move(
        repo: SqliteRepository, clock: FakeClock, caplog: pytest.LogCaptureFixture) -> None:
    async def broken(*_: object) -> bytes:
        raise RuntimeError("boom")

    service = GameService(repo, clock=clock, render=broken, engine_for=engine_for)
    game_id = await _started(service)
    await service.act(game_id, ANN, "go 1")
    result = await service.act(game_id, BOB, "go 1")
    assert result.turn_completed and result.image is None and result.game.version == 2
    assert "rendering the board failed" in caplog.text
