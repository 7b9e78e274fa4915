"""A Castles of Tuscany region as a hex board, and the pieces every Tuscany drawing shares.

The region is drawn from the view's ``spaces`` alone: a space sits in column ``column``
(flat-topped hexes, 1.5 radii apart) and ``y`` half-hexes from the top, so shifted and
turned modules need no knowledge of the arrangement rules. Zone borders are the hex edges
between spaces of different zones (zones never cross modules, so module seams are borders
too). :func:`render_region` draws one region larger, optionally with every empty space
labelled with the id the engine's ``space`` and ``castle`` actions take.

Only counts of cards are drawn, never a hand, so an image is the same whoever's view it
comes from.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from renderers.common import RGB, Canvas, Face, Theme, Translate, contrast_text, shade

SQRT3 = math.sqrt(3)
COLOUR_CODES = ("c", "r", "i", "f", "q", "v", "m", "t")
IMPROVEMENTS = ("card", "storage", "marble", "worker", "income")
GLYPHS = {"c": "♜", "r": "♛", "i": "☕", "f": "☘", "q": "⚒", "v": "⌂", "m": "✝", "t": "⚖",
          "j": "★"}
IMPROVEMENT_GLYPHS = {"card": "🂠", "storage": "▮", "marble": "●", "worker": "♙",
                      "income": "⚖"}

# Region image geometry (scale 1).
REGION_W, REGION_H = 1100, 760
REGION_HEAD_H = 56
REGION_R = 56.0
REGION_BOARD_X = 20.0


@dataclass(frozen=True, slots=True)
class TuscanyTheme(Theme):
    """The shared roles plus Tuscany's own: the eight domain colours, crops, pieces."""

    castle: RGB = (28, 94, 52)
    city: RGB = (196, 52, 44)
    inn: RGB = (34, 164, 176)
    farm: RGB = (142, 196, 72)
    quarry: RGB = (140, 140, 146)
    village: RGB = (232, 136, 40)
    monastery: RGB = (238, 200, 54)
    trade: RGB = (210, 184, 140)
    wine: RGB = (120, 30, 90)
    boar: RGB = (96, 60, 34)
    olives: RGB = (70, 96, 28)
    grain: RGB = (214, 170, 40)
    joker: RGB = (252, 236, 170)
    marble: RGB = (120, 170, 230)
    green_vp: RGB = (56, 150, 70)
    red_vp: RGB = (190, 46, 40)
    zone_border: RGB = (58, 46, 36)
    hex_line: RGB = (246, 240, 226)
    board: RGB = (214, 200, 170)
    target: RGB = (24, 20, 16)  # the ring around a space the player may choose now
    target_glow: RGB = (255, 255, 255)

    def domain(self, code: str) -> RGB:
        index = COLOUR_CODES.index(code) if code in COLOUR_CODES else 0
        return (self.castle, self.city, self.inn, self.farm, self.quarry, self.village,
                self.monastery, self.trade)[index]

    def crop(self, name: str) -> RGB:
        colour: RGB = getattr(self, name, self.text)
        return colour


DEFAULT_TUSCANY_THEME = TuscanyTheme()

def tr(key: str, words: Translate, **params: object) -> str:
    """A board label from the catalogues (``tuscany.board.<key>``)."""
    return words(f"tuscany.board.{key}", **params)


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) and names[seat] else f"#{seat + 1}"


# The shared canvas with Tuscany's colours on ``c.theme``.
TuscanyCanvas = Canvas[TuscanyTheme]


# ---------------------------------------------------------------- hexes and tiles

