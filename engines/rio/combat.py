"""Phase C and the combat sub-game (reference §1.10–1.11, Part 3.4).

The check rolls 2d6 against the enemy track; the attacker stages enemies on open perimeter
edges, the cannons may fire, defenders recruit, then combat rounds run (attacker first,
defenders in turn order), each player moving one group at a time. Mixed-colour merges wait
for the other owner's answer (a pending request); the combat ends when the attacker has no
pawn left or has provoked no battle for 3 combat rounds; defenders then keep or withdraw
their groups simultaneously.
"""

from __future__ import annotations

from engines.base import TURN_END, Action, Ctx

from . import city, rules
from .data import BOARD, SIDES
from .state import ROLE_STAY, Combat, Group, State

B = BOARD
C = Ctx[State]
A = Action
ENEMY = -1
CB = B.combat


# --- phase C --------------------------------------------------------------------------------
def phase_c(ctx: C) -> None:
    s = ctx.s
    if any(p.attacks < rules.need_attacks(s) for p in s.players):
        faces = ctx.roll(2)
        roll = faces[0] + faces[1] + 2
        s.last_roll = [faces[0] + 1, faces[1] + 1]
        enemy = check_enemy(roll, s.natives, s.pirates)
        ctx.emit("rio.ev.check", roll=roll, enemy=enemy or "none")
        if enemy and start_combat(ctx, enemy, designate(s), forced=False):
            return
    after_check(ctx)


def check_enemy(roll: int, natives: int, pirates: int) -> str:
    """Pirates when the roll is ≤ both markers; else the one it is ≤; else none (§1.10)."""
    if roll <= natives and roll <= pirates:
        return "pirates"
    if roll <= pirates:
        return "pirates"
    if roll <= natives:
        return "natives"
    return ""


def designate(s: State) -> int:
    """The player latest in turn order among those with the fewest attacks (still owed)."""
    owed = [seat for seat in s.order if s.players[seat].attacks < rules.need_attacks(s)]
    fewest = min(s.players[x].attacks for x in owed)
    return [x for x in owed if s.players[x].attacks == fewest][-1]


def after_check(ctx: C) -> None:
    rules.update_order(ctx)
    if not rules.advance_time(ctx):
        end_game(ctx)


def end_game(ctx: C) -> None:
    """Forced final combats for whoever still owes attacks (§1.10), then scoring."""
    s = ctx.s
    while s.options["final_forced_combats"] and any(
            p.attacks < rules.need_attacks(s) for p in s.players):
        enemy = "pirates" if s.pirates >= s.natives else "natives"
        if start_combat(ctx, enemy, designate(s), forced=True):
            return
    rules.final_scoring(ctx)


def retreat(s: State, enemy: str) -> None:
    if enemy == "natives":
        s.natives = max(0, s.natives - B.retreat)
    else:
        s.pirates = max(0, s.pirates - B.retreat)


def enemy_bonus(s: State, enemy: str) -> int:
    value = s.natives if enemy == "natives" else s.pirates
    bonus = B.enemy_bonus[value]
    if s.options["bonus_reduction"]:
        bonus -= {4: 1, 5: 2}.get(s.num_players, 0)
    bonus -= {"expert": 0, "intermediate": 1, "beginner": 2}[s.options["experience_level"]]
    return max(0, bonus)


def enemy_count(s: State, attacker: int, enemy: str) -> int:
    """Defenders' workers on city cells + 2 per defender + the track's bonus (§1.11.2)."""
    on_map = sum(w[1] for cell in s.cw for w in cell if w[0] != attacker)
    return on_map + 2 * (s.num_players - 1) + enemy_bonus(s, enemy)


def start_combat(ctx: C, enemy: str, attacker: int, forced: bool) -> bool:
    """Record the attack; False when no entry is open (the combat is skipped)."""
    s = ctx.s
    s.players[attacker].attacks += 1
    ctx.emit("rio.ev.attacker", seat=attacker, enemy=enemy)
    if not city.open_entries(s):
        ctx.emit("rio.ev.no_entry", enemy=enemy)
        retreat(s, enemy)
        return False
    count = enemy_count(s, attacker, enemy)
    defenders = [x for x in s.order if x != attacker]
    c = Combat(enemy=enemy, attacker=attacker, step="stage", forced=forced, to_stage=count,
               order=[attacker, *defenders])
    for i in range(B.ncells):
        for w in list(s.cw[i]):
            if w[0] == attacker:
                c.frozen.append(i)
            else:
                c.groups.append(Group(c.next_gid, i, "", [w[0]] * w[1]))
                c.next_gid += 1
                s.cw[i].remove(w)
    c.frozen = sorted(set(c.frozen))
    s.combat = c
    s.phase = "combat"
    s.sub = ""
    ctx.emit("rio.ev.enemies", n=count, enemy=enemy)
    return True


