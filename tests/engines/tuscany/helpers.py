"""Builders for Tuscany scenario tests: a game past setup with a known region for seat 0.

Seat 0's region is A1 | B1 | C1, unturned and unshifted:

    a b | c d | e f          (colours, rows 1-5)
    C F | V V | T T
    F F | V M | T F
    V I | Q M | C F
    V R | Q M | I M
    T Q | C R | Q R
"""

from __future__ import annotations

from engines.base import Action, Outcome
from engines.tuscany import ENGINE as E
from engines.tuscany.board import LABEL_INDEX
from engines.tuscany.data import CODES, TILES
from engines.tuscany.state import Frame, State


def ready(n: int = 2, seed: int = 0) -> State:
    """A game in the play phase, seat 0 to move and first, start castle on a1."""
    s = E.new_game(n, seed)
    s.players[0].modules = ["A1", "B1", "C1"]
    s.players[0].order, s.players[0].turns, s.players[0].shifts = "abc", "000", "000"
    for seat in range(n):
        s = E.apply(s, seat, Action("confirm")).state
    for seat in range(n):
        space = "a1" if seat == 0 else str(E.legal_actions(s, seat)[0].args[0])
        s = E.apply(s, seat, Action("castle", (space,))).state
    while s.phase == "improve":
        s = E.apply(s, s.current, Action("improve", ("card",))).state
    s.first = s.current = 0
    s.stack = [Frame("main")]
    for p in s.players:
        p.imps[0] = 0
    s.supply[0] = 5
    return s


def do(s: State, seat: int, text: str) -> Outcome:
    return E.apply(s, seat, Action.parse(text))


def run(s: State, seat: int, *texts: str) -> tuple[State, list[str]]:
    """Apply several actions; return the state and every event key."""
    keys: list[str] = []
    for text in texts:
        out = do(s, seat, text)
        s = out.state
        keys += [e.key for e in out.events]
    return s, keys


def grab(s: State, colour: str, crops: tuple[str, ...] = (), owner: int | None = None) -> int:
    """Remove a tile of that colour (and crops) from a neutral stack or a pile; return it."""
    c = CODES.index(colour.lower())
    sources = [s.neutral, s.neutral_discard] + [pile for p in s.players for pile in p.piles]
    for src in sources:
        for t in src:
            tile = TILES[t]
            if tile.colour == c and (not crops or tile.crops == crops) and (
                    owner is None or tile.owner == owner):
                src.remove(t)
                return t
    for i, t in enumerate(s.display):
        tile = TILES[t] if t is not None else None
        if tile and tile.colour == c and (not crops or tile.crops == crops) and (
                owner is None or tile.owner == owner):
            s.display[i] = s.neutral.pop(0)  # keep the display full
            return tile.id
    raise LookupError(f"no free {colour} tile {crops}")


def put(s: State, seat: int, label: str, colour: str, crops: tuple[str, ...] = ()) -> int:
    tile = grab(s, colour, crops)
    s.players[seat].board[LABEL_INDEX[label]] = tile
    return tile


def hand(s: State, seat: int, **cards: int) -> None:
    """Set a hand exactly, moving cards between the hand and the deck (conservation)."""
    p = s.players[seat]
    for c in range(8):
        while p.hand[c]:
            p.hand[c] -= 1
            s.deck.append(c)
    for code, n in cards.items():
        c = CODES.index(code)
        for _ in range(n):
            s.deck.remove(c)
            p.hand[c] += 1


def display(s: State, colours: str) -> None:
    """Set the 8 display tiles to neutral tiles of these colours (one letter each)."""
    for i, t in enumerate(s.display):
        if t is not None:
            s.neutral.append(t)
            s.display[i] = None
    for i, c in enumerate(colours):
        s.display[i] = grab(s, c, owner=-1)


def my_turn(s: State, seat: int = 0) -> State:
    """Start a fresh turn of ``seat`` (scenario tests chain several placements)."""
    s.current = seat
    s.stack = [Frame("main")]
    s.marble_used = False
    return s
