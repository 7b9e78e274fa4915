"""Costs that do not grow with the game (issue 13): a replay frame or an undo is rebuilt from
the nearest stored snapshot, and a panel reads only the moves since its seat last played.
Counted in rows read from the log, never timed; each result is checked against the full
replay it replaces."""

from __future__ import annotations

import pytest

from bot.core import errors
from bot.core.history import History
from bot.core.replay import state_at
from bot.core.service import GameService
from bot.core.service.moves import MAX_PANEL_AGE
from bot.core.storage.db import Conn
from bot.core.storage.postgres import PostgresRepository
from bot.core.storage.postgres import migrations as postgres_migrations
from bot.core.storage.repository import SqlRepository
from bot.core.storage.sqlite import _statements, migrations
from bot.core.undo import plan_undo
from engines.rng import Rng
from tests.bot.conftest import both_backends
from tests.bot.playout import USERS, new_table, play_out

pytestmark = both_backends  # the repository-level parts run on SQLite and PostgreSQL

EVERY = 5  # snapshot interval in these tests: small, so long games cross many snapshots


def _repo(service: GameService) -> SqlRepository:
    assert isinstance(service.repo, SqlRepository)
    service.repo.snapshot_every = EVERY
    return service.repo


@pytest.mark.parametrize("key", ["havana", "tuscany"])
async def test_replay_frames_read_at_most_one_snapshot_interval(service: GameService,
                                                               key: str) -> None:
    repo = _repo(service)
    game_id = await new_table(service, key, 2, seed=4)
    await play_out(service, game_id, seed=4, undo_every=5)  # undos void some snapshots
    game, engine, moves = await History(service).moves(game_id)
    assert game.moves == len(moves) > 8 * EVERY
    assert any(r.undone for r in await repo.history(game_id))
    history = History(service)
    for position in range(len(moves) + 1):
        before = repo.rows_read
        frame = await history.frame(game_id, position, "en")
        assert repo.rows_read - before <= EVERY + 1  # one snapshot and its moves
        assert frame.view == engine.view(state_at(engine, game, moves, position), None)
        assert frame.move == (moves[position - 1] if position else None)


async def test_undo_tail_plans_like_the_whole_log(service: GameService) -> None:
    """At every step of a game with take-backs, the plan read from the seat's tail is the
    plan read from the whole log, and the tail stays short while the log grows."""
    repo = _repo(service)
    game_id = await new_table(service, "havana", 2, seed=8)
    longest = 0
    for step in range(120):
        if (await service.get(game_id)).status != "active":
            break
        await play_out(service, game_id, seed=step, max_moves=1, undo_every=3)
        rows = await repo.history(game_id)
        for seat in (0, 1):
            tail = await repo.undo_tail(game_id, seat)
            longest = max(longest, len(tail))
            assert plan_undo(tail, seat) == plan_undo(rows, seat), (step, seat)
    assert len(rows) > 100 and longest < 20


async def test_undo_rebuilds_from_a_snapshot(service: GameService) -> None:
    repo = _repo(service)
    game_id = await new_table(service, "havana", 2, seed=6)
    await play_out(service, game_id, seed=6, max_moves=4 * EVERY + 3)
    game = await service.get(game_id)
    _g, engine, state = await service.load(game_id)
    seat = min(engine.active_players(state))
    await service.act(game_id, USERS[seat], str(engine.legal_actions(state, seat)[0]))
    before = repo.rows_read
    result = await service.request_undo(game_id, USERS[seat])
    assert result.applied
    assert repo.rows_read - before <= 2 * EVERY  # its tail, the entries taken, one interval
    game, engine, moves = await History(service).moves(game_id)
    loaded = await repo.load_game(game_id)
    assert loaded is not None
    assert loaded[1] == engine.to_dict(state_at(engine, game, moves, len(moves)))


