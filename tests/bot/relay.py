"""A test-only sequential game: seats play in order, one ``go`` (or ``rest``) per turn,
each ending the turn; the game ends after ``rounds`` full rounds. ``rest`` is what the
table's "skip" policy plays (``skip_action``), except on a seat's first turn."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import (
    TURN_END,
    Action,
    Choice,
    Event,
    GameOver,
    IllegalAction,
    Message,
    NotYourTurn,
    Outcome,
    Result,
    Spec,
    Subset,
    check,
)


@dataclass(frozen=True)
class RelayState:
    players: int
    turn: int
    scores: tuple[int, ...]
    rounds: int = 3


class RelayEngine:
    spec = Spec(key="relay", min_players=2,
                max_players=4)

    def new_game(self, num_players: int, seed: int,
                 options: Mapping[str, Any] | None = None) -> RelayState:
        return RelayState(num_players, 0, (0,) * num_players)

    def to_dict(self, state: RelayState) -> dict[str, Any]:
        return {"players": state.players, "turn": state.turn, "scores": list(state.scores),
                "rounds": state.rounds}

    def from_dict(self, data: Mapping[str, Any]) -> RelayState:
        return RelayState(int(data["players"]), int(data["turn"]), tuple(data["scores"]),
                          int(data["rounds"]))

    def is_over(self, state: RelayState) -> bool:
        return state.turn >= state.players * state.rounds

    def active_players(self, state: RelayState) -> frozenset[int]:
        return frozenset() if self.is_over(state) else frozenset((state.turn % state.players,))

    def subsets(self, state: RelayState, seat: int) -> list[Subset]:
        return []  # no subset decision in this game

    def legal_actions(self, state: RelayState, seat: int) -> list[Action]:
        return [Action("go"), Action("rest")] if seat in self.active_players(state) else []

    def choices(self, state: RelayState, seat: int) -> list[Choice]:
        return [Choice(a, Message(f"relay.{a.kind}")) for a in self.legal_actions(state, seat)]

    def skip_action(self, state: RelayState, seat: int) -> Action | None:
        return Action("rest") if state.turn >= state.players else None

    def apply(self, state: RelayState, seat: int, action: Action) -> Outcome:
        check(not self.is_over(state), GameOver, "over")
        check(seat in self.active_players(state), NotYourTurn, "not your turn")
        check(action in self.legal_actions(state, seat), IllegalAction, "no")
        scores = list(state.scores)
        scores[seat] += action.kind == "go"
        new = RelayState(state.players, state.turn + 1, tuple(scores), state.rounds)
        return Outcome(new, (Event(f"relay.{action.kind}", {"seat": seat}),
                             Event(TURN_END, {})))

    def view(self, state: RelayState, seat: int | None) -> dict[str, Any]:
        return self.to_dict(state)

    def result(self, state: RelayState) -> Result | None:
        if not self.is_over(state):
            return None
        return Result(dict(enumerate(state.scores)), [list(range(state.players))])


RELAY = RelayEngine()