# --- who acts ------------------------------------------------------------------------------
def active(s: State) -> frozenset[int]:
    c = s.combat
    assert c is not None
    if c.step in ("stage",):
        return frozenset({c.attacker})
    if c.step in ("cannon", "cannon_kill"):
        return frozenset({c.shooter})
    if c.step == "recruit":
        return frozenset({c.recruiters[c.recruit_idx]})
    if c.step == "merge":
        return frozenset({c.pending["answerer"]})
    if c.step == "keep":
        return frozenset(c.keep_pending)
    return frozenset({c.order[c.turn]})


def controller(g: Group, attacker: int) -> int:
    return attacker if g.pawns[0] == ENEMY else g.pawns[0]


def group_at(c: Combat, cell: int) -> Group | None:
    for g in c.groups:
        if g.cell == cell:
            return g
    return None


def refused(c: Combat, g: Group, j: int) -> bool:
    """Whether ``g`` already asked the group on cell ``j`` to merge this combat round and
    was refused: a refusal is final for the round (docs/rules/rio.md)."""
    h = group_at(c, j)
    return h is not None and [g.gid, h.gid] in c.refused


def by_id(c: Combat, gid: int) -> Group:
    return next(g for g in c.groups if g.gid == gid)


def moves_for(size: int) -> int:
    return int(CB["moves"][size - 1])


def staged_total(c: Combat) -> int:
    return sum(int(st[1]) for st in c.stacks)


def destructible(s: State, cell: int) -> bool:
    b = s.bld[cell]
    return bool(b) and b not in CB["indestructible"]


def dominance(s: State, c: Combat, cell: int) -> tuple[bool, bool]:
    q = B.quarter_of[cell]
    return c.enemy == "pirates", bool(q) and city.in_quarter(s, q, "barracks") > 0


# --- legal actions --------------------------------------------------------------------------
def legal(s: State, seat: int) -> list[A]:
    c = s.combat
    assert c is not None
    step = c.step
    if step == "stage":
        return legal_stage(s, c)
    if step == "cannon":
        cap = c.cannon_cap
        return [*(A("fire", (str(k),)) for k in range(1, cap + 1)), A("hold")]
    if step == "cannon_kill":
        return _stack_picker(c, "kill") + [A("auto")]
    if step == "recruit":
        return legal_recruit(s, c, seat)
    if step == "merge":
        return [A("accept"), A("refuse")]
    if step == "keep":
        return []
    return legal_round(s, c, seat)


def _stack_picker(c: Combat, kind: str) -> list[A]:
    head, _, arg = c.sub.partition(":")
    if head != "side":
        return [A("side", (d,)) for d in SIDES
                if any(B.entry_side[st[0]] == d for st in c.stacks)]
    return [A(kind, (st[0],)) for st in c.stacks if B.entry_side[st[0]] == arg] + [A("back")]


def legal_stage(s: State, c: Combat) -> list[A]:
    head, _, arg = c.sub.partition(":")
    if head == "side":
        return [A("edge", (e,)) for e in city.open_entries(s) if B.entry_side[e] == arg] + \
            [A("back"), A("auto")]
    if head == "edge":
        left = c.to_stage
        out = [A("stack", (str(k),)) for k in range(1, min(22, left) + 1)]
        if left > 22:
            out.append(A("stack", ("all",)))
        return out + [A("back"), A("auto")]
    out = []
    if c.to_stage:
        entries = city.open_entries(s)
        out = [A("side", (d,)) for d in SIDES if any(B.entry_side[e] == d for e in entries)]
        out.append(A("auto"))
    else:
        out.append(A("staged"))
    if c.staged_log:
        out.append(A("unstage"))
    return out


def recruit_cells(s: State, c: Combat, seat: int) -> list[int]:
    general = rules.holds(s, "general", seat)
    out = []
    for i in range(B.ncells):
        b = s.bld[i]
        if i in c.frozen or not b:
            continue
        if general:
            ok = b in B.minor
        else:
            ok = (b in ("hut", "house") and s.bown[i] == seat) or b == "barracks"
        if not ok:
            continue
        g = group_at(c, i)
        if g is None or (all(p == seat for p in g.pawns) and len(g.pawns) < 3):
            out.append(i)
    return out


