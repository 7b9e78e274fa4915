"""Río de la Plata rules: setup, phase A placement, phase B effects, phase C, scoring.

Menus are part of the state (``State.sub``, a cursor): each decision is one small list of
atomic actions (≤ 25, reference Part 3), and the menu steps are ordinary actions. The
combat sub-game lives in :mod:`combat`, trades in :mod:`trades`. Section numbers (§) refer
to the reference's Part 1.
"""

from __future__ import annotations

from typing import Any

from engines.base import TURN_END, Action, Ctx

from . import city
from .city import add_workers, take_workers, workers_on
from .data import BOARD, CHARACTERS, LADDERS, RESOURCES, SIDES
from .state import ROLE_ACT, ROLE_STAY, ROLE_UPGRADE, Player, State

B = BOARD
C = Ctx[State]
A = Action


# --- setup ------------------------------------------------------------------------------
def new_state(n: int, seed: int, options: dict[str, Any]) -> State:
    from engines.rng import Rng

    rng = Rng(seed)
    order = list(range(n))
    rng.shuffle(order)
    short = bool(options["short_game"])
    nat, pir = (B.enemy_start_short if short else B.enemy_start)[n]
    st = B.start
    players = [Player(silver=st["silver"], wood=st["wood"], stone=st["stone"],
                      supply=B.workers - 1) for _ in range(n)]
    last = players[order[-1]]
    last.wood += st["last_bonus"]["wood"]
    last.stone += st["last_bonus"]["stone"]
    s = State(num_players=n, rng=rng.state, options=dict(options),
              rounds=B.rounds_short if short else B.rounds, players=players, order=order,
              natives=nat, pirates=pir)
    nc = B.ncells
    s.bld, s.bown, s.acts = [""] * nc, [-1] * nc, [0] * nc
    s.cw = [[] for _ in range(nc)]
    s.ladders = {name: [-1] * len(B.ladders[name].vps(n)) for name in LADDERS}
    s.ladder_last = {name: -1 for name in LADDERS}
    s.reserved = {"walls": 0, "roads": 0}
    s.agri, s.crafts, s.quay, s.loaded, s.bids = ([0] * n for _ in range(5))
    s.cargo = [[0, 0, 0] for _ in range(n)]
    return s


# --- small helpers ----------------------------------------------------------------------
def need_attacks(s: State) -> int:
    return 2 if s.num_players == 2 else 1


def holds(s: State, char: str, seat: int) -> bool:
    """``seat`` owns ``char`` since an earlier round (abilities start the round after)."""
    got = s.chars.get(char)
    return got is not None and got[0] == seat and got[1] < s.round


def unreserved(s: State) -> int:
    return B.pieces - s.pieces_used - sum(s.reserved.values())


def ship_capacity(s: State) -> int:
    ship = B.ship
    return int(ship["capacity_2p"] if s.num_players == 2
               else ship["capacity_per_player"] * s.num_players)


def cargo_total(s: State) -> int:
    return sum(sum(c) for c in s.cargo)


def left_to_place(s: State, seat: int) -> int:
    p = s.players[seat]
    return min(B.per_round - p.placed, p.supply)


def prod_need(index: int) -> int:
    return B.prod_workers[index] if index < len(B.prod_workers) else B.prod_beyond


def purchase(p: Player, wood: int, stone: int) -> tuple[int, int]:
    """(cubes to buy, silver price) to cover this wood/stone from the bank (1, 2, 3… per
    round; §1.13): a purchase only ever happens inside a payment."""
    short = max(0, wood - p.wood) + max(0, stone - p.stone)
    return short, short * p.bought + short * (short + 1) // 2


def can_pay(p: Player, cost: dict[str, int]) -> bool:
    short, price = purchase(p, cost.get("wood", 0), cost.get("stone", 0))
    return (p.precious >= cost.get("precious", 0)
            and p.silver >= price + cost.get("silver", 0))


def pay(ctx: C, seat: int, cost: dict[str, int]) -> None:
    p = ctx.s.players[seat]
    short, price = purchase(p, cost.get("wood", 0), cost.get("stone", 0))
    if short:
        ctx.emit("rio.ev.bought", seat=seat, n=short, silver=price)
        p.bought += short
        p.silver -= price
    p.wood = max(0, p.wood - cost.get("wood", 0))
    p.stone = max(0, p.stone - cost.get("stone", 0))
    p.precious -= cost.get("precious", 0)
    p.silver -= cost.get("silver", 0)


def gain(s: State, seat: int, what: dict[str, int]) -> None:
    p = s.players[seat]
    p.wood += what.get("wood", 0)
    p.stone += what.get("stone", 0)
    p.precious += what.get("precious", 0)
    p.silver += what.get("silver", 0)
    p.vp += what.get("vp", 0)


def add_vp(s: State, seat: int, vp: int) -> None:
    p = s.players[seat]
    p.vp = max(0, p.vp + vp)


