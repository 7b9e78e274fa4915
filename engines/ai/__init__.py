"""AI seats: four levels, every move a pure function of (game seed, seat, move number, level).

* ``random`` — a uniformly random offered move (tests and soaks);
* ``easy`` — one-move lookahead: each offered move is applied to a few determinizations
  and scored with the engine's ``evaluate`` (:mod:`engines.ai.greedy`);
* ``normal`` / ``strong`` — a rollout of the easy policy (:mod:`engines.ai.rollout`): easy's
  best few moves are each played out in sampled worlds by the easy policy for every seat,
  and the best on average is played; a fixed budget of worlds, candidates and playout turns
  keeps a move reproducible on any machine.

The budgets are counted in moves, so a move is the same on any machine; the CPU time a
move may take (``SECONDS``) is kept by the bot's worker on a machine too slow for them
(``choose``'s ``stop``, :mod:`bot.core.thinker`).

A game needs nothing AI-specific beyond the contract's ``determinize`` and ``evaluate``;
:mod:`engines.ai.defaults` has the generic pieces an engine can delegate to.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engines.base import Action, Engine, Subset
from engines.rng import Rng

from .greedy import greedy_action
from .moves import candidates, subsets_of
from .rollout import Rollout, rollout_action

LEVELS = ("random", "easy", "normal", "strong")
DEFAULT_LEVEL = "normal"

EASY_SAMPLES = 3
# CPU seconds a move may take on this project's 2-core machine (the bot's worker stops a
# search that reaches its guard's share of it: :mod:`bot.core.thinker`). The move caps
# below keep a move within these on most days; on the slowest days measured the same
# moves took up to 3x longer (docs/AI.md).
SECONDS: dict[str, float] = {"normal": 1.0, "strong": 3.0}
# Rollout budgets (deterministic), measured by ``make bench-ai`` (docs/AI.md) so a move stays
# within about 1 s (normal) and 3 s (strong) of CPU on a 2-core machine.
ROLLOUTS: dict[str, Rollout] = {
    "normal": Rollout(worlds=12, top=4, turns=4),
    "strong": Rollout(worlds=36, top=5, turns=4),
}
# Per game, where measured better. Havana's rounds are long (every seat picks hidden cards,
# then each plays its turn): 12 turns reach the round's resolution, 4 did not (2 of 4
# four-seat games won against easy instead of 3 of 4); longer playouts, fewer worlds.
# 8 worlds x 3 moves won 1 of 4 three-seat games; 12 x 4 won 2 of the 3 lost ones.
# Minos's turns are many small steps (dice, combinations, moves), each costing a full
# turn playout: fewer worlds keep a move near 0.3 s (normal).
GAME_ROLLOUTS: dict[tuple[str, str], Rollout] = {
    # Havana's lines are cut after their 12 decisions: waiting for the seat to move again
    # won 5 of 8 two-seat games against easy where the cut won 7 of 8 (seeds 1000-1007).
    # 16 worlds capped at 12,000 moves applied won 8 of 12 four-seat games against easy
    # where 10 worlds uncapped won 5 of 12, and capped at 9,000 lost 4 of the first 5
    # (seeds 1000-1011).
    ("havana", "normal"): Rollout(worlds=16, top=4, turns=12, wait=False, steps=12_000),
    ("havana", "strong"): Rollout(worlds=40, top=5, turns=12, wait=False, steps=27_000),
    # Minos's evaluation counts buildings to come and free sites within reach, and its seats
    # now build, sail and fight where they hoarded talents: moves ran p95 1.71 s (normal,
    # 3 seats) uncapped; capped at 10,000 moves, as at 4 seats.
    ("minos", "normal"): Rollout(worlds=6, top=3, turns=4, steps=10_000),
    # Strong at 27,000 moves ran p95 2.27 s and up to 4.43 s in the benchmark's games; at
    # 21,000 (the cap checked line by line), 262 positions of easy self-play ran max 2.66 s
    # on a day the same positions took 3.41 s at 27,000.
    ("minos", "strong"): Rollout(worlds=18, top=4, turns=4, steps=21_000),
    # Tuscany's strong moves ran up to 3.89 s at 4 seats (13 of 236 over 3 s) uncapped;
    # at 2-4 seats a move applied up to 27,000, 40,000 and 44,000 moves (easy self-play).
    # Capped at 20,000: on 175 positions of 4-seat easy self-play, max 1.43 s where
    # uncapped took 2.63 s; half the moves stay under the cap.
    ("tuscany", "strong"): Rollout(worlds=36, top=5, turns=4, steps=20_000),
    # Río hides only dice: fewer worlds lose little. The defaults took 1.9 s a normal move
    # (p95 2.9 s); 3 x 4 x 4 had p95 1.6 s over a whole game. Where the tail ran over 1 s
    # (3-5 seats: 4 % of normal's moves, up to 7.4 s), capped; and since Río's seats place
    # more workers (its evaluation mended), one world of 3 candidates passed the cap alone:
    # 2 candidates took p95 0.91 s a move where 3 took 1.23 s (51 positions of a 4-seat game;
    # 5 seats 0.67 s against 1.16 s). One line still passed the cap alone (3,500 moves, a
    # 5-seat effects turn), 3 of 104 moves over 1 s (max 1.5 s): lines limited to 1,200
    # moves and worlds to 2,000, max 0.79 s.
    ("rio", "normal"): Rollout(worlds=3, top=2, turns=2, steps=2_000, line_steps=1_200),
    # Río's strong ran uncapped up to 3.07 s (4 seats, 67 positions of a 4-seat easy game)
    # and 4.60 s (5 seats, 87 positions), one line up to 27,000 moves. Capped like normal,
    # wider: max 1.10 s and 1.30 s on the same positions and day. On easy's 2 best moves in
    # 6 worlds rather than its 4 best in 3 (easy's third and fourth are seldom good, and
    # the best of 4 noisy means is often the luckiest): 19 of 72 games won against normal
    # at 3-5 seats where the 4-in-3 strong won 11 of the same, 6.3 VP more a game on
    # average, most of it on the first 34 games (docs/AI-LOG.md).
    ("rio", "strong"): Rollout(worlds=6, top=2, turns=3, steps=6_000, line_steps=2_000),
}
# Per game and player count, where measured better than the game's budget. Río's workers
# pay off a phase or more after they are placed, and between moves a 2-turn playout's
# evaluations differed by 0.1-0.2 VP: at 2 seats, 4-turn playouts (2 worlds, 2 moves,
# capped at 2,500 moves applied; a step cost ~0.2 ms, three times Havana's) won 6 of 8
# games against easy where 2-turn ones won 4 of 8 (seeds 1000-1007). At 3 and 4 seats they
# won 1 of 4 and 0 of 4, as the 2-turn ones did, at p95 2.1 s a move (4 seats) instead of
# 0.97 s: with three others to wait for, one world alone passes the cap. Since capped line
# by line and with Río's evaluation mended, 4-turn lines do better at 4 seats (below).
COUNT_ROLLOUTS: dict[tuple[str, str, int], Rollout] = {
    # Río's menus (city, ladder) look alike one step in, so easy's ranking judged each by
    # its first entry and seldom offered it as a candidate (greedy.through_menus): judged
    # by their best entry, normal won 11 of 18 games against easy where the same 18 had
    # given 7 (seeds 1000-1009 but 1006, both chairs; docs/AI.md).
    ("rio", "normal", 2): Rollout(worlds=2, top=2, turns=4, steps=2_500, menus=True),
    # At 4 seats, 4-turn lines on the game's caps: normal won 8 of 16 games against easy
    # (63.2 VP against 55.9 on average; seeds 1000-1003, every chair) where 2-turn lines
    # won 5 of the same 16, at CPU p50 0.36 s and p95 1.08 s a move. At 3 seats 4-turn
    # lines (caps doubled) won 2 of 6 where 2-turn ones won 3 (docs/AI-LOG.md).
    ("rio", "normal", 4): Rollout(worlds=3, top=2, turns=4, steps=2_000, line_steps=1_200),
    # Havana's normal at 2 seats, replayed with the cap checked line by line, won 18 of 30
    # games against easy (seeds 1000-1029), while strong's wider rollout beat it 24 of 30:
    # the cap bound half its moves. 24 worlds capped at 16,000 moves won 24 of the same 30
    # (CPU p95 0.37 s a move where 12,000 took 0.31 s, the same day).
    ("havana", "normal", 2): Rollout(worlds=24, top=4, turns=12, wait=False, steps=16_000),
    # At 3 seats, lines of 6 decisions instead of 12, for both levels: normal won 15 of 24
    # games against easy where 12 won 13 of the same 24 (seeds 1000-1007, every chair), and
    # strong 8 of 12 against it where 12 against 12 had won 5 of the same 12 (seeds
    # 1000-1003); strong with 12 won 1 of 8 against the 6-decision normal. Cheaper too (20
    # positions of a 3-seat easy game, on a slow day: normal p50 0.65 s where 12 took 1.25 s).
    # Twelve games more of each: normal 8 (23 of 36), strong only 4 (12 of 24, not the target);
    # 24 more of normal (seeds 1012-1019): 8, the fair share (31 of 60, not the target).
    # Near the end, lines played to it (``finish``: where easy's move and 15 decisions, five
    # rounds, end the game, every line may play as many and is judged by the result): normal
    # won 41 of the same 60 (17.9 VP against 12.1), at CPU p95 0.39 s a move on a fast day.
    # Strong plays to the end as normal does: it won 10 of 24 games against it (seeds
    # 1000-1007, every chair), where the levels before gave 12 of the same 24.
    ("havana", "normal", 3): Rollout(worlds=16, top=4, turns=6, wait=False, steps=12_000,
                                     finish=15),
    ("havana", "strong", 3): Rollout(worlds=40, top=5, turns=6, wait=False, steps=27_000,
                                     finish=15),
    # Río's strong at 2 seats looks twice as far as normal (8 turns instead of 4), as in
    # Tuscany at 2 and 4 seats: on the menu candidates the 4-turn strong won 1 of 6 games
    # against normal (seeds 1000-1002, both chairs), 8 turns 3 of the same 6, and 9 of
    # 16 with seeds 1003-1007 (docs/AI.md). The same cap, so a dearer move (68 positions of
    # a 2-seat easy game, a slow day: p50 3.02 s where 4 turns took 2.46 s, on 2 worlds at
    # the median instead of 4); on such a day the time guard keeps it within its 3 s.
    ("rio", "strong", 2): Rollout(worlds=4, top=3, turns=8, steps=8_000, menus=True),
    # Tuscany's seats place more tiles since stored tiles that fit count more, and the
    # 4-seat moves ran p95 1.29 s; capped, 0.71 s where uncapped 0.98 s (33 positions).
    ("tuscany", "normal", 4): Rollout(worlds=12, top=4, turns=4, steps=6_000),
    # At 4 seats normal's 4 turns are one round; strong looks two rounds ahead (8 turns), as
    # at 2 seats where the horizon alone told the levels apart. Its cap, 15,000 moves
    # instead of 20,000, keeps the CPU of a move as it was (36 positions of a 4-seat easy
    # game: p50 2.82 s and p95 4.02 s, where the 4-turn strong took 2.89 s and 4.18 s the
    # same slow day), on fewer worlds (16 at the median instead of 36). It won 13 of 24 games
    # against normal (seeds 1000-1005, every chair), 11 of the 18 where the 4-turn strong won 6.
    ("tuscany", "strong", 4): Rollout(worlds=36, top=5, turns=8, steps=15_000),
    # Tuscany's normal at 2 seats looks one turn ahead (its move and the other seat's
    # reply), strong four: with 4 turns each, strong won 28 of 60 games against normal,
    # every chair; with 1, normal won 44 of 60 against easy and strong 46 of 60 against
    # it (seeds 1000-1029, both chairs). Only the horizon told the two levels apart.
    ("tuscany", "normal", 2): Rollout(worlds=12, top=4, turns=1),
    # Minos's normal at 2 seats: the 10,000-move cap stopped its search after 1 of its 6
    # worlds in a third of its searches (docs/AI-LOG.md). Capped at 20,000 it won 13 of 16
    # games against easy where the 10,000 cap won 9 of the same 16 (seeds 1000-1007, both
    # chairs; CPU p95 0.90 s a move). Strong keeps its lead in worlds and doubles its cap.
    ("minos", "normal", 2): Rollout(worlds=6, top=3, turns=4, steps=20_000),
    ("minos", "strong", 2): Rollout(worlds=18, top=4, turns=4, steps=42_000),
}


def rollout_budget(engine: Engine[Any], level: str, players: int | None = None) -> Rollout:
    """The rollout budget of ``level`` (normal or strong) in ``engine``'s game, at
    ``players`` seats where it has its own."""
    key = str(getattr(getattr(engine, "spec", None), "key", None))
    if players is not None and (key, level, players) in COUNT_ROLLOUTS:
        return COUNT_ROLLOUTS[key, level, players]
    return GAME_ROLLOUTS.get((key, level), ROLLOUTS[level])


def ai_rng(game_seed: int, seat: int, move_number: int) -> random.Random:
    """The ``random`` level's generator (kept as it was, so old replays stay exact)."""
    return random.Random(f"ai:{game_seed}:{seat}:{move_number}")


