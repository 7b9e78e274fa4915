"""Havana (La Havane, Reinhard Staupe, eggertspiele 2009) for 2-4 players.

Rules implemented (French rulebook; decisions in docs/rules/havana.md):
each player has the 13 action cards (values 0-9). Two are chosen hidden and revealed together;
the two face-up values, lower first, make a turn number ("07"); lowest acts first (ties: fewer
VP, coloured materials, pesos, workers, rubble, then seat). In turn order a player carries out
both cards, then buys any number of row-end buildings (5 pesos may replace a worker, 5 rubble
a coloured material; some need the Architect face up). Then 3 blind cubes and 3 pesos go to
the centre, and everyone covers one face-up card with a card from hand (hidden, simultaneous);
at 2 cards or fewer in hand the discards come back. The game ends when a player reaches
25/20/15 VP (2/3/4 players) after their turn, or when every building or every cube is gone.
"""

from .engine import ENGINE, HavanaEngine

__all__ = ["ENGINE", "HavanaEngine"]