def ladder_cost(name: str, pay_with: str = "") -> dict[str, int]:
    cost = dict(B.ladders[name].cost)
    if "wood_or_stone" in cost:
        cost = {pay_with: cost["wood_or_stone"]}
    return cost


def expire_trades(ctx: C) -> None:
    if ctx.s.trades:
        ctx.emit("rio.ev.trades_expired", n=len(ctx.s.trades))
    ctx.s.trades = []


# --- phase A: what a seat may do on a city cell --------------------------------------------
def cell_actions(s: State, seat: int, cell: int, conn: set[int] | None = None) -> list[A]:
    """Placement actions on ``cell`` (already known reachable), in menu order (§1.5)."""
    left = left_to_place(s, seat)
    if left <= 0:
        return []
    out: list[A] = []
    b = s.bld[cell]
    total = workers_on(s, cell)
    mine = workers_on(s, cell, seat)
    others = total - mine
    if not b:
        if others == 0:
            out += [A("put", (str(k),)) for k in range(1, min(3 - total, left) + 1)]
        elif 1 <= others <= 2 and 2 * others <= left and mine == 0:
            out.append(A("evict"))
        return out
    if b in B.conversions and mine < 3 and total < 3 and city.has_house_near(s, cell, seat):
        limit = city.activation_limit(s, cell, conn)
        acts = workers_on(s, cell, role=ROLE_ACT)
        other_ok = all(w[2] == ROLE_ACT for w in s.cw[cell] if w[0] != seat)
        if acts < limit and (others == 0 or (limit == 2 and other_ok)):
            out.append(A("act"))
    if b in B.upgrades and others == 0 and workers_on(s, cell, seat, ROLE_UPGRADE) == 0:
        need = min(B.minor[t].workers for t in B.upgrades[b])
        if (b != "hut" or s.bown[cell] == seat) and need <= left and mine + need <= 3 \
                and total + need <= 3:
            out.append(A("upgrade"))
    return out


def city_cells(s: State, seat: int) -> dict[int, list[int]]:
    """Quarter -> cells with at least one placement action for ``seat``."""
    conn = city.connected_quarters(s)
    out: dict[int, list[int]] = {}
    for i in sorted(city.reachable(s, seat)):
        if cell_actions(s, seat, i, conn):
            out.setdefault(B.quarter_of[i], []).append(i)
    return out


def city_open(s: State, seat: int) -> bool:
    """Whether ``seat`` has a placement action on any city cell: all the top menu needs,
    so the search stops at the first such cell instead of listing them all."""
    conn = city.connected_quarters(s)
    return any(cell_actions(s, seat, i, conn) for i in city.reachable(s, seat))


def ladder_open(s: State, seat: int, name: str) -> bool:
    spaces = s.ladders[name]
    if name in s.closed or -1 not in spaces:
        return False
    # §1.7: an empty Walls/Roads ladder takes a worker only while 3 pieces are unreserved
    empty = all(x == -1 for x in spaces)
    return not (B.ladders[name].repeat and empty and unreserved(s) < B.per_completion)


def ladder_payments(s: State, seat: int, name: str) -> list[str]:
    p = s.players[seat]
    if "wood_or_stone" in B.ladders[name].cost:
        return [r for r in ("wood", "stone") if can_pay(p, ladder_cost(name, r))]
    return [""] if can_pay(p, ladder_cost(name)) else []


def free_characters(s: State) -> list[str]:
    return [c for c in CHARACTERS if c not in s.chars and c not in s.claims]


# --- legal actions: phase A ------------------------------------------------------------
def legal_place(s: State, seat: int) -> list[A]:
    sub = s.sub
    left = left_to_place(s, seat)
    if sub == "":
        out: list[A] = []
        if left > 0:
            if city_open(s, seat):
                out.append(A("city"))
            if any(ladder_open(s, seat, n) and ladder_payments(s, seat, n) for n in LADDERS):
                out.append(A("ladder"))
            if prod_need(len(s.prod)) <= left:
                out.append(A("prod"))
            out += [A("agri"), A("crafts")]
            if s.quay_open:
                out.append(A("quay"))
            out.append(A("order"))
            if not s.players[seat].claim and free_characters(s):
                out.append(A("chars"))
        if (s.quay_open and s.ship_order < 0 and s.players[seat].silver >= B.ship["order_fee"]
                and (sum(s.cargo[seat]) > 0 or s.quay[seat] > 0)):
            out.append(A("ship"))
        out.append(A("done"))
        return out
    out = []
    head, _, arg = sub.partition(":")
    if head == "city":
        cells = city_cells(s, seat)
        if arg:
            out = [A("cell", (B.token(i),)) for i in cells.get(int(arg), [])]
        else:
            out = [A("quarter", (str(q),)) for q in sorted(cells)]
    elif head == "cell":
        out = cell_actions(s, seat, int(arg))
    elif head == "ladder":
        if arg:
            for k, x in enumerate(s.ladders[arg]):
                if x == -1:
                    out += [A("space", (str(k), r) if r else (str(k),))
                            for r in ladder_payments(s, seat, arg)]
        else:
            out = [A("ladder", (n,)) for n in LADDERS
                   if ladder_open(s, seat, n) and ladder_payments(s, seat, n)]
    elif head == "count":
        out = [A("count", (str(k),)) for k in range(1, left + 1)]
    elif head == "chars":
        out = [A("claim", (c,)) for c in free_characters(s)]
    return [*out, A("back"), A("done")]


