"""The Havana engine object: the :class:`engines.base.Engine` contract over the rules module."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import (
    Action,
    Choice,
    Ctx,
    GameOver,
    InvalidAction,
    Message,
    MultiChoice,
    NotYourTurn,
    Outcome,
    Result,
    Spec,
    Subset,
    check_options,
    check_seed,
    is_seat,
    places,
)
from engines.rng import Rng

from . import ai, checks, rules, state, view
from .choices import choices as make_choices
from .state import State

SPEC = Spec(
    key="havana", min_players=2, max_players=4,
    # Seat numbers in events and labels ("Rob {target}", "{winners} wins").
    seat_params=frozenset({"seat", "target"}),
    seat_list_params=frozenset({"seats", "winners"}),
    ending_kinds=frozenset({"end"}),  # ends the purchases, hence the turn
    passing_kinds=frozenset({"pass"}),  # Refreshment or Conservation declined
)


class HavanaEngine:
    """Stateless: every method takes the state it works on."""

    spec = SPEC

    def new_game(self, num_players: int, seed: int,
                 options: Mapping[str, Any] | None = None) -> State:
        check_options(SPEC, options)  # Havana has none: any given is refused
        return rules.new_state(SPEC.check_players(num_players), check_seed(seed))

    def to_dict(self, s: State) -> dict[str, Any]:
        return state.to_dict(s)

    def from_dict(self, data: Mapping[str, Any]) -> State:
        s = state.from_dict(data)
        checks.playable(s)
        return s

    def active_players(self, s: State) -> frozenset[int]:
        return rules.active(s)

    def legal_actions(self, s: State, seat: int) -> list[Action]:
        if not is_seat(seat, s.num_players):
            return []
        return rules.legal(s, seat)

    def subsets(self, s: State, seat: int) -> list[Subset]:
        """None: every Havana decision is one pick among ≤ 25 listed actions (payments are
        split in two small steps, see ``payments.py``)."""
        return []

    def apply(self, s: State, seat: int, action: Action) -> Outcome[State]:
        if not isinstance(action, Action):
            raise InvalidAction("Not an action", key="error.invalid_action",
                                detail=str(action)[:40])
        if s.phase == "over":
            raise GameOver("The game is over", key="error.game_over")
        if not is_seat(seat, s.num_players) or seat not in rules.active(s):
            raise NotYourTurn(f"Seat {str(seat)[:40]} is not awaited now",
                              key="error.not_your_turn")
        if action not in rules.legal(s, seat) and not any(
                sub.accepts(action) for sub in self.subsets(s, seat)):  # base.offered
            raise checks.reason(s, seat, action)
        ctx = Ctx(s.clone())
        rules.run(ctx, seat, action)
        return ctx.outcome()

    def apply_unchecked(self, s: State, seat: int, action: Action) -> State:
        """Fast path for playouts: ``action`` must be offered."""
        ctx = Ctx(s.clone())
        rules.run(ctx, seat, action)
        return ctx.s

    def skip_action(self, s: State, seat: int) -> Action | None:
        """The move of a player whose deadline passed when the table skips them
        (docs/ASYNC.md): only what the rulebook lets a player decline is skipped — no
        purchase ("end"), no Refreshment or Conservation ("pass"). Hidden picks and the
        compulsory card actions cannot be skipped: None, and the AI plays them."""
        if s.phase != "actions" or not is_seat(seat, s.num_players) \
                or seat not in rules.active(s):
            return None
        options = rules.legal(s, seat)
        return next((a for a in (rules.END, rules.PASS) if a in options), None)

    def choices(self, s: State, seat: int) -> list[Choice | MultiChoice]:
        if not is_seat(seat, s.num_players):
            return []
        return list(make_choices(s, seat))

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        return view.view(s, seat if seat is None or is_seat(seat, s.num_players) else None)

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
        ranking = [list(s.winners), *places({i: rules.standing_key(p)
                                             for i, p in enumerate(s.players)
                                             if i not in s.winners})]
        details = (Message(f"havana.end.{s.end_reason}"),) if s.end_reason else ()
        return Result({i: p.vp for i, p in enumerate(s.players)}, ranking, details)


ENGINE = HavanaEngine()
