"""The Río de la Plata board as one landscape image, drawn from any seat's or a spectator's view.

Layout (1600 x 1000 at scale 1, readable on a phone held sideways): a header with the year,
phase, who is awaited, the enemy track and the next time-track symbol; the city grid (16 x 10
cells labelled by column and row as in the cell picker, quarters shaded, the Plaza, the start
zone, quarter centres, walls and roads, buildings, workers by colour) with the river, quay and
ship below it; in combat the enemy and defender groups (who commands a mixed group: the top
pawn's colour) and the stacks staged outside; on the right the six ladders, production, the
sectors, the ship, the characters and one line per player (resources, VP, workers, attacks).
:func:`render_quarter` draws a close-up of one quarter with the legal cells of a picker
highlighted and labelled. Río hides nothing: the view is the whole table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engines.rio.data import BOARD, CHARACTERS, LADDERS
from renderers.common import (
    DEFAULT_THEME,
    RGB,
    Canvas,
    Face,
    Theme,
    Translate,
    contrast_text,
    shade,
)

WIDTH, HEIGHT = 1600, 1000
MARGIN = 16
HEADER_H = 64
CELL = 50
GRID_X, GRID_Y = 44, 100
GRID_W, GRID_H = CELL * BOARD.cols, CELL * BOARD.rows
SIDE_X = GRID_X + GRID_W + 28
SIDE_W = WIDTH - SIDE_X - MARGIN


@dataclass(frozen=True, slots=True)
class RioTheme(Theme):
    """Río's colours: five seats, the two enemies, the city's quarters."""

    seats: tuple[RGB, ...] = ((200, 50, 60), (40, 110, 190), (40, 140, 80), (230, 180, 30),
                              (40, 40, 40))
    natives: RGB = (128, 62, 160)
    pirates: RGB = (30, 60, 150)
    quarter_a: RGB = (244, 234, 212)
    quarter_b: RGB = (232, 220, 194)
    plaza: RGB = (214, 196, 150)
    start_zone: RGB = (250, 238, 200)
    reserved: RGB = (196, 186, 170)
    grid: RGB = (200, 186, 160)
    wall: RGB = (110, 70, 40)
    road: RGB = (120, 120, 120)
    river: RGB = (110, 170, 210)
    building: RGB = (255, 252, 244)
    major: RGB = (236, 200, 120)
    frozen: RGB = (180, 180, 180)
    wood: RGB = (140, 90, 50)
    stone: RGB = (170, 170, 170)
    precious: RGB = (60, 120, 210)
    silver: RGB = (190, 190, 200)


RIO_THEME = RioTheme()

C = Canvas[RioTheme]


def _t(key: str, words: Translate, **params: object) -> str:
    """A board word from the catalogues (``rio.board.*``)."""
    return words(f"rio.board.{key}", **params)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"#{seat + 1}"


def _cell_xy(token: str) -> tuple[float, float]:
    c, r = (int(x) for x in token.split("."))
    return GRID_X + c * CELL, GRID_Y + r * CELL


def render(view: Mapping[str, Any], *, names: Sequence[str], words: Translate,
           theme: RioTheme = RIO_THEME, scale: float = 1.0) -> Image.Image:
    """Draw ``view`` as an RGB image. Pure: same input, same image."""
    img = _background(theme, scale).copy()
    c = Canvas(img, theme, scale)
    _header(c, view, names, words)
    _city(c, view, words)
    if view.get("combat"):
        _combat(c, view, names, words)
    y = _ladders(c, view, words)
    y = _production_and_ship(c, view, words, y)
    y = _characters(c, view, words, y)
    _players(c, view, names, words, y)
    return img


_BACKGROUNDS: dict[tuple[RioTheme, float], Image.Image] = {}


def _background(theme: RioTheme, scale: float) -> Image.Image:
    """What every board shares (the header band, the city grid with its quarters, numbers
    and centres, the river), drawn once per theme and scale: a move's board is drawn on a
    copy, a third less drawing per turn."""
    key = (theme, scale)
    img = _BACKGROUNDS.get(key)
    if img is None:
        img = Image.new("RGB", (round(WIDTH * scale), round(HEIGHT * scale)), theme.background)
        c = Canvas(img, theme, scale)
        c.box(0, 0, WIDTH, HEADER_H, fill=theme.header)
        _city_grid(c)
        _BACKGROUNDS[key] = img
    return img


# --- header -----------------------------------------------------------------------------------
def _header(c: C, view: Mapping[str, Any], names: Sequence[str], words: Translate) -> None:
    th = c.theme
    c.text(MARGIN, 22, _t("title", words), 22, fill=th.header_text, face=Face.BOLD,
           anchor="lm")
    c.text(MARGIN, 48, _t("year", words, year=view["year"], round=min(view["round"],
                                                                       view["rounds"]),
                         rounds=view["rounds"]), 15, fill=th.header_muted, anchor="lm")
    phase = _t(f"phase.{view['phase']}", words)
    c.text(300, 22, phase, 20, fill=th.header_text, face=Face.BOLD, anchor="lm")
    if view["phase"] == "over":
        scores = {p["seat"]: p["vp"] for p in view["players"]}
        best = max(scores.values())
        status = _t("winner", words, names=", ".join(
            _name(names, s) for s, v in scores.items() if v == best))
    else:
        status = _t("awaiting", words, names=", ".join(_name(names, s)
                                                       for s in view["active"]))
    c.fitted(300, 48, status, 15, 560, fill=th.highlight if view["active"] else th.header_text,
             anchor="lm")
    x = 880
    for key, colour in (("natives", th.natives), ("pirates", th.pirates)):
        value = view["enemy"][key]
        c.text(x, 20, _t(key, words), 13, fill=th.header_muted, anchor="lm")
        for v in range(10):
            cx = x + 8 + v * 17
            c.circle(cx, 44, 16, fill=colour if v == value else shade(th.header, 1.3),
                     outline=th.header_text if v == value else th.header_muted, width=1)
            c.number(cx, 44, str(v), 10, fill=th.text_on_dark)
        x += 190
    symbol = view.get("next_symbol") or ""
    moves = [f"{_t(k, words)} +1" for ch, k in (("F", "natives"), ("S", "pirates"))
             if ch in symbol]
    c.fitted(x + 10, 32, _t("next", words, symbols=", ".join(moves) or "–"), 14, 220,
             fill=th.header_text, anchor="lm")


# --- city ---------------------------------------------------------------------------------------
def _city_grid(c: C) -> None:
    """The city as printed: cells shaded by quarter, numbers, borders, centres, river."""
    th = c.theme
    B = BOARD
    for i in range(B.ncells):
        col, row = B.cr(i)
        x, y = GRID_X + col * CELL, GRID_Y + row * CELL
        q = B.quarter_of[i]
        fill = th.plaza if i in B.plaza else (th.quarter_a if q % 2 == (1 if q <= 4 else 0)
                                              else th.quarter_b)
        if i in B.start_zone:
            fill = th.start_zone
        if i in B.fort_cells or i == B.port_cell:
            fill = th.reserved
        c.box(x, y, x + CELL, y + CELL, fill=fill, outline=th.grid, width=1)
    for col in range(B.cols):
        c.number(GRID_X + col * CELL + CELL / 2, GRID_Y - 12, str(col), 12, fill=th.text_muted)
    for row in range(B.rows):
        c.number(GRID_X - 16, GRID_Y + row * CELL + CELL / 2, str(row), 12, fill=th.text_muted)
    for cells in B.quarter_cells.values():  # quarter borders
        cellset = set(cells)
        for i in cells:
            for side, j in B.nb4[i].items():
                if j not in cellset:
                    _edge_line(c, B.side_edge(i, side), th.panel_border, 2)
    for vx, vy in B.centres.values():
        c.circle(GRID_X + vx * CELL, GRID_Y + vy * CELL, 9, fill=th.text)
    ry = GRID_Y + GRID_H + 6  # the river (below the grid: no wall or road reaches it)
    c.box(GRID_X - 20, ry, GRID_X + GRID_W + 20, ry + 40, fill=th.river, radius=6)


def _city(c: C, view: Mapping[str, Any], words: Translate) -> None:
    """What changes on the city (drawn over :func:`_city_grid`)."""
    th = c.theme
    B = BOARD
    for q, (vx, vy) in B.centres.items():
        value = view["quarter_values"].get(str(q), 0)
        c.text(GRID_X + vx * CELL + 7, GRID_Y + vy * CELL + 4, f"Q{q} {value:+d}", 10,
               fill=th.text_muted)
    for edge in view["roads"]:
        _edge_line(c, edge, th.road, 6)
    for edge in (*view["prebuilt_walls"], *view["walls"]):
        _edge_line(c, edge, th.wall, 7)
    # quay and ship
    ry = GRID_Y + GRID_H + 6
    port_x, _ = _cell_xy(B.token(B.port_cell))
    ship = view["ship"]
    hull = th.wood if not ship["at_sea"] else shade(th.river, 0.8)
    c.polygon([(port_x - 20, ry + 10), (port_x + CELL + 20, ry + 10), (port_x + CELL + 8, ry + 32),
               (port_x - 8, ry + 32)], fill=hull, outline=th.text, width=1)
    c.number(port_x + CELL / 2, ry + 21, f"{ship['load']}/{ship['capacity']}", 11,
             fill=th.text_on_dark)
    frozen = set(view["combat"]["frozen"]) if view.get("combat") else set()
    for entry in view["cells"]:
        _cell_content(c, entry, words, entry["cell"] in frozen)


def _edge_line(c: C, edge: str, colour: RGB, width: float) -> None:
    (x0, y0), (x1, y1) = BOARD.edge_vertices(edge)
    c.line((GRID_X + x0 * CELL, GRID_Y + y0 * CELL), (GRID_X + x1 * CELL, GRID_Y + y1 * CELL),
           fill=colour, width=width)


def _cell_content(c: C, entry: Mapping[str, Any], words: Translate, frozen: bool) -> None:
    th = c.theme
    x, y = _cell_xy(entry["cell"])
    kind = entry["building"]
    if kind:
        owner = entry["owner"]
        major = kind in ("palace", "cathedral", "fort", "port")
        fill = th.seat(owner) if owner >= 0 else (th.major if major else th.building)
        inset = 8 if kind == "hut" else 4
        c.box(x + inset, y + inset, x + CELL - inset, y + CELL - inset, fill=fill,
              outline=th.text, width=1, radius=3)
        label = _t(f"short.{kind}", words)
        c.fitted(x + CELL / 2, y + (CELL / 2 if not entry["workers"] else 17), label, 13,
                 CELL - 10, fill=contrast_text(fill, th), face=Face.BOLD, anchor="mm",
                 min_size=8)
    if frozen:
        c.box(x + 2, y + 2, x + CELL - 2, y + CELL - 2, outline=th.frozen, width=3)
    for k, (seat, n, role) in enumerate(entry["workers"][:3]):
        cx = x + 11 + k * 14
        cy = y + CELL - 11
        colour = th.seat(seat)
        c.circle(cx, cy, 18, fill=colour, outline=th.text if role == 0 else th.highlight,
                 width=1.5)
        c.number(cx, cy, str(n), 10, fill=contrast_text(colour, th))


# --- combat -------------------------------------------------------------------------------------
def _combat(c: C, view: Mapping[str, Any], names: Sequence[str], words: Translate) -> None:
    th = c.theme
    cb = view["combat"]
    enemy_colour = th.pirates if cb["enemy"] == "pirates" else th.natives
    for g in cb["groups"]:
        pawns = g["pawns"]
        if g["cell"]:
            x, y = _cell_xy(g["cell"])
            cx, cy = x + CELL / 2, y + CELL / 2
        else:
            cx, cy = _outside_xy(g["edge"])
        top = pawns[0]
        colour = enemy_colour if top < 0 else th.seat(top)
        c.circle(cx, cy, 30, fill=colour, outline=th.highlight if g["id"] == cb["selected"]
                 else th.text, width=2)
        c.number(cx, cy, str(len(pawns)), 15, fill=contrast_text(colour, th))
        others = sorted({p for p in pawns[1:] if p != top})
        for k, seat in enumerate(others):  # mixed group: the other owners' colours
            c.circle(cx + 12 - 8 * k, cy + 12, 10, fill=th.seat(seat), outline=th.text, width=1)
    for edge, n in cb["stacks"]:
        cx, cy = _outside_xy(edge)
        c.box(cx - 14, cy - 11, cx + 14, cy + 11, fill=enemy_colour, outline=th.text, width=1,
              radius=4)
        c.number(cx, cy, str(n), 12, fill=th.text_on_dark)
    enemy = _t(cb["enemy"], words)
    text = " · ".join([_t("combat", words, enemy=enemy, n=cb["round"]),
                       _t("attacker", words, name=_name(names, cb["attacker"])),
                       _t("outside", words, n=sum(n for _, n in cb["stacks"]))])
    c.box(GRID_X, HEIGHT - 46, GRID_X + GRID_W, HEIGHT - 14, fill=enemy_colour, radius=6)
    c.fitted(GRID_X + 10, HEIGHT - 30, text, 15, GRID_W - 20, fill=th.text_on_dark,
             face=Face.BOLD, anchor="lm")


def _outside_xy(edge: str) -> tuple[float, float]:
    (x0, y0), (x1, y1) = BOARD.edge_vertices(edge)
    mx, my = GRID_X + (x0 + x1) / 2 * CELL, GRID_Y + (y0 + y1) / 2 * CELL
    side = BOARD.entry_side[edge]
    dx, dy = {"n": (0, -22), "s": (0, 28), "w": (-22, 0), "e": (22, 0)}[side]
    return mx + dx, my + dy


# --- side panels ----------------------------------------------------------------------------------
def _title(c: C, y: float, text: str) -> float:
    c.text(SIDE_X, y, text, 15, fill=c.theme.text, face=Face.BOLD)
    return y + 22


def _ladders(c: C, view: Mapping[str, Any], words: Translate) -> float:
    th = c.theme
    y = _title(c, HEADER_H + 10, _t("ladders", words) + "   " +
               _t("pieces", words, n=view["pieces_left"]))
    for name in LADDERS:
        lad = view["ladders"][name]
        label = words(f"rio.ladder.{name}")
        c.fitted(SIDE_X, y + 13, label, 13, 96, fill=th.text, anchor="lm")
        if lad["closed"]:
            c.text(SIDE_X + 100, y + 13, "✓ " + _t("closed", words), 12, fill=th.done,
                   anchor="lm")
        for k, (seat, vp) in enumerate(zip(lad["spaces"], lad["vp"], strict=True)):
            x = SIDE_X + 100 + k * 38
            fill = th.seat(seat) if seat >= 0 else th.tile
            c.box(x, y, x + 34, y + 26, fill=fill, outline=th.tile_border, width=1, radius=3)
            c.number(x + 17, y + 13, str(vp), 12, fill=contrast_text(fill, th))
        y += 32
    return y + 4


def _production_and_ship(c: C, view: Mapping[str, Any], words: Translate, y: float) -> float:
    th = c.theme
    y = _title(c, y, _t("production", words))
    x = SIDE_X
    for space in view["production"][:16]:
        fill = th.seat(space["seat"])
        w = 14 + 10 * space["workers"]
        c.box(x, y, x + w, y + 22, fill=fill if not space["done"] else shade(fill, 1.5),
              outline=th.tile_border, width=1, radius=3)
        c.number(x + w / 2, y + 11, str(space["workers"]), 11, fill=contrast_text(fill, th))
        x += w + 4
    y += 30
    ship = view["ship"]
    if ship["at_sea"]:
        status = _t("at_sea", words, year=BOARD.first_year + ship["returns"] - 1)
    elif not view["ladders"]["port"]["closed"]:
        status = _t("no_port", words)
    else:
        status = _t("docked", words, load=ship["load"], cap=ship["capacity"])
    c.fitted(SIDE_X, y, f"{_t('ship', words)}: {status}", 14, SIDE_W, fill=th.text)
    return y + 26


def _characters(c: C, view: Mapping[str, Any], words: Translate, y: float) -> float:
    th = c.theme
    chars = view["characters"]
    claims = view["claims"]
    w = (SIDE_W - 5 * 6) / 6
    for k, char in enumerate(CHARACTERS):
        x = SIDE_X + (k % 6) * (w + 6)
        yy = y + (k // 6) * 30
        owner = chars.get(char, {}).get("owner", -1)
        fill = th.seat(owner) if owner >= 0 else th.tile
        c.box(x, yy, x + w, yy + 26, fill=fill, outline=th.seat(claims[char]) if char in claims
              else th.tile_border, width=3 if char in claims else 1, radius=4)
        c.fitted(x + w / 2, yy + 13, _t(f"char.{char}", words), 12, w - 6,
                 fill=contrast_text(fill, th),
                 anchor="mm", face=Face.BOLD)
    return y + 66


def _players(c: C, view: Mapping[str, Any], names: Sequence[str], words: Translate,
             y: float) -> None:
    th = c.theme
    active = set(view["active"])
    rows: Iterable[Mapping[str, Any]] = sorted(view["players"],
                                               key=lambda p: view["order"].index(p["seat"]))
    h = min(92.0, (HEIGHT - MARGIN - y) / max(1, view["num_players"]))
    for p in rows:
        seat = p["seat"]
        colour = th.seat(seat)
        c.box(SIDE_X, y, SIDE_X + SIDE_W, y + h - 4, fill=th.panel,
              outline=th.highlight if seat in active else th.panel_border,
              width=3 if seat in active else 1, radius=6)
        c.box(SIDE_X, y, SIDE_X + 10, y + h - 4, fill=colour, radius=3)
        c.fitted(SIDE_X + 18, y + 14, _name(names, seat), 15, 220, fill=th.text,
                 face=Face.BOLD, anchor="lm")
        c.text(SIDE_X + SIDE_W - 10, y + 14, f"{p['vp']} {_t('vp', words)}", 16,
               fill=th.text, face=Face.BOLD, anchor="rm")
        items = [(th.silver, p["silver"], _t("silver", words)),
                 (th.wood, p["wood"], _t("wood", words)),
                 (th.stone, p["stone"], _t("stone", words)),
                 (th.precious, p["precious"], _t("precious", words))]
        x = SIDE_X + 18
        for colour_r, n, label in items:
            c.box(x, y + 30, x + 16, y + 46, fill=colour_r, outline=th.text, width=1, radius=3)
            c.text(x + 21, y + 38, f"{n} {label}", 13, fill=th.text, anchor="lm")
            x += 118
        extra = [_t("workers", words, n=p["supply"]), _t("attacks", words, n=p["attacks"]),
                 f"{_t('agri', words)} {p['agri']}", f"{_t('crafts', words)} {p['crafts']}",
                 f"{_t('quay', words)} {p['quay']}", f"{_t('bids', words)} {p['bid']}"]
        c.fitted(SIDE_X + 18, y + 62, " · ".join(extra), 12, SIDE_W - 30, fill=th.text_muted,
                 anchor="lm")
        y += h


# --- a quarter close-up for the cell picker -------------------------------------------------------
def render_quarter(view: Mapping[str, Any], quarter: int, legal: Sequence[str], *,
                   words: Translate, theme: RioTheme = RIO_THEME,
                   scale: float = 1.0) -> Image.Image:
    """One quarter drawn large; the ``legal`` cells (tokens "c.r") highlighted and labelled
    exactly as the picker labels them."""
    cells = BOARD.quarter_cells[quarter]
    cols = sorted({BOARD.cr(i)[0] for i in cells})
    rows = sorted({BOARD.cr(i)[1] for i in cells})
    size = 110
    w, h = len(cols) * size + 40, len(rows) * size + 80
    img = Image.new("RGB", (round(w * scale), round(h * scale)), theme.background)
    c = Canvas(img, theme, scale)
    c.text(20, 24, _t("quarter", words, q=quarter), 20, fill=theme.text, face=Face.BOLD,
           anchor="lm")
    by_cell = {e["cell"]: e for e in view["cells"]}
    legal_set = set(legal)
    for i in cells:
        col, row = BOARD.cr(i)
        x = 20 + cols.index(col) * size
        y = 50 + rows.index(row) * size
        token = BOARD.token(i)
        fill = theme.highlight if token in legal_set else (
            theme.reserved if i in BOARD.reserved else theme.quarter_a)
        c.box(x, y, x + size, y + size, fill=fill, outline=theme.grid, width=2)
        entry = by_cell.get(token)
        if entry and entry["building"]:
            label = _t(f"short.{entry['building']}", words)
            bfill = theme.seat(entry["owner"]) if entry["owner"] >= 0 else theme.building
            c.box(x + 20, y + 30, x + size - 20, y + size - 30, fill=bfill, outline=theme.text,
                  width=1, radius=4)
            c.fitted(x + size / 2, y + size / 2, label, 18, size - 44,
                     fill=contrast_text(bfill, theme), face=Face.BOLD, anchor="mm")
        if entry:
            for k, (seat, n, _role) in enumerate(entry["workers"][:3]):
                c.circle(x + 18 + k * 22, y + size - 16, 20, fill=theme.seat(seat),
                         outline=theme.text, width=1)
                c.number(x + 18 + k * 22, y + size - 16, str(n), 12,
                         fill=contrast_text(theme.seat(seat), theme))
        c.text(x + 6, y + 6, token, 16, fill=theme.text, face=Face.BOLD)
    return img


__all__ = ["DEFAULT_THEME", "RIO_THEME", "RioTheme", "render", "render_quarter"]
