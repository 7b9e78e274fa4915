"""The Minos board as one landscape image, drawn from a view (everyone sees the same board).

Layout (1600 x 980 at scale 1): a header with the round and who acts; the map (the sea grid
of 19 x 8 squares, ports, colony sites with their stacked buildings, the red-dot guard paths,
ships and guards by colour); a column of player cards (value, talents, rings, pieces in
stock); the value track 0-49; then the dice: the last turn's final throw with what each die
became, and the current throw (or the conflict being fought, both throws and their values).
:func:`render_dice` draws a throw alone, for the private panel.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

from engines.minos.data import (
    COLUMNS,
    FISH,
    PATHS,
    ROWS,
    SEA,
    SITES,
    square,
)
from renderers.common import Canvas, Face, Theme, Translate, contrast_text, shade

__all__ = ["render", "render_dice", "MinosTheme", "DEFAULT_MINOS_THEME"]

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class MinosTheme(Theme):
    sea: RGB = (120, 178, 214)
    sea_line: RGB = (96, 150, 190)
    land: RGB = (226, 206, 160)
    land_line: RGB = (210, 188, 140)
    path: RGB = (196, 44, 40)
    pier: RGB = (120, 84, 50)
    fish: RGB = (250, 250, 250)
    harbour: RGB = (62, 110, 160)
    dwelling: RGB = (176, 78, 52)
    trading: RGB = (218, 170, 40)
    wall: RGB = (232, 216, 180)
    die: RGB = (252, 250, 244)
    die_used: RGB = (196, 190, 180)
    symbol: RGB = (44, 40, 36)
    joker: RGB = (128, 62, 160)
    star: RGB = (214, 150, 20)
    combat: RGB = (180, 30, 30)


DEFAULT_MINOS_THEME = MinosTheme()
MinosCanvas = Canvas[MinosTheme]

WIDTH, HEIGHT = 1600, 900
MARGIN = 16
HEADER_H = 56
CELL = 72
MAP_X, MAP_Y = MARGIN, 68
MAP_W, MAP_H = COLUMNS * CELL, ROWS * CELL
SIDE_X = MAP_X + MAP_W + 12
SIDE_W = WIDTH - MARGIN - SIDE_X
TRACK_Y = MAP_Y + MAP_H + 14
TRACK_H = 64
DICE_Y = TRACK_Y + TRACK_H + 14
DIE = 58

_LETTER = {"harbour": "h", "dwelling": "d", "trading": "t", "wall": "w"}


def tr(key: str, words: Translate, **params: object) -> str:
    """A board label from the catalogues (``minos.board.<key>``)."""
    return words(f"minos.board.{key}", **params)


def site_name(code: str, words: Translate) -> str:
    return words(f"minos.site.{code}")


def place_name(place: str, words: Translate) -> str:
    return site_name(place, words) if place in SITES else place.upper()


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) and names[seat] else f"#{seat + 1}"


# --- geometry ---------------------------------------------------------------------------

def cell_origin(code: str) -> tuple[float, float]:
    col, row = square(code)
    return MAP_X + col * CELL, MAP_Y + row * CELL


def cell_centre(code: str) -> tuple[float, float]:
    x, y = cell_origin(code)
    return x + CELL / 2, y + CELL / 2


def port_point(site: str) -> tuple[float, float]:
    """Where a ship in the port is drawn: on the sea square, against the site's edge."""
    sx, sy = cell_centre(SITES[site].land)
    px, py = cell_centre(SITES[site].port)
    return px + (sx - px) * 0.34, py + (sy - py) * 0.34


