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


_NAMESPACE = {"ladder": "ladder", "claim": "char", "build": "building", "convert": "res",
              "take": "res", "side": "side", "tgive": "", "twant": ""}


def _ref(kind: str, value: str) -> Message:
    """An id as its catalogue name (a nested Message, translated by the bot)."""
    ns = _NAMESPACE[kind] or ("char" if value in B.characters else "res")
    return Message(f"rio.{ns}.{value}")


def _params(s: State, seat: int, a: Action) -> dict[str, Any]:
    params: dict[str, Any] = {f"a{i}": v for i, v in enumerate(a.args)}
    if a.kind in _NAMESPACE and a.args:
        params["a0"] = _ref(a.kind, a.args[0])
    if a.kind in ("put", "count"):
        params["n"] = int(a.args[0])
    if a.kind == "merge":
        params["a0"] = Message(f"rio.side.{a.args[0]}")
        params["a1"] = Message(f"rio.merge.{a.args[1]}")
    if a.kind == "step":
        params["a0"] = Message(f"rio.side.{a.args[0]}")
    if a.kind in ("tto", "trust", "untrust") and a.args[0] != "all":
        params["target"] = int(a.args[0])
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


def label_key(a: Action) -> str:
    """The label's catalogue key: a menu opener without arguments, and an offer to
    everyone, have their own wording."""
    if a.kind in ("ladder", "prod", "claim") and not a.args:
        return f"rio.choice.{a.kind}_menu"
    if a.kind == "tto" and a.args == ("all",):
        return "rio.choice.tto_all"
    return f"rio.choice.{a.kind}"


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
        out.append(Choice(a, Message(label_key(a), params), desc, kind_group))
    for sub in subsets:
        out.append(MultiChoice(sub, Message("rio.choice.keep"),
                               tuple(Message("rio.choice.keep_cell", {"cell": o})
                                     for o in sub.options),
                               Message("rio.effect.keep"), group))
    return out
