"""Player-to-player trades (§1.13, Part 3.5): offer, accept, decline, withdraw.

Any seat may trade at any time (the rules: "à n'importe quel moment"), awaited or not, so
trade actions never block the game. An offer is built item by item in a private draft
("give X", "want Y", to one player or all), sent, and executed atomically by the first
recipient who accepts while both sides still hold the goods. Offers expire at the end of
the phase in which they were made (``rules.expire_trades``).
"""

from __future__ import annotations

from engines.base import Action, Ctx

from .data import CHARACTERS
from .state import State

A = Action
C = Ctx[State]
GOODS = ("silver", "wood", "stone", "precious")
KINDS = frozenset({"trade", "tnew", "tgive", "twant", "tamount", "tto", "tsend", "tcancel",
                   "taccept", "tdecline", "twithdraw", "trust", "untrust"})
MAX_LISTED = 6  # offers listed in the trade menu at once (3 actions each at most)


def holds_goods(s: State, seat: int, goods: dict[str, int]) -> bool:
    p = s.players[seat]
    for item, n in goods.items():
        if item in GOODS:
            if getattr(p, item) < n:
                return False
        elif s.chars.get(item, [-1])[0] != seat:
            return False
    return True


def _draft(s: State, seat: int) -> dict[str, dict[str, int] | int]:
    return s.drafts.setdefault(str(seat), {"give": {}, "want": {}, "to": -1})


def legal(s: State, seat: int) -> list[A]:
    if s.phase == "over":
        return []
    sub = s.players[seat].trade_sub
    if not sub:
        return [A("trade")]
    head, _, arg = sub.partition(":")
    if head == "menu":
        out = [A("tnew")]
        for offer in s.trades[:MAX_LISTED]:
            oid = str(offer["id"])
            if offer["from"] == seat:
                out.append(A("twithdraw", (oid,)))
            elif offer["to"] in (-1, seat) and seat not in offer["declined"]:
                if holds_goods(s, seat, offer["want"]) and holds_goods(s, offer["from"],
                                                                       offer["give"]):
                    out.append(A("taccept", (oid,)))
                out.append(A("tdecline", (oid,)))
        trusts = s.players[seat].trusts
        out += [A("untrust" if x in trusts else "trust", (str(x),))
                for x in range(s.num_players) if x != seat]
        return out + [A("trade")]
    if head in ("give", "want"):
        # 1–23, cancel and the deadline default: 25 options, one select
        return [A("tamount", (str(k),)) for k in range(1, 24)] + [A("tcancel")]
    draft = _draft(s, seat)
    p = s.players[seat]
    give = [g for g in GOODS if getattr(p, g) > 0] + [
        c for c in CHARACTERS if s.chars.get(c, [-1])[0] == seat]
    want = list(GOODS) + [c for c in CHARACTERS if c in s.chars and s.chars[c][0] != seat]
    out = [A("tgive", (g,)) for g in give] + [A("twant", (w,)) for w in want]
    out += [A("tto", ("all" if x < 0 else str(x),)) for x in range(-1, s.num_players)
            if x != seat and x != draft["to"]]
    if draft["give"] or draft["want"]:
        out.append(A("tsend"))
    return out + [A("tcancel")]


def run(ctx: C, seat: int, a: A) -> None:
    s = ctx.s
    p = s.players[seat]
    k = a.kind
    if k == "trade":
        p.trade_sub = "" if p.trade_sub else "menu"
        return
    if k in ("trust", "untrust"):  # Part 3.4: "always accept merges from X"
        other = int(a.args[0])
        if k == "trust":
            p.trusts.append(other)
        else:
            p.trusts.remove(other)
        return
    if k == "tnew":
        s.drafts[str(seat)] = {"give": {}, "want": {}, "to": -1}
        p.trade_sub = "draft"
        return
    if k in ("tgive", "twant"):
        item = a.args[0]
        if item in GOODS:
            p.trade_sub = f"{k[1:]}:{item}"
        else:
            side = _draft(s, seat)[k[1:]]
            assert isinstance(side, dict)
            side[item] = 1
        return
    if k == "tamount":
        head, _, item = p.trade_sub.partition(":")
        side = _draft(s, seat)[head]
        assert isinstance(side, dict)
        side[item] = int(a.args[0])
        p.trade_sub = "draft"
        return
    if k == "tto":
        _draft(s, seat)["to"] = -1 if a.args[0] == "all" else int(a.args[0])
        return
    if k == "tcancel":
        s.drafts.pop(str(seat), None)
        p.trade_sub = "menu"
        return
    if k == "tsend":
        draft = s.drafts.pop(str(seat))
        offer = {"id": s.next_trade, "from": seat, "to": draft["to"], "give": draft["give"],
                 "want": draft["want"], "declined": []}
        s.next_trade += 1
        s.trades.append(offer)
        p.trade_sub = "menu"
        if draft["to"] >= 0:
            ctx.emit("rio.ev.trade_offer", seat=seat, target=draft["to"], id=offer["id"])
        else:
            ctx.emit("rio.ev.trade_offer_all", seat=seat, id=offer["id"])
        return
    oid = int(a.args[0])
    offer = next(o for o in s.trades if o["id"] == oid)
    if k == "twithdraw":
        s.trades.remove(offer)
        ctx.emit("rio.ev.trade_withdrawn", seat=seat, id=oid)
    elif k == "tdecline":
        offer["declined"].append(seat)
        ctx.emit("rio.ev.trade_declined", seat=seat, id=oid)
    elif k == "taccept":
        _transfer(s, offer["from"], seat, offer["give"])
        _transfer(s, seat, offer["from"], offer["want"])
        s.trades.remove(offer)
        ctx.emit("rio.ev.trade_done", seat=seat, target=offer["from"], id=oid)


def _transfer(s: State, giver: int, taker: int, goods: dict[str, int]) -> None:
    for item, n in goods.items():
        if item in GOODS:
            setattr(s.players[giver], item, getattr(s.players[giver], item) - n)
            setattr(s.players[taker], item, getattr(s.players[taker], item) + n)
        else:  # a character works for its new owner from the next round (§1.12)
            s.chars[item] = [taker, s.round]