def hex_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A flat-topped hexagon; vertex k at angle 60k degrees (screen y points down)."""
    return [(cx + r * math.cos(math.radians(60 * k)), cy + r * math.sin(math.radians(60 * k)))
            for k in range(6)]


# Neighbour offsets (column, y) for each edge: edge k joins vertices k and k+1.
_EDGE_NEIGHBOUR = ((1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1))


def tile_colour(theme: TuscanyTheme, tile: Mapping[str, Any], space_colour: str | None) -> RGB:
    if tile.get("kind") == "j":
        return theme.domain(space_colour) if space_colour else theme.joker
    return theme.domain(str(tile.get("colour") or "c"))


def draw_tile(c: TuscanyCanvas, tile: Mapping[str, Any], cx: float, cy: float, r: float, *,
              space_colour: str | None = None, owner_ring: bool = False) -> None:
    """A domain tile (or joker) as a filled hex with its glyph and, for farms, its crops."""
    th = c.theme
    fill = tile_colour(th, tile, space_colour)
    c.polygon(hex_points(cx, cy, r), fill=fill, outline=shade(fill, 0.6), width=max(1, r / 18))
    kind = str(tile.get("kind", ""))
    ink = contrast_text(fill, th)
    if kind == "j":
        c.polygon(hex_points(cx, cy, r * 0.72), fill=th.joker)
        c.number(cx, cy, GLYPHS["j"], r * 0.8, fill=th.vp)
    else:
        crops = list(tile.get("crops") or [])
        glyph_y = cy - r * 0.16 if crops else cy
        c.number(cx, glyph_y, GLYPHS.get(kind[:1], "?"), r * 0.78, fill=ink)
        d = r * 0.3
        for i, crop in enumerate(crops):
            x = cx + (i - (len(crops) - 1) / 2) * d * 1.25
            c.circle(x, cy + r * 0.5, d, fill=th.crop(crop), outline=th.text_on_dark, width=1)
    if owner_ring:
        owner = tile.get("owner")
        ring = th.seat(int(owner)) if isinstance(owner, int) else th.text_muted
        c.circle(cx + r * 0.62, cy - r * 0.5, r * 0.34, fill=ring, outline=th.text_on_dark,
                 width=1)


def empty_slot(c: TuscanyCanvas, cx: float, cy: float, r: float) -> None:
    c.polygon(hex_points(cx, cy, r), fill=c.theme.tile_muted, outline=c.theme.panel_border,
              width=1)


# ---------------------------------------------------------------- the region board

def board_size(r: float) -> tuple[float, float]:
    """Width and height of a region drawn with hex radius ``r`` (6 columns, y ≤ 11)."""
    return 9.5 * r, 6.5 * SQRT3 * r + 2


def region_board_origin() -> tuple[float, float]:
    """Top left of the board in a :func:`render_region` image (vertically centred)."""
    return REGION_BOARD_X, REGION_HEAD_H + (REGION_H - REGION_HEAD_H - board_size(REGION_R)[1]) / 2


def region_centres(player: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    """Each space's centre, by label, in a :func:`render_region` image at scale 1."""
    x0, y0 = region_board_origin()
    return {str(s["label"]): space_centre(s, x0, y0, REGION_R) for s in player["spaces"]}


def space_centre(space: Mapping[str, Any], x0: float, y0: float,
                 r: float) -> tuple[float, float]:
    """Where a space's hex is centred on a board drawn at ``(x0, y0)`` with radius ``r``."""
    col, y = int(space["column"]), int(space["y"])
    return x0 + r + col * 1.5 * r, y0 + 1 + (y + 1) * SQRT3 * r / 2