def run_place(ctx: C, seat: int, a: A) -> None:
    s = ctx.s
    p = s.players[seat]
    kind = a.kind
    if kind == "back":
        head, _, arg = s.sub.partition(":")
        s.sub = "city" if head == "city" and arg else (
            f"city:{B.quarter_of[int(arg)]}" if head == "cell" else (
                "ladder" if head == "ladder" and arg else ""))
        return
    if kind in ("city", "ladder") and not a.args:
        s.sub = kind
        return
    if kind in ("agri", "crafts", "quay", "order"):
        s.sub = f"count:{kind}"
        return
    if kind == "chars":
        s.sub = "chars"
        return
    if kind == "quarter":
        s.sub = f"city:{a.args[0]}"
        return
    if kind == "cell":
        s.sub = f"cell:{B.parse_cell(a.args[0])}"
        return
    if kind == "ladder":
        s.sub = f"ladder:{a.args[0]}"
        return
    if kind == "done":
        s.sub = ""
        ctx.emit("rio.ev.placed_done", seat=seat, n=p.placed)
        ctx.emit(TURN_END, seat=seat)
        next_placer(ctx)
        return
    if kind == "ship":
        fee = int(B.ship["order_fee"])
        p.silver -= fee
        s.ship_order = seat
        owner = s.chars.get("shipowner")
        if owner is not None and holds(s, "shipowner", owner[0]):
            s.players[owner[0]].silver += 1
        ctx.emit("rio.ev.ship_order", seat=seat, silver=fee)
        return
    head, _, arg = s.sub.partition(":")
    if kind == "put":
        n = int(a.args[0])
        cell = int(arg)
        add_workers(s, cell, seat, n, ROLE_STAY)
        _placed(s, seat, n)
        ctx.emit("rio.ev.put", seat=seat, n=n, cell=B.token(cell))
    elif kind == "evict":
        cell = int(arg)
        victim, k = s.cw[cell][0][0], s.cw[cell][0][1]
        s.cw[cell] = [[seat, 2 * k - 1, ROLE_STAY]]
        s.players[victim].supply += k
        _placed(s, seat, 2 * k)
        p.supply += 1  # the sacrificed evictor goes home (still counts toward the 5)
        ctx.emit("rio.ev.evict", seat=seat, victim=victim, n=2 * k, cell=B.token(cell))
    elif kind == "act":
        cell = int(arg)
        add_workers(s, cell, seat, 1, ROLE_ACT)
        _placed(s, seat, 1)
        ctx.emit("rio.ev.act_placed", seat=seat, cell=B.token(cell), building=s.bld[cell])
    elif kind == "upgrade":
        cell = int(arg)
        need = min(B.minor[t].workers for t in B.upgrades[s.bld[cell]])
        add_workers(s, cell, seat, need, ROLE_UPGRADE)
        _placed(s, seat, need)
        ctx.emit("rio.ev.upgrade_placed", seat=seat, cell=B.token(cell), building=s.bld[cell])
    elif kind == "space":
        name, k = arg, int(a.args[0])
        pay(ctx, seat, ladder_cost(name, a.args[1] if len(a.args) > 1 else ""))
        lad = s.ladders[name]
        if B.ladders[name].repeat and all(x == -1 for x in lad):
            s.reserved[name] = B.per_completion
        lad[k] = seat
        s.ladder_last[name] = seat
        _placed(s, seat, 1)
        ctx.emit("rio.ev.ladder", seat=seat, ladder=name, vp=B.ladders[name].vps(
            s.num_players)[k])
    elif kind == "prod" and not a.args:
        need = prod_need(len(s.prod))
        s.prod.append(seat)
        s.prod_done.append(False)
        _placed(s, seat, need)
        ctx.emit("rio.ev.prod", seat=seat, n=need, space=len(s.prod))
    elif kind == "count":
        n = int(a.args[0])
        sector = arg
        getattr(s, "bids" if sector == "order" else sector)[seat] += n
        _placed(s, seat, n)
        ctx.emit(f"rio.ev.sector_{sector}", seat=seat, n=n)
    elif kind == "claim":
        s.claims[a.args[0]] = seat
        p.claim = a.args[0]
        _placed(s, seat, 1)
        ctx.emit("rio.ev.claim", seat=seat, char=a.args[0])
    s.sub = ""


def _placed(s: State, seat: int, n: int) -> None:
    p = s.players[seat]
    p.placed += n
    p.supply -= n