def recruit_price(c: Combat) -> int:
    return c.bought + 1


def legal_recruit(s: State, c: Combat, seat: int) -> list[A]:
    head, _, arg = c.sub.partition(":")
    cells = recruit_cells(s, c, seat) if s.players[seat].supply > 0 else []
    if head in ("free", "buy"):
        if arg:
            return [A("cell", (B.token(i),)) for i in cells
                    if B.quarter_of[i] == int(arg)] + [A("back"), A("auto")]
        return [A("quarter", (str(q),)) for q in sorted({B.quarter_of[i] for i in cells})] + \
            [A("back"), A("auto")]
    out = []
    if cells and c.free_left > 0:
        out.append(A("recruit"))
    if cells and s.players[seat].silver >= recruit_price(c):
        out.append(A("buy"))
    return out + [A("auto"), A("done")]


def can_enter(s: State, c: Combat, g: Group, j: int) -> str:
    """What stepping ``g`` into cell ``j`` does: "" (illegal), "move", "battle",
    "merge", "split" (2+2 defenders), "ask" (mixed merge needing consent)."""
    if j in c.frozen:
        return ""
    h = group_at(c, j)
    attacker_side = g.pawns[0] == ENEMY
    if h is None:
        if attacker_side and destructible(s, j):
            return "battle"
        return "move"
    if (h.pawns[0] == ENEMY) != attacker_side:
        return "battle"
    if g.fought or h.fought:
        return ""
    if attacker_side:
        return "merge" if len(g.pawns) + len(h.pawns) <= 3 else ""
    mixed = len(set(g.pawns) | set(h.pawns)) > 1
    if len(g.pawns) == 2 and len(h.pawns) == 2:
        return "ask_split" if mixed else "split"
    if len(g.pawns) + len(h.pawns) > 3:
        return ""
    return "ask" if mixed else "merge"


def _discardable(c: Combat, seat: int, g: Group) -> list[Group]:
    return [h for h in c.groups if h is not g and h.cell >= 0 and not h.fought
            and controller(h, c.attacker) == seat]


def _selectable(s: State, c: Combat, seat: int) -> list[Group]:
    out = []
    for g in c.groups:
        if controller(g, c.attacker) != seat or g.fought or g.stopped:
            continue
        if g.moves > 0 or (not g.bonus and _discardable(c, seat, g)):
            out.append(g)
    return out


def _must_enter(s: State, c: Combat) -> bool:
    """The attacker's first move: every stack is split and every group that can enter does."""
    if not c.first:
        return False
    for st in c.stacks:
        if can_enter_cell(s, c, B.perimeter[st[0]], 1):
            return True
    return any(g.cell < 0 and g.moves > 0 and can_enter(s, c, g, B.perimeter[g.edge])
               for g in c.groups)


def can_enter_cell(s: State, c: Combat, j: int, size: int) -> bool:
    probe = Group(0, -1, "", [ENEMY] * size)
    return bool(can_enter(s, c, probe, j))


def legal_round(s: State, c: Combat, seat: int) -> list[A]:
    out = _legal_round(s, c, seat)
    finishing = A("auto") if seat == c.attacker and _must_enter(s, c) else A("end")
    return out if finishing in out else [*out, finishing]


def _legal_round(s: State, c: Combat, seat: int) -> list[A]:
    head, _, arg = c.sub.partition(":")
    attacker = seat == c.attacker
    if c.sel:
        g = by_id(c, c.sel)
        out: list[A] = []
        if g.moves > 0:
            if g.cell < 0:
                if can_enter(s, c, g, B.perimeter[g.edge]):
                    out.append(A("enter"))
            else:
                for d, j in B.nb4[g.cell].items():
                    what = can_enter(s, c, g, j)
                    if what in ("ask", "ask_split"):
                        if refused(c, g, j):
                            continue  # refused this combat round: not asked again
                        out += [A("merge", (d, "me")), A("merge", (d, "them"))]
                    elif what:
                        out.append(A("step", (d,)))
        if not g.bonus and not g.fought:
            out += [A("bonus", (B.token(h.cell),)) for h in _discardable(c, seat, g)][:18]
        if not (attacker and c.first and g.cell < 0 and "enter" in {a.kind for a in out}):
            out.append(A("stop"))
        return out
    if attacker and head in ("pick", "side"):
        return _stack_picker(c, "stack") + ([A("back")] if head == "pick" else [])
    if attacker and head == "stack":
        n = next(int(st[1]) for st in c.stacks if st[0] == arg)
        return [A("size", (str(k),)) for k in range(1, min(3, n) + 1)] + [A("back")]
    groups = _selectable(s, c, seat)
    out = []
    if attacker and c.stacks:
        out.append(A("stacks"))
    inside = [g for g in groups if g.cell >= 0]
    outside = [g for g in groups if g.cell < 0]
    if head == "quarter":
        return [A("group", (B.token(g.cell),)) for g in inside
                if B.quarter_of[g.cell] == int(arg)] + [A("back")]
    if len(inside) + len(outside) <= 20:
        out += [A("group", (B.token(g.cell),)) for g in inside]
        out += [A("outside", (str(g.gid),)) for g in outside]
    else:
        out += [A("quarter", (str(q),)) for q in sorted({B.quarter_of[g.cell] for g in inside})]
        out += [A("outside", (str(g.gid),)) for g in outside][:8]
    if not (attacker and _must_enter(s, c)):
        out.append(A("end"))
        if not attacker:
            out.append(A("hold"))
    return out


