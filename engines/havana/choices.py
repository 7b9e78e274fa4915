"""Menu entries for legal actions: a label and a line on the effect, as translatable messages.

Havana has no subset decision (see ``engine.subsets``): every menu is a list of ``Choice``.
"""

from __future__ import annotations

from engines.base import Action, Choice, Message

from .data import BUILDINGS, CARDS, EXCHANGE_RATE, MATERIALS, RUBBLE, Building
from .payments import parse_exchange
from .rules import WORKER, card_key, end_building, legal, mat_key
from .state import State


def choices(s: State, seat: int) -> list[Choice]:
    return [_choice(s, seat, a) for a in legal(s, seat)]


def _m(key: str, **params: object) -> Message:
    return Message(f"havana.{key}", params)


def _choice(s: State, seat: int, a: Action) -> Choice:
    kind = a.kind
    arg = a.args[0] if a.args else ""
    if kind in ("pick", "play"):
        card = CARDS[arg]
        if s.phase == "start_pick":  # two cards to choose, one at a time (Mise en place)
            label = _m("choice.pick_start", card=card_key(arg), value=card.value,
                       n=len(s.players[seat].picks) + 1)
        else:
            label = _m("choice." + kind, card=card_key(arg), value=card.value)
        return Choice(a, label, _m(f"desc.{arg}"), kind)
    if kind == "cover":
        return Choice(a, _m("choice.cover", card=card_key(arg)), _m("desc.cover"), "cover")
    if kind == "recover":
        return Choice(a, _m("choice.recover", card=card_key(arg)), _m("desc.recover"),
                      "recover")
    if kind == "pass":
        return Choice(a, _m("choice.pass"), _m(f"desc.pass_{s.step}"), "pass")
    if kind == "end":
        return Choice(a, _m("choice.end"), _m("desc.end"), "end")
    if kind == "remove":
        row, _, end = arg.partition(":")
        bid = end_building(s, int(row), end)
        return Choice(a, _m("choice.remove", building=Message(f"havana.building.{bid}"),
                            vp=BUILDINGS[bid].vp),
                      _m("desc.remove", row=int(row) + 1, end=Message(f"havana.side.{end}")),
                      "remove")
    if kind == "target":
        return _target_choice(s, a, int(arg))
    if kind == "take":
        what = Message("havana.res.worker") if arg == WORKER else mat_key(arg)
        label = _m("choice.take", what=what)
        if s.step == "mama_take":
            return Choice(a, label, _m("desc.take_mama", n=s.remaining), "take")
        if s.step == "tax_collector":  # workers go back to the bank, materials to the box
            key = "desc.take_tax_worker" if arg == WORKER else "desc.take_tax_material"
        else:
            key = "desc.take_thief"
        desc = _m(key, target=s.targets[0])
        return Choice(a, label, desc, "take")
    if kind == "build":
        b = BUILDINGS[int(arg)]
        return Choice(a, _m("choice.build", building=Message(f"havana.building.{b.id}"), vp=b.vp),
                      _m("desc.build_cost", vp=b.vp, cost=cost_keys(b)), "build")
    return _pay_choice(s, a, arg)


def cost_keys(b: Building) -> list[Message]:
    """What a building takes before any exchange, one catalogue entry per resource and
    amount (``havana.cost.brick_2``: "2 bricks"), so each language words its plurals."""
    amounts = [(MATERIALS[m], n) for m, n in enumerate(b.materials)]
    amounts += [("pesos", b.pesos), ("workers", b.workers)]
    return [Message(f"havana.cost.{what}_{n}") for what, n in amounts if n]


def _target_choice(s: State, a: Action, target: int) -> Choice:
    v = s.players[target]
    label = _m("choice.target", target=target)
    if s.step == "peso_thief_target":
        return Choice(a, label, _m("desc.target_pesos", n=v.pesos // 2, pesos=v.pesos),
                      "target")
    n = min(2 if v.coloured > 3 else 1, sum(v.materials))
    return Choice(a, label, _m("desc.target_materials", n=n, coloured=v.coloured,
                               rubble=v.materials[RUBBLE]), "target")


def _pay_choice(s: State, a: Action, option: str) -> Choice:
    if s.step == "pay_workers":
        k = int(option[1:])
        if k == 0:
            return Choice(a, _m("choice.pay_workers_none"), _m("desc.pay_workers_none"), "pay")
        return Choice(a, _m("choice.pay_workers", n=k, pesos=EXCHANGE_RATE * k),
                      _m("desc.pay_workers", n=k, pesos=EXCHANGE_RATE * k), "pay")
    ks = parse_exchange(option)
    total = sum(ks)
    if total == 0:
        return Choice(a, _m("choice.pay_colours"), _m("desc.pay_colours"), "pay")
    replaced = [mat_key(c) for c, k in enumerate(ks) for _ in range(k)]
    return Choice(a, _m("choice.pay_rubble", n=total, rubble=EXCHANGE_RATE * total),
                  _m("desc.pay_rubble", cubes=replaced), "pay")
