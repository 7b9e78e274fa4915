"""Minos's rules: what is legal now and what each action does (through ``engines.base.Ctx``).

A turn (docs/rules/minos.md): the six dice are thrown at once, kept and re-thrown up to three
throws in all, then used one combination at a time (the symbol first, then the dice). Seagulls
give movement points, Constructions build points, Scales talents, Arrows rings; moving,
building and recruiting come between combinations. A piece entering an enemy place from round
2 on starts a conflict: the attacker throws, then the defender, knowing that value.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engines.base import TURN_END, Action, Ctx, Message, Subset
from engines.rng import Rng

from .data import (
    ARROW,
    ARROW_RINGS,
    COMBAT,
    COMBAT_RETHROWS,
    CONSTRUCTION,
    CONSTRUCTION_BP,
    DICE,
    DOTS,
    DWELLING,
    FACE_INDEX,
    FACES,
    FISH,
    GUARD_STEPS,
    HARBOUR,
    JOKER,
    LEVELS,
    MAX_BUILDINGS,
    MIN_CITIES,
    RECRUIT_PRICE,
    RING_PRICE,
    SCALES,
    SCALES_FLOOR,
    SEA,
    SEAGULL,
    SEAGULL_MP,
    SHIP_STEPS,
    SITES,
    STAR,
    STAR_UNIT,
    START_TALENTS,
    SYMBOLS,
    THROWS,
    TYPES,
    VALUES,
    WALL,
)
from .state import Combat, Player, State, colony_value, holder, pieces_on_board

MAX_BUY = 24  # one select menu of counts 0..24; picking 24 offers another
END = Action("end")
STAND = Action("stand")
CANCEL = Action("cancel")


# --- setup and turns ---------------------------------------------------------------------

def new_state(num_players: int, seed: int, max_rounds: int) -> State:
    """Every ship on the fish space, markers at 0, 25 talents, a random first player."""
    rng = Rng(seed)
    first = rng.randrange(num_players)
    players = [Player(START_TALENTS) for _ in range(num_players)]
    for p in players:
        p.ships -= 1
    s = State(num_players, rng.state, players, first, first, max_rounds=max_rounds,
              ships={FISH: list(range(num_players))}, dice=[0] * DICE, used=[False] * DICE)
    ctx: Ctx[State] = Ctx(s)
    _start_turn(ctx, first)
    return ctx.s


def _start_turn(ctx: Ctx[State], seat: int) -> None:
    s = ctx.s
    s.current = seat
    s.phase = "act"
    s.dice = ctx.roll(DICE)
    s.used = [False] * DICE
    s.throws = 1
    s.mp = s.bp = 0
    s.symbol = s.selected = s.site = None
    s.recruited = []
    s.uses = []
    ctx.emit("minos.ev.turn", seat=seat, round=s.round)
    ctx.emit("minos.ev.throw", seat=seat, **dice_params(s.dice), n=s.throws)


def word(group: str, ident: str) -> Message:
    """A catalogue word as an event or label parameter (``minos.<group>.<ident>``): a die
    face, a piece, a site, a building type, an end reason."""
    return Message(f"minos.{group}.{ident}")


def dice_params(dice: list[int]) -> dict[str, Any]:
    """A throw as event parameters ``d1``..``d6``, each a face's catalogue key (translated
    by the bot one by one)."""
    return {f"d{i + 1}": word("face", FACES[d]) for i, d in enumerate(dice)}


def order_pos(s: State, seat: int) -> int:
    return (seat - s.first) % s.num_players


def alive(s: State) -> list[int]:
    return [i for i, p in enumerate(s.players) if not p.out]


def _end_turn(ctx: Ctx[State]) -> None:
    s = ctx.s
    seat = s.current
    s.last = {"seat": seat, "dice": s.dice[:], "uses": [[u[0], u[1][:], u[2]] for u in s.uses]}
    ctx.emit("minos.ev.end_turn", seat=seat, value=s.players[seat].value,
             talents=s.players[seat].talents)
    ctx.emit(TURN_END)
    if s.phase == "over":
        return
    if _built_out(s):
        _finish(ctx, "built")
        return
    nxt = seat
    for step in range(1, s.num_players + 1):
        candidate = (seat + step) % s.num_players
        if not s.players[candidate].out:
            nxt = candidate
            break
    if order_pos(s, nxt) <= order_pos(s, seat):
        if s.max_rounds and s.round >= s.max_rounds:
            _finish(ctx, "rounds")
            return
        s.round += 1
        ctx.emit("minos.ev.round", round=s.round)
    _start_turn(ctx, nxt)


def _built_out(s: State) -> bool:
    cities = sum(1 for types in s.buildings.values() if len(types) == MAX_BUILDINGS)
    return len(s.buildings) == len(SITES) and cities >= MIN_CITIES


def standing_key(p: Player) -> tuple[bool, int, int]:
    return (not p.out, p.value, p.talents)


def _finish(ctx: Ctx[State], reason: str) -> None:
    s = ctx.s
    s.phase = "over"
    s.combat = None
    s.symbol = s.selected = s.site = None
    s.mp = s.bp = 0
    best = max(standing_key(p) for p in s.players)
    s.winners = [i for i, p in enumerate(s.players) if standing_key(p) == best]
    s.end_reason = reason
    ctx.emit("minos.ev.over", reason=word("end", reason), seats=s.winners[:])


# --- dice and combinations ----------------------------------------------------------------

def unused(s: State) -> list[int]:
    return [i for i in range(DICE) if not s.used[i]]


def formable(s: State) -> list[str]:
    """The symbols a combination can be made of now: a die showing it or an unused joker."""
    free = [s.dice[i] for i in unused(s)]
    return [sym for x, sym in enumerate(SYMBOLS) if x in free or JOKER in free]


def combo_subset(s: State) -> Subset:
    """The dice that may join the combination of ``s.symbol``: one symbol die (or the joker)
    is fixed, then any other dice showing it, one joker and one star."""
    assert s.symbol is not None
    x = FACE_INDEX[s.symbol]
    free = unused(s)
    xs = [i for i in free if s.dice[i] == x]
    jokers = [i for i in free if s.dice[i] == JOKER]
    stars = [i for i in free if s.dice[i] == STAR]
    if xs:
        fixed, options = xs[0], xs[1:] + jokers[:1] + stars[:1]
    else:
        fixed, options = jokers[0], stars[:1]
    return Subset("dice", tuple(str(i) for i in sorted(options)), 0, -1,
                  (s.symbol, str(fixed)))


def combo_amount(s: State, symbol: str, dice: list[int]) -> int:
    """What a combination yields: per symbol die (the joker included) the symbol's unit
    (V talents at least 5, 1 ring, 5 MP, 1 BP), and a star adds one unit more per die."""
    n = sum(1 for i in dice if s.dice[i] != STAR)
    star = STAR_UNIT if any(s.dice[i] == STAR for i in dice) else 0
    x = FACE_INDEX[symbol]
    if x == SCALES:
        per = max(s.players[s.current].value, SCALES_FLOOR)
    elif x == ARROW:
        per = ARROW_RINGS
    elif x == SEAGULL:
        per = SEAGULL_MP
    else:
        per = CONSTRUCTION_BP
    return n * (per + star)


def max_buy(s: State) -> int:
    return min(MAX_BUY, s.players[s.current].talents // RING_PRICE, s.rings)


# --- combat values ---------------------------------------------------------------------

def combat_value(faces: list[int]) -> int:
    """The best score of a combat throw (every grouping tried; nobody chooses)."""
    counts = [0] * 6
    for f in faces:
        counts[f] += 1
    return _best(counts[ARROW], counts[SEAGULL], counts[CONSTRUCTION], counts[JOKER],
                 counts[STAR])


_SYMBOL_VALUE = (COMBAT["arrow"], COMBAT["seagull"], COMBAT["construction"])


@cache
def _best(arrows: int, gulls: int, builds: int, jokers: int, stars: int) -> int:
    counts = (arrows, gulls, builds)
    best = 0
    for jmask in range(8):
        jn = bin(jmask).count("1")
        if jn > jokers:
            continue
        for smask in range(8):
            sn = bin(smask).count("1")
            if sn > stars:
                continue
            total = (jokers - jn) * COMBAT["joker_alone"] + (stars - sn) * COMBAT["star_alone"]
            ok = True
            for k in range(3):
                j, st = (jmask >> k) & 1, (smask >> k) & 1
                size = counts[k] + j + st
                if (j or st) and (size < 2 or size == st):
                    ok = False  # a joker or star placed in no real combination
                    break
                total += counts[k] * _SYMBOL_VALUE[k] + j * _SYMBOL_VALUE[k]
                if size >= 2:
                    total += st * COMBAT["star_in_combination"] + COMBAT["combination_bonus"]
            if ok:
                best = max(best, total)
    return best


# --- the board -----------------------------------------------------------------------------

def piece_token(kind: str, place: str) -> str:
    return f"{kind}:{place}"


def parse_piece(token: str) -> tuple[str, str]:
    kind, _, place = token.partition(":")
    return kind, place


def conflicts_allowed(s: State) -> bool:
    return s.round >= 2


def step_kind(s: State, seat: int, kind: str, nxt: str) -> str | None:
    """What stepping onto ``nxt`` means: "move", "attack", or None when it is blocked."""
    fight = "attack" if conflicts_allowed(s) else None
    if kind == "ship" and nxt in SEA:
        occupants = s.ships.get(nxt, [])
        if not occupants:
            return "move"
        if (nxt == FISH and len(occupants) >= 2) or occupants[0] == seat:
            return None
        return fight
    if kind == "guard" and nxt in DOTS:
        guard = s.guards.get(nxt)
        if guard is None:
            return "move"
        return None if guard[0] == seat else fight
    # a site: a ship enters its port, a guard the site itself
    ship = s.ships.get(nxt)
    if kind == "ship" and ship and ship[0] == seat:
        return None
    owner = holder(s, nxt)
    if owner is not None and owner != seat:
        return fight
    return "move"


def steps(s: State, seat: int, kind: str, place: str) -> list[tuple[str, str]]:
    graph = SHIP_STEPS if kind == "ship" else GUARD_STEPS
    found = []
    for nxt in graph[place]:
        what = step_kind(s, seat, kind, nxt)
        if what is not None:
            found.append((nxt, what))
    return found


def pieces(s: State, seat: int) -> list[tuple[str, str]]:
    """Every piece of ``seat`` on the board as (kind, place), ships first, by place."""
    found = [("ship", place) for place, seats in s.ships.items() if seat in seats]
    found += [("guard", place) for place, g in s.guards.items() if g[0] == seat]
    return sorted(found)


def _place_ship(s: State, seat: int, place: str) -> None:
    s.ships.setdefault(place, []).append(seat)


def _lift_ship(s: State, seat: int, place: str) -> None:
    seats = s.ships[place]
    seats.remove(seat)
    if not seats:
        del s.ships[place]


def _place_guard(s: State, seat: int, place: str) -> None:
    if place in s.guards:
        s.guards[place][1] += 1
    else:
        s.guards[place] = [seat, 1]


def _lift_guard(s: State, place: str) -> None:
    g = s.guards[place]
    g[1] -= 1
    if g[1] == 0:
        del s.guards[place]


def _settle(ctx: Ctx[State], site: str, before: int | None) -> None:
    """Move a colony's value on the track when its holder changed."""
    s = ctx.s
    if site not in s.buildings:
        return
    after = holder(s, site)
    if after == before:
        return
    value = colony_value(s.buildings[site])
    if before is not None:
        s.players[before].value -= value
        ctx.emit("minos.ev.colony_lost", seat=before, site=word("site", site), value=value)
    if after is not None:
        s.players[after].value += value
        ctx.emit("minos.ev.colony_taken", seat=after, site=word("site", site), value=value)