# --- applying -----------------------------------------------------------------------------
def run(ctx: C, seat: int, a: A) -> None:  # noqa: C901 - one dispatch per step
    s = ctx.s
    c = s.combat
    assert c is not None
    k = a.kind
    if k == "back":
        c.sub = ""
        return
    if c.step == "stage":
        if k == "side":
            c.sub = f"side:{a.args[0]}"
        elif k == "edge":
            c.sub = f"edge:{a.args[0]}"
        elif k == "stack":
            n = c.to_stage if a.args[0] == "all" else int(a.args[0])
            edge = c.sub.partition(":")[2]
            add_stack(c, edge, n)
            c.staged_log.append([edge, n])
            c.to_stage -= n
            c.sub = ""
        elif k == "unstage":
            edge, n = c.staged_log.pop()
            add_stack(c, edge, -int(n))
            c.to_stage += int(n)
        elif k == "auto":
            entries = city.open_entries(s)
            counts = {e: 0 for e in entries}
            for i in range(c.to_stage):
                counts[entries[i % len(entries)]] += 1
            for e, n in counts.items():
                if n:
                    add_stack(c, e, n)
            c.to_stage = 0
            end_staging(ctx)
        elif k == "staged":
            end_staging(ctx)
        return
    if c.step == "cannon":
        fire(ctx, 0 if k == "hold" else int(a.args[0]))
        return
    if c.step == "cannon_kill":
        if k == "side":
            c.sub = f"side:{a.args[0]}"
            return
        edge = a.args[0] if k == "kill" else c.stacks[0][0]
        kill_staged(ctx, edge)
        return
    if c.step == "recruit":
        run_recruit(ctx, seat, a)
        return
    if c.step == "merge":
        answer_merge(ctx, k == "accept")
        return
    run_round(ctx, seat, a)


def add_stack(c: Combat, edge: str, n: int) -> None:
    """Several stacks on one entry are one pile outside it (they split on entering)."""
    for st in c.stacks:
        if st[0] == edge:
            st[1] = int(st[1]) + n
            if st[1] <= 0:
                c.stacks.remove(st)
            return
    c.stacks.append([edge, n])


def end_staging(ctx: C) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    c.sub = ""
    ctx.emit("rio.ev.staged", seat=c.attacker, n=staged_total(c), stacks=len(c.stacks))
    ctx.emit(TURN_END, seat=c.attacker)
    defenders = c.order[1:]
    if "fort" in s.bld and c.stacks:
        canno = s.chars.get("cannoneer")
        if canno is not None and canno[0] in defenders and rules.holds(s, "cannoneer",
                                                                       canno[0]):
            c.shooter = canno[0]
            cap = int(CB["cannon_max"]) + 1
        else:
            fewest = min(s.players[x].vp for x in defenders)
            c.shooter = [x for x in defenders if s.players[x].vp == fewest][-1]
            cap = int(CB["cannon_max"])
        c.cannon_cap = min(cap, staged_total(c))
        c.step = "cannon"
        return
    start_recruits(ctx)


def is_cannoneer(s: State, c: Combat) -> bool:
    canno = s.chars.get("cannoneer")
    return canno is not None and canno[0] == c.shooter and rules.holds(s, "cannoneer",
                                                                        c.shooter)