def next_placer(ctx: C) -> None:
    s = ctx.s
    s.cur += 1
    if s.cur < s.num_players:
        return
    expire_trades(ctx)
    start_effects(ctx)


# --- phase B ------------------------------------------------------------------------------
def start_effects(ctx: C) -> None:
    """Automatic steps: the ship's return, then ladder completions (§1.9)."""
    s = ctx.s
    s.sub = ""
    if s.ship_at_sea and s.ship_return == s.round:
        ship_payout(ctx)
        s.ship_at_sea = False
    for name in LADDERS:
        spaces = s.ladders[name]
        if spaces and -1 not in spaces:
            complete_ladder(ctx, name)
    s.phase = "complete" if s.queue else "effects"
    s.cur = 0
    if s.phase == "effects":
        start_turn(ctx)


def ship_payout(ctx: C) -> None:
    s = ctx.s
    ship = B.ship
    for seat, (w, st, pr) in enumerate(s.cargo):
        if w + st + pr == 0:
            continue
        sets = min(w, st, pr)
        rest = w + st - 2 * sets
        prec = pr - sets
        silver = sets * ship["set"]["silver"] + rest * ship["common"]["silver"] + \
            prec * ship["precious"]["silver"]
        vp = sets * ship["set"]["vp"] + rest * ship["common"]["vp"] + prec * ship["precious"]["vp"]
        s.players[seat].silver += silver
        add_vp(s, seat, vp)
        ctx.emit("rio.ev.ship_paid", seat=seat, silver=silver, vp=vp)
    s.cargo = [[0, 0, 0] for _ in range(s.num_players)]
    owner = s.chars.get("shipowner")
    if owner is not None and holds(s, "shipowner", owner[0]):
        add_vp(s, owner[0], int(ship["shipowner_vp"]))
        ctx.emit("rio.ev.shipowner", seat=owner[0], vp=ship["shipowner_vp"])
    ctx.emit("rio.ev.ship_back")


def complete_ladder(ctx: C, name: str) -> None:
    """§1.7: workers home, VP per space, the completer's bonus and tile or pieces."""
    s = ctx.s
    lad = B.ladders[name]
    for k, seat in enumerate(s.ladders[name]):
        vp = lad.vps(s.num_players)[k]
        add_vp(s, seat, vp)
        s.players[seat].supply += 1
        if vp:
            ctx.emit("rio.ev.vp", seat=seat, vp=vp, reason="ladder")
    done_by = s.ladder_last[name]
    if lad.bonus:
        add_vp(s, done_by, lad.bonus)
    ctx.emit("rio.ev.completed", ladder=name, seat=done_by, bonus=lad.bonus)
    s.ladders[name] = [-1] * len(s.ladders[name])
    s.ladder_last[name] = -1
    if name in ("walls", "roads"):
        s.queue.append([name, done_by, s.reserved[name]])
        s.reserved[name] = 0
    elif name == "port":
        s.closed.append(name)
        s.bld[B.port_cell] = "port"
    else:
        s.closed.append(name)
        s.queue.append([name, done_by, 1])


def site_cells(s: State, kind: str) -> list[int]:
    if kind == "fort":
        return [i for i in B.fort_cells if not s.bld[i]]
    free = [i for i in B.sites if not s.bld[i]]
    return free or [i for i in B.sites if s.bld[i] in B.minor]


def remove_building(ctx: C, cell: int) -> None:
    s = ctx.s
    ctx.emit("rio.ev.removed", cell=B.token(cell), building=s.bld[cell])
    s.bld[cell] = ""
    s.bown[cell] = -1


def workers_home(s: State, cell: int) -> None:
    for w in s.cw[cell]:
        s.players[w[0]].supply += w[1]
    s.cw[cell] = []


def start_turn(ctx: C) -> None:
    """An effects turn begins: character income of characters held since an earlier round."""
    s = ctx.s
    if s.cur >= s.num_players:
        end_effects(ctx)
        return
    seat = s.order[s.cur]
    p = s.players[seat]
    s.incomes = []
    for char, res in (("master_stonecutter", "stone"), ("master_carpenter", "wood"),
                      ("master_craftsman", "precious")):
        if holds(s, char, seat):
            setattr(p, res, getattr(p, res) + 1)
            ctx.emit("rio.ev.income", seat=seat, char=char, res=res)
    if holds(s, "master_merchant", seat):
        s.incomes.append("merchant")
    if holds(s, "road_builder", seat) and unreserved(s) > 0 and city.legal_roads(s):
        s.incomes.append("road")
    if holds(s, "defender_char", seat) and unreserved(s) > 0 and city.free_wall_edges(s):
        s.incomes.append("wall")