def _relocate(ctx: Ctx[State], seat: int, kind: str, origin: str, target: str) -> None:
    s = ctx.s
    sites = [p for p in (origin, target) if p in SITES]
    before = {p: holder(s, p) for p in sites}
    if kind == "ship":
        _lift_ship(s, seat, origin)
        _place_ship(s, seat, target)
    else:
        _lift_guard(s, origin)
        _place_guard(s, seat, target)
    for p in sites:
        _settle(ctx, p, before[p])


def _remove(ctx: Ctx[State], seat: int, kind: str, place: str) -> None:
    """A piece beaten in a conflict goes back to its owner's stock."""
    s = ctx.s
    before = holder(s, place) if place in SITES else None
    if kind == "ship":
        _lift_ship(s, seat, place)
        s.players[seat].ships += 1
    else:
        _lift_guard(s, place)
        s.players[seat].guards += 1
    if place in SITES:
        _settle(ctx, place, before)
    ctx.emit("minos.ev.removed", seat=seat, piece=word("piece", kind),
             place=place_param(place))


def place_param(place: str) -> Message | str:
    """A place as an event or label parameter: a site's translated name, or the id."""
    return word("site", place) if place in SITES else place.upper()


def _check_out(ctx: Ctx[State], seat: int) -> bool:
    """A player with neither ship nor guard on the board is out; True if the game ended."""
    s = ctx.s
    p = s.players[seat]
    ships, guards = pieces_on_board(s, seat)
    if p.out or ships + guards:
        return False
    p.out = True
    s.rings += p.rings
    p.rings = 0
    p.talents = 0
    ctx.emit("minos.ev.out", seat=seat)
    if len(alive(s)) == 1:
        _finish(ctx, "last")
        return True
    return False


