"""What Río's AI needs: ``determinize`` and ``evaluate`` (see docs/AI.md).

Río hides nothing but other players' unsent trade drafts and menu cursors (not game
information) and the dice to come, so ``determinize`` only drops those drafts and reseeds.
``evaluate`` compares a seat's worth with its best rival's. A worth counts what a seat has
(VP, goods, cargo, huts and houses by quarter value, characters) and, at a discount, what
its placed workers will bring (ladder spaces, production, sectors, claims, cell workers):
Río's workers pay off a phase or more after they are placed, and without that a one-step
lookahead sees placing a worker as worth nothing and passes every turn. It counts the
place in turn order too, or seats never bid for it.
"""

from __future__ import annotations

from itertools import compress
from operator import mul

from engines.rng import Rng

from . import city, rules
from .data import BOARD
from .state import ROLE_ACT, ROLE_STAY, ROLE_UPGRADE, State

# Worth of one unit in VP, mid-game: silver 3 = 1 VP at the end (more before, it buys
# characters and churches' VP); wood/stone buy ladder spaces and buildings; cargo pays
# 1 silver + 1 VP per good on the ship's return (precious double).
SILVER, GOOD, PRECIOUS = 0.4, 0.5, 0.6
CARGO = (1.3, 1.3, 2.6)  # wood, stone, precious loaded (the ship may be slow to sail)
SCALE = 5.0  # VP of lead for a standing of 0.75: a search needs returns that differ
STOCK, HOARD = 4, 0.3  # goods of one kind worth keeping; a hoard beyond, at this share
PENDING = 0.8  # what a placed worker will bring, discounted: resolving it is always better
HUT, HOUSE_EXTRA, CELL_WORKER, UPGRADE = 1.5, 2.0, 0.3, 0.3
# A hut scores nothing: it is worth the house it may become (1 worker, 1 wood, 1 stone), so
# only a few waiting huts at a time and less as the end nears. Valued flat, huts drew every
# worker: a normal seat built 13 (the cap) by round 12, then its workers sat on empty
# cells they could build nothing on, and it ended with 26 VP against easy's 109 and 56
# (3 seats, seed 1000).
HUTS_WAITING = 2
LOCKED = 0.3  # a worker held on a ladder until it fills brings nothing else meanwhile
# Past what a round can place (``BOARD.per_round``), a worker held on an open ladder costs
# the seat a placement (about SHORT VP) every round it stays, HELD_ROUNDS at most counted:
# against random seats, which fill no ladder, easy put 6 of its workers on ladders in
# rounds 2-3 and ended at 0 VP with 14 wood and 12 stone (4 seats, seed 1002).
SHORT, HELD_ROUNDS = 0.5, 4
# First place in turn order, at the start, over last (in between, a share), by the order
# the bids so far will give: the first to place takes what the others then cannot. Without
# it seats seldom bid (the order changed 2-5 times in 3-seat games) and the seat the seed
# put first won 47 of 60 two-seat games of easy against easy. Easy with it beat easy
# without it in 36 of 40 two-seat and 28 of 30 three-seat games, every seed from every
# chair; 0.5, 2 and 4 did as well, and 1 beat 0.5 and 2 in 15 of 27 and 16 of 29 (docs/AI-LOG.md).
ORDER = 1.0
INCOME = {"master_stonecutter": GOOD, "master_carpenter": GOOD, "master_craftsman": PRECIOUS,
          "master_merchant": PRECIOUS}
ACTIVATION = {"church": 2 - SILVER, "stonecutter": 2 * GOOD, "carpenter": 2 * GOOD,
              "market": SILVER, "company": 2 * SILVER}


def determinize(s: State, seat: int, rng: Rng) -> State:
    out = s.clone()
    out.rng = rng.next64()
    for key in list(out.drafts):
        if key != str(seat):
            del out.drafts[key]
    return out


def _character(s: State, char: str, conn: set[int]) -> float:
    """A character's end VP now plus its income over the rounds still to come."""
    left = max(0, s.rounds - s.round)
    return rules.character_vp(s, char, conn) + INCOME.get(char, 0.0) * left


def _goods(n: int, worth: float) -> float:
    """A stock of one good: beyond what a round or two can spend, a hoard is worth less
    (at 4-5 seats easy produced every round and held 15+ goods it never used)."""
    if n <= STOCK:  # most stocks: the same float as with the hoard's 0.0 added
        return worth * n
    return worth * STOCK + HOARD * worth * (n - STOCK)


_CELLS = range(BOARD.ncells)


def _occupied(s: State) -> list[int]:
    """The cells with a building or workers, in order: the rest of the city (most of it)
    adds nothing to any worth. An owned cell holds a hut or a house (state.py checks), so
    it is among them."""
    return sorted({*compress(_CELLS, s.bld), *compress(_CELLS, s.cw)})


