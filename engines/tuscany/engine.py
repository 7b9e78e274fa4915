"""The engine object: the :class:`engines.base.Engine` contract over the Tuscany rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import (
    Action,
    Choice,
    GameOver,
    InvalidState,
    Message,
    NotYourTurn,
    Outcome,
    Result,
    Spec,
)
from engines.rng import Rng

from . import ai
from .board import LABEL_INDEX, valid_arrangement
from .checks import malformed, reason
from .data import CODES, DRAW_COUNT, IMP_CARD
from .rules import (
    Ctx,
    active,
    colour_key,
    geo,
    legal,
    new_state,
    run,
    standing_key,
    tile_key,
    unit_key,
)
from .state import State
from .view import view as make_view

SPEC = Spec(
    key="tuscany",
    min_players=2,
    max_players=4,
)


class TuscanyEngine:
    spec = SPEC

    def new_game(self, num_players: int, seed: int,
                 options: Mapping[str, Any] | None = None) -> State:
        if not SPEC.min_players <= num_players <= SPEC.max_players:
            raise InvalidState(f"Tuscany needs 2-4 players, not {num_players}",
                               key="error.invalid_state")
        return new_state(num_players, seed)

    def to_dict(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def from_dict(self, data: Mapping[str, Any]) -> State:
        return State.from_dict(data)

    def active_players(self, state: State) -> frozenset[int]:
        return active(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return legal(state, seat)

    def apply(self, state: State, seat: int, action: Action) -> Outcome:
        if state.phase == "over":
            raise GameOver("The game is over", key="error.game_over")
        if seat not in self.active_players(state):
            raise NotYourTurn("Not your turn", key="error.not_your_turn")
        if action not in legal(state, seat) and not self._free_arrangement(state, action):
            raise reason(state, seat, action)
        ctx = Ctx(state.clone())
        run(ctx, seat, action)
        return Outcome(ctx.s, tuple(ctx.events), ctx.irreversible)

    @staticmethod
    def _free_arrangement(state: State, action: Action) -> bool:
        """During setup any legal arrangement is accepted in one go (the menu offers the
        arrangements one change away, which keeps it under 25 entries)."""
        return (state.phase == "arrange" and action.kind == "arrange"
                and malformed(action) is None and valid_arrangement(*action.args))

    def skip_action(self, state: State, seat: int) -> Action | None:
        """The move of a player whose deadline passed when the table skips them
        (docs/ASYNC.md): a turn not begun becomes the Draw action (3 cards, +1 per card
        improvement: the rulebook has no smaller action and no pass), setup keeps the
        dealt region ("confirm"), an optional castle placement is declined ("skip") and a
        marble's extra action is not taken ("end").
        A started action (take, place, pay), the start castle and the improvement choice
        cannot be skipped: None, and the AI completes them."""
        options = legal(state, seat)
        return next((a for a in (Action("draw"), Action("confirm"), Action("skip"),
                                 Action("end")) if a in options), None)

    def choices(self, state: State, seat: int) -> list[Choice]:
        return [_choice(state, seat, a) for a in legal(state, seat)]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return make_view(state, seat)

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
        ranking: list[list[int]] = []
        for seat in sorted(keys, key=lambda i: keys[i], reverse=True):
            if ranking and keys[ranking[-1][0]] == keys[seat]:
                ranking[-1].append(seat)
            else:
                ranking.append([seat])
        details = tuple(Message("tuscany.result.line", {
            "player": i, "red": k[0], "empty": k[1], "green": k[2]}) for i, k in keys.items())
        return Result({i: k[0] for i, k in keys.items()}, ranking, details)


def _choice(s: State, seat: int, a: Action) -> Choice:
    """Menu label and effect line for one legal action."""
    p = s.players[seat]
    k, args = a.kind, a.args
    m = Message
    if k == "confirm":
        return Choice(a, m("tuscany.choice.confirm"), m("tuscany.choice.confirm_desc"), "setup")
    if k == "arrange":
        return Choice(a, m("tuscany.choice.arrange", {"order": args[0].upper(),
                                                      "turns": args[1], "shifts": args[2]}),
                      m("tuscany.choice.arrange_desc"), "setup")
    if k == "castle":
        return Choice(a, m("tuscany.choice.start_castle", {"space": args[0]}), None, "setup")
    if k == "improve":
        return Choice(a, m(f"tuscany.improvement.{args[0]}"),
                      m(f"tuscany.improvement_desc.{args[0]}"), "improve")
    if k == "draw":
        n = DRAW_COUNT + p.imps[IMP_CARD]
        return Choice(a, m("tuscany.choice.draw"), m("tuscany.choice.draw_desc", {"count": n}),
                      "action")
    if k in ("take", "place", "skip", "marble", "end"):
        return Choice(a, m(f"tuscany.choice.{k}"), m(f"tuscany.choice.{k}_desc"), "action")
    if k == "pick":
        castle = s.stack[-1].kind == "castle"
        tile = s.display[int(args[0])]
        key = "tuscany.choice.castle_pick" if castle else "tuscany.choice.pick"
        return Choice(a, m(key, {"tile": tile_key(tile), "slot": int(args[0]) + 1}),
                      None, "tile")
    if k == "swap":
        return Choice(a, m("tuscany.choice.swap", {"colour": colour_key(CODES.index(args[0]))}),
                      m("tuscany.choice.swap_desc"), "swap")
    if k == "discard":
        tile = p.storage[int(args[0])]
        return Choice(a, m("tuscany.choice.discard", {"tile": tile_key(tile)}),
                      m("tuscany.choice.discard_desc"), "tile")
    if k == "tile":
        tile = p.storage[int(args[0])]
        return Choice(a, m("tuscany.choice.tile", {"tile": tile_key(tile)}), None, "tile")
    if k == "space":
        colour = geo(p).colours[LABEL_INDEX[args[0]]]
        return Choice(a, m("tuscany.choice.space", {"space": args[0],
                                                    "colour": colour_key(colour)}),
                      None, "space")
    # pay
    return Choice(a, m("tuscany.choice.pay", {"payment": [unit_key(u) for u in args]}),
                  None, "pay")


ENGINE = TuscanyEngine()