def my_items(s: State, seat: int) -> list[A]:
    out: list[A] = []
    if "merchant" in s.incomes:
        out.append(A("income"))
    if "road" in s.incomes:
        out.append(A("free_road"))
    if "wall" in s.incomes:
        out.append(A("free_wall"))
    out += [A("prod", (str(k),)) for k, x in enumerate(s.prod)
            if x == seat and not s.prod_done[k]]
    if s.agri[seat]:
        out.append(A("agri"))
    if s.crafts[seat]:
        out.append(A("crafts"))
    if load_room(s, seat) > 0 and any(getattr(s.players[seat], r) for r in RESOURCES):
        out.append(A("load"))
    out += [A("cell", (B.token(i),)) for i, here in enumerate(s.cw)
            if here and workers_on(s, i, seat) and cell_effects(s, seat, i)]
    if s.players[seat].claim:
        out.append(A("claim"))
    return out


def load_room(s: State, seat: int) -> int:
    if not s.quay[seat]:
        return 0
    return min(int(B.ship["per_worker"]) * s.quay[seat] - s.loaded[seat],
               ship_capacity(s) - cargo_total(s))


def build_options(s: State, seat: int, cell: int) -> list[str]:
    """Buildings ``seat`` may build on ``cell`` now (§1.6): prerequisites, caps, workers
    present, one building per cell per round, one noble building per quarter, payment."""
    if cell in s.built:
        return []
    p = s.players[seat]
    b = s.bld[cell]
    if not b:
        have = workers_on(s, cell, seat, ROLE_STAY)
        kinds = [k for k in ("hut", "stonecutter", "carpenter", "market", "square",
                             "barracks", "church")]
    else:
        have = workers_on(s, cell, seat, ROLE_UPGRADE)
        kinds = list(B.upgrades.get(b, ())) if have else []
    out = []
    q = B.quarter_of[cell]
    for k in kinds:
        m = B.minor[k]
        if m.workers > have or not can_pay(p, m.cost):
            continue
        if k == "hut" and sum(1 for o in s.bown if o == seat) >= B.dwellings:
            continue
        if k == "house" and s.bown[cell] != seat:
            continue
        if k in B.one_per_quarter and city.in_quarter(s, q, k):
            continue
        if k == "square" and city.surroundings(s, cell) < B.square_need:
            continue
        if not _tile_free(s, k, b):
            continue
        out.append(k)
    return out


def _tile_free(s: State, kind: str, replacing: str) -> bool:
    for types, cap in B.tile_caps:
        if kind in types:
            count = city.count_type(s, types) - (1 if replacing in types else 0)
            if count >= cap:
                return False
    return True


def act_options(s: State, seat: int, cell: int) -> list[str]:
    """Conversions ``seat`` may activate on ``cell`` now: an activation worker (or a builder
    left over on a building he built this round, with an adjacent house), under the limit."""
    b = s.bld[cell]
    if b not in B.conversions:
        return []
    has_act = workers_on(s, cell, seat, ROLE_ACT) > 0
    leftover = (cell in s.built and workers_on(s, cell, seat, ROLE_STAY) > 0
                and city.has_house_near(s, cell, seat))
    if not (has_act or leftover) or s.acts[cell] >= city.activation_limit(s, cell):
        return []
    p = s.players[seat]
    return [c.id for c in B.conversions[b] if can_pay(p, c.pay)]


def cell_effects(s: State, seat: int, cell: int) -> bool:
    return bool(build_options(s, seat, cell) or act_options(s, seat, cell))


def legal_effects(s: State, seat: int) -> list[A]:
    head, _, arg = s.sub.partition(":")
    p = s.players[seat]
    if head == "":
        return [*my_items(s, seat), A("done")]
    out: list[A] = []
    if head == "prod":
        out = [A("take", ("wood",)), A("take", ("stone",))]
    elif head == "crafts":
        out = [A("take", (r,)) for r in ("wood", "stone") if can_pay(p, {r: 1})]
    elif head == "load":
        out = [A("take", (r,)) for r in RESOURCES if getattr(p, r) > 0] \
            if load_room(s, seat) > 0 else []
    elif head == "income":
        out = [A("take", (r,)) for r in RESOURCES]
    elif head == "cell":
        cell = int(arg)
        out = [A("build", (k,)) for k in build_options(s, seat, cell)]
        out += [A("convert", (c,)) for c in act_options(s, seat, cell)]
    elif head in ("road", "wall"):
        out = [a for a in piece_menu(s, head, arg) if a.kind != "back"]
    return [*out, A("back"), A("done")]


