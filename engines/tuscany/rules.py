"""The rules proper: setup, legal decisions and their effects, on a mutable cloned state.

Section names in comments refer to the French rulebook (``seeds/001_…``). Decisions where
the rulebook is silent are listed in ``docs/rules/tuscany.md``.
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.base import TURN_END, Action, Ctx, Message, Subset

from .board import LABELS, NUM_SPACES, ORDERS, SHIFTS, TURNS, Geometry, geometry
from .data import (
    BONUSES,
    CASTLE,
    CITY,
    CODES,
    DISPLAY_SIZE,
    DOMAIN_COUNTS,
    DRAW_COUNT,
    FARM,
    HAND_SIZE,
    IMP_CARD,
    IMP_INCOME,
    IMP_MARBLE,
    IMP_STORAGE,
    IMP_WORKER,
    IMPROVEMENTS,
    INCOME,
    INCOME_COUNTS,
    INN,
    JOKER,
    JOKER_FALLBACK_RED,
    MODULE_GROUPS,
    MONASTERY,
    MONASTERY_DRAW,
    NEUTRAL_IDS,
    PILE_SIZE,
    QUARRY,
    RESET_COUNT,
    STORAGE_GREEN,
    TILES,
    TRADE,
    VILLAGE,
    ZONE_POINTS,
    own_tiles,
    start_castle,
)
from .state import AUTO_FRAMES, Frame, Player, State

WORKER = "worker"
RESET_GUARD = 64  # display resets in one cascade before giving up (never reached in play)


def act(kind: str, *args: str) -> Action:
    return Action(kind, tuple(args))


# --- names used in events and choices ------------------------------------------------

def tile_key(tile: int | None) -> Message:
    if tile is None:
        return Message("tuscany.tile.none")
    if tile == JOKER:
        return Message("tuscany.tile.j")
    return Message(f"tuscany.tile.{TILES[tile].kind}")


def colour_key(colour: int) -> Message:
    return Message(f"tuscany.colour.{CODES[colour]}")


def unit_key(unit: str, count: int = 1) -> Message:
    if unit == WORKER:
        return Message("tuscany.pay.worker", {"count": count})
    if unit.startswith("2"):
        return Message(f"tuscany.pay.pair_{unit[1:]}", {"count": count})
    return Message(f"tuscany.pay.card_{unit}", {"count": count})


def payment(units: Iterable[str]) -> list[Message]:
    """A payment's units counted ("2 orange cards", not "1 orange card, 1 orange card")."""
    counts: dict[str, int] = {}
    for unit in units:
        counts[unit] = counts.get(unit, 0) + 1
    return [unit_key(unit, n) for unit, n in counts.items()]


# --- setup ----------------------------------------------------------------------------

def new_state(num_players: int, seed: int) -> State:
    """Setup (rulebook "Mise en place"); every random step goes through the shared Ctx."""
    s = State(num_players, seed, 0, [])
    ctx = Ctx(s)
    groups = {g: list(MODULE_GROUPS[g]) for g in "ABC"}
    for g in "ABC":
        ctx.shuffle(groups[g])
    for seat in range(num_players):
        p = Player([groups["A"][seat], groups["B"][seat], groups["C"][seat]])
        p.order = ctx.choice(ORDERS)
        p.turns = ctx.choice(TURNS)
        p.shifts = ctx.choice(SHIFTS)
        tiles = list(own_tiles(seat))
        ctx.shuffle(tiles)
        p.piles = [tiles[i * PILE_SIZE:(i + 1) * PILE_SIZE] for i in range(3)]
        s.players.append(p)
    s.first = s.current = ctx.randrange(num_players)
    s.deck = [c for c in range(8) for _ in range(DOMAIN_COUNTS[c])]
    ctx.shuffle(s.deck)
    s.income = [k for k, n in INCOME_COUNTS.items() for _ in range(n)]
    ctx.shuffle(s.income)
    s.neutral = list(NEUTRAL_IDS)
    ctx.shuffle(s.neutral)
    s.display = [s.neutral.pop() for _ in range(DISPLAY_SIZE)]
    for p in s.players:
        for _ in range(HAND_SIZE):
            p.hand[s.deck.pop()] += 1
    check_reset(ctx)  # cannot trigger with 4 neutral tiles per colour, kept for safety
    return s