async def test_a_panel_older_than_the_age_limit_is_out_of_date(service: GameService) -> None:
    game_id = await new_table(service, "havana", 2, seed=2, ai_seats=1, ai_level="easy")
    await play_out(service, game_id, seed=2, max_moves=MAX_PANEL_AGE + 10)
    async for _result in service.ai_moves(game_id):  # the AI's turn, if the cut left it one
        pass
    game, engine, state = await service.load(game_id)
    assert not engine.is_over(state) and 0 in engine.active_players(state)
    action = str(engine.legal_actions(state, 0)[0])
    assert await service.panel_current(game_id, 0, game.version)
    assert not await service.panel_current(game_id, 0, game.version - MAX_PANEL_AGE - 1)
    with pytest.raises(errors.StaleVersion):
        await service.act(game_id, USERS[0], action,
                          expected_version=game.version - MAX_PANEL_AGE - 1)
    await service.act(game_id, USERS[0], action)  # the seat's own move: its panel is old
    assert not await service.panel_current(game_id, 0, game.version)


async def test_migration_rebuilds_the_effective_moves_kept_by_every_save(
        service: GameService) -> None:
    """Games saved before migration 005 get the same effective_moves and move count that the
    saves keep incrementally (moves, take-backs, imports)."""
    repo = _repo(service)
    game_id = await new_table(service, "havana", 2, seed=12)
    await play_out(service, game_id, seed=12, undo_every=3, max_moves=60)
    history = History(service)
    other = await new_table(service, "havana", 2, seed=13, channel_id=501)
    await play_out(service, other, seed=13, undo_every=4)
    copy = await history.import_game(await history.export(other), guild_id=1, channel_id=502,
                                     user_id=USERS[0])
    ids = (game_id, other, copy.id)

    async def kept() -> list[tuple[object, ...]]:
        async def q(conn: Conn) -> list[tuple[object, ...]]:
            return [tuple(r) for r in await conn.fetch(
                "SELECT game_id, position, seq, seat FROM effective_moves "
                "ORDER BY game_id, position")]
        return await repo.db.read(q)

    incremental = await kept()
    counts = [(await service.get(i)).moves for i in ids]
    dialect = postgres_migrations if isinstance(repo, PostgresRepository) else migrations
    sql = next(text for number, _name, text in dialect() if number == 5)
    statements = [s for s in _statements(sql) if s.startswith(("INSERT", "UPDATE"))]

    async def redo(conn: Conn) -> None:
        await conn.execute("DELETE FROM effective_moves")
        await conn.execute("UPDATE games SET moves = 0")
        for statement in statements:
            await conn.execute(statement)

    await repo.db.write(redo)
    assert await kept() == incremental and len(incremental) == sum(counts)
    assert [(await service.get(i)).moves for i in ids] == counts
    for i in ids:
        game, _engine, moves = await history.moves(i)
        assert game.moves == len(moves)


@pytest.mark.parametrize("key", ["havana", "tuscany", "rio", "minos"])
async def test_a_move_loads_and_deserialises_the_game_once(
        service: GameService, key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A click applies the move and redraws the mover's panel from the state just saved
    (``MoveResult.panel``): the game row is read and its state deserialised once, and the
    panel is the one a fresh read would give."""
    game_id = await new_table(service, key, 2, seed=3)
    await play_out(service, game_id, seed=3, max_moves=4)
    panel = None
    for user in USERS[:2]:
        candidate = await service.panel(game_id, user)
        if candidate.awaited:
            panel = candidate
            break
    assert panel is not None and panel.choices
    engine = service.engine(key)
    game, _engine, state = await service.load(game_id)
    action = (engine.legal_actions(state, panel.seat) or [
        sub.sample(Rng(5)) for sub in engine.subsets(state, panel.seat)])[0]
    loads: list[int] = []
    decoded: list[int] = []
    load_game, from_dict = service.repo.load_game, type(engine).from_dict

    async def counted_load(game_id: int) -> object:
        loads.append(game_id)
        return await load_game(game_id)

    def counted_decode(self: object, data: object) -> object:
        decoded.append(1)
        return from_dict(self, data)  # type: ignore[arg-type]

    monkeypatch.setattr(service.repo, "load_game", counted_load)
    monkeypatch.setattr(type(engine), "from_dict", counted_decode)
    result = await service.act(game_id, game.seats[panel.seat].user_id or 0, str(action))
    assert (len(loads), len(decoded)) == (1, 1)
    assert result.panel is not None and result.panel.game.version == game.version + 1
    monkeypatch.undo()
    assert result.panel == await service.panel(game_id, game.seats[panel.seat].user_id or 0)