def _started(ladders: dict[str, list[int]]) -> list[tuple[str, list[int]]]:
    """The ladders with a worker on them, in order: an empty one (every space free, -1)
    adds nothing to any worth."""
    return [(name, spaces) for name, spaces in ladders.items()
            if spaces.count(-1) < len(spaces)]


# The terms of a worth, each in VP by the hand-set constants above; a worth is their sum,
# each times its weight in WEIGHTS (fitted from self-play outcomes: tools/rio_fit.py).
TERMS = ("vp", "silver", "goods", "houses", "huts", "acts", "cells", "cargo", "ladder_full",
         "ladder_pending", "ladder_locked", "prod", "crafts", "load", "claim", "chars", "order")
(T_VP, T_SILVER, T_GOODS, T_HOUSES, T_HUTS, T_ACTS, T_CELLS, T_CARGO, T_LADDER_FULL,
 T_LADDER_PENDING, T_LADDER_LOCKED, T_PROD, T_CRAFTS, T_LOAD, T_CLAIM, T_CHARS,
 T_ORDER) = range(17)
# Fitted by tools/rio_fit.py (60 two-seat easy-vs-easy games, seeds 5000-5059), goods 2,
# production 2.4, cargo and quay room 1.5 predicted final margins better at mid-game but
# normal then won 5 of 10 two-seat games against easy, as with 1 (docs/AI-LOG.md): left at 1.
WEIGHTS: tuple[float, ...] = (1.0,) * len(TERMS)


def worths(s: State) -> list[float]:
    """Every seat's worth in VP: its terms (:func:`terms`, one per weight) by their
    ``WEIGHTS``."""
    return [sum(map(mul, WEIGHTS, row)) for row in terms(s)]