def geo(p: Player) -> Geometry:
    return geometry((p.modules[0], p.modules[1], p.modules[2]), p.order, p.turns, p.shifts)


# --- queries --------------------------------------------------------------------------

def frontier(p: Player, g: Geometry) -> list[int]:
    """Free spaces touching an occupied space by a side (rulebook "Poser une tuile")."""
    board = p.board
    out = []
    for s in range(NUM_SPACES):
        if board[s] is None:
            for t in g.adjacent[s]:
                if board[t] is not None:
                    out.append(s)
                    break
    return out


def units_total(p: Player, colour: int) -> int:
    """How many of the 2 required "units" the player can pay for this colour."""
    hand = p.hand
    return hand[colour] + p.workers + sum(hand[c] // 2 for c in range(8) if c != colour)


def target_spaces(p: Player, g: Geometry, tile: int, pay: bool) -> list[int]:
    """Legal spaces for a tile (JOKER: any colour), affordable when ``pay``."""
    out = []
    colours = g.colours
    for s in frontier(p, g):
        c = colours[s]
        if tile != JOKER and c != TILES[tile].colour:
            continue
        if pay and units_total(p, c) < 2:
            continue
        out.append(s)
    return out


def placeable_slots(p: Player) -> list[int]:
    """Stored tiles with a legal, affordable space; a joker gained this turn waits for a
    later turn (rulebook "Auberge": "Lors d'un tour ultérieur", decision 13)."""
    g = geo(p)
    return [k for k, t in enumerate(p.storage) if t is not None
            and k not in p.fresh_jokers and target_spaces(p, g, t, True)]


def free_of_colour(p: Player, g: Geometry, colour: int) -> bool:
    return any(p.board[s] is None for s in g.by_colour[colour])


def stuck(s: State, p: Player) -> bool:
    """No display tile could ever go on this region (rulebook: "Remarque", taking tiles)."""
    g = geo(p)
    tiles = [t for t in s.display if t is not None]
    return bool(tiles) and not any(free_of_colour(p, g, TILES[t].colour) for t in tiles)


def neutral_available(s: State) -> bool:
    """A swap needs at least one neutral tile to reveal, or the display could empty."""
    return bool(s.neutral) or any(TILES[t].owner < 0 for t in s.neutral_discard)


def castle_candidates(s: State, p: Player) -> list[int]:
    g = geo(p)
    return [i for i, t in enumerate(s.display) if t is not None and target_spaces(p, g, t, False)]


def unit_order(colour: int) -> list[str]:
    return [CODES[colour], WORKER] + ["2" + CODES[c] for c in range(8) if c != colour]


def can_pay(p: Player, colour: int, units: tuple[str, ...]) -> bool:
    need = [0] * 8
    workers = 0
    for u in units:
        if u == WORKER:
            workers += 1
        elif u.startswith("2"):
            c = CODES.index(u[1:])
            if c == colour:
                return False
            need[c] += 2
        else:
            if u != CODES[colour]:
                return False
            need[colour] += 1
    return workers <= p.workers and all(need[c] <= p.hand[c] for c in range(8))


def unit_options(p: Player, colour: int) -> tuple[str, ...]:
    """Each payment unit as often as it can be paid, at most twice. Units draw on separate
    resources (the colour's cards, workers, pairs of each other colour), so any two of these
    options make a payment: the decision is a subset of 2 (rulebook "Poser", "Village")."""
    hand = p.hand
    out: list[str] = []
    for u in unit_order(colour):
        have = p.workers if u == WORKER else (
            hand[CODES.index(u[1:])] // 2 if u.startswith("2") else hand[colour])
        out += [u] * min(2, have)
    return tuple(out)


def pay_subsets(s: State, seat: int) -> list[Subset]:
    """More than 25 ways to pay: one multi-select of 2 units instead of a list of pairs."""
    if s.phase != "play" or seat != s.current or not s.stack or s.stack[-1].kind != "pay":
        return []
    f, p = s.stack[-1], s.players[seat]
    colour = geo(p).colours[f.space]
    if f.units or len(payments(p, colour)) <= 25:
        return []
    return [Subset("pay", unit_options(p, colour), 2, 2)]


def payments(p: Player, colour: int) -> list[tuple[str, ...]]:
    """Every distinct way to pay 2 units for this colour (rulebook "Poser", "Village")."""
    order = unit_order(colour)
    out: list[tuple[str, ...]] = []
    for i, a in enumerate(order):
        for b in order[i:]:
            if can_pay(p, colour, (a, b)):
                out.append((a, b))
    return out


# --- legal actions --------------------------------------------------------------------

def active(s: State) -> frozenset[int]:
    if s.phase == "arrange":
        return frozenset(i for i, p in enumerate(s.players) if not p.confirmed)
    if s.phase == "castle":
        return frozenset(i for i, p in enumerate(s.players) if start_castle(i) not in p.board)
    if s.phase in ("improve", "play"):
        return frozenset((s.current,))
    return frozenset()


def legal(s: State, seat: int) -> list[Action]:
    if seat not in active(s):
        return []
    p = s.players[seat]
    if s.phase == "arrange":
        return _legal_arrange(p)
    if s.phase == "castle":
        g = geo(p)
        return [act("castle", LABELS[x]) for x in g.by_colour[CASTLE]]
    if s.phase == "improve":
        return _legal_improve(s)
    return _legal_frame(s, p, s.stack[-1])


def _legal_arrange(p: Player) -> list[Action]:
    out = [act("confirm")]
    out += [act("arrange", o, p.turns, p.shifts) for o in ORDERS if o != p.order]
    for pos in range(3):
        flipped = p.turns[:pos] + ("0" if p.turns[pos] == "1" else "1") + p.turns[pos + 1:]
        out.append(act("arrange", p.order, flipped, p.shifts))
    out += [act("arrange", p.order, p.turns, sh) for sh in SHIFTS if sh != p.shifts]
    return out


def _legal_improve(s: State) -> list[Action]:
    return [act("improve", IMPROVEMENTS[i]) for i in range(len(IMPROVEMENTS)) if s.supply[i]]


def _legal_frame(s: State, p: Player, f: Frame) -> list[Action]:
    k = f.kind
    if k == "main":
        out = []
        if any(t is not None for t in s.display):
            out.append(act("take"))
        if placeable_slots(p):
            out.append(act("place"))
        # Draw needs a card to draw (docs/rules/tuscany.md): with the deck and its discard
        # empty it would be a pass, which the game has not, and AI seats passed for 1,400
        # moves rather than end the round behind (2 seats, seed 1003).
        if s.deck or s.discard or not out:
            out.insert(0, act("draw"))
        return out
    if k == "take":
        out = [act("pick", str(i)) for i, t in enumerate(s.display) if t is not None]
        if stuck(s, p) and neutral_available(s):
            colours = sorted({TILES[t].colour for t in s.display if t is not None})
            out += [act("swap", CODES[c]) for c in colours]
        return out
    if k == "replace":
        return [act("discard", str(i)) for i in range(len(p.storage))]
    if k == "place":
        return [act("tile", str(i)) for i in placeable_slots(p)]
    if k == "space":
        assert f.tile is not None
        spaces = target_spaces(p, geo(p), f.tile, f.src == "store")
        return [act("space", LABELS[x]) for x in spaces]
    if k == "pay":
        colour = geo(p).colours[f.space]
        if f.units:
            return [act("pay", u) for u in unit_order(colour)
                    if can_pay(p, colour, f.units + (u,))]
        full = payments(p, colour)
        return [act("pay", a, b) for a, b in full] if len(full) <= 25 else []
    if k == "castle":
        return [act("pick", str(i)) for i in castle_candidates(s, p)] + [act("skip")]
    if k == "improve":
        return _legal_improve(s)
    if k == "extra":
        return [act("marble"), act("end")]
    return []


# --- applying -------------------------------------------------------------------------

def run(ctx: Ctx[State], seat: int, a: Action) -> None:
    """Apply an action already known to be legal, then resolve automatic steps."""
    s = ctx.s
    p = s.players[seat]
    if s.phase == "arrange":
        _arrange(ctx, seat, p, a)
    elif s.phase == "castle":
        space = LABELS.index(a.args[0])
        p.board[space] = start_castle(seat)
        ctx.emit("tuscany.ev.start_castle", player=seat, space=a.args[0])
        if not active(s):
            s.phase = "improve"
            s.current = s.first
            ctx.emit(TURN_END)
    elif s.phase == "improve":
        take_improvement(ctx, seat, p, a.args[0])
        ctx.emit(TURN_END, player=seat)
        s.current = (s.current + 1) % s.num_players
        if s.current == s.first:
            s.phase = "play"
            s.stack = [Frame("main")]
            ctx.emit("tuscany.ev.play_starts", player=s.first)
    else:
        _play(ctx, seat, p, a)
        _resolve_auto(ctx)


def _arrange(ctx: Ctx[State], seat: int, p: Player, a: Action) -> None:
    if a.kind == "confirm":
        p.confirmed = True
        ctx.emit("tuscany.ev.confirmed", player=seat)
        if not active(ctx.s):
            ctx.s.phase = "castle"
            ctx.emit(TURN_END)
        return
    p.order, p.turns = a.args[0], a.args[1]
    p.shifts = "000" if a.args[2] == "111" else a.args[2]


def take_improvement(ctx: Ctx[State], seat: int, p: Player, name: str) -> None:
    """Rulebook "Cité": take one improvement; storage also gives 2 green VP at once."""
    i = IMPROVEMENTS.index(name)
    ctx.s.supply[i] -= 1
    p.imps[i] += 1
    ctx.emit("tuscany.ev.improvement", player=seat,
             improvement=Message(f"tuscany.improvement.{name}"))
    if i == IMP_STORAGE:
        p.storage.append(None)
        p.green += STORAGE_GREEN
        ctx.emit("tuscany.ev.green", player=seat, points=STORAGE_GREEN)


def _play(ctx: Ctx[State], seat: int, p: Player, a: Action) -> None:
    s = ctx.s
    f = s.stack.pop()
    k, args = a.kind, a.args
    if f.kind == "main":
        s.stack.append(Frame("done"))
        if k == "draw":
            n = DRAW_COUNT + p.imps[IMP_CARD]
            draw_cards(ctx, seat, p, n)
        elif k == "take":
            s.stack.append(Frame("take"))
        else:
            s.stack.append(Frame("place"))
    elif f.kind == "take":
        if k == "swap":
            swap_colour(ctx, seat, CODES.index(args[0]))
            s.stack.append(f)
            return
        slot = int(args[0])
        if None in p.storage:
            store(ctx, seat, p, slot, p.storage.index(None))
        else:
            s.stack.append(Frame("replace", slot=slot))
    elif f.kind == "replace":
        k_slot = int(args[0])
        old = p.storage[k_slot]
        if old is not None and old != JOKER:
            s.boxed.append(old)
        ctx.emit("tuscany.ev.boxed", player=seat, tile=tile_key(old))
        p.storage[k_slot] = None
        if k_slot in p.fresh_jokers:
            p.fresh_jokers.remove(k_slot)
        store(ctx, seat, p, f.slot, k_slot)
    elif f.kind == "place":
        slot = int(args[0])
        s.stack.append(Frame("space", slot=slot, tile=p.storage[slot], src="store"))
    elif f.kind == "space":
        space = LABELS.index(args[0])
        assert f.tile is not None
        if f.src == "store":
            s.stack.append(Frame("pay", slot=f.slot, tile=f.tile, space=space))
        else:
            ctx.emit("tuscany.ev.place_direct", player=seat, tile=tile_key(f.tile),
                     space=args[0])
            put_tile(ctx, seat, p, f.tile, space)
    elif f.kind == "pay":
        units = f.units + args
        if len(units) < 2:
            s.stack.append(Frame("pay", f.slot, f.tile, f.space, f.src, units))
            return
        assert f.tile is not None
        spend(ctx, p, geo(p).colours[f.space], units)
        p.storage[f.slot] = None
        ctx.emit("tuscany.ev.place", player=seat, tile=tile_key(f.tile),
                 space=LABELS[f.space], payment=payment(units))
        put_tile(ctx, seat, p, f.tile, f.space)
    elif f.kind == "castle":
        if k == "skip":
            ctx.emit("tuscany.ev.castle_skip", player=seat)
            return
        slot = int(args[0])
        tile = s.display[slot]
        s.display[slot] = None
        s.stack.append(Frame("refill", slot=slot))
        s.stack.append(Frame("space", slot=slot, tile=tile, src="display"))
    elif f.kind == "improve":
        take_improvement(ctx, seat, p, args[0])
    elif f.kind == "extra":
        if k == "marble":
            p.marbles -= 1
            s.marble_used = True
            ctx.emit("tuscany.ev.marble_spent", player=seat)
            s.stack += [Frame("done"), Frame("main")]
        else:
            end_turn(ctx)


def _resolve_auto(ctx: Ctx[State]) -> None:
    s = ctx.s
    while s.stack and s.stack[-1].kind in AUTO_FRAMES:
        f = s.stack.pop()
        if f.kind == "refill":
            refill(ctx, s.current, f.slot)
        elif not s.marble_used and s.players[s.current].marbles > 0:
            s.stack.append(Frame("extra"))  # rulebook "Carrière": once per turn
        else:
            end_turn(ctx)


# --- cards ----------------------------------------------------------------------------

def draw_cards(ctx: Ctx[State], seat: int, p: Player, n: int) -> None:
    """Draw from the domain deck, reshuffling the discard when it runs out."""
    s = ctx.s
    got: list[int] = []
    for _ in range(n):
        if not s.deck:
            if not s.discard:
                break
            s.deck, s.discard = s.discard, []
            ctx.shuffle(s.deck)
            ctx.emit("tuscany.ev.deck_reshuffle", count=len(s.deck))
        c = s.deck.pop()
        p.hand[c] += 1
        got.append(c)
    ctx.irreversible = True
    ctx.emit("tuscany.ev.draw", player=seat, count=len(got))
    ctx.emit("tuscany.ev.draw_private", to=seat, cards=[colour_key(c) for c in sorted(got)])


def spend(ctx: Ctx[State], p: Player, colour: int, units: tuple[str, ...]) -> None:
    for u in units:
        if u == WORKER:
            p.workers -= 1
        else:
            c, n = (CODES.index(u[1:]), 2) if u.startswith("2") else (colour, 1)
            p.hand[c] -= n
            ctx.s.discard += [c] * n


# --- tiles ----------------------------------------------------------------------------

def store(ctx: Ctx[State], seat: int, p: Player, display_slot: int, storage_slot: int) -> None:
    """Rulebook "Prendre une tuile": to storage, then refill from the leftmost pile."""
    s = ctx.s
    tile = s.display[display_slot]
    p.storage[storage_slot] = tile
    s.display[display_slot] = None
    ctx.emit("tuscany.ev.take", player=seat, tile=tile_key(tile))
    refill(ctx, seat, display_slot)


def refill(ctx: Ctx[State], seat: int, slot: int) -> None:
    """Reveal the top of the leftmost non-empty pile (a neutral tile once all are used)."""
    s = ctx.s
    p = s.players[seat]
    ctx.irreversible = True
    for pile in p.piles:
        if pile:
            tile = pile.pop()
            s.display[slot] = tile
            ctx.emit("tuscany.ev.reveal", player=seat, tile=tile_key(tile))
            # Rulebook "Les 3 manches": emptying pile 1/2/3 ends round 1/2/3.
            if not s.trigger and not p.piles[s.round - 1]:
                trigger_round(ctx, seat)
            break
    else:
        s.display[slot] = draw_neutral(ctx)
        ctx.emit("tuscany.ev.reveal_neutral", tile=tile_key(s.display[slot]))
    check_reset(ctx)


def trigger_round(ctx: Ctx[State], seat: int) -> None:
    """Announce the end of the round; round 3 is followed by one more rotation."""
    s = ctx.s
    s.trigger = True
    key = "tuscany.ev.round_trigger_last" if s.round == 3 else "tuscany.ev.round_trigger"
    ctx.emit(key, player=seat, round=s.round)


def draw_neutral(ctx: Ctx[State]) -> int | None:
    """Top neutral tile; when none is left, reshuffle only the discarded neutral ones."""
    s = ctx.s
    if not s.neutral and s.neutral_discard:
        keep = [t for t in s.neutral_discard if TILES[t].owner < 0]
        s.boxed += [t for t in s.neutral_discard if TILES[t].owner >= 0]
        s.neutral_discard = []
        s.neutral = keep
        ctx.shuffle(s.neutral)
        ctx.emit("tuscany.ev.neutral_reshuffle", count=len(keep))
    ctx.irreversible = True
    return s.neutral.pop() if s.neutral else None


def check_reset(ctx: Ctx[State]) -> None:
    """Rulebook "Trop de tuiles…": 5 of a colour face up are replaced by neutral tiles."""
    s = ctx.s
    for _ in range(RESET_GUARD):
        counts = [0] * 8
        for t in s.display:
            if t is not None:
                counts[TILES[t].colour] += 1
        colour = next((c for c in range(8) if counts[c] >= RESET_COUNT), None)
        if colour is None:
            return
        ctx.emit("tuscany.ev.reset", colour=colour_key(colour), count=counts[colour])
        _replace_colour(ctx, colour)


def _replace_colour(ctx: Ctx[State], colour: int) -> None:
    s = ctx.s
    slots = [i for i, t in enumerate(s.display) if t is not None and TILES[t].colour == colour]
    for i in slots:
        t = s.display[i]
        assert t is not None
        s.neutral_discard.append(t)
        s.display[i] = None
    for i in slots:
        s.display[i] = draw_neutral(ctx)


def swap_colour(ctx: Ctx[State], seat: int, colour: int) -> None:
    """The stuck player's swap: all display tiles of one colour for neutral ones."""
    ctx.emit("tuscany.ev.swap", player=seat, colour=colour_key(colour))
    _replace_colour(ctx, colour)
    check_reset(ctx)


def put_tile(ctx: Ctx[State], seat: int, p: Player, tile: int, space: int) -> None:
    """The tile lands: zone, agriculture and colour-bonus VP, then its effect."""
    s = ctx.s
    g = geo(p)
    p.board[space] = tile
    colour = g.colours[space]
    zone = g.zones[g.zone_of[space]]
    if colour == FARM:
        # Rulebook "Agriculture"/"Auberge": +1 per type new to the zone; a joker always 1.
        if tile == JOKER:
            points = 1
        else:
            present = {c for x in zone if x != space and (o := p.board[x]) is not None
                       and o != JOKER for c in TILES[o].crops}
            points = sum(1 for c in TILES[tile].crops if c not in present)
        if points:
            p.green += points
            ctx.emit("tuscany.ev.farm", player=seat, points=points)
    if all(p.board[x] is not None for x in zone):
        points = ZONE_POINTS[len(zone)]
        p.green += points
        ctx.emit("tuscany.ev.zone", player=seat, points=points, size=len(zone))
    if all(p.board[x] is not None for x in g.by_colour[colour]):
        claimed = s.bonus[colour]
        if len(claimed) < 2 and seat not in claimed:
            points = BONUSES[colour][len(claimed)]
            claimed.append(seat)
            p.green += points
            ctx.emit("tuscany.ev.bonus", player=seat, colour=colour_key(colour),
                     points=points, rank=len(claimed))
    _effect(ctx, seat, p, colour)


def _effect(ctx: Ctx[State], seat: int, p: Player, colour: int) -> None:
    s = ctx.s
    if colour == CASTLE:
        if castle_candidates(s, p):
            s.stack.append(Frame("castle"))
        else:
            ctx.emit("tuscany.ev.castle_none", player=seat)
    elif colour == CITY:
        if any(s.supply):
            s.stack.append(Frame("improve"))
    elif colour == INN:
        gain_joker(ctx, seat, p)
    elif colour == QUARRY:
        n = 1 + p.imps[IMP_MARBLE]
        p.marbles += n
        ctx.emit("tuscany.ev.marbles", player=seat, count=n)
    elif colour == VILLAGE:
        n = 1 + p.imps[IMP_WORKER]
        p.workers += n
        ctx.emit("tuscany.ev.workers", player=seat, count=n)
    elif colour == MONASTERY:
        draw_cards(ctx, seat, p, MONASTERY_DRAW)  # card improvements do not apply
    elif colour == TRADE:
        for _ in range(1 + p.imps[IMP_INCOME]):
            reveal_income(ctx, seat, p)


def gain_joker(ctx: Ctx[State], seat: int, p: Player) -> None:
    """A joker goes to a free storage space; with none free it is 2 red VP instead.
    It is marked as gained this turn: it can be placed from the player's next turn on."""
    if None in p.storage:
        slot = p.storage.index(None)
        p.storage[slot] = JOKER
        p.fresh_jokers.append(slot)
        ctx.emit("tuscany.ev.joker", player=seat)
    else:
        p.red += JOKER_FALLBACK_RED
        ctx.emit("tuscany.ev.joker_red", player=seat, points=JOKER_FALLBACK_RED)


def reveal_income(ctx: Ctx[State], seat: int, p: Player) -> None:
    """Rulebook "Commerce": reveal an income card, gain it, discard it face up."""
    s = ctx.s
    if not s.income:
        s.income, s.income_discard = s.income_discard, []
        ctx.shuffle(s.income)
        ctx.emit("tuscany.ev.income_reshuffle", count=len(s.income))
    ctx.irreversible = True
    card = s.income.pop()
    s.income_discard.append(card)
    ctx.emit("tuscany.ev.income", player=seat, card=Message(f"tuscany.income.{card}"))
    (effect, n), = INCOME[card].items()
    if effect == "red":
        p.red += n
    elif effect == "green":
        p.green += n
    elif effect == "cards":
        draw_cards(ctx, seat, p, n)
    elif effect == "marbles":
        p.marbles += n
    elif effect == "workers":
        p.workers += n
    else:
        for _ in range(n):
            gain_joker(ctx, seat, p)


# --- turns, rounds, scoring -----------------------------------------------------------

def end_turn(ctx: Ctx[State]) -> None:
    s = ctx.s
    seat = s.current
    s.players[seat].fresh_jokers = []  # jokers gained this turn become placeable
    ctx.emit(TURN_END, player=seat)
    s.turn += 1
    if seat == (s.first + s.num_players - 1) % s.num_players and s.trigger:
        _end_rotation(ctx)
        if s.phase == "over":
            return
    s.current = (seat + 1) % s.num_players
    s.marble_used = False
    s.stack = [Frame("main")]


def _end_rotation(ctx: Ctx[State]) -> None:
    """Rulebook "Les 3 manches" and "Décomptes"."""
    s = ctx.s
    if s.round == 3 and not s.extra:
        s.extra = True  # round 3: everyone plays once more
        ctx.emit("tuscany.ev.extra_rotation")
        return
    score_round(ctx)
    if s.round < 3:
        s.round += 1
        s.trigger = False
        # Decision 9: a pile of the new round emptied earlier ends it with this rotation.
        late = next((i for i, p in enumerate(s.players) if not p.piles[s.round - 1]), None)
        if late is not None:
            trigger_round(ctx, late)
        return
    final_scoring(ctx)
    s.phase = "over"
    s.stack = []


def score_round(ctx: Ctx[State]) -> None:
    """Green VP are added to red VP; green is never reset."""
    s = ctx.s
    ctx.emit("tuscany.ev.round_end", round=s.round)
    for seat, p in enumerate(s.players):
        p.red += p.green
        ctx.emit("tuscany.ev.scoring", player=seat, green=p.green, red=p.red)


def leftovers(p: Player) -> int:
    stored = sum(1 for t in p.storage if t is not None)
    return stored + p.marbles + p.workers + sum(p.hand) // 5


def final_scoring(ctx: Ctx[State]) -> None:
    """Rulebook "Fin de la partie": 1 red VP per leftover item and per 5 cards."""
    for seat, p in enumerate(ctx.s.players):
        points = leftovers(p)
        p.red += points
        ctx.emit("tuscany.ev.leftovers", player=seat, points=points, total=p.red)
    ctx.emit("tuscany.ev.game_over")


def empty_spaces(p: Player) -> int:
    return sum(1 for t in p.board if t is None)


def standing_key(p: Player) -> tuple[int, int, int]:
    """Most red VP; ties: most empty spaces, then most green VP."""
    return (p.red, empty_spaces(p), p.green)
