"""Why an action is refused: a typed, translatable error naming the rule it breaks.

``apply`` accepts exactly what ``legal_actions`` and ``subsets`` offer; this module only
explains a refusal, so a player reads "a combination holds at most one joker" rather than
"illegal action".
"""

from __future__ import annotations

from engines.base import Action, GameError, IllegalAction, InvalidAction

from .data import (
    DICE,
    DOTS,
    FACE_INDEX,
    GUARD_STEPS,
    JOKER,
    LEVELS,
    MAX_BUILDINGS,
    RECRUIT_PRICE,
    SCALES,
    SHIP_STEPS,
    SITES,
    STAR,
    SYMBOLS,
    THROWS,
    TYPES,
    WALL,
)
from .rules import conflicts_allowed, parse_piece, step_kind
from .state import State, holder

KINDS = frozenset(("keep", "use", "dice", "cancel", "buy", "piece", "step", "build", "type",
                   "recruit", "end", "face", "rethrow", "stand"))


def _illegal(key: str, message: str, **params: object) -> IllegalAction:
    return IllegalAction(message, key=f"minos.error.{key}", **params)


def malformed(a: Action) -> GameError | None:
    """A refusal for actions that are not Minos actions at all (kind or argument shape)."""
    if a.kind not in KINDS:
        return InvalidAction(f"Unknown action {a.kind!r}", key="minos.error.unknown",
                             action=a.kind)
    return None


def reason(s: State, seat: int, a: Action) -> GameError:
    """The most specific reason ``a`` is not offered to ``seat`` now."""
    bad = malformed(a)
    if bad is not None:
        return bad
    kind = a.kind
    if kind == "dice":
        return _dice_reason(s, a)
    if kind == "type" and s.phase == "build" and s.site is not None and a.args:
        return _build_reason(s, seat, s.site, a.args[0])
    if kind == "step" and s.phase == "act" and a.args:
        return _step_reason(s, seat, a.args[0])
    if kind == "keep":
        if s.throws >= THROWS:
            return _illegal("no_more_throws", "No throws left")
        if any(s.used):
            return _illegal("dice_in_use", "A die has been used: no more throws")
    if kind == "recruit" and a.args:
        site = a.args[0]
        if site in s.recruited:
            return _illegal("recruit_once", "One recruit per colony per turn")
        if s.players[seat].talents < RECRUIT_PRICE:
            return _illegal("no_talents", "Not enough talents", need=RECRUIT_PRICE)
        if site not in SITES or holder(s, site) != seat:
            return _illegal("not_held", "You do not hold this site")
        return _illegal("recruit_needs", "Recruiting needs two dwellings or two harbours")
    if kind == "build" and a.args and a.args[0] in SITES:
        site = a.args[0]
        if holder(s, site) != seat:
            return _illegal("not_held", "You need a ship in the port or a guard on the site")
        if len(s.buildings.get(site, [])) >= MAX_BUILDINGS:
            return _illegal("city_full", "A city takes no more buildings")
        return _illegal("cannot_build", "No building you can afford here")
    if kind == "rethrow" and s.combat is not None:
        dice = s.combat.attack if s.phase == "attack" else s.combat.defence
        if any(x.isdigit() and int(x) < DICE and dice and dice[int(x)] == SCALES
               for x in a.args):
            return _illegal("scales_locked", "Dice showing Scales cannot be thrown again")
        return _illegal("no_rethrow", "No re-throw left (at most two, one ring each)")
    if kind == "use" and a.args and a.args[0] in SYMBOLS:
        return _illegal("cannot_form", "No unused die can form this symbol")
    return _illegal("not_now", f"{a} is not possible now")


def _dice_reason(s: State, a: Action) -> GameError:
    if s.phase != "combo" or s.symbol is None or not a.args or a.args[0] != s.symbol:
        return _illegal("not_now", "Choose the symbol first")
    picked: list[int] = []
    for token in a.args[1:]:
        if not token.isdigit() or int(token) >= DICE:
            return InvalidAction(f"No die {token!r}", key="minos.error.no_die", die=token)
        picked.append(int(token))
    if len(set(picked)) != len(picked) or any(s.used[i] for i in picked):
        return _illegal("die_used", "Each die is used once")
    faces = [s.dice[i] for i in picked]
    x = FACE_INDEX[s.symbol]
    if faces.count(JOKER) > 1:
        return _illegal("two_jokers", "A combination holds at most one joker")
    if faces.count(STAR) > 1:
        return _illegal("two_stars", "A combination holds at most one star")
    if any(f not in (x, JOKER, STAR) for f in faces):
        return _illegal("wrong_die", "Only dice showing the symbol, a joker and a star")
    if not any(f in (x, JOKER) for f in faces):
        return _illegal("no_symbol_die", "A combination needs a die showing the symbol")
    return _illegal("not_now", "Choose the dice from the menu")


def _build_reason(s: State, seat: int, site: str, kind: str) -> GameError:
    if kind not in TYPES:
        return InvalidAction(f"No building {kind!r}", key="minos.error.no_type", type=kind)
    types = s.buildings.get(site, [])
    if len(types) >= MAX_BUILDINGS:
        return _illegal("city_full", "A city takes no more buildings")
    level = LEVELS[len(types)]
    if kind == WALL and not types:
        return _illegal("wall_first", "The first building of a colony may not be a wall")
    if kind == WALL and WALL in types:
        return _illegal("second_wall", "A colony has at most one wall")
    if kind != WALL and len(types) == MAX_BUILDINGS - 1 and WALL not in types:
        return _illegal("city_needs_wall", "The fourth building of a city must be its wall")
    if s.stock[kind] == 0:
        return _illegal("no_stock", "None of these buildings left")
    if s.players[seat].talents < level.talents:
        return _illegal("no_talents", "Not enough talents", need=level.talents)
    need = level.wall_bp if kind == WALL else level.bp
    return _illegal("no_bp", "Not enough build points", need=need, have=s.bp)


def _step_reason(s: State, seat: int, nxt: str) -> GameError:
    if s.mp <= 0:
        return _illegal("no_mp", "No movement points left")
    if s.selected is None:
        return _illegal("no_piece", "Choose a piece first")
    kind, place = parse_piece(s.selected)
    graph = SHIP_STEPS if kind == "ship" else GUARD_STEPS
    if nxt not in graph.get(place, ()):
        return _illegal("not_adjacent", "Pieces move one space at a time to a neighbour")
    if step_kind(s, seat, kind, nxt) is None and not conflicts_allowed(s):
        enemy = (s.ships.get(nxt) or (s.guards.get(nxt) if nxt in DOTS or nxt in SITES
                                      else None))
        if enemy and enemy[0] != seat:
            return _illegal("no_conflict_round1", "No conflicts in the first round")
    return _illegal("blocked", "That space is occupied")
