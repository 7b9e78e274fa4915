"""What a seat may see. Río has no hidden game information: everything on the table is
public. Only a player's own menu cursor and unsent trade draft are his alone."""

from __future__ import annotations

import copy
from typing import Any

from . import city, rules
from .data import BOARD
from .state import State

B = BOARD


def view(s: State, seat: int | None) -> dict[str, Any]:
    conn = city.connected_quarters(s)
    cells = []
    for i in range(B.ncells):
        if s.bld[i] or s.cw[i]:
            cells.append({"cell": B.token(i), "building": s.bld[i], "owner": s.bown[i],
                          "workers": [list(w) for w in s.cw[i]]})
    players = []
    for x, p in enumerate(s.players):
        players.append({"seat": x, "silver": p.silver, "wood": p.wood, "stone": p.stone,
                        "precious": p.precious, "vp": p.vp, "supply": p.supply,
                        "placed": p.placed, "bought": p.bought, "attacks": p.attacks,
                        "claim": p.claim, "cargo": list(s.cargo[x]), "agri": s.agri[x],
                        "crafts": s.crafts[x], "quay": s.quay[x], "bid": s.bids[x],
                        "houses_vp": city.house_score(s, x)})
    out: dict[str, Any] = {
        "game": "rio", "seat": seat, "num_players": s.num_players, "phase": s.phase,
        "round": s.round, "rounds": s.rounds, "year": B.first_year + min(s.round, s.rounds) - 1,
        "order": list(s.order), "active": sorted(_active(s)),
        "enemy": {"natives": s.natives, "pirates": s.pirates},
        "next_symbol": B.symbols[s.round - 1] if s.round < s.rounds else "",
        "cells": cells, "walls": sorted(s.walls), "prebuilt_walls": sorted(B.prebuilt_walls),
        "roads": sorted(s.roads), "connected": sorted(conn),
        "quarter_values": {str(q): city.quarter_modifier(s, q, conn) for q in B.quarters},
        "ladders": {k: {"spaces": list(v), "vp": list(B.ladders[k].vps(s.num_players)),
                        "closed": k in s.closed} for k, v in s.ladders.items()},
        "pieces_left": rules.unreserved(s), "reserved": dict(s.reserved),
        "production": [{"seat": x, "workers": rules.prod_need(k), "done": s.prod_done[k]}
                       for k, x in enumerate(s.prod)],
        "characters": {k: {"owner": v[0], "since": v[1]} for k, v in s.chars.items()},
        "claims": dict(s.claims),
        "ship": {"at_sea": s.ship_at_sea, "returns": s.ship_return, "ordered_by": s.ship_order,
                 "quay_open": s.quay_open, "capacity": rules.ship_capacity(s),
                 "load": rules.cargo_total(s)},
        "players": players, "queue": [list(t) for t in s.queue],
        "last_roll": list(s.last_roll), "trades": [dict(t) for t in s.trades],
        "final": {k: list(v) for k, v in s.final.items()},
        "combat": None,
    }
    if s.combat is not None:
        c = s.combat
        out["combat"] = {
            "enemy": c.enemy, "attacker": c.attacker, "step": c.step, "round": c.round,
            "quiet": c.quiet, "stacks": [list(x) for x in c.stacks], "to_stage": c.to_stage,
            "shooter": c.shooter, "frozen": [B.token(i) for i in c.frozen],
            "groups": [{"id": g.gid, "cell": B.token(g.cell) if g.cell >= 0 else "",
                        "edge": g.edge, "pawns": list(g.pawns), "moves": g.moves,
                        "fought": g.fought} for g in c.groups],
            "pending": dict(c.pending), "keep_pending": list(c.keep_pending),
            "hold": list(c.hold), "roll": list(c.roll), "selected": c.sel}
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < s.num_players:
        mine = seat in _active(s)
        out["menu"] = s.sub if mine and s.phase != "combat" else (
            s.combat.sub if mine and s.combat is not None else "")
        out["trade_menu"] = s.players[seat].trade_sub
        out["draft"] = copy.deepcopy(s.drafts.get(str(seat)))
        out["picker"] = _picker(s, seat) if mine else None
    return out


def _picker(s: State, seat: int) -> dict[str, Any] | None:
    """The cells the seat's menu offers now, with their quarter (0 = the Plaza Mayor):
    the panel's close-up highlights and labels exactly these."""
    from .engine import legal

    cells = [a.args[0] for a in legal(s, seat) if a.kind == "cell" and a.args]
    if not cells:
        return None
    quarters = sorted({B.quarter_of[i] for i in (B.parse_cell(c) for c in cells)
                       if i is not None})
    return {"quarter": next((q for q in quarters if q), 0), "cells": cells}


def _active(s: State) -> frozenset[int]:
    from .engine import active

    return active(s)