# --- building and recruiting ---------------------------------------------------------------

def held_sites(s: State, seat: int) -> list[str]:
    return [site for site in SITES if holder(s, site) == seat]


def build_types(s: State, seat: int, site: str) -> list[str]:
    """The building types ``seat`` can place on ``site`` now (talents, BP, supply, order)."""
    types = s.buildings.get(site, [])
    if len(types) >= MAX_BUILDINGS:
        return []
    level = LEVELS[len(types)]
    talents = s.players[seat].talents
    allowed = []
    for t in TYPES:
        if s.stock[t] == 0 or talents < level.talents:
            continue
        if t == WALL:
            if level.wall_bp is None or WALL in types or s.bp < level.wall_bp:
                continue
        else:
            if len(types) == MAX_BUILDINGS - 1 and WALL not in types:
                continue  # the 4th building of a city must be its wall
            if s.bp < level.bp:
                continue
        allowed.append(t)
    return allowed


def recruit_kind(s: State, seat: int, site: str) -> str | None:
    """What a colony held by ``seat`` can recruit now: "guard", "ship", or None."""
    if site in s.recruited or holder(s, site) != seat:
        return None
    p = s.players[seat]
    if p.talents < RECRUIT_PRICE:
        return None
    types = s.buildings.get(site, [])
    if types.count(DWELLING) >= 2 and p.guards > 0:
        return "guard"
    if types.count(HARBOUR) >= 2 and p.ships > 0 and site not in s.ships:
        return "ship"
    return None