def run_effects(ctx: C, seat: int, a: A) -> None:  # noqa: C901 - one dispatch
    s = ctx.s
    p = s.players[seat]
    head, _, arg = s.sub.partition(":")
    kind = a.kind
    if kind == "done":
        finish_turn(ctx, seat)
        return
    if head in ("road", "wall") and kind not in ("back",):
        if piece_step(ctx, seat, head, a):
            s.incomes.remove(head)
            s.sub = ""
        return
    if kind == "back":
        s.sub = ""
        return
    if kind == "done":
        finish_turn(ctx, seat)
        return
    if head == "":
        if kind == "prod":
            s.sub = f"prod:{a.args[0]}"
        elif kind == "cell":
            s.sub = f"cell:{B.parse_cell(a.args[0])}"
        elif kind in ("crafts", "load", "income"):
            s.sub = kind
        elif kind == "free_road":
            s.sub = "road"
        elif kind == "free_wall":
            s.sub = "wall"
        elif kind == "agri":
            silver = s.agri[seat] // 2
            p.silver += silver
            p.supply += s.agri[seat]
            s.agri[seat] = 0
            ctx.emit("rio.ev.agri_paid", seat=seat, silver=silver)
        elif kind == "claim":
            resolve_claim(ctx, seat)
        return
    res = a.args[0] if a.args else ""
    if head == "prod":
        k = int(arg)
        s.prod_done[k] = True
        gain(s, seat, {res: 1})
        p.supply += prod_need(k)
        ctx.emit("rio.ev.produced", seat=seat, res=res)
        s.sub = ""
    elif head == "crafts":
        pay(ctx, seat, {res: 1})
        p.precious += 1
        s.crafts[seat] -= 1
        p.supply += 1
        ctx.emit("rio.ev.crafted", seat=seat, res=res)
        s.sub = ""
    elif head == "load":
        setattr(p, res, getattr(p, res) - 1)
        s.cargo[seat][RESOURCES.index(res)] += 1
        s.loaded[seat] += 1
        ctx.emit("rio.ev.loaded", seat=seat, res=res)
        if not legal_effects(s, seat)[:-1]:
            s.sub = ""
    elif head == "income":
        gain(s, seat, {res: 1})
        s.incomes.remove("merchant")
        ctx.emit("rio.ev.income", seat=seat, char="master_merchant", res=res)
        s.sub = ""
    elif head == "cell":
        cell = int(arg)
        if kind == "build":
            build(ctx, seat, cell, res)
        else:
            activate(ctx, seat, cell, res)
        if not cell_effects(s, seat, cell):
            s.sub = ""


def build(ctx: C, seat: int, cell: int, kind: str) -> None:
    s = ctx.s
    m = B.minor[kind]
    pay(ctx, seat, m.cost)
    role = ROLE_UPGRADE if s.bld[cell] else ROLE_STAY
    take_workers(s, cell, seat, m.workers, role)
    s.players[seat].supply += m.workers
    s.bld[cell] = kind
    s.bown[cell] = seat if kind in ("hut", "house") else -1
    s.built.append(cell)
    add_vp(s, seat, m.vp)
    ctx.emit("rio.ev.built", seat=seat, building=kind, cell=B.token(cell), vp=m.vp)


def activate(ctx: C, seat: int, cell: int, conv_id: str) -> None:
    s = ctx.s
    conv = next(c for c in B.conversions[s.bld[cell]] if c.id == conv_id)
    pay(ctx, seat, conv.pay)
    got = dict(conv.get)
    if s.bld[cell] == "church" and "cathedral" in s.bld:
        got["vp"] = B.church_vp_cathedral
    gain(s, seat, got)
    role = ROLE_ACT if workers_on(s, cell, seat, ROLE_ACT) else ROLE_STAY
    take_workers(s, cell, seat, 1, role)
    s.players[seat].supply += 1
    s.acts[cell] += 1
    ctx.emit("rio.ev.activated", seat=seat, building=s.bld[cell], conv=conv_id,
             cell=B.token(cell), vp=got.get("vp", 0))


def resolve_claim(ctx: C, seat: int) -> None:
    """§1.12: pay the cost and show the VP, or pay the fine (3 silver + 5 VP; with fewer
    than 3 silver, all silver and all resources) and get nothing."""
    s = ctx.s
    p = s.players[seat]
    char = p.claim
    ch = B.characters[char]
    del s.claims[char]
    p.claim = ""
    p.supply += 1
    if p.silver >= ch.cost and p.vp >= ch.vp_needed:
        p.silver -= ch.cost
        s.chars[char] = [seat, s.round]
        ctx.emit("rio.ev.char_bought", seat=seat, char=char, silver=ch.cost)
        return
    fine = B.fine
    if p.silver >= fine["silver"]:
        p.silver -= fine["silver"]
    else:
        p.silver = p.wood = p.stone = p.precious = 0
    before = p.vp
    add_vp(s, seat, -fine["vp"])
    ctx.emit("rio.ev.char_fine", seat=seat, char=char, vp=p.vp - before)


def finish_turn(ctx: C, seat: int) -> None:
    s = ctx.s
    p = s.players[seat]
    if p.claim:
        resolve_claim(ctx, seat)
    if "merchant" in s.incomes:  # deadline default: the resource he has fewest of
        res = min(RESOURCES, key=lambda r: getattr(p, r))
        gain(s, seat, {res: 1})
        ctx.emit("rio.ev.income", seat=seat, char="master_merchant", res=res)
    s.incomes = []
    s.sub = ""
    ctx.emit(TURN_END, seat=seat)
    s.cur += 1
    start_turn(ctx)


