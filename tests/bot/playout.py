"""Whole games through the service with every seat driven by the test (seeded random moves)."""

from __future__ import annotations

import random

from bot.core.service import GameService
from engines.rng import Rng

USERS = (101, 102, 103, 104)


async def new_table(service: GameService, key: str, players: int, *, seed: int = 7,
                    ai_seats: int = 0, ai_level: str | None = None, guild_id: int | None = 1,
                    channel_id: int = 500) -> int:
    """A started game: ``players - ai_seats`` humans (USERS) then AI seats at ``ai_level``
    (the service's default if None)."""
    game = await service.create(guild_id=guild_id, channel_id=channel_id, game_key=key,
                                creator_id=USERS[0], creator_name="Ann", seats=players,
                                seed=seed)
    for n in range(1, players - ai_seats):
        await service.join(game.id, USERS[n], f"P{n}")
    for _ in range(ai_seats):
        await service.add_ai(game.id, USERS[0], ai_level)
    await service.start(game.id, USERS[0])
    return game.id


async def play_out(service: GameService, game_id: int, *, seed: int = 1,
                   undo_every: int = 0, max_moves: int | None = None) -> int:
    """Random legal moves until the game ends (or ``max_moves``); every ``undo_every``-th
    human move is taken back and played again when that is a free take-back. Returns the
    number of moves played."""
    rnd = random.Random(seed)
    moves = 0
    while max_moves is None or moves < max_moves:
        game, engine, state = await service.load(game_id)
        if engine.is_over(state) or game.status != "active":
            break
        seat = min(engine.active_players(state))
        player = game.seats[seat]
        if player.user_id is None:
            async for _result in service.ai_moves(game_id):
                moves += 1
            continue
        action = rnd.choice(engine.legal_actions(state, seat) or [  # a subset decision
            sub.sample(Rng(rnd.randrange(1 << 62))) for sub in engine.subsets(state, seat)])
        await service.act(game_id, player.user_id, str(action))
        moves += 1
        if undo_every and moves % undo_every == 0:
            done = await _free_undo(service, game_id, player.user_id)
            if done:
                await service.act(game_id, player.user_id, str(action))
    return moves


async def _free_undo(service: GameService, game_id: int, user_id: int) -> bool:
    from bot.core.undo import plan_undo

    game = await service.get(game_id)
    seat = game.seat_of(user_id)
    if game.status != "active" or seat is None:
        return False
    plan = plan_undo(await service.repo.history(game_id), seat.seat)
    if plan is None or plan.needs_consent:
        return False
    return (await service.request_undo(game_id, user_id)).applied
