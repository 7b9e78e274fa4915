"""Minos (Jean Vanaise, Ravensburger 1992) for 2-4 players: an empire around the Mediterranean.

Rules implemented (French fragment + the designed rules in docs/rules/minos.md): each player
starts with 1 ship on the fish space and 25 talents. A turn: throw six symbol dice up to three
times, keeping any between throws; then use them in combinations of one symbol (at most one
joker and one star each): Scales pay V talents a die (at least 5), Arrows give combat rings
(more at 10 talents), Seagulls 5 movement points a die, Constructions 1 build point a die; a
star adds one unit per die. Ships sail the sea grid, guards walk the land paths; building on a
site you hold (up to 4 stacked, a city needs its wall) moves your value track. From round 2,
entering an enemy place is a conflict: the attacker throws, the defender answers knowing it,
rings buy re-throws, ties go to the defender. The game ends when every site is built and two
cities stand; the highest value wins, talents break ties.
"""

from .engine import ENGINE, MinosEngine

__all__ = ["ENGINE", "MinosEngine"]
