"""Menu entries for legal actions and subset decisions: labels and effect lines as messages."""

from __future__ import annotations

from engines.base import Action, Choice, Message, MultiChoice, Subset

from .data import FACES, LEVELS, RECRUIT_PRICE, RING_PRICE, VALUES, WALL
from .rules import (
    combo_amount,
    legal,
    parse_piece,
    place_param,
    recruit_kind,
    step_kind,
    subsets,
    word,
)
from .state import State


def _m(key: str, **params: object) -> Message:
    return Message(f"minos.{key}", params)


def choices(s: State, seat: int) -> list[Choice | MultiChoice]:
    made: list[Choice | MultiChoice] = [_choice(s, seat, a) for a in legal(s, seat)]
    made += [_multi(s, sub) for sub in subsets(s, seat)]
    return made


def _choice(s: State, seat: int, a: Action) -> Choice:
    kind = a.kind
    arg = a.args[0] if a.args else ""
    if kind == "use":
        return Choice(a, _m("choice.use", symbol=word("face", arg)),
                      _m(f"desc.use_{arg}"), "use")
    if kind == "piece":
        piece, place = parse_piece(arg)
        return Choice(a, _m("choice.piece", piece=word("piece", piece),
                            place=place_param(place)), _m("desc.piece", mp=s.mp), "piece")
    if kind == "step":
        piece, _ = parse_piece(s.selected or "")
        what = step_kind(s, seat, piece, arg)
        return Choice(a, _m("choice.step", place=place_param(arg)),
                      _m(f"desc.step_{what}", mp=s.mp - 1), "step")
    if kind == "build":
        return Choice(a, _m("choice.build", site=word("site", arg)),
                      _m("desc.build", level=len(s.buildings.get(arg, [])) + 1), "build")
    if kind == "type":
        level = LEVELS[len(s.buildings.get(s.site or "", []))]
        bp = level.wall_bp if arg == WALL else level.bp
        doubled = WALL in s.buildings.get(s.site or "", [])
        return Choice(a, _m("choice.type", building=word("building", arg)),
                      _m("desc.type", talents=level.talents, bp=bp,
                         value=VALUES[arg] * (2 if doubled else 1)), "type")
    if kind == "recruit":
        what = recruit_kind(s, seat, arg)
        return Choice(a, _m("choice.recruit", site=word("site", arg),
                            piece=word("piece", str(what))),
                      _m("desc.recruit", cost=RECRUIT_PRICE), "recruit")
    if kind == "buy":
        n = int(arg)
        return Choice(a, _m("choice.buy", n=n), _m("desc.buy", cost=n * RING_PRICE), "buy")
    if kind == "face":
        return Choice(a, _m("choice.face", piece=word("piece", arg)), _m("desc.face"),
                      "face")
    if kind == "stand":
        return Choice(a, _m("choice.stand"), _m("desc.stand"), "stand")
    if kind == "dice":  # a one-die combination, nothing to add
        symbol = a.args[0]
        return Choice(a, _m("choice.dice_one", symbol=word("face", symbol),
                            die=int(a.args[1]) + 1),
                      _m(f"desc.dice_{symbol}", amount=combo_amount(s, symbol,
                                                                    [int(a.args[1])])),
                      "dice")
    if kind == "cancel":
        return Choice(a, _m("choice.cancel"), None, "cancel")
    return Choice(a, _m("choice.end"), _m("desc.end"), "end")


def _face_of(s: State, kind: str, index: int) -> str:
    if kind == "rethrow" and s.combat is not None:
        dice = s.combat.attack if s.phase == "attack" else s.combat.defence
        return FACES[dice[index]]
    return FACES[s.dice[index]]


def _multi(s: State, sub: Subset) -> MultiChoice:
    labels = tuple(_m("choice.die", n=int(o) + 1,
                      face=word("face", _face_of(s, sub.kind, int(o))))
                   for o in sub.options)
    if sub.kind == "keep":
        return MultiChoice(sub, _m("choice.keep", n=s.throws + 1), labels, _m("desc.keep"),
                           "keep")
    if sub.kind == "dice":
        symbol = sub.fixed[0]
        base = combo_amount(s, symbol, [int(sub.fixed[1])])
        return MultiChoice(sub, _m("choice.dice", symbol=word("face", symbol),
                                   die=int(sub.fixed[1]) + 1,
                                   face=word("face", FACES[s.dice[int(sub.fixed[1])]])),
                           labels, _m(f"desc.dice_{symbol}", amount=base), "dice")
    return MultiChoice(sub, _m("choice.rethrow"), labels, _m("desc.rethrow"), "rethrow")
