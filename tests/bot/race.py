"""A tiny test-only game: every round each runner secretly picks a speed 1-3 (simultaneous
hidden step); once all have picked, each advances by the speed plus a random 0/1 bonus drawn
from the seeded generator (chance node), and the round ends (TURN_END). First to the goal wins.
"""

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
    InvalidAction,
    InvalidState,
    Message,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Result,
    Spec,
    Subset,
    check,
)
from engines.rng import Rng

SPEEDS = (1, 2, 3)


@dataclass(frozen=True)
class RaceState:
    positions: tuple[int, ...]
    picks: tuple[int | None, ...]
    rng: int
    round: int
    goal: int


class RaceEngine:
    spec = Spec(key="race", min_players=2,
                max_players=3,
                options=(OptionSpec("goal", 10, (6, 10, 15)), OptionSpec("fast", False)))

    def new_game(self, num_players: int, seed: int,
                 options: Mapping[str, Any] | None = None) -> RaceState:
        goal = int((options or {}).get("goal", 10))
        if (options or {}).get("fast") and num_players > 2:  # an engine judges its options
            raise InvalidState("a fast race is for 2 runners", key="error.invalid_state")
        return RaceState((0,) * num_players, (None,) * num_players, seed, 1, goal)

    def to_dict(self, state: RaceState) -> dict[str, Any]:
        return {"positions": list(state.positions), "picks": list(state.picks),
                "rng": state.rng, "round": state.round, "goal": state.goal}

    def from_dict(self, data: Mapping[str, Any]) -> RaceState:
        try:
            state = RaceState(tuple(data["positions"]), tuple(data["picks"]), int(data["rng"]),
                              int(data["round"]), int(data["goal"]))
        except (KeyError, TypeError, ValueError) as err:
            raise InvalidState(f"bad race state: {err}") from None
        check(len(state.positions) == len(state.picks), InvalidState, "seat count mismatch")
        return state

    def is_over(self, state: RaceState) -> bool:
        return max(state.positions) >= state.goal

    def active_players(self, state: RaceState) -> frozenset[int]:
        if self.is_over(state):
            return frozenset()
        return frozenset(i for i, p in enumerate(state.picks) if p is None)

    def subsets(self, state: RaceState, seat: int) -> list[Subset]:
        return []  # no subset decision in this game

    def skip_action(self, state: RaceState, seat: int) -> Action | None:
        return None  # every pick is compulsory: the AI plays it

    def legal_actions(self, state: RaceState, seat: int) -> list[Action]:
        if seat not in self.active_players(state):
            return []
        return [Action("go", (str(n),)) for n in SPEEDS]

    def choices(self, state: RaceState, seat: int) -> list[Choice]:
        return [Choice(a, Message("race.go", {"n": int(a.args[0])}), group="go")
                for a in self.legal_actions(state, seat)]

    def apply(self, state: RaceState, seat: int, action: Action) -> Outcome:
        check(not self.is_over(state), GameOver, "the race is over")
        check(seat in self.active_players(state), NotYourTurn, f"seat {seat} is not awaited")
        check(action.kind == "go" and len(action.args) == 1 and action.args[0].isdigit(),
              InvalidAction, f"not a race action: {action}", detail=str(action))
        speed = int(action.args[0])
        check(speed in SPEEDS, IllegalAction, f"speed {speed} is not 1-3", speed=speed)
        picks = list(state.picks)
        picks[seat] = speed
        events = [Event("race.picked", {"seat": seat}), Event("race.you_picked", {"n": speed},
                                                               to=seat)]
        if any(p is None for p in picks):
            return Outcome(RaceState(state.positions, tuple(picks), state.rng, state.round,
                                     state.goal), tuple(events))
        rng = Rng(state.rng)
        positions = list(state.positions)
        for i, pick in enumerate(picks):
            assert pick is not None
            bonus = rng.randrange(2)
            positions[i] += pick + bonus
            events.append(Event("race.moved", {"seat": i, "n": pick, "bonus": bonus,
                                               "pos": positions[i]}))
        events.append(Event(TURN_END, {"round": state.round}))
        new = RaceState(tuple(positions), (None,) * len(picks), rng.state, state.round + 1,
                        state.goal)
        return Outcome(new, tuple(events), irreversible=True)

    def view(self, state: RaceState, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {"positions": list(state.positions), "round": state.round,
                                "goal": state.goal,
                                "picked": [p is not None for p in state.picks]}
        if seat is not None:
            view["my_pick"] = state.picks[seat]
        return view

    def result(self, state: RaceState) -> Result | None:
        if not self.is_over(state):
            return None
        places = sorted(set(state.positions), reverse=True)
        ranking = [[i for i, p in enumerate(state.positions) if p == place] for place in places]
        return Result(dict(enumerate(state.positions)), ranking)


RACE = RaceEngine()