# --- what is legal -----------------------------------------------------------------------

def active(s: State) -> frozenset[int]:
    if s.phase == "over":
        return frozenset()
    c = s.combat
    if c is not None:
        return frozenset({c.attacker if s.phase == "attack" else c.defender})
    return frozenset({s.current})


def legal(s: State, seat: int) -> list[Action]:
    if seat not in active(s):
        return []
    phase = s.phase
    if phase == "act":
        return _legal_act(s, seat)
    if phase == "combo":
        sub = combo_subset(s)
        if not sub.options:  # nothing to add: the combination is one button
            return [Action(sub.kind, sub.fixed), CANCEL]
        return [CANCEL]
    if phase == "buy":
        return [Action("buy", (str(k),)) for k in range(max_buy(s) + 1)]
    if phase == "build":
        assert s.site is not None
        return [Action("type", (t,)) for t in build_types(s, seat, s.site)] + [CANCEL]
    if phase == "order":
        return [Action("face", ("ship",)), Action("face", ("guard",))]
    if phase in ("attack", "defend"):
        return [STAND]
    return []


def _legal_act(s: State, seat: int) -> list[Action]:
    actions = [Action("use", (sym,)) for sym in formable(s)]
    if s.mp > 0:
        for kind, place in pieces(s, seat):
            token = piece_token(kind, place)
            if token != s.selected and steps(s, seat, kind, place):
                actions.append(Action("piece", (token,)))
        if s.selected is not None:
            kind, place = parse_piece(s.selected)
            actions += [Action("step", (nxt,)) for nxt, _ in steps(s, seat, kind, place)]
    for site in held_sites(s, seat):
        if build_types(s, seat, site):
            actions.append(Action("build", (site,)))
    for site in held_sites(s, seat):
        if recruit_kind(s, seat, site):
            actions.append(Action("recruit", (site,)))
    actions.append(END)
    return actions