@lru_cache(maxsize=1)
def dot_points() -> dict[str, tuple[float, float]]:
    """Every dot's position: evenly spaced along its path's drawn line."""
    points: dict[str, tuple[float, float]] = {}
    for path in PATHS:
        line = [cell_centre(SITES[path.start].land), *(cell_centre(v) for v in path.via),
                cell_centre(SITES[path.end].land)]
        lengths = [math.dist(a, b) for a, b in zip(line, line[1:], strict=False)]
        total = sum(lengths)
        n = len(path.dots)
        for i, dot in enumerate(path.dots, start=1):
            want = total * i / (n + 1)
            k = 0
            while k < len(lengths) - 1 and want > lengths[k]:
                want -= lengths[k]
                k += 1
            (ax, ay), (bx, by) = line[k], line[k + 1]
            f = min(1.0, want / lengths[k]) if lengths[k] else 0.0
            points[dot] = (ax + (bx - ax) * f, ay + (by - ay) * f)
    return points


# --- the static map, drawn once -----------------------------------------------------------

@lru_cache(maxsize=8)
def _background(theme: MinosTheme, scale: float) -> Image.Image:
    img = Image.new("RGB", (round(WIDTH * scale), round(HEIGHT * scale)), theme.background)
    c = MinosCanvas(img, theme, scale)
    for col in range(COLUMNS):
        for row in range(ROWS):
            code = f"{chr(ord('A') + col)}{row + 1}"
            x, y = cell_origin(code)
            sea = code.lower() in SEA
            c.box(x, y, x + CELL, y + CELL, fill=theme.sea if sea else theme.land,
                  outline=theme.sea_line if sea else theme.land_line, width=1)
            if sea:
                c.text(x + 4, y + 3, code, 11, fill=shade(theme.sea, 0.75))
    _fish(c, *cell_centre(FISH.upper()))
    for path in PATHS:
        line = [cell_centre(SITES[path.start].land), *(cell_centre(v) for v in path.via),
                cell_centre(SITES[path.end].land)]
        for a, b in zip(line, line[1:], strict=False):
            c.line(a, b, fill=shade(theme.path, 1.45), width=3)
    for dot, (x, y) in dot_points().items():
        c.circle(x, y, 13, fill=theme.path, outline=shade(theme.path, 0.6), width=1)
        del dot
    for site in SITES.values():
        px, py = port_point(site.code)
        sx, sy = cell_centre(site.land)
        c.line((px, py), (px + (sx - px) * 0.6, py + (sy - py) * 0.6), fill=theme.pier,
               width=7)
        c.circle(px, py, 30, fill=shade(theme.sea, 1.25), outline=theme.pier, width=2)
    return img


def _fish(c: MinosCanvas, cx: float, cy: float) -> None:
    th = c.theme
    c.polygon([(cx - 18, cy), (cx + 10, cy - 11), (cx + 22, cy), (cx + 10, cy + 11)],
              fill=th.fish, outline=th.sea_line)
    c.polygon([(cx - 18, cy), (cx - 28, cy - 10), (cx - 28, cy + 10)], fill=th.fish,
              outline=th.sea_line)
    c.circle(cx + 13, cy - 2, 4, fill=th.symbol)


# --- pieces -----------------------------------------------------------------------------

def ship(c: MinosCanvas, cx: float, cy: float, colour: RGB, size: float = 1.0) -> None:
    """A ship: a hull and a sail in the owner's colour."""
    s = size
    edge = shade(colour, 0.55)
    c.polygon([(cx - 20 * s, cy + 2 * s), (cx + 20 * s, cy + 2 * s), (cx + 13 * s, cy + 13 * s),
               (cx - 13 * s, cy + 13 * s)], fill=colour, outline=edge, width=2)
    c.line((cx, cy + 2 * s), (cx, cy - 20 * s), fill=edge, width=2)
    c.polygon([(cx + 2 * s, cy - 19 * s), (cx + 16 * s, cy - 1 * s), (cx + 2 * s, cy - 1 * s)],
              fill=shade(colour, 1.5), outline=edge, width=1)


