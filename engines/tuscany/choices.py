"""Menu entries for legal actions: a label and a line on the effect, as translatable messages.

A payment with more than 25 possible pairs is one subset decision, offered as a
``MultiChoice`` after the listed actions.
"""

from __future__ import annotations

from engines.base import Action, Choice, Message, MultiChoice

from .board import LABEL_INDEX
from .data import CODES, DRAW_COUNT, IMP_CARD
from .rules import colour_key, geo, legal, pay_subsets, payment, tile_key, unit_key
from .state import State


def choices(s: State, seat: int) -> list[Choice | MultiChoice]:
    out: list[Choice | MultiChoice] = [_choice(s, seat, a) for a in legal(s, seat)]
    for sub in pay_subsets(s, seat):
        out.append(MultiChoice(sub, Message("tuscany.choice.pay_units"),
                               tuple(Message("tuscany.choice.pay_unit", {"unit": unit_key(u)})
                                     for u in sub.options),
                               Message("tuscany.choice.pay_units_desc"), "pay"))
    return out


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
    return Choice(a, m("tuscany.choice.pay", {"payment": payment(args)}),
                  None, "pay")
