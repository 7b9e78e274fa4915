"""Havana's rules: setup, legal actions and their effects (rulebook sections cited inline).

Every decision is a small step (≤ 25 options). A step whose only legal action is forced
(the last card to carry out, a single possible target or payment, "end" with nothing to buy)
is carried out automatically, so players are only asked real questions.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from engines.base import TURN_END, Action, Ctx, Message

from .data import (
    BAG_START,
    BUILDINGS,
    CARD_IDS,
    CARD_ORDER,
    CARDS,
    LOW_VP,
    MATERIAL_INDEX,
    MATERIALS,
    RUBBLE,
    TOTAL_CUBES,
    TOTAL_WORKERS,
    VP_TO_WIN,
)
from .payments import affordable, material_options, pay, worker_options
from .state import Player, State

ENDS = ("left", "right")
WORKER = "worker"


# --- cached action objects (Action validates its tokens; build each once) -----------------
@cache
def act(kind: str, *args: str) -> Action:
    return Action(kind, args)


PASS = act("pass")
END = act("end")


def mat_key(m: int | str) -> Message:
    name = MATERIALS[m] if isinstance(m, int) else m
    return Message(f"havana.material.{name}")


def card_key(card: str) -> Message:
    return Message(f"havana.card.{card}")


def building_key(bid: int) -> Message:
    return Message(f"havana.building.{bid}")


# --- setup ----------------------------------------------------------------------------------
def new_state(num_players: int, seed: int) -> State:
    """Setup (Mise en place); every random step goes through the shared :class:`Ctx`."""
    s = State(num_players, seed, [Player(hand=list(CARD_IDS), pesos=1)
                                  for _ in range(num_players)],
              [[], []], [], list(BAG_START), [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], 4, TOTAL_WORKERS)
    ctx = Ctx(s)
    ids = list(BUILDINGS)
    ctx.shuffle(ids)
    s.rows = [ids[0:6], ids[6:12]]
    s.pile = ids[12:]
    _fix_row_ends(ctx)
    for p in s.players:
        cube = draw_cube(ctx)
        if cube is not None:
            p.materials[cube] += 1
    for _ in range(3):
        cube = draw_cube(ctx)
        if cube is not None:
            s.centre[cube] += 1
    return s


def _fix_row_ends(ctx: Ctx[State]) -> None:
    """Setup note: one row end must be worth 1-3 VP; else swap one in, then reshuffle.

    The rulebook lets the oldest player pick the building and the end; chance stands in.
    """
    rows, pile = ctx.s.rows, ctx.s.pile
    ends = [(r, i) for r in (0, 1) for i in (0, -1)]
    if any(BUILDINGS[rows[r][i]].vp in LOW_VP for r, i in ends):
        return
    low = [k for k, b in enumerate(pile) if BUILDINGS[b].vp in LOW_VP]
    if not low:
        return
    k = ctx.choice(low)
    r, i = ctx.choice(ends)
    rows[r][i], pile[k] = pile[k], rows[r][i]
    ctx.shuffle(pile)


def draw_cube(ctx: Ctx[State]) -> int | None:
    """One cube drawn blind from the bag (counts per material): each cube equally likely."""
    bag = ctx.s.bag
    total = sum(bag)
    if total == 0:
        return None
    x = ctx.randrange(total)
    for m in range(5):
        if x < bag[m]:
            bag[m] -= 1
            return m
        x -= bag[m]
    raise AssertionError("bag count mismatch")


# --- reading the state ----------------------------------------------------------------------
def card_sort(cards: list[str]) -> None:
    cards.sort(key=CARD_ORDER.__getitem__)


def turn_number(face_up: list[str]) -> str:
    """Lower value first: 0 and 7 make "07", 8 and 2 make "28" (rulebook, Mise en place)."""
    a, b = sorted(CARDS[c].value for c in face_up)
    return f"{a}{b}"


def order_key(p: Player, seat: int) -> tuple[int, ...]:
    """Turn order: lowest number; ties: fewer VP, coloured, pesos, workers, rubble, seat."""
    return (int(turn_number(p.face_up)), p.vp, p.coloured, p.pesos, p.workers,
            p.materials[RUBBLE], seat)


def standing_key(p: Player) -> tuple[int, ...]:
    """Final standings: most VP, then the turn-order tie-breaks reversed (most of each)."""
    return (p.vp, p.coloured, p.pesos, p.workers, p.materials[RUBBLE])


def ends_of(s: State) -> list[tuple[int, str]]:
    out = []
    for r in (0, 1):
        n = len(s.rows[r])
        if n:
            out.append((r, "left"))
        if n > 1:
            out.append((r, "right"))
    return out


def end_building(s: State, r: int, end: str) -> int:
    return s.rows[r][0 if end == "left" else -1]


def buyable_ids(s: State) -> list[int]:
    return [end_building(s, r, e) for r, e in ends_of(s)]


def can_build(s: State, p: Player, bid: int) -> bool:
    b = BUILDINGS[bid]
    return (not b.architect or "architect" in p.face_up) and affordable(b, p)


def thief_targets(s: State, seat: int) -> list[int]:
    """Later players this round, unprotected; if nobody acts later, any unprotected opponent.

    (Voleur de pesos: "S'il n'y a pas de joueur suivant dans le tour, ... n'importe quel
    adversaire".) With later players who are all protected, nobody can be robbed.
    """
    later = s.turn_order[s.turn_index + 1:]
    pool = later if later else [v for v in range(s.num_players) if v != seat]
    return sorted(v for v in pool if not s.players[v].protected)


def active(s: State) -> frozenset[int]:
    if s.phase == "actions":
        return frozenset((s.turn_order[s.turn_index],))
    if s.phase == "start_pick":
        return frozenset(i for i, p in enumerate(s.players) if len(p.picks) < 2)
    if s.phase == "cover":
        return frozenset(i for i, p in enumerate(s.players) if not p.picks or p.cover is None)
    return frozenset()


def legal(s: State, seat: int) -> list[Action]:
    phase = s.phase
    p = s.players[seat]
    if phase == "actions":
        if seat != s.turn_order[s.turn_index]:
            return []
        return _STEP_LEGAL[s.step or ""](s, p)
    if phase == "start_pick":
        if len(p.picks) >= 2:
            return []
        return [act("pick", c) for c in p.hand if c not in p.picks]
    if phase == "cover":
        if not p.picks:
            return [act("pick", c) for c in p.hand]
        if p.cover is None:
            return [act("cover", c) for c in p.face_up]
    return []


def _legal_choose(s: State, p: Player) -> list[Action]:
    return [act("play", c) for c in p.face_up if c not in p.used]


def _legal_refreshment(s: State, p: Player) -> list[Action]:
    return [*(act("recover", c) for c in sorted(p.discard, key=CARD_ORDER.__getitem__)), PASS]


def _legal_conservation(s: State, p: Player) -> list[Action]:
    return [*(act("remove", f"{r}:{e}") for r, e in ends_of(s)), PASS]


def _legal_take_from(victim: Player, workers: bool) -> list[Action]:
    out = [act("take", WORKER)] if workers and victim.workers else []
    out.extend(act("take", MATERIALS[m]) for m in range(5) if victim.materials[m])
    return out


def _legal_tax(s: State, p: Player) -> list[Action]:
    return _legal_take_from(s.players[s.targets[0]], True)


def _legal_thief_take(s: State, p: Player) -> list[Action]:
    return _legal_take_from(s.players[s.targets[0]], False)


def _legal_target(s: State, p: Player) -> list[Action]:
    return [act("target", str(v)) for v in s.targets]


def _legal_mama(s: State, p: Player) -> list[Action]:
    return [act("take", MATERIALS[m]) for m in range(4) if s.centre[m]]


def _legal_build(s: State, p: Player) -> list[Action]:
    out = [act("build", str(b)) for b in buyable_ids(s) if can_build(s, p, b)]
    out.append(END)
    return out


def _legal_pay_materials(s: State, p: Player) -> list[Action]:
    assert s.building is not None
    return [act("pay", o) for o in material_options(BUILDINGS[s.building], p)]


def _legal_pay_workers(s: State, p: Player) -> list[Action]:
    assert s.building is not None
    return [act("pay", o) for o in worker_options(BUILDINGS[s.building], p)]


_STEP_LEGAL: dict[str, Callable[[State, Player], list[Action]]] = {
    "choose_card": _legal_choose,
    "refreshment": _legal_refreshment,
    "conservation": _legal_conservation,
    "tax_collector": _legal_tax,
    "peso_thief_target": _legal_target,
    "material_thief_target": _legal_target,
    "material_thief_take": _legal_thief_take,
    "mama_take": _legal_mama,
    "build": _legal_build,
    "pay_materials": _legal_pay_materials,
    "pay_workers": _legal_pay_workers,
}


# --- applying -------------------------------------------------------------------------------
def run(ctx: Ctx[State], seat: int, action: Action) -> None:
    """Apply a legal action, then every forced follow-up step."""
    _dispatch(ctx, seat, action)
    s = ctx.s
    while s.phase == "actions":
        cur = s.turn_order[s.turn_index]
        options = _STEP_LEGAL[s.step or ""](s, s.players[cur])
        if len(options) != 1:
            break
        _dispatch(ctx, cur, options[0])


def _dispatch(ctx: Ctx[State], seat: int, a: Action) -> None:
    s = ctx.s
    p = s.players[seat]
    kind = a.kind
    if s.phase == "start_pick":
        p.picks.append(a.args[0])
        ctx.emit("havana.ev.you_picked", seat, card=card_key(a.args[0]))
        ctx.emit("havana.ev.picked", seat=seat)  # seen placed face down, never which card
        if all(len(q.picks) == 2 for q in s.players):
            _reveal_start(ctx)
    elif s.phase == "cover":
        if kind == "pick":
            p.picks.append(a.args[0])
            ctx.emit("havana.ev.you_picked", seat, card=card_key(a.args[0]))
            ctx.emit("havana.ev.picked", seat=seat)
        else:
            p.cover = a.args[0]
            ctx.emit("havana.ev.you_cover", seat, card=card_key(a.args[0]))
            ctx.emit("havana.ev.placed", seat=seat)  # done choosing; what stays hidden
        if all(q.picks and q.cover for q in s.players):
            _reveal_cover(ctx)
    else:
        _ACTION_STEPS[s.step or ""](ctx, seat, p, a)


def _reveal_start(ctx: Ctx[State]) -> None:
    """All first picks are turned face up together and ordered by value (Mise en place)."""
    s = ctx.s
    for seat, p in enumerate(s.players):
        for c in p.picks:
            p.hand.remove(c)
        p.face_up = p.picks
        card_sort(p.face_up)
        p.picks = []
        ctx.emit("havana.ev.revealed", seat=seat, first=card_key(p.face_up[0]),
               second=card_key(p.face_up[1]), number=turn_number(p.face_up))
    ctx.irreversible = True
    _start_round(ctx)


def _reveal_cover(ctx: Ctx[State]) -> None:
    """Phase 3: new cards revealed, covered cards to the discard; hand recovery at ≤ 2."""
    s = ctx.s
    for seat, p in enumerate(s.players):
        new, old = p.picks[0], p.cover
        assert old is not None
        p.hand.remove(new)
        p.face_up.remove(old)
        p.discard.append(old)
        p.face_up.append(new)
        card_sort(p.face_up)
        p.picks = []
        p.cover = None
        ctx.emit("havana.ev.covered", seat=seat, card=card_key(new), covered=card_key(old),
               number=turn_number(p.face_up))
        # "lorsqu'un joueur ... n'a pas plus de 2 cartes en main, il peut ... reprendre
        # toutes ses cartes défaussées" - done automatically.
        if len(p.hand) <= 2:
            n = len(p.discard)
            p.hand.extend(p.discard)
            p.discard = []
            card_sort(p.hand)
            ctx.emit("havana.ev.hand_recovered", seat=seat, n=n)
    ctx.irreversible = True
    s.round += 1
    _start_round(ctx)


def _start_round(ctx: Ctx[State]) -> None:
    s = ctx.s
    s.removed_this_round = s.worker_done = s.market_done = False
    for p in s.players:
        p.used = []
    s.turn_order = sorted(range(s.num_players), key=lambda i: order_key(s.players[i], i))
    s.turn_index = 0
    s.phase = "actions"
    ctx.emit("havana.ev.round", round=s.round, seats=s.turn_order[:])
    ctx.emit(TURN_END)
    _begin_turn(s)


def _begin_turn(s: State) -> None:
    s.step = "choose_card"
    s.card = s.building = s.exchange = None
    s.targets = []
    s.remaining = 0


def _finish_card(ctx: Ctx[State], p: Player) -> None:
    s = ctx.s
    s.card = None
    s.targets = []
    s.remaining = 0
    s.step = "choose_card" if len(p.used) < 2 else "build"


def _step_play(ctx: Ctx[State], seat: int, p: Player, a: Action) -> None:
    card = a.args[0]
    s = ctx.s
    p.used.append(card)
    s.card = card
    ctx.emit("havana.ev.played", seat=seat, card=card_key(card))
    _CARD_EFFECTS[card](ctx, seat, p)


# --- card effects (Les cartes en détail) ----------------------------------------------------
def _siesta(ctx: Ctx[State], seat: int, p: Player) -> None:
    ctx.emit("havana.ev.siesta", seat=seat)
    _finish_card(ctx, p)


def _protection(ctx: Ctx[State], seat: int, p: Player) -> None:
    ctx.emit("havana.ev.protection", seat=seat)
    _finish_card(ctx, p)


def _refreshment(ctx: Ctx[State], seat: int, p: Player) -> None:
    if not p.discard:
        ctx.emit("havana.ev.refreshment_empty", seat=seat)
        _finish_card(ctx, p)
    else:
        ctx.s.step = "refreshment"


def _debris(ctx: Ctx[State], seat: int, p: Player) -> None:
    n = ctx.s.centre[RUBBLE]
    ctx.s.centre[RUBBLE] = 0
    p.materials[RUBBLE] += n
    ctx.emit("havana.ev.debris", seat=seat, n=n)
    _finish_card(ctx, p)


def _conservation(ctx: Ctx[State], seat: int, p: Player) -> None:
    if ctx.s.removed_this_round:  # one removal per round, across all players
        ctx.emit("havana.ev.conservation_blocked", seat=seat)
        _finish_card(ctx, p)
    elif not ends_of(ctx.s):
        ctx.emit("havana.ev.conservation_nothing", seat=seat)
        _finish_card(ctx, p)
    else:
        ctx.s.step = "conservation"


def _tax_collector(ctx: Ctx[State], seat: int, p: Player) -> None:
    s = ctx.s
    p.pesos += 1  # from the bank (unlimited)
    ctx.emit("havana.ev.tax_peso", seat=seat)
    targets = []
    for victim in s.turn_order[s.turn_index + 1:]:
        v = s.players[victim]
        if v.protected:
            ctx.emit("havana.ev.tax_protected", seat=seat, target=victim)
        elif not v.workers and not any(v.materials):
            ctx.emit("havana.ev.tax_nothing", seat=seat, target=victim)
        else:
            targets.append(victim)
    if targets:
        s.targets = targets
        s.step = "tax_collector"
    else:
        _finish_card(ctx, p)


def _take_workers(ctx: Ctx[State], seat: int, p: Player, n: int) -> bool:
    s = ctx.s
    if s.bank_workers < n:  # "le joueur repart les mains vides"
        ctx.emit("havana.ev.no_workers", seat=seat, n=n, bank=s.bank_workers)
        return False
    s.bank_workers -= n
    p.workers += n
    ctx.emit("havana.ev.workers", seat=seat, n=n)
    return True


def _worker(ctx: Ctx[State], seat: int, p: Player) -> None:
    # First to carry it out this round takes 2, later ones 1. Empty-handed is not carrying
    # it out ("ne peut pas réaliser cette action"), so the bonus stays for the next one.
    if _take_workers(ctx, seat, p, 1 if ctx.s.worker_done else 2):
        ctx.s.worker_done = True
    _finish_card(ctx, p)


def _architect(ctx: Ctx[State], seat: int, p: Player) -> None:
    _take_workers(ctx, seat, p, 1)
    _finish_card(ctx, p)


def _thief(step: str) -> Callable[[Ctx[State], int, Player], None]:
    def effect(ctx: Ctx[State], seat: int, p: Player) -> None:
        targets = thief_targets(ctx.s, seat)
        if not targets:
            ctx.emit("havana.ev.no_target", seat=seat)
            _finish_card(ctx, p)
        else:
            ctx.s.targets = targets
            ctx.s.step = step
    return effect


def _black_market(ctx: Ctx[State], seat: int, p: Player) -> None:
    s = ctx.s
    n = 1 if s.market_done else 2
    s.market_done = True
    cubes = []
    for _ in range(n):
        cube = draw_cube(ctx)
        if cube is not None:
            p.materials[cube] += 1
            cubes.append(mat_key(cube))
    if cubes:
        ctx.emit("havana.ev.black_market", seat=seat, n=len(cubes), cubes=cubes)
    else:
        ctx.emit("havana.ev.bag_empty", seat=seat)
    _finish_card(ctx, p)


def _pesos(ctx: Ctx[State], seat: int, p: Player) -> None:
    n = (ctx.s.centre_pesos + 1) // 2  # half, rounded up
    ctx.s.centre_pesos -= n
    p.pesos += n
    ctx.emit("havana.ev.pesos", seat=seat, n=n)
    _finish_card(ctx, p)


def _mama(ctx: Ctx[State], seat: int, p: Player) -> None:
    s = ctx.s
    rubble = (s.centre[RUBBLE] + 1) // 2
    s.centre[RUBBLE] -= rubble
    p.materials[RUBBLE] += rubble
    coloured = (sum(s.centre[:4]) + 1) // 2
    ctx.emit("havana.ev.mama", seat=seat, rubble=rubble, coloured=coloured)
    if coloured:
        s.remaining = coloured
        s.step = "mama_take"
    else:
        _finish_card(ctx, p)


_CARD_EFFECTS: dict[str, Callable[[Ctx[State], int, Player], None]] = {
    "siesta": _siesta,
    "refreshment": _refreshment,
    "protection": _protection,
    "debris": _debris,
    "conservation": _conservation,
    "tax_collector": _tax_collector,
    "worker": _worker,
    "architect": _architect,
    "peso_thief": _thief("peso_thief_target"),
    "material_thief": _thief("material_thief_target"),
    "black_market": _black_market,
    "pesos": _pesos,
    "mama": _mama,
}


# --- sub-steps ------------------------------------------------------------------------------
def _step_refreshment(ctx: Ctx[State], seat: int, p: Player, a: Action) -> None:
    if a.kind == "pass":
        ctx.emit("havana.ev.refreshment_pass", seat=seat)
    else:
        card = a.args[0]
        p.discard.remove(card)
        p.hand.append(card)
        card_sort(p.hand)
        ctx.emit("havana.ev.refreshment", seat=seat)  # which card stays hidden
        ctx.emit("havana.ev.you_recovered", seat, card=card_key(card))
    _finish_card(ctx, p)


def _step_conservation(ctx: Ctx[State], seat: int, p: Player, a: Action) -> None:
    s = ctx.s
    if a.kind == "pass":
        ctx.emit("havana.ev.conservation_pass", seat=seat)
    else:
        row, end = a.args[0].split(":")
        r = int(row)
        bid = s.rows[r].pop(0 if end == "left" else -1)
        s.removed_this_round = True
        ctx.emit("havana.ev.removed", seat=seat, building=building_key(bid))
        _refill(ctx, r)
    if _check_end(ctx):
        return
    _finish_card(ctx, p)


def _step_tax(ctx: Ctx[State], seat: int, p: Player, a: Action) -> None:
    s = ctx.s
    victim = s.targets.pop(0)
    v = s.players[victim]
    what = a.args[0]
    if what == WORKER:
        v.workers -= 1
        s.bank_workers += 1
        ctx.emit("havana.ev.taxed_worker", seat=seat, target=victim)
    else:
        m = MATERIAL_INDEX[what]
        v.materials[m] -= 1
        s.box[m] += 1  # materials go to the box
        ctx.emit("havana.ev.taxed_material", seat=seat, target=victim, what=mat_key(m))
    if _check_end(ctx):
        return
    if not s.targets:
        _finish_card(ctx, p)


def _step_target(ctx: Ctx[State], seat: int, p: Player, a: Action) -> None:
    s = ctx.s
    victim = int(a.args[0])
    v = s.players[victim]
    if s.step == "peso_thief_target":
        n = v.pesos // 2  # half, rounded down
        v.pesos -= n
        p.pesos += n
        ctx.emit("havana.ev.peso_thief", seat=seat, target=victim, n=n)
        _finish_card(ctx, p)
        return
    if not any(v.materials):
        ctx.emit("havana.ev.thief_nothing", seat=seat, target=victim)
        _finish_card(ctx, p)
        return
    s.targets = [victim]
    s.remaining = 2 if v.coloured > 3 else 1  # "plus de 3 matériaux de couleur"
    s.step = "material_thief_take"


def _step_thief_take(ctx: Ctx[State], seat: int, p: Player, a: Action) -> None:
    s = ctx.s
    victim = s.targets[0]
    v = s.players[victim]
    m = MATERIAL_INDEX[a.args[0]]
    v.materials[m] -= 1
    p.materials[m] += 1
    ctx.emit("havana.ev.material_thief", seat=seat, target=victim, material=mat_key(m))
    s.remaining -= 1
    if not s.remaining or not any(v.materials):
        _finish_card(ctx, p)


def _step_mama(ctx: Ctx[State], seat: int, p: Player, a: Action) -> None:
    s = ctx.s
    m = MATERIAL_INDEX[a.args[0]]
    s.centre[m] -= 1
    p.materials[m] += 1
    ctx.emit("havana.ev.mama_take", seat=seat, material=mat_key(m))
    s.remaining -= 1
    if not s.remaining:
        _finish_card(ctx, p)


def _step_build(ctx: Ctx[State], seat: int, p: Player, a: Action) -> None:
    s = ctx.s
    if a.kind == "end":
        _end_turn(ctx, seat, p)
    else:
        s.building = int(a.args[0])
        s.step = "pay_materials"


def _step_pay_materials(ctx: Ctx[State], seat: int, p: Player, a: Action) -> None:
    ctx.s.exchange = a.args[0]
    ctx.s.step = "pay_workers"


def _step_pay_workers(ctx: Ctx[State], seat: int, p: Player, a: Action) -> None:
    s = ctx.s
    assert s.building is not None and s.exchange is not None
    bid = s.building
    b = BUILDINGS[bid]
    paid = pay(b, p, s.exchange, a.args[0], s.box)
    s.bank_workers += paid["workers"]
    for r in (0, 1):
        row = s.rows[r]
        if row and row[0] == bid:
            row.pop(0)
            break
        if row and row[-1] == bid:
            row.pop()
            break
    p.buildings.append(bid)
    s.building = s.exchange = None
    s.step = "build"
    ctx.emit("havana.ev.built", seat=seat, building=building_key(bid), vp=b.vp)
    for what, n in paid.items():
        if n:
            key = Message("havana.res.worker") if what == "workers" else (
                Message("havana.res.pesos") if what == "pesos" else mat_key(what))
            ctx.emit("havana.ev.paid", seat=seat, n=n, what=key)
    _refill(ctx, r)
    _check_end(ctx)


def _refill(ctx: Ctx[State], r: int) -> None:
    """"S'il ne reste que 2 bâtiments dans une rangée", 4 from the pile go between them."""
    s = ctx.s
    row = s.rows[r]
    if len(row) != 2 or not s.pile:
        return
    new = [s.pile.pop() for _ in range(min(4, len(s.pile)))]
    s.rows[r] = [row[0], *new, row[1]]
    ctx.emit("havana.ev.refill", row=r, n=len(new))


def _end_turn(ctx: Ctx[State], seat: int, p: Player) -> None:
    s = ctx.s
    ctx.emit(TURN_END, seat=seat)
    if p.vp >= VP_TO_WIN[s.num_players]:  # checked after the player's phase-1 turn
        _game_over(ctx, [seat], "threshold")
        return
    s.turn_index += 1
    if s.turn_index < s.num_players:
        _begin_turn(s)
        return
    # Phase 2, supply: 3 blind cubes and 3 pesos to the centre; leftovers accumulate.
    cubes = []
    for _ in range(3):
        cube = draw_cube(ctx)
        if cube is not None:
            s.centre[cube] += 1
            cubes.append(mat_key(cube))
    s.centre_pesos += 3
    ctx.emit("havana.ev.supply", n=len(cubes), cubes=cubes, pesos=3)
    s.phase = "cover"
    s.step = None
    s.card = None
    s.turn_index = 0


def _check_end(ctx: Ctx[State]) -> bool:
    """Immediate end: every building gone from pile and rows, or all 80 cubes in the box."""
    s = ctx.s
    if not s.pile and not s.rows[0] and not s.rows[1]:
        _game_over(ctx, leaders(s), "buildings")
        return True
    if sum(s.box) == TOTAL_CUBES:
        _game_over(ctx, leaders(s), "cubes")
        return True
    return False


def leaders(s: State) -> list[int]:
    best = max(standing_key(p) for p in s.players)
    return [i for i, p in enumerate(s.players) if standing_key(p) == best]


def _game_over(ctx: Ctx[State], winners: list[int], reason: str) -> None:
    s = ctx.s
    s.phase = "over"
    s.step = None
    s.card = s.building = s.exchange = None
    s.targets = []
    s.remaining = 0
    s.winners = winners
    s.end_reason = reason
    ctx.emit("havana.ev.game_over_" + reason, winners=winners,
           vp=max(s.players[w].vp for w in winners))
    if reason != "threshold":  # the threshold is checked once the turn has already ended
        ctx.emit(TURN_END)


_ACTION_STEPS: dict[str, Callable[[Ctx[State], int, Player, Action], None]] = {
    "choose_card": _step_play,
    "refreshment": _step_refreshment,
    "conservation": _step_conservation,
    "tax_collector": _step_tax,
    "peso_thief_target": _step_target,
    "material_thief_target": _step_target,
    "material_thief_take": _step_thief_take,
    "mama_take": _step_mama,
    "build": _step_build,
    "pay_materials": _step_pay_materials,
    "pay_workers": _step_pay_workers,
}