def end_effects(ctx: C) -> None:
    """End of phase B (§1.9.3): the ship sails, workers on buildings and sectors go home."""
    s = ctx.s
    full = cargo_total(s) >= ship_capacity(s)
    if (s.ship_order >= 0 or full) and not s.ship_at_sea:
        if cargo_total(s) > 0:
            s.ship_at_sea = True
            s.ship_return = s.round + int(B.ship["voyage_years"])
            ctx.emit("rio.ev.ship_sails", year=B.first_year + s.ship_return - 1)
        else:
            ctx.emit("rio.ev.ship_empty")
    s.ship_order = -1
    for i in range(B.ncells):
        if s.bld[i] and s.cw[i]:
            workers_home(s, i)
    for k, seat in enumerate(s.prod):
        if not s.prod_done[k]:
            s.players[seat].supply += prod_need(k)
    s.prod, s.prod_done = [], []
    for seat in range(s.num_players):
        pl = s.players[seat]
        pl.supply += s.agri[seat] + s.crafts[seat] + s.quay[seat]
    s.agri = [0] * s.num_players
    s.crafts = [0] * s.num_players
    s.quay = [0] * s.num_players
    s.loaded = [0] * s.num_players
    expire_trades(ctx)
    from . import combat

    combat.phase_c(ctx)


# --- walls and roads: the pickers (completions and free pieces) ------------------------------
def piece_menu(s: State, kind: str, arg: str) -> list[A]:
    """Road: quarter -> cell -> side; wall: side -> edge (reference Part 3.1)."""
    if kind == "wall":
        free = city.free_wall_edges(s)
        if not arg:
            out = [A("side", (d,)) for d in SIDES if any(B.entry_side[e] == d for e in free)]
        else:
            out = [A("edge", (e,)) for e in free if B.entry_side[e] == arg]
            out.append(A("back"))
        return out
    legal = set(city.legal_roads(s))
    parts = arg.split(".") if arg else []
    if not parts:
        return [A("quarter", (str(q),)) for q in B.quarters
                if any(_road_sides(i, legal) for i in B.quarter_cells[q])]
    if len(parts) == 1:
        return [A("cell", (B.token(i),)) for i in B.quarter_cells[int(parts[0])]
                if _road_sides(i, legal)] + [A("back")]
    cell = int(parts[1])
    return [A("side", (d,)) for d in _road_sides(cell, legal)] + [A("back")]


def _road_sides(cell: int, legal: set[str]) -> list[str]:
    return [d for d in SIDES if B.side_edge(cell, d) in legal and not (
        d in ("n", "s") and B.side_edge(cell, d) in B.perimeter)]


def piece_step(ctx: C, seat: int, kind: str, a: A) -> bool:
    """One step of a piece picker; True once the piece is placed."""
    s = ctx.s
    head, _, arg = s.sub.partition(":")
    if a.kind == "back":
        parts = arg.split(".")
        s.sub = f"{head}:{'.'.join(parts[:-1])}" if len(parts) > 1 else head
        return False
    if a.kind == "auto":
        edges = city.free_wall_edges(s) if kind == "wall" else city.legal_roads(s)
        place_piece(ctx, seat, kind, edges[0])
        return True
    if kind == "wall":
        if a.kind == "side":
            s.sub = f"{head}:{a.args[0]}"
            return False
        place_piece(ctx, seat, kind, a.args[0])
        return True
    if a.kind == "quarter":
        s.sub = f"{head}:{a.args[0]}"
        return False
    if a.kind == "cell":
        s.sub = f"{head}:{arg}.{B.parse_cell(a.args[0])}"
        return False
    cell = int(arg.split(".")[1])
    place_piece(ctx, seat, kind, B.side_edge(cell, a.args[0]))
    return True


def place_piece(ctx: C, seat: int, kind: str, edge: str) -> None:
    s = ctx.s
    (s.walls if kind == "wall" else s.roads).append(edge)
    s.pieces_used += 1
    ctx.emit(f"rio.ev.{kind}_placed", seat=seat, edge=edge)


# --- completion decisions (phase B's first step) -----------------------------------------------
def legal_complete(s: State, seat: int) -> list[A]:
    kind = s.queue[0][0]
    if kind in ("walls", "roads"):
        head, _, arg = s.sub.partition(":")
        return [*piece_menu(s, kind[:-1], arg), A("auto")]
    return [A("site", (B.token(i),)) for i in site_cells(s, kind)]