def subsets(s: State, seat: int) -> list[Subset]:
    if seat not in active(s):
        return []
    if s.phase == "act" and s.throws < THROWS and all(not u for u in s.used):
        return [Subset("keep", tuple(str(i) for i in range(DICE)), 0, DICE - 1)]
    if s.phase == "combo":
        sub = combo_subset(s)
        return [sub] if sub.options else []
    c = s.combat
    if c is not None and s.phase in ("attack", "defend"):
        thrower = c.attacker if s.phase == "attack" else c.defender
        dice = c.attack if s.phase == "attack" else c.defence
        options = tuple(str(i) for i in range(DICE) if dice[i] != SCALES)
        if s.players[thrower].rings > 0 and c.rethrows < COMBAT_RETHROWS and options:
            return [Subset("rethrow", options, 1, -1)]
    return []


# --- applying ------------------------------------------------------------------------------

def run(ctx: Ctx[State], seat: int, a: Action) -> None:
    """Apply an offered action to ``ctx.s`` (already a clone)."""
    s = ctx.s
    kind = a.kind
    if kind == "keep":
        _keep(ctx, seat, [int(x) for x in a.args])
    elif kind == "use":
        s.symbol = a.args[0]
        s.phase = "combo"
    elif kind == "dice":
        _combo(ctx, seat, a.args[0], [int(x) for x in a.args[1:]])
    elif kind == "cancel":
        s.phase, s.symbol, s.site = "act", None, None
    elif kind == "buy":
        _buy(ctx, seat, int(a.args[0]))
    elif kind == "piece":
        s.selected = a.args[0]
    elif kind == "step":
        _step(ctx, seat, a.args[0])
    elif kind == "build":
        s.site = a.args[0]
        s.phase = "build"
    elif kind == "type":
        _build(ctx, seat, a.args[0])
    elif kind == "recruit":
        _recruit(ctx, seat, a.args[0])
    elif kind == "end":
        _end_turn(ctx)
    elif kind == "face":
        assert s.combat is not None
        s.combat.foe = a.args[0]
        ctx.emit("minos.ev.faces", seat=seat, piece=word("piece", a.args[0]))
        _fight(ctx)
    elif kind == "rethrow":
        _rethrow(ctx, seat, [int(x) for x in a.args])
    elif kind == "stand":
        _stand(ctx)
    else:  # pragma: no cover - offered() guards every kind
        raise AssertionError(kind)


