"""Menus: a label and an effect line (translation keys) for every offered action."""

from __future__ import annotations

from typing import Any

from engines.base import Action, Choice, Message, MultiChoice, Subset

from . import rules
from .data import BOARD
from .state import State

B = BOARD
DESCRIBED = frozenset({"space", "build", "convert", "fire", "buy", "evict", "ship",
                       "put", "act", "upgrade", "bonus", "merge", "stack", "taccept"})


def _params(s: State, seat: int, a: Action) -> dict[str, Any]:
    params: dict[str, Any] = {f"a{i}": v for i, v in enumerate(a.args)}
    p = s.players[seat]
    head, _, arg = s.sub.partition(":")
    if a.kind == "space" and head == "ladder":
        k = int(a.args[0])
        params["vp"] = B.ladders[arg].vps(s.num_players)[k]
        cost = rules.ladder_cost(arg, a.args[1] if len(a.args) > 1 else "")
        short, price = rules.purchase(p, cost.get("wood", 0), cost.get("stone", 0))
        params.update(wood=cost.get("wood", 0), stone=cost.get("stone", 0),
                      precious=cost.get("precious", 0), buy=short, silver=price)
    elif a.kind == "build":
        m = B.minor[a.args[0]]
        short, price = rules.purchase(p, m.cost["wood"], m.cost["stone"])
        params.update(workers=m.workers, vp=m.vp, buy=short, silver=price, **m.cost)
    elif a.kind == "claim" and a.args:
        ch = B.characters[a.args[0]]
        params.update(cost=ch.cost, vp=ch.vp_needed)
    elif a.kind == "buy" and s.combat is not None:
        params["silver"] = s.combat.bought + 1
    elif a.kind == "evict" and head == "cell":
        params["n"] = 2 * sum(w[1] for w in s.cw[int(arg)])
    return params


def choices(s: State, seat: int, actions: list[Action],
            subsets: list[Subset]) -> list[Choice | MultiChoice]:
    group = s.phase if s.combat is None else f"combat_{s.combat.step}"
    out: list[Choice | MultiChoice] = []
    for a in actions:
        params = _params(s, seat, a)
        desc = Message(f"rio.effect.{a.kind}", params) if a.kind in DESCRIBED else None
        kind_group = "trade" if a.kind.startswith("t") and a.kind in (
            "trade", "tnew", "tgive", "twant", "tamount", "tto", "tsend", "tcancel",
            "taccept", "tdecline", "twithdraw") else group
        out.append(Choice(a, Message(f"rio.choice.{a.kind}", params), desc, kind_group))
    for sub in subsets:
        out.append(MultiChoice(sub, Message("rio.choice.keep"),
                               tuple(Message("rio.choice.keep_cell", {"cell": o})
                                     for o in sub.options),
                               Message("rio.effect.keep"), group))
    return out
