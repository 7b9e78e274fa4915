"""Builders for Minos test positions: a fresh game with chosen dice, pieces and colonies."""

from __future__ import annotations

from collections.abc import Iterable

from engines.base import Action, Outcome
from engines.minos import ENGINE as E
from engines.minos.data import FACE_INDEX, FISH
from engines.minos.state import State, track_values


def game(n: int = 2, seed: int = 0, first: int = 0) -> State:
    """A new game where ``first`` starts; every ship still on the fish space."""
    s = E.new_game(n, seed)
    s.first = s.current = first
    return s


def set_dice(s: State, *faces: str) -> State:
    """The current throw (six face names), nothing used yet, the last throw taken."""
    assert len(faces) == 6
    s.dice = [FACE_INDEX[f] for f in faces]
    s.used = [False] * 6
    return s


def act(s: State, text: str, seat: int | None = None) -> Outcome[State]:
    """Apply ``text`` for ``seat`` (the only awaited seat by default)."""
    if seat is None:
        (seat,) = E.active_players(s)
    return E.apply(s, seat, Action.parse(text))


def run(s: State, *texts: str) -> State:
    for text in texts:
        s = act(s, text).state
    return s


def put_ship(s: State, seat: int, place: str) -> None:
    """Move one of ``seat``'s ships from stock (or from the fish space) onto ``place``."""
    if seat in s.ships.get(FISH, []) and place != FISH:
        s.ships[FISH].remove(seat)
        if not s.ships[FISH]:
            del s.ships[FISH]
    else:
        s.players[seat].ships -= 1
    s.ships.setdefault(place, []).append(seat)
    recount(s)


def put_guards(s: State, seat: int, place: str, count: int = 1) -> None:
    s.players[seat].guards -= count
    if place in s.guards:
        s.guards[place][1] += count
    else:
        s.guards[place] = [seat, count]
    recount(s)


def put_colony(s: State, site: str, types: Iterable[str]) -> None:
    """Buildings on ``site`` (taken from the supply); the track is then recounted."""
    built = list(types)
    s.buildings[site] = built
    for t in built:
        s.stock[t] -= 1
    recount(s)


def recount(s: State) -> None:
    for p, v in zip(s.players, track_values(s), strict=True):
        p.value = v


def checked(s: State) -> State:
    """The state survives a JSON round trip (so its counts are consistent)."""
    return E.from_dict(E.to_dict(s))


def events(out: Outcome[State]) -> list[str]:
    return [e.key for e in out.events]