def draw_board(c: TuscanyCanvas, player: Mapping[str, Any], x0: float, y0: float, r: float, *,
               labels: bool = False, targets: Collection[str] = ()) -> None:
    """The 30 spaces: placed tiles, empty spaces tinted in their colour, zone borders;
    ``targets`` (labels) are ringed, and the other empty spaces faded, when a space is to be
    chosen."""
    th = c.theme
    spaces: list[Mapping[str, Any]] = list(player["spaces"])
    at = {(int(s["column"]), int(s["y"])): s for s in spaces}
    centres = {(int(s["column"]), int(s["y"])): space_centre(s, x0, y0, r) for s in spaces}
    for s in spaces:
        key = (int(s["column"]), int(s["y"]))
        cx, cy = centres[key]
        colour = str(s["colour"])
        tile = s.get("tile")
        if tile:
            draw_tile(c, tile, cx, cy, r, space_colour=colour)
            continue
        base = th.domain(colour)
        chosen = str(s["label"]) in targets
        faded = bool(targets) and not chosen
        c.polygon(hex_points(cx, cy, r), fill=shade(base, 1.8 if faded else 1.55),
                  outline=th.hex_line, width=1)
        if labels:
            c.number(cx, cy, str(s["label"]), r * 0.5,
                     fill=shade(base, 1.25 if faded else 0.45))
        else:
            c.number(cx, cy, GLYPHS.get(colour, "?"), r * 0.6, fill=shade(base, 1.15))
    border = max(2.0, r / 11)
    for s in spaces:
        col, y = int(s["column"]), int(s["y"])
        cx, cy = centres[(col, y)]
        pts = hex_points(cx, cy, r)
        for k, (dc, dy) in enumerate(_EDGE_NEIGHBOUR):
            other = at.get((col + dc, y + dy))
            if other is not None and (other["module"], other["zone"]) == (s["module"],
                                                                           s["zone"]):
                continue
            c.line(pts[k], pts[(k + 1) % 6], fill=th.zone_border, width=border)
    for s in spaces:  # rings last, so no zone border crosses them
        if str(s["label"]) in targets and not s.get("tile"):
            cx, cy = centres[(int(s["column"]), int(s["y"]))]
            c.polygon(hex_points(cx, cy, r * 0.86), fill=None, outline=th.target,
                      width=max(3.0, r / 8))
            c.polygon(hex_points(cx, cy, r * 0.74), fill=None, outline=th.target_glow,
                      width=max(1.5, r / 20))


# ---------------------------------------------------------------- pieces and counts

def worker_icon(c: TuscanyCanvas, cx: float, cy: float, d: float, colour: RGB) -> None:
    head = d * 0.36
    c.circle(cx, cy - d / 2 + head / 2, head, fill=colour)
    top = cy - d / 2 + head * 0.9
    c.box(cx - d * 0.42, top, cx + d * 0.42, cy + d / 2, fill=colour, radius=d / 4)


def card_icon(c: TuscanyCanvas, cx: float, cy: float, d: float) -> None:
    th = c.theme
    w, h = d * 0.7, d
    for k in (1, 0):
        ox = k * d * 0.14
        c.box(cx - w / 2 + ox, cy - h / 2 - ox, cx + w / 2 + ox, cy + h / 2 - ox,
              fill=th.card_back, outline=th.card_back_edge, width=2, radius=d / 8)


def counter(c: TuscanyCanvas, kind: str, cx: float, cy: float, d: float, count: int,
            label: str) -> None:
    """An icon of ``kind`` with its count beside it and a small label under both."""
    th = c.theme
    ix = cx - d * 0.55
    if kind == "cards":
        card_icon(c, ix, cy, d * 0.8)
    elif kind == "marbles":
        c.circle(ix, cy, d * 0.7, fill=th.marble, outline=shade(th.marble, 0.6), width=2)
        c.circle(ix - d * 0.12, cy - d * 0.12, d * 0.2, fill=shade(th.marble, 1.7))
    elif kind == "workers":
        worker_icon(c, ix, cy, d * 0.8, th.worker)
    else:
        c.polygon(hex_points(ix, cy, d * 0.42), fill=th.joker, outline=th.vp, width=2)
        c.number(ix, cy, GLYPHS["j"], d * 0.42, fill=th.vp)
    faded = count == 0
    c.number(cx + d * 0.3, cy, str(count), d * 0.62,
             fill=th.text_muted if faded else th.text)
    c.text(cx, cy + d * 0.55, label, d * 0.3, fill=th.text_muted, face=Face.CONDENSED_BOLD,
           anchor="mt")


def vp_badge(c: TuscanyCanvas, x: float, cy: float, value: int, colour: RGB, h: float) -> float:
    """A rounded score chip starting at ``x``; returns its width."""
    text = str(value)
    w = max(h * 1.3, c.width(text, h * 0.62, Face.BOLD) + h * 0.6)
    c.box(x, cy - h / 2, x + w, cy + h / 2, fill=colour, outline=shade(colour, 0.7), width=1,
          radius=h / 2)
    c.number(x + w / 2, cy, text, h * 0.62, fill=c.theme.text_on_dark)
    return w