def fire(ctx: C, bet: int) -> None:
    """§1.11.3: bet k, roll 2d6 (+1 Cannoneer) ≥ 6 + k kills k staged enemies."""
    s = ctx.s
    c = s.combat
    assert c is not None
    if bet == 0:
        ctx.emit("rio.ev.hold_fire", seat=c.shooter)
        ctx.emit(TURN_END, seat=c.shooter)
        start_recruits(ctx)
        return
    faces = ctx.roll(2)
    plus = 1 if is_cannoneer(s, c) else 0
    total = faces[0] + faces[1] + 2 + plus
    c.roll = [faces[0] + 1, faces[1] + 1]
    hit = total >= int(CB["cannon_base"]) + bet
    ctx.emit("rio.ev.cannon_hit" if hit else "rio.ev.cannon_miss", seat=c.shooter, bet=bet,
             roll=total)
    if hit:
        c.kills = bet
        c.step = "cannon_kill"
        c.sub = ""
    else:
        ctx.emit(TURN_END, seat=c.shooter)
        start_recruits(ctx)


def kill_staged(ctx: C, edge: str) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    st = next(x for x in c.stacks if x[0] == edge)
    st[1] = int(st[1]) - 1
    if st[1] <= 0:
        c.stacks.remove(st)
    c.kills -= 1
    c.sub = ""
    vp = int(CB["vp_cannon"]) if is_cannoneer(s, c) else 0
    rules.add_vp(s, c.shooter, vp)
    ctx.emit("rio.ev.cannon_kill", seat=c.shooter, edge=edge, vp=vp)
    if not c.stacks and not any(g.pawns[0] == ENEMY for g in c.groups):
        ctx.emit(TURN_END, seat=c.shooter)
        finish(ctx)  # the cannons killed every enemy: nothing left to fight
    elif c.kills <= 0:
        ctx.emit(TURN_END, seat=c.shooter)
        start_recruits(ctx)


def start_recruits(ctx: C) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    c.step = "recruit"
    c.sub = ""
    c.recruiters = c.order[1:]
    c.recruit_idx = -1
    next_recruiter(ctx)


def next_recruiter(ctx: C) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    c.recruit_idx += 1
    c.sub = ""
    if c.recruit_idx >= len(c.recruiters):
        c.step = "round"
        c.turn = 0
        c.sel = 0
        for g in c.groups:
            g.moves = moves_for(len(g.pawns))
        ctx.emit("rio.ev.combat_round", n=c.round)
        return
    seat = c.recruiters[c.recruit_idx]
    c.free_left = int(CB["free_recruits"]) + (1 if rules.holds(s, "general", seat) else 0)
    c.bought = 0


def run_recruit(ctx: C, seat: int, a: A) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    k = a.kind
    if k in ("recruit", "buy"):
        c.sub = "free" if k == "recruit" else "buy"
    elif k == "quarter":
        c.sub = f"{c.sub.partition(':')[0]}:{a.args[0]}"
    elif k == "cell":
        cell = B.parse_cell(a.args[0])
        assert cell is not None
        bought = c.sub.startswith("buy")
        place_recruit(ctx, seat, cell, bought)
        c.sub = ""
    elif k == "auto":
        while c.free_left > 0 and s.players[seat].supply > 0:
            cells = recruit_cells(s, c, seat)
            if not cells:
                break
            place_recruit(ctx, seat, cells[0], False)
        ctx.emit(TURN_END, seat=seat)
        next_recruiter(ctx)
    elif k == "done":
        ctx.emit(TURN_END, seat=seat)
        next_recruiter(ctx)


def place_recruit(ctx: C, seat: int, cell: int, bought: bool) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    p = s.players[seat]
    if bought:
        price = recruit_price(c)
        p.silver -= price
        c.bought += 1
    else:
        c.free_left -= 1
    p.supply -= 1
    g = group_at(c, cell)
    if g is None:
        c.groups.append(Group(c.next_gid, cell, "", [seat]))
        c.next_gid += 1
    else:
        g.pawns.append(seat)
    ctx.emit("rio.ev.recruit", seat=seat, cell=B.token(cell), bought=bought)