def guard(c: MinosCanvas, cx: float, cy: float, colour: RGB, size: float = 1.0) -> None:
    """A guard: a pawn in the owner's colour."""
    s = size
    edge = shade(colour, 0.55)
    c.polygon([(cx - 9 * s, cy + 11 * s), (cx + 9 * s, cy + 11 * s), (cx + 4 * s, cy - 2 * s),
               (cx - 4 * s, cy - 2 * s)], fill=colour, outline=edge, width=1.5)
    c.circle(cx, cy - 6 * s, 12 * s, fill=colour, outline=edge, width=1.5)


def _colony(c: MinosCanvas, code: str, colony: Mapping[str, Any] | None,
            guards: Sequence[int] | None, words: Translate) -> None:
    th = c.theme
    x, y = cell_origin(SITES[code].land)
    owner = colony["holder"] if colony else (guards[0] if guards else None)
    border = th.seat(owner) if owner is not None else th.tile_border
    c.box(x + 3, y + 3, x + CELL - 3, y + CELL - 3, fill=th.tile, outline=border,
          width=4 if owner is not None else 1.5, radius=6)
    c.fitted(x + CELL / 2, y + 7, site_name(code, words), 13, CELL - 10, fill=th.text,
             face=Face.CONDENSED_BOLD, anchor="mt", min_size=9)
    types: list[str] = list(colony["buildings"]) if colony else []
    for level in range(4):
        by = y + CELL - 10 - (level + 1) * 11
        bx0, bx1 = x + 8, x + 44
        if level < len(types):
            kind = types[level]
            fill = getattr(th, kind)
            c.box(bx0, by, bx1, by + 10, fill=fill, outline=shade(fill, 0.6), width=1)
            c.number((bx0 + bx1) / 2, by + 5, tr(_LETTER[kind], words), 9,
                     fill=contrast_text(fill, th))
        else:
            c.box(bx0, by, bx1, by + 10, outline=th.tile_muted, width=1)
    if colony:
        c.circle(x + 58, y + 34, 22, fill=th.vp, outline=shade(th.vp, 0.6), width=1)
        c.number(x + 58, y + 34, str(colony["value"]), 13, fill=th.text)
    if guards:
        colour = th.seat(guards[0])
        guard(c, x + 58, y + 57, colour, 0.8)
        if guards[1] > 1:
            c.number(x + 58, y + 59, str(guards[1]), 10, fill=contrast_text(colour, th))