def improvement_chip(c: TuscanyCanvas, kind: str, x: float, y: float, w: float, h: float,
                     count: int, words: Translate) -> None:
    th = c.theme
    faded = count == 0
    fill = th.tile_muted if faded else th.tile
    c.box(x, y, x + w, y + h, fill=fill, outline=th.tile_border, width=1, radius=h / 4)
    ink = th.text_muted if faded else th.text
    c.number(x + h * 0.38, y + h * 0.38, IMPROVEMENT_GLYPHS[kind], h * 0.42, fill=ink)
    c.number(x + w - h * 0.34, y + h * 0.38, str(count), h * 0.44, fill=ink)
    c.fitted(x + w / 2, y + h - 3, tr(f"imp.{kind}", words), h * 0.26, w - 4, fill=ink,
             face=Face.CONDENSED_BOLD, anchor="mb", min_size=8)


def player_info(c: TuscanyCanvas, player: Mapping[str, Any], x0: float, y0: float, x1: float,
                words: Translate, *, unit: float = 1.0) -> float:
    """Storage, counts (cards, marbles, workers, jokers), piles and improvements, stacked in
    the column ``x0..x1`` from ``y0``; ``unit`` scales the rows. Returns the bottom."""
    th = c.theme
    w = x1 - x0
    u = unit
    storage: list[Mapping[str, Any] | None] = list(player["storage"])
    jokers = sum(1 for t in storage if t and t.get("kind") == "j")
    items = (("cards", int(player["hand_count"])), ("marbles", int(player["marbles"])),
             ("workers", int(player["workers"])), ("jokers", jokers))
    step = w / len(items)
    d = min(36 * u, step * 0.5)
    for i, (kind, count) in enumerate(items):
        counter(c, kind, x0 + step * (i + 0.5), y0 + d * 0.6, d, count, tr(kind, words))
    y = y0 + d * 1.45

    c.text(x0, y, tr("storage", words), 13 * u, fill=th.text_muted, face=Face.BOLD)
    y += 17 * u
    r = min(17 * u, w / (len(storage) * 2.2 + 0.2))
    for i, tile in enumerate(storage):
        cx = x0 + r + i * r * 2.2
        if tile:
            draw_tile(c, tile, cx, y + r, r, owner_ring=False)
        else:
            empty_slot(c, cx, y + r, r)
    y += 2 * r + 8 * u

    piles: list[int] = [int(n) for n in player["piles"]]
    c.text(x0, y, tr("piles", words), 13 * u, fill=th.text_muted, face=Face.BOLD)
    names = tr("pile_names", words).split()
    pw = min(62 * u, (w - 70 * u) / 3)
    for i, n in enumerate(piles):
        px = x0 + 70 * u + i * (pw + 4)
        faded = n == 0
        c.box(px, y - 2, px + pw - 4, y + 18 * u, fill=th.tile_muted if faded else th.tile,
              outline=th.tile_border, width=1, radius=4)
        c.fitted(px + (pw - 4) / 2, y + 8 * u, f"{names[i] if i < len(names) else i + 1} {n}",
                 13 * u, pw - 8, fill=th.text_muted if faded else th.text, face=Face.BOLD,
                 anchor="mm", min_size=9)
    y += 26 * u

    imps: Mapping[str, int] = player["improvements"]
    cw = (w - 4 * 4) / 5
    ch = min(40 * u, cw * 0.9)
    for i, kind in enumerate(IMPROVEMENTS):
        improvement_chip(c, kind, x0 + i * (cw + 4), y, cw, ch, int(imps.get(kind, 0)), words)
    return y + ch