def run_round(ctx: C, seat: int, a: A) -> None:  # noqa: C901 - one dispatch
    s = ctx.s
    c = s.combat
    assert c is not None
    k = a.kind
    if k == "stacks":
        c.sub = "pick"
        return
    if k == "side":
        c.sub = f"side:{a.args[0]}"
        return
    if k == "stack":
        c.sub = f"stack:{a.args[0]}"
        return
    if k == "quarter":
        c.sub = f"quarter:{a.args[0]}"
        return
    if k == "size":
        edge = c.sub.partition(":")[2]
        n = int(a.args[0])
        st = next(x for x in c.stacks if x[0] == edge)
        st[1] = int(st[1]) - n
        if st[1] <= 0:
            c.stacks.remove(st)
        g = Group(c.next_gid, -1, edge, [ENEMY] * n, moves=moves_for(n))
        c.next_gid += 1
        c.groups.append(g)
        c.sel = g.gid
        c.sub = ""
        return
    if k == "group":
        cell = B.parse_cell(a.args[0])
        g0 = group_at(c, cell if cell is not None else -2)
        assert g0 is not None
        c.sel = g0.gid
        c.sub = ""
        return
    if k == "outside":
        c.sel = int(a.args[0])
        return
    if k == "end":
        end_turn(ctx, seat)
        return
    if k == "auto":  # deadline default of the attacker's first move: split and enter
        c.sel = 0
        for st in list(c.stacks):
            while int(st[1]) > 0 and can_enter_cell(s, c, B.perimeter[st[0]], 1):
                n = min(3, int(st[1]))
                st[1] = int(st[1]) - n
                g = Group(c.next_gid, -1, st[0], [ENEMY] * n, moves=moves_for(n))
                c.next_gid += 1
                c.groups.append(g)
                if can_enter(s, c, g, B.perimeter[st[0]]):
                    step_to(ctx, seat, g, B.perimeter[st[0]], "")
                if attacker_pawns(c) == 0:
                    break
            if int(st[1]) <= 0 and st in c.stacks:
                c.stacks.remove(st)
        for g in c.groups:
            if g.cell < 0 and g.moves > 0 and can_enter(s, c, g, B.perimeter[g.edge]):
                step_to(ctx, seat, g, B.perimeter[g.edge], "")
        if c.step == "round" and attacker_pawns(c) == 0:
            finish(ctx)
            return
        end_turn(ctx, seat)
        return
    if k == "hold":
        c.hold.append(seat)
        end_turn(ctx, seat)
        return
    g = by_id(c, c.sel)
    if k == "stop":  # this group is done for the combat round
        g.moves = 0
        g.stopped = True
        c.sel = 0
        return
    if k == "bonus":
        cell = B.parse_cell(a.args[0])
        h = group_at(c, cell if cell is not None else -2)
        assert h is not None
        discard(s, c, h)
        g.moves += 1
        g.bonus = True
        ctx.emit("rio.ev.bonus_step", seat=seat, cell=a.args[0])
        return
    if k == "enter":
        step_to(ctx, seat, g, B.perimeter[g.edge], "")
    elif k == "step":
        step_to(ctx, seat, g, B.nb4[g.cell][a.args[0]], "")
    elif k == "merge":
        target = B.nb4[g.cell][a.args[0]]
        h = group_at(c, target)
        assert h is not None
        commander = seat if a.args[1] == "me" else h.pawns[0]
        others = [p for p in h.pawns + g.pawns if p != seat]
        answerer = h.pawns[0] if h.pawns[0] != seat else others[0]
        c.pending = {"gid": g.gid, "target": h.gid, "commander": commander,
                     "answerer": answerer, "asker": seat, "cell": target}
        c.step = "merge"
        ctx.emit("rio.ev.merge_asked", seat=seat, target=answerer, commander=commander)
        if seat in s.players[answerer].trusts:
            answer_merge(ctx, True)
    refresh_sel(s, c, seat)
    if c.step == "round":
        check_over(ctx)


def refresh_sel(s: State, c: Combat, seat: int) -> None:
    """Drop the selection once the group is gone or has nothing left to do."""
    if c.sel and all(g.gid != c.sel for g in _selectable(s, c, seat)):
        c.sel = 0


def discard(s: State, c: Combat, h: Group) -> None:
    for p in h.pawns:
        if p != ENEMY:
            s.players[p].supply += 1
    c.groups.remove(h)


def step_to(ctx: C, seat: int, g: Group, j: int, how: str) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    what = can_enter(s, c, g, j)
    g.moves -= 1
    if what == "move":
        g.cell, g.edge = j, ""
        return
    h = group_at(c, j)
    if what == "battle":
        g.cell, g.edge = j, ""
        g.moves = 0
        if g.pawns[0] == ENEMY:
            c.provoked = True
            battle(ctx, g, h, j)
        else:
            assert h is not None
            battle(ctx, h, g, j)
        return
    assert h is not None
    if what == "merge":
        merge(ctx, g, h, g.pawns[0] if g.pawns[0] != ENEMY else ENEMY)
    elif what == "split":
        split(ctx, g, h)


