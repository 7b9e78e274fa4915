"""Why an action is refused: typed, translatable errors that name the reason.

Called only when an action is not among the legal ones, so it may be slow and thorough.
"""

from __future__ import annotations

from engines.base import Action, GameError, IllegalAction, InvalidAction, InvalidState, Message

from .board import LABEL_INDEX, ORDERS, SHIFTS, TURNS
from .data import CODES, IMPROVEMENTS, JOKER, TILES
from .rules import (
    WORKER,
    active,
    colour_key,
    frontier,
    geo,
    legal,
    pay_subsets,
    payment,
    stuck,
    target_spaces,
    tile_key,
    units_total,
)
from .state import Frame, Player, State

_ARITY: dict[str, tuple[int, ...]] = {
    "confirm": (0,), "arrange": (3,), "castle": (1,), "improve": (1,), "draw": (0,),
    "take": (0,), "place": (0,), "pick": (1,), "swap": (1,), "discard": (1,), "tile": (1,),
    "space": (1,), "pay": (1, 2), "skip": (0,), "marble": (0,), "end": (0,),
}
_UNITS = set(CODES) | {WORKER} | {"2" + c for c in CODES}


def _illegal(message: str, key: str, **params: object) -> IllegalAction:
    return IllegalAction(message, key=f"tuscany.error.{key}", **params)


def malformed(action: Action) -> InvalidAction | None:
    """Shape errors: unknown kind, wrong argument count, unknown space/colour/number."""
    kind, args = action.kind, action.args
    bad = InvalidAction(f"Bad action {action}", key="error.invalid_action", detail=str(action))
    if kind not in _ARITY or len(args) not in _ARITY[kind]:
        return bad
    arg = args[0] if args else ""
    ok = True
    if kind == "arrange":
        ok = args[0] in ORDERS and args[1] in TURNS and (args[2] in SHIFTS or args[2] == "111")
    elif kind in ("castle", "space"):
        ok = arg in LABEL_INDEX
    elif kind == "improve":
        ok = arg in IMPROVEMENTS
    elif kind in ("pick", "discard", "tile"):
        ok = arg.isdigit() and len(arg) <= 2
    elif kind == "swap":
        ok = arg in CODES
    elif kind == "pay":
        ok = all(a in _UNITS for a in args)
    return None if ok else bad


_STEP_KINDS = {
    "main": {"draw", "take", "place"}, "take": {"pick", "swap"}, "replace": {"discard"},
    "place": {"tile"}, "space": {"space"}, "pay": {"pay"}, "castle": {"pick", "skip"},
    "improve": {"improve"}, "extra": {"marble", "end"},
}


def reason(s: State, seat: int, action: Action) -> GameError:
    """The most specific error for an action that is not legal now."""
    bad = malformed(action)
    if bad is not None:
        return bad
    p = s.players[seat]
    kind = action.kind
    arg = action.args[0] if action.args else ""
    if s.phase == "castle" and kind == "castle":
        return _illegal(f"{arg} is not a dark-green space", "not_castle_space", space=arg)
    if kind == "improve" and arg in IMPROVEMENTS and not s.supply[IMPROVEMENTS.index(arg)]:
        return _illegal(f"No {arg} improvement is left", "improvement_gone",
                        improvement=Message(f"tuscany.improvement.{arg}"))
    step = s.stack[-1].kind if s.phase == "play" and s.stack else s.phase
    if kind not in _STEP_KINDS.get(step, {"arrange", "confirm", "castle", "improve"}):
        return _illegal(f"{kind} is not possible now", "not_now",
                        step=Message(f"tuscany.step.{step}"))
    if kind == "place":
        return place_reason(p)
    if kind in ("pick", "discard", "tile"):
        i = int(arg)
        if kind == "discard" and i >= len(p.storage):
            return _illegal(f"No storage space {i}", "no_such_slot", slot=arg)
        if kind == "tile":
            if i >= len(p.storage) or p.storage[i] is None:
                return _illegal(f"Storage space {i} is empty", "empty_storage", slot=arg)
            if i in p.fresh_jokers:
                return _fresh_joker()
            return _illegal("That tile has no free space you can pay for", "cannot_place",
                            tile=tile_key(p.storage[i]))
        if i >= len(s.display) or s.display[i] is None:
            return _illegal(f"Display slot {i} is empty", "empty_slot", slot=arg)
        return _illegal("That tile has no free adjacent space", "no_space_for_tile",
                        tile=tile_key(s.display[i]))
    if kind == "swap":
        if not stuck(s, p):
            return _illegal("You can place a display tile: no swap", "not_stuck")
        return _illegal("No tile of that colour is on display", "colour_absent",
                        colour=colour_key(CODES.index(arg)))
    if kind == "arrange" and s.phase == "arrange":
        # Offered one change at a time (the order, one module's turn, or the shifts), so
        # every arrangement is reachable and each menu stays under 25 entries.
        return _illegal("Change one thing at a time", "arrange_step")
    frame = s.stack[-1] if s.stack else None
    if kind == "space" and frame is not None and frame.tile is not None:
        return _space_reason(s, seat, frame.tile, LABEL_INDEX[arg], frame.src == "store")
    if kind == "pay" and frame is not None:
        return _illegal("You cannot pay that", "cannot_pay",
                        payment=payment(action.args))
    return _illegal(f"{action} is not possible now", "not_legal", action=str(action))


