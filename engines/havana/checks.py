"""Why an action is refused: typed, translatable errors that name the reason.

Called only when an action is not among the legal ones, so it may be slow and thorough.
"""

from __future__ import annotations

from engines.base import (
    Action,
    GameError,
    IllegalAction,
    InvalidAction,
    Message,
    int_arg,
)
from engines.validators import StateValidator

from .data import BUILDINGS, CARD_ORDER, MATERIALS
from .payments import material_options, shortfall
from .rules import (
    ENDS,
    WORKER,
    active,
    buyable_ids,
    can_build,
    card_key,
    ends_of,
    legal,
    mat_key,
)
from .state import State

_KINDS = {"pick", "cover", "play", "recover", "pass", "remove", "target", "take", "build",
          "pay", "end"}
_ARITY = {"pass": 0, "end": 0}

# The step in which each kind of action is asked for (for "not now" errors).
_STEP_KINDS = {
    "choose_card": {"play"}, "refreshment": {"recover", "pass"},
    "conservation": {"remove", "pass"}, "tax_collector": {"take"},
    "peso_thief_target": {"target"}, "material_thief_target": {"target"},
    "material_thief_take": {"take"}, "mama_take": {"take"}, "build": {"build", "end"},
    "pay_materials": {"pay"}, "pay_workers": {"pay"},
}


def _illegal(message: str, key: str, **params: object) -> IllegalAction:
    return IllegalAction(message, key=f"havana.error.{key}", **params)


def malformed(action: Action) -> InvalidAction | None:
    """Shape errors: unknown kind, wrong argument count, unknown card/material/number."""
    kind, args = action.kind, action.args
    if kind not in _KINDS:
        return InvalidAction(f"Unknown action {kind!r}", key="error.invalid_action",
                             detail=str(action))
    if len(args) != _ARITY.get(kind, 1):
        return InvalidAction(f"Wrong number of arguments in {action}",
                             key="error.invalid_action", detail=str(action))
    arg = args[0] if args else ""
    ok = True
    if kind in ("pick", "cover", "play", "recover"):
        ok = arg in CARD_ORDER
    elif kind == "take":
        ok = arg in MATERIALS or arg == WORKER
    elif kind == "target":
        int_arg(arg, 0, 3, what="seat")  # raises InvalidAction
    elif kind == "build":
        int_arg(arg, min(BUILDINGS), max(BUILDINGS), what="building")
    elif kind == "remove":
        row, _, end = arg.partition(":")
        ok = row in ("0", "1") and end in ENDS
    if not ok:
        return InvalidAction(f"Bad argument in {action}", key="error.invalid_action",
                             detail=str(action))
    return None


def reason(s: State, seat: int, action: Action) -> GameError:
    """The most specific error for an action that is not legal now."""
    try:
        bad = malformed(action)
    except InvalidAction as err:
        return err
    if bad is not None:
        return bad
    p = s.players[seat]
    kind = action.kind
    arg = action.args[0] if action.args else ""
    if s.phase in ("start_pick", "cover"):
        if kind == "pick":
            if arg not in p.hand:
                return _illegal(f"{arg} is not in your hand", "not_in_hand",
                                card=card_key(arg))
            return _illegal("You have already chosen", "already_picked")
        if kind == "cover" and s.phase == "cover":
            if not p.picks:
                return _illegal("Choose a card from your hand first", "pick_first")
            if p.cover is not None:
                return _illegal("You have already chosen", "already_picked")
            return _illegal(f"{arg} is not face up", "not_face_up",
                            card=card_key(arg))
        return _illegal("That is not possible while cards are being chosen", "not_now")
    step = s.step or ""
    if kind not in _STEP_KINDS.get(step, set()):
        return _illegal("That is not possible at this step", "wrong_step",
                        step=Message(f"havana.step.{step}"))
    if kind == "play":
        if arg not in p.face_up:
            return _illegal(f"{arg} is not face up", "not_face_up",
                            card=card_key(arg))
        return _illegal(f"{arg} has already been carried out", "already_used",
                        card=card_key(arg))
    if kind == "recover":
        return _illegal(f"{arg} is not in your discard", "not_in_discard",
                        card=card_key(arg))
    if kind == "remove":
        row, _, end = arg.partition(":")
        if (int(row), end) not in ends_of(s):
            return _illegal("There is no building there", "not_row_end")
    if kind == "target":
        target = int_arg(arg, 0, s.num_players - 1, what="seat")
        return _illegal(f"Player {arg} cannot be targeted", "bad_target", target=target)
    if kind == "take":
        what = Message("havana.res.worker") if arg == WORKER else mat_key(arg)
        return _illegal(f"There is no {arg} to take", "none_to_take", what=what)
    if kind == "build":
        return _build_reason(s, seat, int(arg))
    if kind == "pay":
        return _illegal(f"{arg} is not a possible payment", "bad_payment", option=arg)
    return _illegal("That is not possible now", "not_now")


def _build_reason(s: State, seat: int, bid: int) -> GameError:
    if bid not in buyable_ids(s):
        return _illegal("Only the buildings at the ends of the rows can be bought",
                        "not_buyable", building=Message(f"havana.building.{bid}"))
    b = BUILDINGS[bid]
    p = s.players[seat]
    if b.architect and "architect" not in p.face_up:
        return _illegal("This building needs the Architect face up", "need_architect",
                        building=Message(f"havana.building.{bid}"))
    short = shortfall(b, p)
    if short is not None:
        what, need, have = short
        key = {"workers": Message("havana.res.worker"), "pesos": Message("havana.res.pesos")}.get(
            what, Message(f"havana.material.{what}"))
        return _illegal(f"You need {need} {what}, you have {have}", "need", need=need,
                        have=have, what=key)
    return _illegal("That is not possible now", "not_now")



def playable(s: State) -> None:
    """``from_dict``'s last check: the step in progress names real seats, cubes and
    buildings and offers something, so the loaded game can go on (InvalidState if not)."""
    if s.phase == "actions":
        seat = s.turn_order[s.turn_index]
        p = s.players[seat]
        step = s.step or ""
        ok = len(p.used) <= 2 and len(set(p.used)) == len(p.used)
        if step in ("tax_collector", "peso_thief_target", "material_thief_target",
                    "material_thief_take"):
            ok = ok and bool(s.targets) and seat not in s.targets and len(
                set(s.targets)) == len(s.targets)
        if step == "material_thief_take":
            ok = ok and len(s.targets) == 1 and s.remaining >= 1
        if step == "mama_take":
            ok = ok and s.remaining >= 1
        if step in ("pay_materials", "pay_workers"):
            b = s.building
            ok = ok and b in buyable_ids(s) and can_build(s, p, b)
            if ok and step == "pay_workers":
                assert b is not None
                ok = s.exchange in material_options(BUILDINGS[b], p)
        elif s.building is not None or s.exchange is not None:
            ok = False
        if not ok:
            raise _bad_state(f"the {step} step in progress")
    for seat in active(s):
        if not legal(s, seat):
            raise _bad_state(f"seat {seat} is awaited but can do nothing")


_bad_state = StateValidator("Havana").fail  # worded as the state loader's refusals