def merge(ctx: C, g: Group, h: Group, commander: int) -> None:
    """``g`` joins ``h`` on h's cell; the commander's pawns go on top; both stop."""
    c = ctx.s.combat
    assert c is not None
    if commander in g.pawns and h.pawns[0] != commander:
        pawns = g.pawns + h.pawns
    else:
        pawns = h.pawns + g.pawns
    h.pawns = pawns
    h.moves = 0
    c.groups.remove(g)
    ctx.emit("rio.ev.merged", cell=B.token(h.cell), n=len(pawns), commander=controller(
        h, c.attacker))


def split(ctx: C, g: Group, h: Group) -> None:
    """2 + 2: the mover stays; one of its pawns goes on top of the other pair (§1.11)."""
    h.pawns = [g.pawns[0], *h.pawns]
    g.pawns = g.pawns[1:]
    g.moves = 0
    h.moves = 0
    ctx.emit("rio.ev.split", cell=B.token(h.cell))


def answer_merge(ctx: C, accepted: bool) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    pend = c.pending
    c.pending = {}
    c.step = "round"
    g = by_id(c, pend["gid"])
    h = by_id(c, pend["target"])
    ctx.emit("rio.ev.merge_accepted" if accepted else "rio.ev.merge_refused",
             seat=pend["answerer"], target=pend["asker"])
    if not accepted:
        c.refused.append([g.gid, h.gid])
        return
    g.moves -= 1
    commander = pend["commander"]
    if len(g.pawns) == 2 and len(h.pawns) == 2:
        mover_top = g.pawns[0]
        split(ctx, g, h)
        if commander != mover_top and commander in h.pawns:
            h.pawns.remove(commander)
            h.pawns.insert(0, commander)
    else:
        mine = [p for p in g.pawns + h.pawns if p == commander]
        rest = [p for p in g.pawns + h.pawns if p != commander]
        h.pawns = mine + rest
        h.moves = 0
        c.groups.remove(g)
        ctx.emit("rio.ev.merged", cell=B.token(h.cell), n=len(h.pawns), commander=commander)
    if c.sel and not any(x.gid == c.sel for x in c.groups):
        c.sel = 0


def share(ctx: C, pawns: list[int], total: int, reason: str) -> None:
    """Split VP over a group's owners by pawns, each share rounded half up (§1.11)."""
    if total <= 0:
        return
    s = ctx.s
    for seat in sorted(set(pawns)):
        part = (2 * total * pawns.count(seat) + len(pawns)) // (2 * len(pawns))
        rules.add_vp(s, seat, part)
        ctx.emit("rio.ev.vp", seat=seat, vp=part, reason=reason)


def battle(ctx: C, att: Group, dfd: Group | None, cell: int) -> None:
    """Bigger beats smaller; equal sizes both die unless one side has dominance; then the
    surviving attackers attack a destructible building (§1.11 battles)."""
    s = ctx.s
    c = s.combat
    assert c is not None
    att.fought = True
    if dfd is not None:
        dfd.fought = True
        a, d = len(att.pawns), len(dfd.pawns)
        dead_a, dead_d = (0, d) if a > d else ((a, 0) if a < d else (a, d))
        if a == d:
            att_dom, def_dom = dominance(s, c, cell)
            if att_dom and not def_dom:
                dead_a -= 1
            elif def_dom and not att_dom:
                dead_d -= 1
        start = list(dfd.pawns)
        for p in dfd.pawns[:dead_d]:
            rules.add_vp(s, p, int(CB["vp_own_pawn"]))
            s.players[p].supply += 1
            ctx.emit("rio.ev.vp", seat=p, vp=CB["vp_own_pawn"], reason="own_pawn")
        if dead_a:
            total = dead_a * int(CB["vp_enemy"])
            gen = s.chars.get("general")
            if gen is not None and gen[0] in start and gen[0] != c.attacker and rules.holds(
                    s, "general", gen[0]):
                total += dead_a * int(CB["vp_general"])
            share(ctx, start, total, "enemies")
        att.pawns = att.pawns[dead_a:]
        dfd.pawns = dfd.pawns[dead_d:]
        ctx.emit("rio.ev.battle", cell=B.token(cell), att=a, dfd=d, att_lost=dead_a,
                 dfd_lost=dead_d)
        if not dfd.pawns:
            c.groups.remove(dfd)
    if att.pawns and destructible(s, cell) and (dfd is None or not dfd.pawns):
        attack_building(ctx, att, cell)
    if not att.pawns:
        c.groups.remove(att)
    elif dfd is not None and dfd.pawns and dfd in c.groups:
        pass