def head_line(c: TuscanyCanvas, player: Mapping[str, Any], x0: float, y0: float, x1: float,
              h: float, name: str, words: Translate, *, badge: tuple[str, RGB] | None) -> None:
    """A seat-coloured head: name, a status badge, red and green scores."""
    th = c.theme
    seat = int(player["seat"])
    colour = th.seat(seat)
    mid = y0 + h / 2
    right = x1 - 8
    chip = h * 0.66
    right -= vp_badge(c, right - chip * 1.3 - 8, mid, int(player["green"]), th.green_vp, chip)
    right -= 8
    w = max(chip * 1.3, c.width(str(player["red"]), chip * 0.62, Face.BOLD) + chip * 0.6)
    vp_badge(c, right - w, mid, int(player["red"]), th.red_vp, chip)
    right -= w + 8
    if badge is not None:
        label, fill = badge
        bw = c.width(label, h * 0.34, Face.BOLD) + 16
        c.box(right - bw, y0 + h * 0.2, right, y0 + h * 0.8, fill=fill, radius=h * 0.15)
        c.text(right - bw / 2, mid, label, h * 0.34, fill=th.text_on_dark, face=Face.BOLD,
               anchor="mm")
        right -= bw + 8
    c.fitted(x0 + 10, mid, name, h * 0.48, right - x0 - 14, fill=contrast_text(colour, th),
             face=Face.BOLD, anchor="lm", min_size=h * 0.3)


def _module_badges(c: TuscanyCanvas, arrangement: Mapping[str, Any], x0: float, y0: float) -> None:
    """Over each module: its letter, ↻ if turned, ↓ if shifted (the arrange choices' terms)."""
    th = c.theme
    order, turns, shifts = (str(arrangement[k]) for k in ("order", "turns", "shifts"))
    for pos in range(3):
        text = order[pos].upper() + (" ↻" if turns[pos] == "1" else "") + (
            " ↓" if shifts[pos] == "1" else "")
        cx = x0 + REGION_R + (2 * pos + 0.5) * 1.5 * REGION_R
        w = c.width(text, 16, Face.BOLD) + 18
        c.box(cx - w / 2, y0, cx + w / 2, y0 + 22, fill=th.header, radius=8)
        c.text(cx, y0 + 11, text, 16, fill=th.header_text, face=Face.BOLD, anchor="mm")


def render_region(
    view: Mapping[str, Any],
    seat: int,
    *,
    names: Sequence[str],
    words: Translate,
    labels: bool = False,
    theme: TuscanyTheme = DEFAULT_TUSCANY_THEME,
    scale: float = 1.0,
) -> Image.Image:
    """One seat's region, large, with its pieces; ``labels`` names every empty space. In the
    seat's own view, the spaces it may choose now (``view["targets"]``) are highlighted."""
    th = theme
    player = view["players"][seat]
    img = Image.new("RGB", (round(REGION_W * scale), round(REGION_H * scale)), th.background)
    c = TuscanyCanvas(img, th, scale)
    c.box(0, 0, REGION_W, REGION_HEAD_H, fill=th.seat(seat))
    head_line(c, player, 8, 0, REGION_W - 8, REGION_HEAD_H, seat_name(names, seat), words,
              badge=None)
    bw, bh = board_size(REGION_R)
    bx, by = region_board_origin()
    c.box(bx - 10, by - 10, bx + bw + 10, by + bh + 10, fill=th.board, radius=14)
    targets = (view.get("targets") or ()) if view.get("viewer") == seat else ()
    draw_board(c, player, bx, by, REGION_R, labels=labels, targets=frozenset(targets))
    if view.get("phase") == "arrange":
        _module_badges(c, player["arrangement"], bx, REGION_HEAD_H + 3)
    ix = bx + bw + 36
    c.box(ix - 14, REGION_HEAD_H + 16, REGION_W - 16, REGION_H - 16, fill=th.panel,
          outline=th.panel_border, width=2, radius=12)
    bottom = player_info(c, player, ix, REGION_HEAD_H + 34, REGION_W - 30, words, unit=1.3)
    c.text(ix, bottom + 24, tr("empty", words, n=player["empty_spaces"]), 20,
           fill=th.text_muted, face=Face.BOLD)
    pending = view.get("pending")
    if pending and pending.get("tile") and view.get("current") == seat:
        y = bottom + 80
        c.text(ix, y, tr("placing", words), 22, fill=th.text, face=Face.BOLD)
        draw_tile(c, pending["tile"], ix + 60, y + 100, 56)
    return img