def place_reason(p: Player) -> IllegalAction:
    """Why none of the player's stored tiles can be placed now. A stored tile goes on a free
    space of its colour next to one of the player's tiles (a joker: any colour) and is paid
    with 2 cards of that colour, a pair of identical cards or a worker replacing one."""
    stored = [k for k, t in enumerate(p.storage) if t is not None]
    if not stored:
        return _illegal("Your storage is empty", "storage_empty")
    if any(_placeable_later(p, k) for k in p.fresh_jokers):
        return _fresh_joker()
    g = geo(p)
    tiles = [p.storage[k] for k in stored if k not in p.fresh_jokers]
    if any(target_spaces(p, g, t, False) for t in tiles if t is not None):
        return _illegal("You cannot pay for any free space next to your tiles", "no_cards")
    return _illegal("No stored tile has a free space of its colour next to your tiles",
                    "no_free_space")


def _fresh_joker() -> IllegalAction:
    """Rulebook "Auberge": "Lors d'un tour ultérieur, il pourra placer ce Joker" (dec. 13)."""
    return _illegal("You gained this joker this turn; place it on a later turn", "joker_fresh")


def _placeable_later(p: Player, slot: int) -> bool:
    """The joker in this slot has a legal, affordable space (it only has to wait a turn)."""
    return p.storage[slot] == JOKER and bool(target_spaces(p, geo(p), JOKER, True))


def _space_reason(s: State, seat: int, tile: int, space: int, pay: bool) -> GameError:
    p = s.players[seat]
    g = geo(p)
    label = g.labels[space]
    if p.board[space] is not None:
        return _illegal(f"{label} is occupied", "occupied", space=label)
    if tile != JOKER and g.colours[space] != TILES[tile].colour:
        return _illegal(f"{label} is not the tile's colour", "wrong_colour", space=label,
                        colour=colour_key(g.colours[space]),
                        tile_colour=colour_key(TILES[tile].colour))
    if space not in frontier(p, g):
        return _illegal(f"{label} touches none of your tiles", "not_adjacent", space=label)
    if pay and space not in target_spaces(p, g, tile, True):
        have = units_total(p, g.colours[space])
        return _illegal(f"You need 2 payments for {label}, you have {have}", "cannot_pay_space",
                        space=label, have=have)
    return _illegal(f"{label} is not possible now", "not_legal", action=f"space {label}")



def playable(s: State) -> None:
    """``from_dict``'s last check: the awaited decisions refer to real tiles, slots and
    spaces and offer something, so the loaded game can go on (InvalidState otherwise)."""
    if s.phase == "play":
        *lower, top = s.stack
        if any(f.kind not in ("done", "refill") for f in lower) or any(
                not 0 <= f.slot < len(s.display) or s.display[f.slot] is not None
                for f in lower if f.kind == "refill"):
            raise _bad_state("pending steps")
        _check_frame(s, s.players[s.current], top)
    for seat in active(s):
        if not legal(s, seat) and not pay_subsets(s, seat):
            raise _bad_state(f"seat {seat} is awaited but can do nothing")


def _check_frame(s: State, p: Player, f: Frame) -> None:
    ok = True
    if f.kind == "replace":
        ok = 0 <= f.slot < len(s.display) and s.display[f.slot] is not None
    elif f.kind in ("space", "pay"):
        if f.src == "store" or f.kind == "pay":
            ok = (f.tile is not None and 0 <= f.slot < len(p.storage)
                  and p.storage[f.slot] == f.tile and f.slot not in p.fresh_jokers)
        else:
            ok = (f.src == "display" and f.tile is not None and f.tile != JOKER
                  and 0 <= f.slot < len(s.display) and s.display[f.slot] is None)
        if f.kind == "pay":
            ok = ok and 0 <= f.space < len(p.board) and p.board[f.space] is None
    elif f.kind == "extra":
        ok = p.marbles > 0 and not s.marble_used
    if not ok:
        raise _bad_state(f"pending {f.kind} step")


def _bad_state(message: str) -> InvalidState:
    return InvalidState(f"Bad Tuscany state: {message}", key="error.invalid_state",
                        detail=message)
