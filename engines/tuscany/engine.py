"""The engine object: the :class:`engines.base.Engine` contract over the Tuscany rules."""

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

from . import ai
from .checks import playable, reason
from .choices import choices as make_choices
from .rules import active, legal, new_state, pay_subsets, run, standing_key
from .state import State
from .view import view as make_view

SPEC = Spec(
    key="tuscany", min_players=2, max_players=4,
    seat_params=frozenset({"player"}),  # every event and label names seats "player"
    ending_kinds=frozenset({"confirm", "end"}),  # keep the region; end the turn (no marble)
    passing_kinds=frozenset({"skip"}),  # decline a castle's placement
    # Turning and reordering the set-up parts can go on forever (a normal AI did, 400
    # times): AI seats keep the dealt arrangement and confirm it.
    back_kinds=frozenset({"arrange"}),
)

_SKIPS = (Action("draw"), Action("confirm"), Action("skip"), Action("end"))


class TuscanyEngine:
    """Stateless: every method takes the state it works on."""

    spec = SPEC

    def new_game(self, num_players: int, seed: int,
                 options: Mapping[str, Any] | None = None) -> State:
        check_options(SPEC, options)  # Tuscany has none: any given is refused
        return new_state(SPEC.check_players(num_players), check_seed(seed))

    def to_dict(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def from_dict(self, data: Mapping[str, Any]) -> State:
        state = State.from_dict(data)
        playable(state)
        return state

    def active_players(self, state: State) -> frozenset[int]:
        return active(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if not is_seat(seat, state.num_players):
            return []
        return legal(state, seat)

    def subsets(self, state: State, seat: int) -> list[Subset]:
        """A payment of more than 25 possible pairs is one multi-select of 2 units (fewer
        are listed as pairs); every other decision is a pick among listed actions."""
        if not is_seat(seat, state.num_players):
            return []
        return pay_subsets(state, seat)

    def apply(self, state: State, seat: int, action: Action) -> Outcome[State]:
        if not isinstance(action, Action):
            raise InvalidAction("Not an action", key="error.invalid_action",
                                detail=str(action)[:40])
        if state.phase == "over":
            raise GameOver("The game is over", key="error.game_over")
        if not is_seat(seat, state.num_players) or seat not in active(state):
            raise NotYourTurn(f"Seat {str(seat)[:40]} is not awaited now",
                              key="error.not_your_turn")
        # What is accepted is exactly what is offered (engines.base.offered).
        if action not in legal(state, seat) and not any(
                sub.accepts(action) for sub in self.subsets(state, seat)):
            raise reason(state, seat, action)
        ctx = Ctx(state.clone())
        run(ctx, seat, action)
        return ctx.outcome()

    def apply_unchecked(self, state: State, seat: int, action: Action) -> State:
        """Fast path for playouts: ``action`` must be offered."""
        ctx = Ctx(state.clone())
        run(ctx, seat, action)
        return ctx.s

    def skip_action(self, state: State, seat: int) -> Action | None:
        """The move of a player whose deadline passed when the table skips them
        (docs/ASYNC.md): a turn not begun becomes the Draw action (3 cards, +1 per card
        improvement: the rulebook has no smaller action and no pass), setup keeps the
        dealt region ("confirm"), an optional castle placement is declined ("skip") and a
        marble's extra action is not taken ("end").
        A started action (take, place, pay), the start castle and the improvement choice
        cannot be skipped: None, and the AI completes them."""
        options = self.legal_actions(state, seat)
        return next((a for a in _SKIPS if a in options), None)

    def choices(self, state: State, seat: int) -> list[Choice | MultiChoice]:
        if not is_seat(seat, state.num_players):
            return []
        return list(make_choices(state, seat))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return make_view(state, seat if seat is None or is_seat(seat, state.num_players)
                         else None)

    def determinize(self, state: State, seat: int, rng: Rng) -> State:
        return ai.determinize(state, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return ai.evaluate(state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def result(self, state: State) -> Result | None:
        if state.phase != "over":
            return None
        keys = {i: standing_key(p) for i, p in enumerate(state.players)}
        ranking = places(keys)
        details = tuple(Message("tuscany.result.line", {
            "player": i, "red": k[0], "empty": k[1], "green": k[2]}) for i, k in keys.items())
        return Result({i: k[0] for i, k in keys.items()}, ranking, details)


ENGINE = TuscanyEngine()