def _pieces(c: MinosCanvas, view: Mapping[str, Any]) -> None:
    th = c.theme
    dots = dot_points()
    for place, seats in view["ships"].items():
        if place in SITES:
            x, y = port_point(place)
            ship(c, x, y + 2, th.seat(seats[0]), 0.75)
            continue
        cx, cy = cell_centre(place.upper())
        if len(seats) == 1:
            ship(c, cx, cy + 6, th.seat(seats[0]))
            continue
        for i, seat in enumerate(seats):  # the ships sharing the fish space at the start
            dx = (i % 2 - 0.5) * 30
            dy = (i // 2 - (len(seats) > 2) * 0.5) * 30
            ship(c, cx + dx, cy + dy + 6, th.seat(seat), 0.62)
    for place, (seat, _count) in view["guards"].items():
        if place in dots:
            x, y = dots[place]
            guard(c, x, y, th.seat(seat), 1.05)


def _combat_marks(c: MinosCanvas, view: Mapping[str, Any]) -> None:
    combat = view.get("combat")
    if not combat:
        return
    th = c.theme
    a = _place_point(combat["origin"], combat["kind"])
    b = _place_point(combat["target"], combat["kind"])
    c.line(a, b, fill=th.combat, width=6)
    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    tip = (b[0] - 14 * math.cos(angle), b[1] - 14 * math.sin(angle))
    left = (tip[0] - 16 * math.cos(angle - 0.5), tip[1] - 16 * math.sin(angle - 0.5))
    right = (tip[0] - 16 * math.cos(angle + 0.5), tip[1] - 16 * math.sin(angle + 0.5))
    c.polygon([tip, left, right], fill=th.combat)
    r = c.s(28)
    bx, by = c.s(b[0]), c.s(b[1])
    c.draw.ellipse((bx - r, by - r, bx + r, by + r), outline=th.combat, width=c.s(4))


def _place_point(place: str, kind: str) -> tuple[float, float]:
    if place in SITES:
        return port_point(place) if kind == "ship" else cell_centre(SITES[place].land)
    if place in dot_points():
        return dot_points()[place]
    return cell_centre(place.upper())


# --- dice ------------------------------------------------------------------------------

def die(c: MinosCanvas, x: float, y: float, size: float, face: str, *,
        used: bool = False) -> None:
    """One die showing ``face`` (top-left corner at x, y); a used die is greyed."""
    th = c.theme
    c.box(x, y, x + size, y + size, fill=th.die_used if used else th.die,
          outline=shade(th.symbol, 1.6) if used else th.symbol, width=2, radius=size * 0.16)
    ink = shade(th.symbol, 1.8) if used else th.symbol
    cx, cy, r = x + size / 2, y + size / 2, size * 0.34
    if face == "scales":
        c.line((cx, cy - r), (cx, cy + r * 0.9), fill=ink, width=size * 0.06)
        c.line((cx - r, cy - r * 0.55), (cx + r, cy - r * 0.55), fill=ink, width=size * 0.06)
        for side in (-1, 1):
            px = cx + side * r * 0.8
            c.line((px, cy - r * 0.55), (px - r * 0.3, cy + r * 0.2), fill=ink, width=size * 0.03)
            c.line((px, cy - r * 0.55), (px + r * 0.3, cy + r * 0.2), fill=ink, width=size * 0.03)
            c.polygon([(px - r * 0.38, cy + r * 0.2), (px + r * 0.38, cy + r * 0.2),
                       (px, cy + r * 0.45)], fill=ink)
        c.box(cx - r * 0.45, cy + r * 0.85, cx + r * 0.45, cy + r, fill=ink)
    elif face == "arrow":
        a, b = (cx - r, cy + r), (cx + r * 0.7, cy - r * 0.7)
        c.line(a, b, fill=ink, width=size * 0.07)
        c.polygon([(cx + r, cy - r), (cx + r * 0.25, cy - r * 0.8), (cx + r * 0.8, cy - r * 0.25)],
                  fill=th.combat if not used else ink)
        for k in (0.0, 0.25):
            fx, fy = cx - r + k * r, cy + r - k * r
            c.line((fx, fy), (fx - r * 0.05, fy - r * 0.45), fill=ink, width=size * 0.04)
            c.line((fx, fy), (fx + r * 0.45, fy + r * 0.05), fill=ink, width=size * 0.04)
    elif face == "seagull":
        w = max(1, c.s(size * 0.075))
        for side in (-1, 1):  # two wings, each an arc bowed upwards
            wx = cx + side * r * 0.5
            box = (c.s(wx - r * 0.55), c.s(cy - r * 0.45), c.s(wx + r * 0.55),
                   c.s(cy + r * 0.65))
            c.draw.arc(box, 200, 340, fill=ink, width=w)
        c.circle(cx, cy - r * 0.12, size * 0.07, fill=ink)
    elif face == "construction":
        bw, bh = r * 0.95, r * 0.55
        for row, offsets in enumerate(((-0.5, 0.5), (-1.0, 0.0, 1.0), (-0.5, 0.5))):
            by = cy + r * 0.95 - (row + 1) * bh
            for o in offsets:
                bx = cx + o * bw - bw / 2
                left, right = max(bx, cx - r * 1.05), min(bx + bw, cx + r * 1.05)
                c.box(left, by, right, by + bh, fill=th.dwelling if not used else ink,
                      outline=th.die, width=1)
    elif face == "joker":
        jc = th.joker if not used else ink
        c.polygon([(cx - r, cy + r * 0.5), (cx - r * 0.8, cy - r * 0.8), (cx - r * 0.3, cy),
                   (cx, cy - r), (cx + r * 0.3, cy), (cx + r * 0.8, cy - r * 0.8),
                   (cx + r, cy + r * 0.5)], fill=jc)
        for bx, by in ((cx - r * 0.8, cy - r * 0.8), (cx, cy - r), (cx + r * 0.8, cy - r * 0.8)):
            c.circle(bx, by, r * 0.32, fill=th.star if not used else ink)
        c.box(cx - r, cy + r * 0.5, cx + r, cy + r * 0.85, fill=jc)
    else:  # star
        sc = th.star if not used else ink
        points = []
        for k in range(10):
            rad = r * (1.05 if k % 2 == 0 else 0.45)
            ang = -math.pi / 2 + k * math.pi / 5
            points.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
        c.polygon(points, fill=sc, outline=shade(sc, 0.6), width=1)


def render_dice(faces: Sequence[str], used: Sequence[bool] = (), *, scale: float = 1.0,
                theme: MinosTheme = DEFAULT_MINOS_THEME) -> Image.Image:
    """A throw alone (the private panel's current throw), dice numbered as in the menus."""
    size, gap = 96, 14
    width = len(faces) * (size + gap) + gap
    img = Image.new("RGB", (round(width * scale), round((size + 40) * scale)), theme.panel)
    c = MinosCanvas(img, theme, scale)
    for i, face in enumerate(faces):
        x = gap + i * (size + gap)
        die(c, x, 8, size, face, used=bool(used[i]) if i < len(used) else False)
        c.number(x + size / 2, size + 24, str(i + 1), 20, fill=theme.text)
    return img


# --- panels -----------------------------------------------------------------------------

def _header(c: MinosCanvas, view: Mapping[str, Any], names: Sequence[str],
            words: Translate) -> None:
    th = c.theme
    c.box(0, 0, WIDTH, HEADER_H, fill=th.header)
    c.text(MARGIN, HEADER_H / 2, tr("title", words), 30, fill=th.header_text,
           face=Face.BOLD, anchor="lm")
    rounds = (tr("round_max", words, n=view["round"], m=view["max_rounds"])
              if view["max_rounds"] else tr("round", words, n=view["round"]))
    c.text(170, HEADER_H / 2, rounds, 24, fill=th.header_muted, anchor="lm")
    if view["phase"] == "over":
        reason = view.get("end_reason")
        text = tr("over", words) + (f" — {tr('end.' + reason, words)}" if reason else "")
        colour = th.winner
    elif view.get("combat") and view["phase"] in ("order", "defend"):
        text = tr("defends", words, name=seat_name(names, view["combat"]["defender"]))
        colour = th.seat(view["combat"]["defender"])
    else:
        text = tr("turn", words, name=seat_name(names, view["current"]))
        colour = th.seat(view["current"])
    c.circle(400, HEADER_H / 2, 22, fill=colour, outline=th.header_text, width=2)
    c.fitted(420, HEADER_H / 2, text, 26, WIDTH - 440, fill=th.header_text, face=Face.BOLD,
             anchor="lm", min_size=16)


def _players(c: MinosCanvas, view: Mapping[str, Any], names: Sequence[str],
             words: Translate) -> None:
    th = c.theme
    players = view["players"]
    gap = 8
    h = (MAP_H - gap * 3) / 4
    winners = set(view.get("winners") or [])
    for seat, p in enumerate(players):
        y = MAP_Y + seat * (h + gap)
        colour = th.seat(seat)
        current = view["phase"] != "over" and seat in view.get("active", [])
        c.box(SIDE_X, y, SIDE_X + SIDE_W, y + h, fill=th.panel,
              outline=th.highlight if current else th.panel_border,
              width=4 if current else 1.5, radius=8)
        c.box(SIDE_X, y, SIDE_X + 10, y + h, fill=colour, radius=4)
        c.fitted(SIDE_X + 18, y + 8, seat_name(names, seat), 20, SIDE_W - 26, fill=th.text,
                 face=Face.BOLD, min_size=12)
        c.text(SIDE_X + 18, y + 36, f"{tr('value', words)} {p['value']}", 30, fill=th.text,
               face=Face.BOLD)
        c.text(SIDE_X + 18, y + 74, tr("talents_n", words, n=p["talents"]), 18, fill=th.text)
        c.text(SIDE_X + 18, y + 96, tr("rings_n", words, n=p["rings"]), 18, fill=th.text)
        ix = SIDE_X + SIDE_W - 44
        ship(c, ix, y + 86, colour, 0.55)
        c.text(ix + 16, y + 80, str(p["ships"]), 16, fill=th.text, face=Face.BOLD)
        guard(c, ix, y + 110, colour, 0.7)
        c.text(ix + 16, y + 103, str(p["guards"]), 16, fill=th.text, face=Face.BOLD)
        badge = tr("winner", words) if seat in winners else (
            tr("out", words) if p["out"] else "")
        if badge:
            fill = th.winner if seat in winners else th.combat
            c.box(SIDE_X + SIDE_W - 96, y + 40, SIDE_X + SIDE_W - 8, y + 64, fill=fill,
                  radius=5)
            c.fitted(SIDE_X + SIDE_W - 52, y + 52, badge, 14, 84, fill=th.text_on_dark,
                     face=Face.BOLD, anchor="mm")


def _track(c: MinosCanvas, view: Mapping[str, Any], words: Translate) -> None:
    th = c.theme
    w = (WIDTH - 2 * MARGIN) / 50
    for v in range(50):
        x = MARGIN + v * w
        c.box(x, TRACK_Y + 22, x + w, TRACK_Y + TRACK_H, fill=th.tile if v % 5 else
              th.tile_muted, outline=th.tile_border, width=1)
        if v % 5 == 0:
            c.text(x + 3, TRACK_Y + 24, str(v), 12, fill=th.text_muted)
    c.text(MARGIN, TRACK_Y + 2, tr("track", words), 15, fill=th.text_muted, face=Face.BOLD)
    c.text(WIDTH - MARGIN, TRACK_Y + 2, tr("legend", words), 14, fill=th.text_muted,
           anchor="ra")
    stacked: dict[int, int] = {}
    for seat, p in enumerate(view["players"]):
        v = int(p["value"])
        slot = v % 50
        k = stacked.get(slot, 0)
        stacked[slot] = k + 1
        x = MARGIN + slot * w + w / 2
        y = TRACK_Y + TRACK_H - 9 - k * 9
        c.circle(x, y, min(w - 4, 22), fill=th.seat(seat), outline=shade(th.seat(seat), 0.5),
                 width=1.5)
        if v >= 50:
            c.text(x, y - 14, f"+{v // 50 * 50}", 11, fill=th.text, face=Face.BOLD,
                   anchor="mb")


_GROUPS: tuple[RGB, ...] = ((46, 150, 74), (40, 110, 190), (214, 120, 24), (140, 80, 170),
                           (190, 50, 60), (90, 90, 90))


def _dice_row(c: MinosCanvas, x: float, y: float, faces: Sequence[str],
              used: Sequence[bool] = (), labels: Sequence[tuple[int, str, str]] = ()) -> None:
    """Dice left to right; under each, what it became: a bar coloured per combination, and
    the combination's amount over its unit under its first die."""
    th = c.theme
    for i, face in enumerate(faces):
        dx = x + i * (DIE + 10)
        die(c, dx, y, DIE, face, used=bool(used[i]) if i < len(used) else False)
        if i >= len(labels):
            continue
        group, amount, unit = labels[i]
        if group >= 0:
            c.box(dx, y + DIE + 3, dx + DIE, y + DIE + 8, fill=_GROUPS[group % len(_GROUPS)])
        if amount:
            c.fitted(dx + DIE / 2, y + DIE + 11, amount, 18, DIE + 8, fill=th.text,
                     face=Face.BOLD, anchor="mt", min_size=11)
        if unit:
            c.fitted(dx + DIE / 2, y + DIE + 31, unit, 13, DIE + 8, fill=th.text_muted,
                     face=Face.CONDENSED, anchor="mt", min_size=9)


def _became(uses: Sequence[Sequence[Any]], n: int, words: Translate,
            blank: tuple[int, str, str]) -> list[tuple[int, str, str]]:
    labels = [blank] * n
    for group, (symbol, dice, amount) in enumerate(uses):
        for k, i in enumerate(dice):
            labels[i] = (group, f"+{amount}" if k == 0 else "", tr(symbol, words) if k == 0
                         else "")
    return labels


def _last_turn(c: MinosCanvas, view: Mapping[str, Any], names: Sequence[str],
               words: Translate) -> None:
    last = view.get("last")
    if not last:
        return
    th = c.theme
    c.text(MARGIN, DICE_Y, tr("last", words, name=seat_name(names, last["seat"])), 18,
           fill=th.seat(last["seat"]), face=Face.BOLD)
    labels = _became(last["uses"], len(last["dice"]), words,
                     (-1, "—", tr("unused", words)))
    used = [label[0] < 0 for label in labels]
    _dice_row(c, MARGIN, DICE_Y + 28, last["dice"], used, labels)


def _current(c: MinosCanvas, view: Mapping[str, Any], names: Sequence[str],
             words: Translate) -> None:
    th = c.theme
    x = WIDTH / 2 + 20
    if view.get("combat"):
        _combat(c, view, names, words, x)
        return
    if view["phase"] == "over":
        return
    seat = view["current"]
    c.text(x, DICE_Y, tr("now", words, name=seat_name(names, seat), n=view["throws"]), 18,
           fill=th.seat(seat), face=Face.BOLD)
    labels = _became(view["uses"], len(view["dice"]), words, (-1, "", ""))
    _dice_row(c, x, DICE_Y + 28, view["dice"], view["used"], labels)
    points = tr("points", words, mp=view["mp"], bp=view["bp"])
    c.text(x + 6 * (DIE + 10) + 6, DICE_Y + 28 + DIE / 2, points, 18, fill=th.text,
           face=Face.BOLD, anchor="lm")


def _combat(c: MinosCanvas, view: Mapping[str, Any], names: Sequence[str], words: Translate,
            x: float) -> None:
    th = c.theme
    combat = view["combat"]
    c.text(x, DICE_Y, tr("combat", words, place=place_name(combat["target"], words)), 18,
           fill=th.combat, face=Face.BOLD)
    small = 38
    rows = ((combat["attacker"], combat["attack"], combat["attack_value"],
             tr("attacker", words, name=seat_name(names, combat["attacker"]))),
            (combat["defender"], combat["defence"], combat["defence_value"],
             tr("defender", words, name=seat_name(names, combat["defender"]))))
    for k, (seat, faces, value, label) in enumerate(rows):
        y = DICE_Y + 26 + k * (small + 30)
        c.fitted(x, y, label, 17, 6 * (small + 6), fill=th.seat(seat), face=Face.BOLD,
                 min_size=12)
        for i, face in enumerate(faces):
            die(c, x + i * (small + 6), y + 22, small, face)
        if value is not None:
            c.number(x + 6 * (small + 6) + 30, y + 22 + small / 2, str(value), 28,
                     fill=th.text)


def render(
    view: Mapping[str, Any],
    *,
    names: Sequence[str],
    words: Translate,
    theme: MinosTheme = DEFAULT_MINOS_THEME,
    scale: float = 1.0,
) -> Image.Image:
    """Draw ``view`` as an RGB image. Pure: the same view gives the same image."""
    img = _background(theme, scale).copy()
    c = MinosCanvas(img, theme, scale)
    _header(c, view, names, words)
    colonies = view["colonies"]
    for code in SITES:
        _colony(c, code, colonies.get(code), view["guards"].get(code), words)
    _pieces(c, view)
    _combat_marks(c, view)
    _players(c, view, names, words)
    _track(c, view, words)
    _last_turn(c, view, names, words)
    _current(c, view, names, words)
    return img
