"""Undo with consent (bot/core/undo.py) through the real service and SQLite, for every game's kinds
of steps: a free take-back of one's own move, a vote across another player's move, a reveal,
a draw or a finished turn; refusals and expiry; the rewound snapshot is the replay of the
shortened log and the log itself only grows."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core import errors
from bot.core.replay import effective, state_at
from bot.core.service import GameService
from bot.core.undo import IRREVERSIBLE, OTHER_PLAYER, OWN, TURN_ENDED, plan_undo
from engines.base import TURN_END, Action
from tests.bot.conftest import FakeClock, both_backends

pytestmark = both_backends  # the repository-level parts run on SQLite and PostgreSQL

USERS = (101, 102, 103)


async def _table(service: GameService, key: str, players: int = 2, seed: int = 7) -> int:
    game = await service.create(guild_id=1, channel_id=500, game_key=key, creator_id=USERS[0],
                                creator_name="Ann", seats=players, seed=seed)
    for n in range(1, players):
        await service.join(game.id, USERS[n], f"P{n}")
    await service.start(game.id, USERS[0])
    return game.id


class Recorder:
    """Plays first legal actions through the service and remembers every snapshot."""

    def __init__(self, service: GameService, game_id: int) -> None:
        self.service, self.game_id = service, game_id
        self.snapshots: dict[int, dict[str, Any]] = {}

    async def snapshot(self) -> tuple[int, dict[str, Any]]:
        loaded = await self.service.repo.load_game(self.game_id)
        assert loaded is not None and loaded[1] is not None
        return loaded[0].version, loaded[1]

    async def play(self, seat: int, prefer: tuple[str, ...] = ()) -> tuple[str, bool, bool]:
        """One move of ``seat`` (its first legal action, of a ``prefer`` kind if any);
        returns (action, irreversible, turn_end) as stored in the log."""
        version, data = await self.snapshot()
        self.snapshots[version] = data
        game, engine, state = await self.service.load(self.game_id)
        legal = engine.legal_actions(state, seat)
        actions = [a for a in legal if a.kind in prefer] or legal
        await self.service.act(self.game_id, USERS[seat], str(actions[0]))
        row = (await self.service.repo.history(self.game_id))[-1]
        version, data = await self.snapshot()
        self.snapshots[version] = data
        return row.action, row.irreversible, row.turn_end

    async def until(self, seat: int, predicate: Any, limit: int = 40,
                    prefer: tuple[str, ...] = ("confirm",)) -> tuple[str, bool, bool]:
        """Play awaited seats until ``seat`` makes a move matching ``predicate``."""
        for _ in range(limit):
            game, engine, state = await self.service.load(self.game_id)
            awaited = sorted(engine.active_players(state))
            mover = seat if seat in awaited else awaited[0]
            move = await self.play(mover, prefer)
            if mover == seat and predicate(*move):
                return move
        raise AssertionError("no such move")


async def _assert_rewound(service: GameService, game_id: int, expected: dict[str, Any]) -> None:
    """The snapshot is the replay of the effective log, and the expected earlier position."""
    game, engine, _state = await service.load(game_id)
    moves = effective(await service.repo.history(game_id))
    replayed = engine.to_dict(state_at(engine, game, moves, len(moves)))
    loaded = await service.repo.load_game(game_id)
    assert loaded is not None
    assert loaded[1] == replayed == expected


# ------------------------------------------------------------------ free take-back

@pytest.mark.parametrize("key", ["havana", "tuscany"])
async def test_own_step_is_taken_back_without_a_vote(service: GameService, key: str) -> None:
    game_id = await _table(service, key)
    rec = Recorder(service, game_id)
    action, irreversible, turn_end = await rec.play(0)
    assert not irreversible and not turn_end, action  # Havana pick, Tuscany arrange
    before_rows = len(await service.repo.history(game_id))
    result = await service.request_undo(game_id, USERS[0])
    assert result.applied and result.reason == OWN
    assert [r.action for r in result.taken_back] == [action]
    assert result.game.version == 2  # the undo is a new entry: old panels are stale
    await _assert_rewound(service, game_id, rec.snapshots[0])
    rows = await service.repo.history(game_id)
    assert len(rows) == before_rows + 1 and rows[0].undone and rows[-1].rewind_to == 0
    with pytest.raises(errors.ServiceError) as err:  # nothing of seat 0 left to take back
        await service.request_undo(game_id, USERS[0])
    assert err.value.key == "history.undo_nothing"
    await rec.play(0)  # and the game goes on from the rewound position
    assert (await service.get(game_id)).version == 3


async def test_stale_panel_after_undo_is_refused(service: GameService) -> None:
    game_id = await _table(service, "havana")
    rec = Recorder(service, game_id)
    await rec.play(0)
    await service.request_undo(game_id, USERS[0])
    with pytest.raises(errors.StaleVersion):
        await service.act(game_id, USERS[0], "pick mama", expected_version=1)


async def test_two_clicks_on_one_undo_button_take_back_one_move(service: GameService) -> None:
    """The Undo button carries the version it was drawn at: the second click is stale
    (Havana's two opening picks are two free steps of one seat)."""
    game_id = await _table(service, "havana")
    rec = Recorder(service, game_id)
    first, irreversible, turn_end = await rec.play(0)
    assert not irreversible and not turn_end, first
    before_second = (await service.get(game_id)).version
    _game, engine, state = await service.load(game_id)
    assert 0 in engine.active_players(state)  # seat 0 has a second free step to take
    await rec.play(0)
    button_version = (await service.get(game_id)).version
    done = await service.request_undo(game_id, USERS[0], expected_version=button_version)
    assert done.applied and len(done.taken_back) == 1
    with pytest.raises(errors.StaleVersion):  # the same button, clicked again
        await service.request_undo(game_id, USERS[0], expected_version=button_version)
    await _assert_rewound(service, game_id, rec.snapshots[before_second])
    assert len(effective(await service.repo.history(game_id))) == 1  # the first move stays


async def test_undo_racing_a_move_cannot_take_it_back(service: GameService) -> None:
    """An Undo drawn before another player's move is out of date once that move is saved."""
    game_id = await _table(service, "havana")
    rec = Recorder(service, game_id)
    await rec.play(0)
    button_version = (await service.get(game_id)).version
    await rec.play(1)  # the other player's move lands first
    with pytest.raises(errors.StaleVersion):
        await service.request_undo(game_id, USERS[0], expected_version=button_version)
    rows = await service.repo.history(game_id)
    assert [r.seat for r in effective(rows)] == [0, 1] and not any(r.is_undo for r in rows)
    assert await service.pending_undo(game_id) is None  # no vote opened either


# ------------------------------------------------------------------ votes

async def test_havana_crossing_a_hidden_pick_needs_the_other_player(
        service: GameService) -> None:
    game_id = await _table(service, "havana")
    rec = Recorder(service, game_id)
    await rec.play(0)
    await rec.play(0)
    _action, irreversible, _te = await rec.play(1)
    assert not irreversible  # one pick of two: nothing revealed yet
    asked = await service.request_undo(game_id, USERS[0])
    assert not asked.applied and asked.reason == OTHER_PLAYER and asked.request is not None
    assert asked.request.voters == (USERS[1],)
    assert [r.seat for r in asked.taken_back] == [0, 1]
    with pytest.raises(errors.ServiceError) as err:
        await service.vote_undo(asked.request.id, USERS[0], True)  # the asker has no vote
    assert err.value.key == "history.undo_not_voter"
    done = await service.vote_undo(asked.request.id, USERS[1], True)
    assert done.applied and len(done.taken_back) == 2
    await _assert_rewound(service, game_id, rec.snapshots[1])


async def test_havana_reveal_needs_consent_and_a_refusal_keeps_the_game(
        service: GameService) -> None:
    game_id = await _table(service, "havana")
    rec = Recorder(service, game_id)
    for seat in (0, 0, 1):
        await rec.play(seat)
    _action, irreversible, turn_end = await rec.play(1)  # the last pick reveals every card
    assert irreversible and turn_end
    version, data = await rec.snapshot()
    asked = await service.request_undo(game_id, USERS[1])
    assert asked.reason == IRREVERSIBLE and not asked.applied
    refused = await service.vote_undo(asked.request.id, USERS[0], False)  # type: ignore[union-attr]
    assert refused.refused == "refused" and not refused.applied
    assert await rec.snapshot() == (version, data)  # nothing changed
    with pytest.raises(errors.ServiceError) as err:  # a closed vote takes no more answers
        await service.vote_undo(asked.request.id, USERS[0], True)  # type: ignore[union-attr]
    assert err.value.key == "history.undo_closed"


async def test_havana_finished_turn_needs_consent(service: GameService) -> None:
    game_id = await _table(service, "havana")
    rec = Recorder(service, game_id)
    move = await rec.until(1, lambda a, irr, te: te and not irr)  # e.g. "play mama" (TE)
    assert move[2]
    plan = plan_undo(await service.repo.history(game_id), 1)
    assert plan is not None and plan.reason == TURN_ENDED
    asked = await service.request_undo(game_id, USERS[1])
    assert asked.request is not None
    done = await service.vote_undo(asked.request.id, USERS[0], True)
    assert done.applied
    await _assert_rewound(service, game_id, rec.snapshots[plan.rewind_to])


async def test_tuscany_confirm_ends_the_turn_and_is_voted_back(service: GameService) -> None:
    game_id = await _table(service, "tuscany")
    rec = Recorder(service, game_id)
    await rec.play(0, ("confirm",))
    move = await rec.play(1, ("confirm",))  # the second setup confirmation ends the step
    assert move == ("confirm", False, True)
    asked = await service.request_undo(game_id, USERS[1])
    assert asked.reason == TURN_ENDED and asked.request is not None
    plan = plan_undo(await service.repo.history(game_id), 1)
    assert plan is not None
    done = await service.vote_undo(asked.request.id, USERS[0], True)
    assert done.applied and [r.action for r in done.taken_back] == ["confirm"]
    await _assert_rewound(service, game_id, rec.snapshots[plan.rewind_to])


async def test_tuscany_draw_is_irreversible_and_refused(service: GameService) -> None:
    game_id = await _table(service, "tuscany")
    rec = Recorder(service, game_id)
    move = await rec.until(1, lambda a, irr, te: a == "draw", prefer=("confirm", "draw"))
    assert move[1]  # a draw from the generator
    asked = await service.request_undo(game_id, USERS[1])
    assert asked.reason == IRREVERSIBLE
    version, data = await rec.snapshot()
    refused = await service.vote_undo(asked.request.id, USERS[0], False)  # type: ignore[union-attr]
    assert refused.refused == "refused"
    assert await rec.snapshot() == (version, data)


async def test_expired_vote_is_refused(service: GameService, clock: FakeClock) -> None:
    game_id = await _table(service, "tuscany")
    rec = Recorder(service, game_id)
    await rec.play(0, ("confirm",))
    await rec.play(1, ("confirm",))
    service.undo_vote_hours = 24
    asked = await service.request_undo(game_id, USERS[1])
    assert asked.request is not None
    with pytest.raises(errors.ServiceError) as err:  # one open vote per game
        await service.request_undo(game_id, USERS[1])
    assert err.value.key == "history.undo_pending"
    clock.advance(24 * 3600 + 1)
    expired = await service.vote_undo(asked.request.id, USERS[0], True)
    assert expired.refused == "expired" and not expired.applied
    assert (await service.pending_undo(game_id)) is None
    again = await service.request_undo(game_id, USERS[1])  # a new request may be asked
    assert again.request is not None and again.request.id != asked.request.id


async def test_a_new_move_voids_the_vote(service: GameService) -> None:
    game_id = await _table(service, "havana")
    rec = Recorder(service, game_id)
    await rec.play(0)
    await rec.play(1)
    asked = await service.request_undo(game_id, USERS[0])
    assert asked.request is not None
    await rec.play(1)  # the game moved on: the vote was about another position
    with pytest.raises(errors.ServiceError) as err:
        await service.vote_undo(asked.request.id, USERS[1], True)
    assert err.value.key == "history.undo_void"


async def test_three_players_need_every_other_vote(service: GameService) -> None:
    game_id = await _table(service, "havana", players=3)
    rec = Recorder(service, game_id)
    await rec.play(0)
    await rec.play(1)
    asked = await service.request_undo(game_id, USERS[0])
    assert asked.request is not None and set(asked.request.voters) == {USERS[1], USERS[2]}
    half = await service.vote_undo(asked.request.id, USERS[1], True)
    assert not half.applied and half.refused is None
    done = await service.vote_undo(asked.request.id, USERS[2], True)
    assert done.applied
    await _assert_rewound(service, game_id, rec.snapshots[0])


async def test_turn_message_leaves_out_taken_back_moves(service: GameService) -> None:
    """A move taken back never appears in the public account of the turn."""
    game_id = await _table(service, "havana")
    rec = Recorder(service, game_id)
    await rec.play(0)
    await service.request_undo(game_id, USERS[0])
    game, engine, state = await service.load(game_id)
    first = engine.legal_actions(state, 0)[-1]
    await service.act(game_id, USERS[0], str(first))
    await service.act(game_id, USERS[0], str(engine.legal_actions(
        (await service.load(game_id))[2], 0)[0]))
    results = []
    for _ in range(2):
        _g, engine, state = await service.load(game_id)
        results.append(await service.act(game_id, USERS[1], str(
            engine.legal_actions(state, 1)[0])))
    assert results[-1].turn_completed
    picked = [e for e in results[-1].public_events if e.key != TURN_END]
    rows = effective(await service.repo.history(game_id))
    assert all(not r.undone for r in rows) and len(rows) == 4
    assert len(await service.repo.turn_batch(game_id, rows[-1].seq)) == 4
    assert picked  # the reveal is announced, once
    assert Action.parse(str(first))
