"""The Castles of Tuscany (Stefan Feld, alea 2020) for 2-4 players.

Rules in short (French rulebook, ``shared/seeds/001_…``): each player builds a region from
three random modules (A, B, C) with a start castle on a dark-green space, and takes one
improvement. On a turn a player draws domain cards, takes one of 8 face-up tiles to a
storage space (refilling the display from their leftmost pile), or places a stored tile on a
matching, adjacent space paying 2 cards of its colour (a pair of identical cards or a worker
replaces one). Tiles act when placed (castle: place a display tile directly; city:
improvement; inn: joker; agriculture: VP per new type; quarry: marble = extra action;
village: worker; monastery: 3 cards; trade: income card) and completed zones and colours
score green VP. Emptying the left, centre and right pile ends the three rounds (the third
with one more rotation); at each round end green VP are added to red VP. Most red VP wins.
"""

from .engine import ENGINE, TuscanyEngine

__all__ = ["ENGINE", "TuscanyEngine"]