def level_rng(level: str, game_seed: int, seat: int, move_number: int) -> random.Random:
    """Every other level's generator: a function of the level too."""
    if level == "random":
        return ai_rng(game_seed, seat, move_number)
    return random.Random(f"ai:{level}:{game_seed}:{seat}:{move_number}")


def random_action(engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> Action:
    """One offered action: a listed one, or a random member of a subset decision (each
    decision equally likely, whatever its size) — the same draws as main's engines/ai.py."""
    actions: list[Action | Subset] = [*engine.legal_actions(state, seat),
                                      *subsets_of(engine, state, seat)]
    if not actions:
        raise RuntimeError(f"seat {seat} is awaited but has no legal action")
    choice = actions[rng.randrange(len(actions))]
    return choice.sample(Rng(rng.getrandbits(64))) if isinstance(choice, Subset) else choice


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}")
    return level


def choose(engine: Engine[Any], state: Any, seat: int, level: str, game_seed: int,
           move_number: int, stop: Callable[[], bool] | None = None) -> Action:
    """The move of an AI ``seat`` at ``level``: what the bot, the demo and the bench call.

    It looks at the state only through ``legal_actions``/``subsets`` (the seat's own
    options) and ``determinize`` (everything hidden resampled), so information hidden from
    the seat cannot change the choice. ``stop``, asked between playout decisions, ends a
    search early (the bot's time guard); without it, or where it never says stop, the
    move is a function of (game seed, seat, move number, level)."""
    rng = level_rng(check_level(level), game_seed, seat, move_number)
    if level == "random":
        return random_action(engine, state, seat, rng)
    if level == "easy":
        return greedy_action(engine, state, seat, rng, samples=EASY_SAMPLES)
    players = getattr(state, "num_players", None)
    return rollout_action(engine, state, seat, rng, rollout_budget(engine, level, players),
                          stop)


__all__ = ["COUNT_ROLLOUTS", "DEFAULT_LEVEL", "GAME_ROLLOUTS", "LEVELS", "ROLLOUTS", "SECONDS",
           "Rollout", "ai_rng", "candidates", "check_level", "choose", "greedy_action", "level_rng",
           "random_action", "rollout_action", "rollout_budget"]
