"""Río de la Plata (Michele Quondam, 2010), 2–5 players, 20 rounds (1580–1599).

Each round: (A) in turn order each player places up to 5 workers — on the city map (build
huts and minor buildings next to his own huts/houses or in the start zone, activate
buildings next to his houses, upgrade, evict by placing double minus one), on the
major-building ladders (Palace, Cathedral, Fort, Port, Walls, Roads; cost paid at
placement), on production, agriculture, crafts, the quay, the turn-order track or a
character; (B) ladders filled complete (VP per space, the completer places the tile or
pieces), then each player resolves his workers one at a time in his own order (build, pay,
produce, convert, load the ship, buy his character); (C) 2 dice against the enemy track may
start a combat: the attacker stages natives or pirates on the open perimeter, the Fort's
cannons fire, defenders recruit, groups of 1–3 move and fight (bigger beats smaller,
dominance, buildings destroyed, VP to attacker and defenders); then turn order and time
advance. At the end: 3 silver = 1 VP, characters, houses by their quarter's value.

Board values are in ``board.json`` (validated by :mod:`data`); decisions where the rules
are silent are in docs/rules/rio.md.
"""

from .engine import ENGINE

__all__ = ["ENGINE"]