def run_complete(ctx: C, seat: int, a: A) -> None:
    s = ctx.s
    task = s.queue[0]
    kind = task[0]
    if kind in ("walls", "roads"):
        if not s.sub:
            s.sub = kind[:-1]
        if piece_step(ctx, seat, kind[:-1], a):
            task[2] -= 1
            s.sub = ""
    else:
        cell = B.parse_cell(a.args[0])
        assert cell is not None
        if s.bld[cell]:
            remove_building(ctx, cell)
        workers_home(s, cell)
        s.bld[cell] = kind
        s.bown[cell] = -1
        ctx.emit("rio.ev.major_placed", seat=seat, building=kind, cell=B.token(cell))
        task[2] = 0
    settle_queue(ctx)


def settle_queue(ctx: C) -> None:
    """Drop finished tasks (and pieces that find no free edge, §1.7), then go on."""
    s = ctx.s
    while s.queue:
        kind, _, n = s.queue[0]
        if n > 0 and kind == "walls" and not city.free_wall_edges(s):
            n = 0
        if n > 0 and kind == "roads" and not city.legal_roads(s):
            n = 0
        if n > 0:
            return
        s.queue.pop(0)
        s.sub = ""
    if s.phase == "complete":
        s.phase = "effects"
        s.cur = 0
        start_turn(ctx)


# --- rounds -------------------------------------------------------------------------------------
def start_round(ctx: C) -> None:
    s = ctx.s
    s.phase = "place"
    s.cur = 0
    s.sub = ""
    s.built = []
    s.acts = [0] * B.ncells
    s.quay_open = "port" in s.closed and not s.ship_at_sea
    for p in s.players:
        p.placed = 0
        p.bought = 0
    ctx.emit("rio.ev.round", year=B.first_year + s.round - 1, round=s.round)


def next_order(s: State) -> list[int]:
    """§1.8: most added workers first, ties in reverse current order; then the rest (the
    order the bids placed so far will give)."""
    bids = s.bids
    # a stable sort keeps the tied bidders as met, last in the current order first
    bidders = sorted((seat for seat in reversed(s.order) if bids[seat] > 0),
                     key=bids.__getitem__, reverse=True)
    return bidders + [seat for seat in s.order if bids[seat] == 0]


def update_order(ctx: C) -> None:
    """§1.8: the new turn order (:func:`next_order`); the bid workers go back to supply."""
    s = ctx.s
    s.order = next_order(s)
    for seat in range(s.num_players):
        s.players[seat].supply += s.bids[seat]
    s.bids = [0] * s.num_players
    ctx.emit("rio.ev.order", order=list(s.order))


def advance_time(ctx: C) -> bool:
    """Move the time marker; False when the last round has ended."""
    s = ctx.s
    if s.round >= s.rounds:
        s.round = s.rounds + 1
        return False
    symbol = B.symbols[s.round - 1]
    if "F" in symbol:
        s.natives = min(B.enemy_max, s.natives + 1)
    if "S" in symbol:
        s.pirates = min(B.enemy_max, s.pirates + 1)
    s.round += 1
    start_round(ctx)
    return True


def final_scoring(ctx: C) -> None:
    """§1.14: ship settled, silver (3 = 1 VP), characters, houses by quarter value."""
    s = ctx.s
    if s.ship_at_sea:
        ship_payout(ctx)
        s.ship_at_sea = False
    for seat, cargo in enumerate(s.cargo):
        p = s.players[seat]
        p.wood += cargo[0]
        p.stone += cargo[1]
        p.precious += cargo[2]
    s.cargo = [[0, 0, 0] for _ in range(s.num_players)]
    conn = city.connected_quarters(s)
    for seat, p in enumerate(s.players):
        silver_vp = p.silver // 3
        p.silver %= 3
        chars_vp = sum(character_vp(s, c, conn) for c, (o, _) in s.chars.items() if o == seat)
        houses = city.house_score(s, seat)
        p.vp += silver_vp + chars_vp + houses
        s.final[str(seat)] = [silver_vp, chars_vp, houses]
        ctx.emit("rio.ev.final", seat=seat, silver_vp=silver_vp, chars_vp=chars_vp,
                 houses_vp=houses, vp=p.vp)
    s.phase = "over"
    s.sub = ""
    ctx.emit(TURN_END)


def character_vp(s: State, char: str, conn: set[int]) -> int:
    rates = B.end_rates
    base = B.characters[char].end_vp
    if char == "road_builder":
        return rates["road_builder"] * len(conn)
    if char == "defender_char":
        return rates["defender_char"] * len(city.closed_quarters(s))
    if char == "bishop":
        return rates["bishop"] * (city.count_type(s, ("church", "cathedral")))
    if char == "architect":
        return rates["architect"] * city.count_type(s, ("port", "fort", "cathedral", "palace"))
    if char == "governor":
        nobles = ("square", "monument", "garden", "barracks", "church")
        full = sum(1 for q in B.quarters
                   if sum(1 for k in nobles if city.in_quarter(s, q, k)) >= rates[
                       "governor_nobles"])
        return base + rates["governor"] * full
    return base


def standing_key(s: State, seat: int) -> tuple[int, int, int, int]:
    p = s.players[seat]
    return (p.vp, p.silver, p.precious, p.wood + p.stone)