def terms(s: State) -> list[list[float]]:
    """Every seat's worth, term by term (``TERMS``), in one pass over the occupied cells
    (the ``easy`` level evaluates thousands of states a move). Made faster, it must still
    add the same floats in the same order: AI moves, and the recorded games, depend on
    every bit."""
    conn = city.connected_quarters(s)
    n_seats = s.num_players
    late = min(1.0, (s.rounds - s.round + 1) / 5)  # goods are worth nothing at the end
    silver = max(1 / 3, SILVER * late)
    out = []
    for p in s.players:
        row = [0.0] * len(TERMS)
        row[T_VP] = p.vp
        row[T_SILVER] = silver * p.silver
        row[T_GOODS] = late * (_goods(p.wood, GOOD) + _goods(p.stone, GOOD)
                               + _goods(p.precious, PRECIOUS))
        out.append(row)
    base = BOARD.qvalue["house_base"]
    quarter_of = BOARD.quarter_of
    # a seat whose effects turn is over has lost what it left unresolved (it goes home)
    over = set(s.order[:s.cur]) if s.phase == "effects" else set()
    mods: dict[int, int] = {}
    stay = [0] * n_seats  # workers waiting on empty cells
    waiting: list[tuple[int, int]] = []  # (seat, workers) on one empty cell
    huts = [0] * n_seats
    dwellings = [0] * n_seats
    bld_of, bown, cw = s.bld, s.bown, s.cw
    for i in _occupied(s):
        owner, bld = bown[i], bld_of[i]
        if owner >= 0:
            if bld == "house":
                q = quarter_of[i]
                if q not in mods:
                    mods[q] = city.quarter_modifier(s, q, conn)
                out[owner][T_HOUSES] += max(0, base + mods[q]) + HOUSE_EXTRA
                dwellings[owner] += 1
            elif bld == "hut":
                huts[owner] += 1
                dwellings[owner] += 1
            else:
                out[owner][T_HOUSES] += HUT
        for who, n, role in cw[i]:
            if role == ROLE_STAY and not bld:
                waiting.append((who, n))
                stay[who] += n
            elif role == ROLE_ACT and who not in over:
                out[who][T_ACTS] += PENDING * ACTIVATION.get(bld, 0.0) * n
            elif role == ROLE_UPGRADE and who not in over:
                out[who][T_ACTS] += UPGRADE * n

    full_hut, hoard_hut = late * HUT, late * HUT * HOARD

    def hut(seat: int, k: int) -> float:
        """The worth of the seat's k-th hut (from 0): full for the first few waiting huts,
        a hoard's share beyond, nothing past the seat's dwellings."""
        if dwellings[seat] - huts[seat] + k >= BOARD.dwellings:
            return 0.0
        return full_hut if k < HUTS_WAITING else hoard_hut

    for seat, n in enumerate(huts):
        if n:
            out[seat][T_HUTS] += sum([hut(seat, k) for k in range(n)])
    # Workers on an empty cell wait to build, and stay until they do: two or more are worth
    # the hut they may make (the seat's next huts in turn, so that building one never
    # lowers the others' worth), one the 1-worker building its owner's goods pay for;
    # where they can build nothing (one worker and no goods) they are lost until evicted.
    coming = huts[:]
    for who, n in waiting:
        p = s.players[who]
        worth = hut(who, coming[who]) if n >= 2 else 0.0
        if worth:
            out[who][T_CELLS] += PENDING * worth
            coming[who] += 1
        elif p.wood >= 2 or p.stone >= 2 or (p.wood and p.stone):
            out[who][T_CELLS] += CELL_WORKER * n
        else:
            out[who][T_CELLS] -= LOCKED * n
    for seat, cargo in enumerate(s.cargo):
        if any(cargo):
            out[seat][T_CARGO] += sum(map(mul, cargo, CARGO))
    # A ladder pays out only when full: the more of it is filled, the likelier; one that
    # the seat could not fill with its own free workers is a trap (at 5 seats a 10-space
    # ladder held 7 of easy's 9 workers for the whole game).
    started = _started(s.ladders)
    held = [0] * n_seats
    waiting_ladder = [0] * n_seats  # held on a ladder not yet full
    for _, spaces in started:
        full = min(spaces) >= 0
        for who in spaces:
            if who >= 0:
                held[who] += 1
                waiting_ladder[who] += not full
    for name, spaces in started:
        ladder = BOARD.ladders[name]
        vps = ladder.vps(n_seats)
        size = len(spaces)
        filled = size - spaces.count(-1)
        if filled == size:  # full: it pays when the placements end
            if s.ladder_last[name] >= 0:
                out[s.ladder_last[name]][T_LADDER_FULL] += ladder.bonus
            for who, vp in zip(spaces, vps, strict=True):
                out[who][T_LADDER_FULL] += vp
            continue
        likely_fill = 0.4 + 0.6 * filled / size
        for who, vp in zip(spaces, vps, strict=True):
            if who >= 0:
                free = BOARD.workers - 1 - held[who] - stay[who]
                likely = likely_fill if filled + free >= size else 0.2
                out[who][T_LADDER_PENDING] += PENDING * likely * vp
                out[who][T_LADDER_LOCKED] -= LOCKED
    rounds_held = min(max(0, s.rounds - s.round), HELD_ROUNDS)
    for seat, n in enumerate(waiting_ladder):
        short = BOARD.per_round - (BOARD.workers - n)
        if short > 0:
            out[seat][T_LADDER_LOCKED] -= SHORT * short * rounds_held
    for who, done in zip(s.prod, s.prod_done, strict=True):
        if not done and who not in over:
            out[who][T_PROD] += PENDING * GOOD
    for seat, p in enumerate(s.players):
        if seat in over:
            continue
        out[seat][T_CRAFTS] += PENDING * (SILVER * (s.agri[seat] // 2)
                                          + (PRECIOUS - GOOD) * min(s.crafts[seat],
                                                                    p.wood + p.stone))
        room = rules.load_room(s, seat)
        if room > 0:
            goods = min(room, p.wood + p.stone + p.precious)
            out[seat][T_LOAD] += PENDING * (CARGO[0] - GOOD) * goods
        if p.claim:
            ch = BOARD.characters[p.claim]
            if p.silver >= ch.cost and p.vp >= ch.vp_needed:
                out[seat][T_CLAIM] += PENDING * (_character(s, p.claim, conn)
                                                 - SILVER * ch.cost)
            else:  # the fine: 5 VP and 3 silver
                out[seat][T_CLAIM] -= (BOARD.fine["vp"]
                                       + SILVER * min(p.silver, BOARD.fine["silver"]))
    for char, (who, _) in s.chars.items():
        out[who][T_CHARS] += _character(s, char, conn)
    if n_seats > 1:
        left = max(0, s.rounds - s.round) / s.rounds  # rounds still to be placed in
        first = ORDER * left
        for k, seat in enumerate(rules.next_order(s)):
            out[seat][T_ORDER] = first * (n_seats - 1 - k) / (n_seats - 1)
    return out


def evaluate(s: State, seat: int, ranking: list[list[int]] | None = None) -> float:
    """``seat``'s standing in [0, 1]: once over, 1 for a sole winner, a share for a tie,
    0 otherwise (``ranking`` from the result); else its worth against the best rival's."""
    if ranking is not None:
        first = ranking[0]
        return 1.0 / len(first) if seat in first else 0.0
    every = worths(s)
    mine = every[seat]
    best = max((v for x, v in enumerate(every) if x != seat), default=mine)
    return max(0.0, min(1.0, 0.5 + (mine - best) / (2 * (abs(mine - best) + SCALE))))
