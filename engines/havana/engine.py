"""The Havana engine object: the :class:`engines.base.Engine` contract over the rules module."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import (
    Action,
    Choice,
    GameOver,
    InvalidAction,
    Message,
    NotYourTurn,
    Outcome,
    Result,
    Spec,
)
from engines.rng import Rng

from . import ai, checks, rules, state, view
from .choices import choices as make_choices
from .state import State

SPEC = Spec(key="havana", min_players=2,
            max_players=4)


class HavanaEngine:
    """Stateless: every method takes the state it works on."""

    spec = SPEC

    def new_game(self, num_players: int, seed: int,
                 options: Mapping[str, Any] | None = None) -> State:
        if isinstance(num_players, bool) or num_players not in (2, 3, 4):
            raise InvalidAction("Havana is for 2 to 4 players", key="havana.error.players",
                                n=num_players)
        return rules.new_state(num_players, seed)

    def to_dict(self, s: State) -> dict[str, Any]:
        return state.to_dict(s)

    def from_dict(self, data: Mapping[str, Any]) -> State:
        return state.from_dict(data)

    def active_players(self, s: State) -> frozenset[int]:
        return rules.active(s)

    def legal_actions(self, s: State, seat: int) -> list[Action]:
        if not 0 <= seat < s.num_players:
            return []
        return rules.legal(s, seat)

    def apply(self, s: State, seat: int, action: Action) -> Outcome:
        if s.phase == "over":
            raise GameOver("The game is over", key="error.game_over")
        if not isinstance(seat, int) or seat not in rules.active(s):
            raise NotYourTurn(f"Seat {seat} is not awaited now", key="error.not_your_turn")
        if action not in rules.legal(s, seat):
            raise checks.reason(s, seat, action)
        turn = rules.Turn(s.clone())
        rules.run(turn, seat, action)
        return Outcome(turn.s, tuple(turn.events), turn.irreversible)

    def apply_unchecked(self, s: State, seat: int, action: Action) -> State:
        """Fast path for playouts: ``action`` must come from ``legal_actions``."""
        turn = rules.Turn(s.clone())
        rules.run(turn, seat, action)
        return turn.s

    def skip_action(self, s: State, seat: int) -> Action | None:
        """The move of a player whose deadline passed when the table skips them
        (docs/ASYNC.md): only what the rulebook lets a player decline is skipped — no
        purchase ("end"), no Refreshment or Conservation ("pass"). Hidden picks and the
        compulsory card actions cannot be skipped: None, and the AI plays them."""
        if s.phase != "actions" or seat not in rules.active(s):
            return None
        options = rules.legal(s, seat)
        return next((a for a in (rules.END, rules.PASS) if a in options), None)

    def choices(self, s: State, seat: int) -> list[Choice]:
        if not 0 <= seat < s.num_players:
            return []
        return make_choices(s, seat)

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        return view.view(s, seat)

    def determinize(self, s: State, seat: int, rng: Rng) -> State:
        return ai.determinize(s, seat, rng)

    def evaluate(self, s: State, seat: int) -> float:
        return ai.evaluate(s, seat)

    def is_over(self, s: State) -> bool:
        return s.phase == "over"

    def result(self, s: State) -> Result | None:
        """VP scores; winners first, then most VP with the reversed turn-order tie-breaks."""
        if s.winners is None:
            return None
        ranking: list[list[int]] = [list(s.winners)]
        rest = sorted((i for i in range(s.num_players) if i not in s.winners),
                      key=lambda i: rules.standing_key(s.players[i]), reverse=True)
        previous: tuple[int, ...] | None = None
        for i in rest:
            key = rules.standing_key(s.players[i])
            if key == previous:
                ranking[-1].append(i)
            else:
                ranking.append([i])
            previous = key
        details = (Message(f"havana.end.{s.end_reason}"),) if s.end_reason else ()
        return Result({i: p.vp for i, p in enumerate(s.players)}, ranking, details)


ENGINE = HavanaEngine()
