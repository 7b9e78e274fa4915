"""The Río de la Plata engine object: the :class:`engines.base.Engine` contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import (
    Action,
    Choice,
    Ctx,
    Event,
    GameOver,
    InvalidAction,
    InvalidState,
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
    places,
)
from engines.rng import Rng

from . import ai, checks, combat, rules, state, trades, view
from .choices import choices as make_choices
from .state import OPTIONS, State

SPEC = Spec(
    key="rio", min_players=2, max_players=5,
    options=tuple(OptionSpec(name, allowed[0], allowed,
                             Message(f"rio.option.{name}")) for name, allowed in OPTIONS.items()),
    seat_params=frozenset({"seat", "victim", "target", "commander"}),
    seat_list_params=frozenset({"order"}),
    ending_kinds=frozenset({"done", "end", "staged", "tsend", "accept", "keep"}),
    passing_kinds=frozenset({"hold", "refuse", "tdecline", "back", "stop"}),
    back_kinds=frozenset({"back"}),  # leaves a menu, changes nothing
    free_kinds=trades.KINDS,  # "à n'importe quel moment de la partie" (§1.13)
)


def seated(s: State, seat: object) -> bool:
    """A seat number of this table (not a bool, a float or a string)."""
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < s.num_players


def legal(s: State, seat: int) -> list[Action]:
    """Every offered atomic action of ``seat``: the game's, or the trade menu's. A seat
    that is not awaited is offered the trade menu only: trades are free at any time."""
    if not seated(s, seat) or s.phase == "over":
        return []
    tr = trades.legal(s, seat)
    if seat not in active(s):
        return tr
    if s.players[seat].trade_sub:
        default = skip(s, seat)
        return tr + ([default] if default is not None else [])
    c = s.combat
    extra = [Action("unhold")] if c is not None and seat in c.hold else []
    return game_legal(s, seat) + extra + tr


def game_legal(s: State, seat: int) -> list[Action]:
    if s.phase == "place":
        return rules.legal_place(s, seat)
    if s.phase == "effects":
        return rules.legal_effects(s, seat)
    if s.phase == "complete":
        return rules.legal_complete(s, seat)
    return combat.legal(s, seat)


def active(s: State) -> frozenset[int]:
    if s.phase in ("place", "effects"):
        return frozenset({s.order[s.cur]})
    if s.phase == "complete":
        return frozenset({int(s.queue[0][1])})
    if s.phase == "combat":
        return combat.active(s)
    return frozenset()


def subsets(s: State, seat: int) -> list[Subset]:
    c = s.combat
    if (seated(s, seat) and s.phase == "combat" and c is not None and c.step == "keep"
            and seat in c.keep_pending and not s.players[seat].trade_sub):
        return [Subset("keep", tuple(combat.keep_subset_cells(s, seat)), 0, -1)]
    return []


def skip(s: State, seat: int) -> Action | None:
    """The deadline default of every decision (reference Part 3)."""
    if not seated(s, seat) or s.phase == "over" or seat not in active(s):
        return None
    if s.phase == "place":
        return Action("done")
    if s.phase == "effects":
        return Action("done")
    if s.phase == "complete":
        options = rules.legal_complete(s, seat)
        return Action("auto") if Action("auto") in options else options[0]
    c = s.combat
    assert c is not None
    if c.step == "keep":
        return Action("keep", tuple(combat.keep_subset_cells(s, seat)))
    options = combat.legal(s, seat)
    return next(a for a in _DEFAULTS if a in options)


_DEFAULTS = tuple(Action(k) for k in ("auto", "staged", "end", "refuse", "hold", "done", "stop",
                                      "back"))


def run(ctx: Ctx[State], seat: int, action: Action) -> None:
    s = ctx.s
    if action.kind in trades.KINDS:
        trades.run(ctx, seat, action)
        return
    if action.kind == "unhold" and s.combat is not None:
        s.combat.hold.remove(seat)  # his groups move again from his next combat turn
        return
    s.players[seat].trade_sub = ""
    if s.phase == "place":
        rules.run_place(ctx, seat, action)
    elif s.phase == "effects":
        rules.run_effects(ctx, seat, action)
    elif s.phase == "complete":
        rules.run_complete(ctx, seat, action)
    elif action.kind == "keep":
        combat.run_keep(ctx, seat, list(action.args))
    else:
        combat.run(ctx, seat, action)


_NAMED = {"building": "building", "char": "char", "res": "res", "ladder": "ladder",
          "enemy": "enemy", "conv": "res", "reason": "reason"}


def _named(event: Event) -> Event:
    """Id parameters become their catalogue names (nested Messages), shown translated."""
    params = dict(event.params)
    for name, ns in _NAMED.items():
        value = params.get(name)
        if isinstance(value, str) and value:
            params[name] = Message(f"rio.{ns}.{value}")
    return Event(event.key, params, event.to)


class RioEngine:
    """Stateless: every method takes the state it works on."""

    spec = SPEC

    def new_game(self, num_players: int, seed: int,
                 options: Mapping[str, Any] | None = None) -> State:
        n = SPEC.check_players(num_players)
        seed = check_seed(seed)
        opts = check_options(SPEC, options)
        for name, value in opts.items():  # 1 is not True, 0 is not False
            if isinstance(value, bool) != isinstance(OPTIONS[name][0], bool):
                raise InvalidState(f"Bad option {name}={value!r}", key="rio.error.option",
                                   option=str(name))
        ctx = Ctx(rules.new_state(n, seed, opts))
        rules.start_round(ctx)
        return ctx.s

    def to_dict(self, s: State) -> dict[str, Any]:
        return state.to_dict(s)

    def from_dict(self, data: Mapping[str, Any]) -> State:
        try:
            return state.from_dict(data)
        except InvalidState:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as err:
            # a field of the wrong shape met before its own check: damaged all the same
            raise InvalidState(f"Invalid Río state: {type(err).__name__}",
                               key="error.invalid_state") from None

    def active_players(self, s: State) -> frozenset[int]:
        return active(s)

    def legal_actions(self, s: State, seat: int) -> list[Action]:
        return legal(s, seat)

    def subsets(self, s: State, seat: int) -> list[Subset]:
        return subsets(s, seat)

    def apply(self, s: State, seat: int, action: Action) -> Outcome[State]:
        if s.phase == "over":
            raise GameOver("The game is over", key="error.game_over")
        if not isinstance(action, Action):
            raise InvalidAction("Not an action", key="error.invalid_action",
                                detail=str(action)[:40])
        if not seated(s, seat):
            raise NotYourTurn(f"Seat {seat} is not at this table", key="error.not_your_turn")
        offered = action in legal(s, seat) or any(x.accepts(action) for x in subsets(s, seat))
        if not offered:
            raise checks.reason(s, seat, action)
        ctx = Ctx(s.clone())
        run(ctx, seat, action)
        out = ctx.outcome()
        return Outcome(out.state, tuple(_named(e) for e in out.events), out.irreversible)

    def apply_unchecked(self, s: State, seat: int, action: Action) -> State:
        ctx = Ctx(s.clone())
        run(ctx, seat, action)
        return ctx.s

    def choices(self, s: State, seat: int) -> list[Choice | MultiChoice]:
        return make_choices(s, seat, legal(s, seat), subsets(s, seat))

    def skip_action(self, s: State, seat: int) -> Action | None:
        return skip(s, seat)

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        return view.view(s, seat)

    def determinize(self, s: State, seat: int, rng: Rng) -> State:
        return ai.determinize(s, seat, rng)

    def evaluate(self, s: State, seat: int) -> float:
        result = self.result(s)
        return ai.evaluate(s, seat, None if result is None else
                           [list(place) for place in result.ranking])

    def is_over(self, s: State) -> bool:
        return s.phase == "over"

    def result(self, s: State) -> Result | None:
        if s.phase != "over":
            return None
        keys = {x: rules.standing_key(s, x) for x in range(s.num_players)}
        ranking = places(keys)
        details = tuple(Message("rio.result.breakdown", {
            "seat": x, "silver_vp": v[0], "chars_vp": v[1], "houses_vp": v[2]})
            for x, v in ((int(k), v) for k, v in s.final.items()))
        return Result({x: s.players[x].vp for x in range(s.num_players)}, ranking, details)


ENGINE = RioEngine()
