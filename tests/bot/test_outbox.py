"""The transactional outbox at the storage and service level: a move and the turn message it
owes are written together, a crash after the commit leaves the message pending for the next
start, and a delivered message is no longer pending."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.core.service import GameService
from bot.core.service.outbox import TURN_MESSAGE
from bot.core.shards import Shards
from bot.core.storage import SqliteRepository, VersionConflict, open_repository
from bot.core.storage.base import Outgoing
from engines import registry
from engines.base import TURN_END, Event
from tests.bot.conftest import both_backends

pytestmark = both_backends  # the repository-level parts run on SQLite and PostgreSQL

ANN, BOB = 101, 102


async def no_render(game_key: str, view: Mapping[str, Any], names: Sequence[str],
                    locale: str) -> bytes:
    return b"PNG"


async def _started(service: GameService) -> int:
    game = await service.create(guild_id=1, channel_id=10, game_key="havana", creator_id=ANN,
                                creator_name="Ann", seats=2, seed=3)
    await service.join(game.id, BOB, "Bob")
    await service.start(game.id, ANN)
    return game.id


async def _play_until_turn_message(service: GameService, game_id: int) -> int:
    """Legal moves by whoever is awaited until one ends a turn; the version it was saved at."""
    for _ in range(200):
        game = await service.get(game_id)
        engine = service.engine(game.game_key)
        loaded = await service.repo.load_game(game_id)
        assert loaded is not None and loaded[1] is not None
        state = engine.from_dict(loaded[1])
        seat = min(engine.active_players(state))
        user = game.seats[seat].user_id
        assert user is not None
        action = engine.legal_actions(state, seat)[0]
        result = await service.act(game_id, user, str(action))
        if result.turn_completed:
            return result.game.version
    raise AssertionError("no turn ended in 200 moves")


async def test_a_move_and_its_turn_message_are_saved_together(database: str | Path) -> None:
    path = database
    repo = await open_repository(path)
    service = GameService(repo, render=no_render, render_turns=False)
    game_id = await _started(service)
    (start,) = await repo.pending_outbox()
    assert start.kind == TURN_MESSAGE and start.game_id == game_id and start.version == 0
    assert start.payload["started"] and start.payload["awaited"] == [0, 1]
    assert start.payload["deadlines"] == {} and not start.payload["over"]
    assert 8 <= len(start.nonce) <= 25
    await repo.outbox_done(start.id, now=1.0, message_id=555)
    assert await repo.pending_outbox() == []

    version = await _play_until_turn_message(service, game_id)
    # The process dies here, after the commit: nothing was posted. A new process finds
    # the message, with everything it needs to post it.
    await repo.close()
    repo = await open_repository(path)
    (turn,) = await repo.pending_outbox()
    assert turn.game_id == game_id and turn.version == version and turn.attempts == 0
    assert turn.nonce != start.nonce
    events = [Event.from_dict(e) for e in turn.payload["events"]]
    assert events and events[-1].key == TURN_END
    engine = registry.get("havana")
    state = engine.from_dict(turn.payload["state"])  # the state the message shows
    assert sorted(engine.active_players(state)) == turn.payload["awaited"]
    await repo.outbox_attempt(turn.id)
    (again,) = await repo.pending_outbox()
    assert again.attempts == 1
    await repo.outbox_done(turn.id, now=2.0, message_id=556)
    assert await repo.pending_outbox() == []
    await repo.close()


async def test_a_refused_save_writes_no_message(database: str | Path) -> None:
    repo = await open_repository(database)
    service = GameService(repo, render=no_render, render_turns=False)
    game_id = await _started(service)
    (start,) = await repo.pending_outbox()
    await repo.outbox_done(start.id, now=1.0, message_id=1)
    owed = [Outgoing(TURN_MESSAGE, {"state": {}}, "ludo-conflict")]
    with pytest.raises(VersionConflict):  # the game is at version 0, not 5: nothing written
        await repo.save_move(game_id, expected_version=5, state={}, seat=0, action="x",
                             public=(), private=(), turn_end=True, finished=False,
                             awaited=(), now=3.0, outbox=owed)
    assert await repo.pending_outbox() == []
    await repo.close()


async def test_a_process_is_handed_its_own_shards_rows_only(tmp_path: Path) -> None:
    """Each started game owes a start message; a process sees those of its shards' guilds
    (Discord's rule on the guild id), and a game without a guild is shard 0's."""
    repo = await SqliteRepository.open(tmp_path / "db.sqlite3")
    service = GameService(repo, render=no_render, render_turns=False)
    games = {}
    for channel, guild in ((10, 6 << 22), (11, 7 << 22), (12, None), (13, 9 << 22)):
        game = await service.create(guild_id=guild, channel_id=channel, game_key="havana",
                                    creator_id=ANN, creator_name="Ann", seats=2, seed=channel)
        await service.join(game.id, BOB, "Bob")
        await service.start(game.id, ANN)
        games[channel] = game.id

    async def owed(shards: Shards | None) -> list[int]:
        return [row.game_id for row in await repo.pending_outbox(shards=shards)]

    try:
        assert await owed(None) == list(games.values())
        assert await owed(Shards(2, frozenset({0, 1}))) == list(games.values())
        assert await owed(Shards(2, frozenset({0}))) == [games[10], games[12]]
        assert await owed(Shards(2, frozenset({1}))) == [games[11], games[13]]
        assert await owed(Shards(3, frozenset({1, 2}))) == [games[11]]  # 6%3=0, 9%3=0
    finally:
        await repo.close()