def _keep(ctx: Ctx[State], seat: int, kept: list[int]) -> None:
    s = ctx.s
    again = [i for i in range(DICE) if i not in kept]
    for i, face in zip(again, ctx.roll(len(again)), strict=True):
        s.dice[i] = face
    s.throws += 1
    ctx.emit("minos.ev.throw", seat=seat, **dice_params(s.dice), n=s.throws)


def _combo(ctx: Ctx[State], seat: int, symbol: str, dice: list[int]) -> None:
    s = ctx.s
    amount = combo_amount(s, symbol, dice)
    p = s.players[seat]
    for i in dice:
        s.used[i] = True
    s.symbol = None
    s.phase = "act"
    x = FACE_INDEX[symbol]
    if x == SCALES:
        p.talents += amount
    elif x == ARROW:
        amount = min(amount, s.rings)
        p.rings += amount
        s.rings -= amount
    elif x == SEAGULL:
        s.mp += amount
    else:
        s.bp += amount
    s.uses.append([symbol, dice[:], amount])
    ctx.emit(f"minos.ev.use_{symbol}", seat=seat, n=len(dice), amount=amount)
    if x == ARROW and max_buy(s) > 0:
        s.phase = "buy"


def _buy(ctx: Ctx[State], seat: int, count: int) -> None:
    s = ctx.s
    p = s.players[seat]
    p.talents -= count * RING_PRICE
    p.rings += count
    s.rings -= count
    if count:
        ctx.emit("minos.ev.bought", seat=seat, n=count, cost=count * RING_PRICE)
    if count < MAX_BUY or max_buy(s) == 0:
        s.phase = "act"


def _step(ctx: Ctx[State], seat: int, nxt: str) -> None:
    s = ctx.s
    assert s.selected is not None
    kind, place = parse_piece(s.selected)
    what = step_kind(s, seat, kind, nxt)
    s.mp -= 1
    if what == "move":
        _relocate(ctx, seat, kind, place, nxt)
        s.selected = piece_token(kind, nxt)
        ctx.emit("minos.ev.moved", seat=seat, piece=word("piece", kind),
                 place=place_param(nxt), mp=s.mp)
        return
    defender = holder(s, nxt) if nxt in SITES else (
        s.ships[nxt][0] if kind == "ship" else s.guards[nxt][0])
    assert defender is not None
    s.combat = Combat(seat, defender, kind, place, nxt)
    ctx.emit("minos.ev.attack", seat=seat, target=defender, piece=word("piece", kind),
             place=place_param(nxt))
    _next_foe(ctx)


def _defenders(s: State, c: Combat) -> tuple[bool, bool]:
    """Whether the defender still has a ship / a guard on the attacked place."""
    ship = c.defender in s.ships.get(c.target, [])
    guard = c.target in s.guards and s.guards[c.target][0] == c.defender
    return ship, guard


def _next_foe(ctx: Ctx[State]) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    ship, guard = _defenders(s, c)
    if ship and guard:
        c.foe = None
        s.phase = "order"
    elif ship or guard:
        c.foe = "ship" if ship else "guard"
        _fight(ctx)
    else:  # every defending piece beaten: the attacker stands on the place
        s.combat = None
        s.phase = "act"
        _relocate(ctx, c.attacker, c.kind, c.origin, c.target)
        s.selected = piece_token(c.kind, c.target)
        ctx.emit("minos.ev.conquered", seat=c.attacker, place=place_param(c.target))


def _fight(ctx: Ctx[State]) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    c.attack = ctx.roll(DICE)
    c.defence = []
    c.rethrows = 0
    s.phase = "attack"
    ctx.emit("minos.ev.combat_throw", seat=c.attacker, **dice_params(c.attack),
             value=combat_value(c.attack))
    if s.players[c.attacker].rings == 0:
        _stand(ctx)


