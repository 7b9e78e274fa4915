"""Ways to pay for a building, with the two 5-for-1 exchanges (rulebook, "Échange 5 pour 1").

5 rubble may replace 1 coloured material and 5 pesos may replace 1 worker, never the reverse.
The two exchanges draw on separate resources (rubble/colours vs pesos/workers), so a payment
is a pair of independent choices: which coloured cubes to replace with rubble, and how many
workers to replace with pesos. Each is offered as its own small step.
"""

from __future__ import annotations

from itertools import product

from .data import COLOURS, EXCHANGE_RATE, MATERIALS, RUBBLE, Building
from .state import Player

NO_EXCHANGE = "none"


def material_options(b: Building, p: Player) -> list[str]:
    """Affordable material exchanges as ids: "none" or e.g. "brick1+glass2" (cubes replaced)."""
    have = p.materials
    ranges = []
    for c in COLOURS:
        need = b.materials[c]
        ranges.append(range(max(0, need - have[c]), need + 1) if need else range(1))
    options: list[tuple[int, tuple[int, ...]]] = []
    for ks in product(*ranges):
        total = sum(ks)
        if b.materials[RUBBLE] + EXCHANGE_RATE * total <= have[RUBBLE]:
            options.append((total, ks))
    options.sort()
    return [exchange_id(ks) for _, ks in options]


def exchange_id(ks: tuple[int, ...]) -> str:
    parts = [f"{MATERIALS[c]}{k}" for c, k in zip(COLOURS, ks, strict=True) if k]
    return "+".join(parts) if parts else NO_EXCHANGE


def parse_exchange(option: str) -> list[int]:
    """Inverse of :func:`exchange_id`: cubes replaced by rubble, per colour."""
    ks = [0, 0, 0, 0]
    if option == NO_EXCHANGE:
        return ks
    for part in option.split("+"):
        name = part.rstrip("0123456789")
        ks[MATERIALS.index(name)] = int(part[len(name):])
    return ks


def worker_options(b: Building, p: Player) -> list[str]:
    """Affordable worker exchanges as ids "w0", "w1", "w2" (workers replaced by 5 pesos)."""
    low = max(0, b.workers - p.workers)
    return [f"w{k}" for k in range(low, b.workers + 1) if b.pesos + EXCHANGE_RATE * k <= p.pesos]


def affordable(b: Building, p: Player) -> bool:
    """Whether ``p`` can pay ``b`` in some way (the architect condition is checked apart)."""
    m, need = p.materials, b.materials
    short = 0  # coloured cubes missing, each paid with EXCHANGE_RATE rubble (a loop: the
    for c in COLOURS:  # AI's evaluation asks this millions of times a game)
        if need[c] > m[c]:
            short += need[c] - m[c]
    if need[RUBBLE] + EXCHANGE_RATE * short > m[RUBBLE]:
        return False
    return b.pesos + EXCHANGE_RATE * max(0, b.workers - p.workers) <= p.pesos


def shortfall(b: Building, p: Player) -> tuple[str, int, int] | None:
    """The first resource that makes ``b`` unaffordable: (resource, needed, held)."""
    m = p.materials
    short = sum(max(0, b.materials[c] - m[c]) for c in COLOURS)
    if b.materials[RUBBLE] + EXCHANGE_RATE * short > m[RUBBLE]:
        for c in COLOURS:
            if b.materials[c] > m[c]:
                return MATERIALS[c], b.materials[c], m[c]
        return "rubble", b.materials[RUBBLE], m[RUBBLE]
    if b.pesos + EXCHANGE_RATE * max(0, b.workers - p.workers) > p.pesos:
        if b.workers > p.workers:
            return "workers", b.workers, p.workers
        return "pesos", b.pesos, p.pesos
    return None


def pay(b: Building, p: Player, exchange: str, workers_option: str,
        box: list[int]) -> dict[str, int]:
    """Take the cost from ``p``: cubes go to ``box``; pesos/workers go to the bank.

    Returns what was paid, by resource, for the event.
    """
    ks = parse_exchange(exchange)
    kw = int(workers_option[1:])
    paid = {name: 0 for name in (*MATERIALS, "pesos", "workers")}
    rubble = b.materials[RUBBLE] + EXCHANGE_RATE * sum(ks)
    for c, k in zip(COLOURS, ks, strict=True):
        n = b.materials[c] - k
        p.materials[c] -= n
        box[c] += n
        paid[MATERIALS[c]] = n
    p.materials[RUBBLE] -= rubble
    box[RUBBLE] += rubble
    paid["rubble"] = rubble
    paid["workers"] = b.workers - kw
    paid["pesos"] = b.pesos + EXCHANGE_RATE * kw
    p.workers -= paid["workers"]
    p.pesos -= paid["pesos"]
    return paid
