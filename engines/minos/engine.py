"""The Minos engine object: the :class:`engines.base.Engine` contract over the rules module."""

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
    OptionSpec,
    Outcome,
    Result,
    Spec,
    Subset,
    check_options,
    check_seed,
    offered,
    places,
)
from engines.rng import Rng

from . import ai, checks, rules, state
from .choices import choices as make_choices
from .data import MAX_ROUNDS_DEFAULT
from .state import State
from .view import view as make_view

ROUND_CHOICES = (0, 20, 30, 40, 60)

SPEC = Spec(
    key="minos",
    min_players=2,
    max_players=4,
    options=(OptionSpec("max_rounds", MAX_ROUNDS_DEFAULT, ROUND_CHOICES,
                        Message("minos.option.max_rounds")),),
    seat_params=frozenset({"seat", "target"}),
    seat_list_params=frozenset({"seats"}),
    ending_kinds=frozenset({"end", "stand"}),
    passing_kinds=frozenset({"cancel"}),
    back_kinds=frozenset({"cancel"}),  # leaves a menu, changes nothing
)


def _seat(s: State, seat: object) -> bool:
    """A real seat number of this table (never a bool, a float or a string)."""
    return (isinstance(seat, int) and not isinstance(seat, bool)
            and 0 <= seat < s.num_players)


class MinosEngine:
    """Stateless: every method takes the state it works on."""

    spec = SPEC

    def new_game(self, num_players: int, seed: int,
                 options: Mapping[str, Any] | None = None) -> State:
        chosen = check_options(SPEC, options)  # max_rounds, one of its listed choices
        return rules.new_state(SPEC.check_players(num_players), check_seed(seed),
                               int(chosen["max_rounds"]))

    def to_dict(self, s: State) -> dict[str, Any]:
        return state.to_dict(s)

    def from_dict(self, data: Mapping[str, Any]) -> State:
        return state.from_dict(data)

    def active_players(self, s: State) -> frozenset[int]:
        return rules.active(s)

    def legal_actions(self, s: State, seat: int) -> list[Action]:
        return rules.legal(s, seat) if _seat(s, seat) else []

    def subsets(self, s: State, seat: int) -> list[Subset]:
        return rules.subsets(s, seat) if _seat(s, seat) else []

    def apply(self, s: State, seat: int, action: Action) -> Outcome[State]:
        if not isinstance(action, Action):
            raise InvalidAction(f"Not an action: {str(action)[:40]!r}", key="error.bad_token",
                                token=str(action)[:40])
        if s.phase == "over":
            raise GameOver("The game is over", key="error.game_over")
        if not _seat(s, seat) or seat not in rules.active(s):
            raise NotYourTurn(f"Seat {seat} is not awaited now", key="error.not_your_turn")
        if not offered(self, s, seat, action):
            raise checks.reason(s, seat, action)
        ctx: Ctx[State] = Ctx(s.clone())
        rules.run(ctx, seat, action)
        return ctx.outcome()

    def apply_unchecked(self, s: State, seat: int, action: Action) -> State:
        ctx: Ctx[State] = Ctx(s.clone())
        rules.run(ctx, seat, action)
        return ctx.s

    def choices(self, s: State, seat: int) -> list[Choice | MultiChoice]:
        return make_choices(s, seat) if _seat(s, seat) else []

    def skip_action(self, s: State, seat: int) -> Action | None:
        """The deadline default of each decision (reference §2.9): end the turn, buy no
        ring, leave the menu, the ship first, and **stand** in a conflict."""
        if not _seat(s, seat) or seat not in rules.active(s):
            return None
        options = rules.legal(s, seat)
        for default in (rules.STAND, Action("face", ("ship",)), Action("buy", ("0",)),
                        rules.CANCEL, rules.END):
            if default in options:
                return default
        return None

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        return make_view(s, seat)

    def determinize(self, s: State, seat: int, rng: Rng) -> State:
        """Nothing in Minos is hidden (every throw is public); only the generator's future
        is unknown, so the copy gets a fresh seed."""
        copy = s.clone()
        copy.rng = rng.next64()
        return copy

    def evaluate(self, s: State, seat: int) -> float:
        return ai.evaluate(s, seat)

    def is_over(self, s: State) -> bool:
        return s.phase == "over"

    def result(self, s: State) -> Result | None:
        """Highest value track wins; talents break a tie; still tied, victory is shared."""
        if s.winners is None:
            return None
        ranking = places({i: rules.standing_key(p) for i, p in enumerate(s.players)})
        details = (Message(f"minos.end.{s.end_reason}"),) if s.end_reason else ()
        return Result({i: p.value for i, p in enumerate(s.players)}, ranking, details)


ENGINE = MinosEngine()