def _rethrow(ctx: Ctx[State], seat: int, chosen: list[int]) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    dice = c.attack if s.phase == "attack" else c.defence
    for i, face in zip(chosen, ctx.roll(len(chosen)), strict=True):
        dice[i] = face
    s.players[seat].rings -= 1
    s.rings += 1
    c.rethrows += 1
    ctx.emit("minos.ev.rethrow", seat=seat, **dice_params(dice), value=combat_value(dice))
    if c.rethrows >= COMBAT_RETHROWS or s.players[seat].rings == 0:
        _stand(ctx)


def _stand(ctx: Ctx[State]) -> None:
    """The thrower's value is final: the defender throws next, or the conflict is decided."""
    s = ctx.s
    c = s.combat
    assert c is not None
    if s.phase == "attack":
        c.defence = ctx.roll(DICE)
        c.rethrows = 0
        s.phase = "defend"
        ctx.emit("minos.ev.combat_throw", seat=c.defender, **dice_params(c.defence),
                 value=combat_value(c.defence))
        if s.players[c.defender].rings == 0:
            _resolve(ctx)
    else:
        _resolve(ctx)


def _resolve(ctx: Ctx[State]) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None and c.foe is not None
    attack, defence = combat_value(c.attack), combat_value(c.defence)
    if attack > defence:
        ctx.emit("minos.ev.conflict_won", seat=c.attacker, target=c.defender, attack=attack,
                 defence=defence)
        _remove(ctx, c.defender, c.foe, c.target)
        c.won += 1
        c.foe = None
        _next_foe(ctx)  # a defender with no piece left has none here: the attacker moves in
        _check_out(ctx, c.defender)
        return
    ctx.emit("minos.ev.conflict_lost", seat=c.attacker, target=c.defender, attack=attack,
             defence=defence)
    s.combat = None
    s.phase = "act"
    s.selected = None
    _remove(ctx, c.attacker, c.kind, c.origin)
    if _check_out(ctx, c.attacker):
        return
    if s.players[c.attacker].out:
        _end_turn(ctx)


def _build(ctx: Ctx[State], seat: int, kind: str) -> None:
    s = ctx.s
    site = s.site
    assert site is not None
    types = s.buildings.setdefault(site, [])
    level = LEVELS[len(types)]
    p = s.players[seat]
    bp = level.wall_bp if kind == WALL else level.bp
    assert bp is not None
    p.talents -= level.talents
    s.bp -= bp
    s.stock[kind] -= 1
    counted = VALUES[kind] * (2 if WALL in types else 1)
    types.append(kind)
    p.value += counted
    s.phase, s.site = "act", None
    ctx.emit("minos.ev.built", seat=seat, building=word("building", kind),
             site=word("site", site), talents=level.talents, bp=bp, value=counted)
    if len(types) == 1:
        if p.guards > 0:
            p.guards -= 1
            _place_guard(s, seat, site)
            ctx.emit("minos.ev.free_guard", seat=seat, site=word("site", site))
        else:
            ctx.emit("minos.ev.no_guard", seat=seat, site=word("site", site))
    if len(types) == MAX_BUILDINGS:
        ctx.emit("minos.ev.city", seat=seat, site=word("site", site))


def _recruit(ctx: Ctx[State], seat: int, site: str) -> None:
    s = ctx.s
    kind = recruit_kind(s, seat, site)
    p = s.players[seat]
    p.talents -= RECRUIT_PRICE
    s.recruited.append(site)
    if kind == "guard":
        p.guards -= 1
        _place_guard(s, seat, site)
    else:
        p.ships -= 1
        _place_ship(s, seat, site)
    ctx.emit("minos.ev.recruited", seat=seat, piece=word("piece", str(kind)),
             site=word("site", site), cost=RECRUIT_PRICE)