def attack_building(ctx: C, att: Group, cell: int) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    b = s.bld[cell]
    vp_table = CB["vp_building"]
    vp = int(vp_table.get(b, vp_table["minor"]))
    if b in ("hut", "house") and s.bown[cell] == c.attacker:
        vp = 0  # [designed] no VP for razing one's own dwellings
    rules.add_vp(s, c.attacker, vp)
    att.pawns = att.pawns[1:]
    ctx.emit("rio.ev.destroyed", seat=c.attacker, building=b, cell=B.token(cell), vp=vp)
    if b in ("monument", "garden"):
        s.bld[cell] = "square"
    else:
        s.bld[cell] = ""
        s.bown[cell] = -1


def attacker_pawns(c: Combat) -> int:
    return staged_total(c) + sum(len(g.pawns) for g in c.groups if g.pawns[0] == ENEMY)


def end_turn(ctx: C, seat: int) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    c.sel = 0
    c.sub = ""
    if seat == c.attacker:
        c.first = False
    while True:
        c.turn += 1
        if c.turn >= len(c.order):
            end_combat_round(ctx)
            return
        nxt = c.order[c.turn]
        if nxt not in c.hold and any(controller(g, c.attacker) == nxt for g in c.groups):
            return


def check_over(ctx: C) -> None:
    c = ctx.s.combat
    assert c is not None
    if attacker_pawns(c) == 0:
        finish(ctx)


def end_combat_round(ctx: C) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    ctx.emit(TURN_END, round=c.round)
    c.quiet = 0 if c.provoked else c.quiet + 1
    if attacker_pawns(c) == 0 or c.quiet >= int(CB["no_battle_rounds"]) or c.round >= int(
            CB["round_cap"]):
        finish(ctx)
        return
    c.round += 1
    c.provoked = False
    c.turn = 0
    c.sel = 0
    c.refused = []
    for g in c.groups:
        g.moves = moves_for(len(g.pawns))
        g.fought = False
        g.bonus = False
        g.stopped = False
    ctx.emit("rio.ev.combat_round", n=c.round)


def keepable(s: State, c: Combat, seat: int) -> list[int]:
    return [g.cell for g in c.groups
            if g.cell >= 0 and g.pawns[0] == seat and all(p == seat for p in g.pawns)
            and not s.bld[g.cell] and g.cell not in B.reserved]


def finish(ctx: C) -> None:
    """Enemies leave; mixed groups go home; defenders then keep or withdraw (§1.11)."""
    s = ctx.s
    c = s.combat
    assert c is not None
    c.stacks = []
    for g in list(c.groups):
        if g.pawns[0] == ENEMY:
            c.groups.remove(g)
        elif g.cell < 0 or len(set(g.pawns)) > 1 or s.bld[g.cell] or g.cell in B.reserved:
            discard(s, c, g)
    c.sel = 0
    c.step = "keep"
    c.keep_pending = [x for x in c.order[1:] if keepable(s, c, x)]
    ctx.emit("rio.ev.combat_over", enemy=c.enemy)
    if not c.keep_pending:
        close(ctx)


def keep_subset_cells(s: State, seat: int) -> list[str]:
    c = s.combat
    assert c is not None
    return [B.token(i) for i in keepable(s, c, seat)]


def run_keep(ctx: C, seat: int, cells: list[str]) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    kept = {B.parse_cell(t) for t in cells}
    for g in list(c.groups):
        if g.pawns[0] == seat:
            if g.cell in kept:
                s.cw[g.cell] = [[seat, len(g.pawns), ROLE_STAY]]
                c.groups.remove(g)
            else:
                discard(s, c, g)
    c.keep_pending.remove(seat)
    ctx.emit("rio.ev.kept", seat=seat, n=len(kept))
    if not c.keep_pending:
        close(ctx)


def close(ctx: C) -> None:
    s = ctx.s
    c = s.combat
    assert c is not None
    for g in list(c.groups):
        discard(s, c, g)
    retreat(s, c.enemy)
    forced = c.forced
    s.combat = None
    rules.expire_trades(ctx)
    ctx.emit(TURN_END)
    if forced:
        end_game(ctx)
    else:
        after_check(ctx)
