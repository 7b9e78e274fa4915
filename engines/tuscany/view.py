"""What a seat may see (schema documented in ``docs/rules/tuscany.md``).

Hidden: every hand except the viewer's own (others: a count), the order of the domain deck,
the income deck, the neutral stack and the face-down piles (counts only).
"""

from __future__ import annotations

from typing import Any

from .board import NUM_SPACES
from .checks import place_reason
from .data import BONUSES, CODES, IMPROVEMENTS, JOKER, TILES
from .rules import active, geo, leftovers, legal, placeable_slots
from .state import Frame, Player, State


def tile_view(tile: int | None) -> dict[str, Any] | None:
    if tile is None:
        return None
    if tile == JOKER:
        return {"id": JOKER, "kind": "j", "colour": None, "crops": [], "owner": None}
    t = TILES[tile]
    return {"id": t.id, "kind": t.kind, "colour": CODES[t.colour], "crops": list(t.crops),
            "owner": t.owner if t.owner >= 0 else None}


def _frame_view(f: Frame) -> dict[str, Any]:
    return {"kind": f.kind, "tile": tile_view(f.tile),
            "space": f.space if f.space >= 0 else None, "units": list(f.units)}


def _player_view(s: State, seat: int, own: bool) -> dict[str, Any]:
    p = s.players[seat]
    g = geo(p)
    spaces = [{"label": g.labels[x], "column": x // 5, "row": x % 5, "y": g.ys[x],
               "module": g.module_at[x], "colour": CODES[g.colours[x]],
               "zone": g.zone_of[x], "tile": tile_view(p.board[x])} for x in range(NUM_SPACES)]
    view: dict[str, Any] = {
        "seat": seat,
        "arrangement": {"modules": p.modules[:], "order": p.order, "turns": p.turns,
                        "shifts": p.shifts, "confirmed": p.confirmed,
                        "placed": [p.modules["abc".index(ch)] for ch in p.order]},
        "spaces": spaces,
        "piles": [len(pile) for pile in p.piles],
        "storage": [tile_view(t) for t in p.storage],
        "fresh_jokers": p.fresh_jokers[:],  # storage slots: jokers gained this turn
        "improvements": {IMPROVEMENTS[i]: p.imps[i] for i in range(len(IMPROVEMENTS))},
        "marbles": p.marbles, "workers": p.workers,
        "hand_count": sum(p.hand),
        "green": p.green, "red": p.red,
        "empty_spaces": sum(1 for t in p.board if t is None),
        "leftovers": leftovers(p),
    }
    if own:
        view["hand"] = {CODES[c]: p.hand[c] for c in range(8)}
    return view


def _cannot_place(s: State, seat: int | None) -> str | None:
    """For the viewer choosing their turn's action: the catalogue key of why "place a stored
    tile" is not offered (it names their cards, so only their own view carries it)."""
    if seat is None or s.phase != "play" or s.current != seat or not s.stack \
            or s.stack[-1].kind != "main":
        return None
    p: Player = s.players[seat]
    return None if placeable_slots(p) else place_reason(p).key


def _no_draw(s: State, seat: int | None) -> bool:
    """For the viewer choosing their turn's action: whether Draw is left out, every card
    being in a hand (docs/rules/tuscany.md, ruling 15)."""
    if seat is None or s.phase != "play" or s.current != seat or not s.stack \
            or s.stack[-1].kind != "main":
        return False
    return all(a.kind != "draw" for a in legal(s, seat))


def _targets(s: State, seat: int | None) -> list[str]:
    """For the viewer who must choose a space now (a tile's space, or the start castle's):
    the labels of the spaces they may choose (affordability names their cards: own view)."""
    if seat is None:
        return []
    return [str(a.args[0]) for a in legal(s, seat) if a.kind in ("space", "castle")]


def view(s: State, seat: int | None) -> dict[str, Any]:
    return {
        "game": "tuscany",
        "viewer": seat,
        "phase": s.phase,
        "round": s.round,
        "round_ending": s.trigger,
        "extra_rotation": s.extra,
        "turn": s.turn,
        "first": s.first,
        "current": s.current if s.phase in ("improve", "play") else None,
        "active": sorted(active(s)),
        "marble_used": s.marble_used,
        "pending": _frame_view(s.stack[-1]) if s.stack and s.phase == "play" else None,
        "display": [tile_view(t) for t in s.display],
        "neutral_stack": len(s.neutral),
        "neutral_discard": [tile_view(t) for t in s.neutral_discard],
        "deck": len(s.deck),
        "discard": len(s.discard),
        "income_deck": len(s.income),
        "income_discard": s.income_discard[:],
        "improvement_supply": {IMPROVEMENTS[i]: s.supply[i] for i in range(len(IMPROVEMENTS))},
        "bonuses": {CODES[c]: {"points": list(BONUSES[c]), "claimed": s.bonus[c][:]}
                    for c in range(8)},
        "players": [_player_view(s, i, i == seat) for i in range(s.num_players)],
        "cannot_place": _cannot_place(s, seat),
        "no_draw": _no_draw(s, seat),
        "targets": _targets(s, seat),
    }
