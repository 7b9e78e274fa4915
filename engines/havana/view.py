"""What each seat may see (the schema the renderer and the bot panels read).

Hands, discards and unrevealed picks appear only in their owner's view; everyone else
(spectators included) sees counts and whether a seat has chosen, never what.
"""

from __future__ import annotations

from typing import Any

from .data import BUILDINGS, MATERIALS, VP_TO_WIN
from .rules import active, turn_number
from .state import State


def building_view(bid: int, buyable: bool) -> dict[str, Any]:
    b = BUILDINGS[bid]
    return {"id": bid, "vp": b.vp,
            "cost": b.cost_dict(), "architect": b.architect, "buyable": buyable}


def _has_picked(s: State, i: int) -> bool:
    p = s.players[i]
    if s.phase == "start_pick":
        return len(p.picks) == 2
    if s.phase == "cover":
        return bool(p.picks) and p.cover is not None
    return False


def view(s: State, seat: int | None) -> dict[str, Any]:
    players = []
    for i, p in enumerate(s.players):
        entry: dict[str, Any] = {
            "seat": i,
            "face_up": p.face_up[:],
            "used": p.used[:],
            "turn_number": turn_number(p.face_up) if p.face_up else None,
            "pesos": p.pesos,
            "workers": p.workers,
            "materials": dict(zip(MATERIALS, p.materials, strict=True)),
            "vp": p.vp,
            "buildings": p.buildings[:],
            "hand_count": len(p.hand) - len(p.picks),
            "discard_count": len(p.discard),
            "has_picked": _has_picked(s, i),
            "protected": p.protected,
        }
        if seat == i:
            entry["hand"] = [c for c in p.hand if c not in p.picks]
            entry["discard"] = p.discard[:]
            entry["pending_picks"] = p.picks[:]
            entry["pending_cover"] = p.cover
        players.append(entry)
    rows = [[building_view(b, k in (0, len(row) - 1)) for k, b in enumerate(row)]
            for row in s.rows]
    centre: dict[str, int] = {"pesos": s.centre_pesos}
    centre.update(zip(MATERIALS, s.centre, strict=True))
    return {
        "game": "havana",
        "num_players": s.num_players,
        "round": s.round,
        "phase": s.phase,
        "step": s.step if s.phase == "actions" else None,
        "current": s.current,
        "turn_order": s.turn_order[:],
        "active": sorted(active(s)),
        "players": players,
        "rows": rows,
        "pile": len(s.pile),
        "centre": centre,
        "bag": sum(s.bag),
        "box": sum(s.box),
        "bank_workers": s.bank_workers,
        "removed_this_round": s.removed_this_round,
        "winners": None if s.winners is None else s.winners[:],
        # additive fields
        "vp_to_win": VP_TO_WIN[s.num_players],
        "end_reason": s.end_reason,
        "context": {"card": s.card, "targets": s.targets[:], "remaining": s.remaining,
                    "building": s.building} if s.phase == "actions" else None,
    }
