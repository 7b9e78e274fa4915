"""What a seat sees: everything (Minos hides nothing), shaped for the renderer and the bot."""

from __future__ import annotations

from typing import Any

from .data import FACES
from .rules import active, combat_value
from .state import State, colony_value, holder


def view(s: State, seat: int | None) -> dict[str, Any]:
    """The whole public state; ``seat`` only marks whose panel it is."""
    c = s.combat
    return {
        "game": "minos",
        "seat": seat,
        "num_players": s.num_players,
        "round": s.round,
        "max_rounds": s.max_rounds,
        "phase": s.phase,
        "first": s.first,
        "current": s.current,
        "active": sorted(active(s)),
        "players": [{"talents": p.talents, "rings": p.rings, "value": p.value,
                     "ships": p.ships, "guards": p.guards, "out": p.out}
                    for p in s.players],
        "ships": {k: v[:] for k, v in s.ships.items()},
        "guards": {k: v[:] for k, v in s.guards.items()},
        "colonies": {site: {"buildings": types[:], "value": colony_value(types),
                            "holder": holder(s, site)}
                     for site, types in s.buildings.items()},
        "rings": s.rings,
        "stock": dict(s.stock),
        "dice": [FACES[d] for d in s.dice],
        "used": s.used[:],
        "throws": s.throws,
        "mp": s.mp,
        "bp": s.bp,
        "symbol": s.symbol,
        "selected": s.selected,
        "site": s.site,
        "uses": [[u[0], u[1][:], u[2]] for u in s.uses],
        "last": None if s.last is None else {
            "seat": s.last["seat"], "dice": [FACES[d] for d in s.last["dice"]],
            "uses": [[u[0], u[1][:], u[2]] for u in s.last["uses"]]},
        "combat": None if c is None else {
            "attacker": c.attacker, "defender": c.defender, "kind": c.kind,
            "origin": c.origin, "target": c.target, "foe": c.foe,
            "attack": [FACES[d] for d in c.attack], "defence": [FACES[d] for d in c.defence],
            "attack_value": combat_value(c.attack) if c.attack else None,
            "defence_value": combat_value(c.defence) if c.defence else None,
            "rethrows": c.rethrows, "won": c.won},
        "winners": None if s.winners is None else s.winners[:],
        "end_reason": s.end_reason,
    }
