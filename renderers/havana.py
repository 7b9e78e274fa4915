"""The Havana board as one landscape image, drawn from a player's or a spectator's view.

Layout (1600 x 1000 at scale 1, readable on a phone held sideways): a header with the round,
phase, whose turn it is and the turn order; the two building rows (row ends framed and
labelled as buyable); a side column with the face-down pile, the centre supply and the
bag/box/bank counts; one panel per seat with its face-up cards, turn number, resources,
VP and buildings.

The board is public: it never draws ``hand``, ``discard`` or ``pending_picks`` even when the
view holds them (the owner's view does) -- those belong to the private panel, so a board
posted in the channel can never leak a hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

from engines.havana.data import BUILDINGS, CARDS
from renderers.common import (
    DEFAULT_THEME,
    RGB,
    Canvas,
    Face,
    Theme,
    Translate,
    contrast_text,
    shade,
    wrap,
)

# Geometry, in pixels at scale 1.
WIDTH, HEIGHT = 1600, 1000
MARGIN = 16
HEADER_H = 64
BOARD_TOP = 78
TILE_W, TILE_H, TILE_GAP = 172, 196, 10
ROW_GAP = 12
SIDE_X = 1114
PANEL_TOP = BOARD_TOP + 2 * TILE_H + ROW_GAP + 14
PANEL_GAP = 12
PANEL_HEAD_H = 46
CARD_W, CARD_H, CARD_GAP = 84, 118, 8
CHIP_MIN_W, CHIP_H, CHIP_GAP, CHIP_COLUMNS = 150, 28, 6, 2
ORDER_CHIP_W = 178

MATERIALS = ("brick", "sandstone", "clay", "glass", "rubble")
COST_ORDER = (*MATERIALS, "pesos", "workers")

END_REASONS = ("threshold", "buildings", "cubes")


def _t(key: str, words: Translate, **params: object) -> str:
    """A board label from the catalogues (``havana.board.<key>``)."""
    return words(f"havana.board.{key}", **params)


def card_name(card_id: str, words: Translate) -> str:
    return words(f"havana.card.{card_id}")


def building_name(building_id: int, words: Translate) -> str:
    return words(f"havana.building.{building_id}")


class _Canvas(Canvas[Theme]):
    """The shared canvas plus Havana's resource pieces, each with its count drawn inside."""

    def cube(self, cx: float, cy: float, d: float, material: str, count: int | None,
             *, faded: bool = False) -> None:
        colour: RGB = getattr(self.theme, material)
        if faded:
            colour = shade(colour, 1.6)
        r = d / 2
        self.box(cx - r, cy - r, cx + r, cy + r, fill=colour, outline=shade(colour, 0.7),
                 width=2, radius=d / 6)
        if count is not None:
            self.number(cx, cy, str(count), d * 0.56, fill=contrast_text(colour, self.theme))

    def coin(self, cx: float, cy: float, d: float, count: int | None,
             *, faded: bool = False) -> None:
        fill, edge = self.theme.peso, self.theme.peso_edge
        if faded:
            fill, edge = shade(fill, 1.6), shade(edge, 1.6)
        self.circle(cx, cy, d, fill=fill, outline=edge, width=max(2, d / 14))
        if count is not None:
            self.number(cx, cy, str(count), d * 0.5, fill=self.theme.text)

    def worker(self, cx: float, cy: float, d: float, count: int | None,
               *, faded: bool = False) -> None:
        """A meeple-like worker: a head over a rounded body that holds the count."""
        colour = shade(self.theme.worker, 1.6) if faded else self.theme.worker
        head = d * 0.34
        self.circle(cx, cy - d / 2 + head / 2, head, fill=colour)
        body_top = cy - d / 2 + head * 0.9
        self.box(cx - d / 2, body_top, cx + d / 2, cy + d / 2, fill=colour, radius=d / 4)
        if count is not None:
            self.number(cx, (body_top + cy + d / 2) / 2, str(count), d * 0.46,
                        fill=self.theme.text_on_dark)

    def resource(self, kind: str, cx: float, cy: float, d: float, count: int | None,
                 *, faded: bool = False) -> None:
        if kind == "pesos":
            self.coin(cx, cy, d, count, faded=faded)
        elif kind == "workers":
            self.worker(cx, cy, d, count, faded=faded)
        else:
            self.cube(cx, cy, d, kind, count, faded=faded)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) and names[seat] else f"#{seat + 1}"


@lru_cache(maxsize=16)
def _background(num_players: int, theme: Theme, scale: float) -> Image.Image:
    """The parts that do not depend on the game: backdrop, header bar, side and panel boxes."""
    img = Image.new("RGB", (round(WIDTH * scale), round(HEIGHT * scale)), theme.background)
    c = _Canvas(img, theme, scale)
    c.box(0, 0, WIDTH, HEADER_H, fill=theme.header)
    c.box(SIDE_X, BOARD_TOP, WIDTH - MARGIN, PANEL_TOP - 14, fill=theme.panel,
          outline=theme.panel_border, width=2, radius=12)
    for x0, x1 in _panel_columns(num_players):
        c.box(x0, PANEL_TOP, x1, HEIGHT - MARGIN, fill=theme.panel, radius=12)
    return img


def _panel_columns(num_players: int) -> list[tuple[float, float]]:
    n = max(1, num_players)
    w = (WIDTH - 2 * MARGIN - (n - 1) * PANEL_GAP) / n
    return [(MARGIN + i * (w + PANEL_GAP), MARGIN + i * (w + PANEL_GAP) + w) for i in range(n)]


def render(
    view: Mapping[str, Any],
    *,
    names: Sequence[str],
    words: Translate,
    theme: Theme = DEFAULT_THEME,
    scale: float = 1.0,
) -> Image.Image:
    """Draw ``view`` (any seat's or a spectator's) as an RGB image. Pure: same input, same image.

    ``names[seat]`` is the display name of each seat; the view itself has no names.
    """
    img = _background(int(view["num_players"]), theme, scale).copy()
    c = _Canvas(img, theme, scale)
    _header(c, view, names, words)
    for index, row in enumerate(view["rows"][:2]):
        _row(c, row, BOARD_TOP + index * (TILE_H + ROW_GAP), words)
    _side(c, view, names, words)
    for (x0, x1), player in zip(_panel_columns(int(view["num_players"])), view["players"],
                                strict=False):
        _panel(c, view, player, x0, x1, names, words)
    return img


# Header: round, phase, status, turn order.

def _header(c: _Canvas, view: Mapping[str, Any], names: Sequence[str],
            words: Translate) -> None:
    th = c.theme
    title = _t("title", words)
    c.text(MARGIN, HEADER_H / 2, title, 26, fill=th.header_text, face=Face.BOLD, anchor="lm")
    x = MARGIN + c.width(title, 26, Face.BOLD) + 24
    phase = view["phase"]
    line1 = f"{_t('round', words, n=view['round'])}  ·  {_t('phase.' + phase, words)}"
    if view.get("vp_to_win"):
        line1 += f"  ·  {_t('goal', words, n=view['vp_to_win'])}"
    order: list[int] = list(view["turn_order"])
    right = WIDTH - MARGIN - (len(order) * (ORDER_CHIP_W + 8) if order else 330)
    c.fitted(x, 8, line1, 22, right - x - 16, fill=th.header_text, face=Face.BOLD, min_size=16)
    c.fitted(x, 36, _status(view, names, words), 17, right - x - 16, fill=th.header_muted,
             face=Face.BOLD, min_size=13)
    if not order:
        c.fitted(WIDTH - MARGIN, HEADER_H / 2, _t("order_later", words), 16, 320,
                 fill=th.header_muted, anchor="rm", min_size=12)
        return
    c.text(right, 5, _t("order", words), 12, fill=th.header_muted)
    cx = right
    for seat in order:
        _order_chip(c, view, seat, cx, names)
        cx += ORDER_CHIP_W + 8


def _status(view: Mapping[str, Any], names: Sequence[str], words: Translate) -> str:
    phase = view["phase"]
    if phase == "over":
        winners = list(view.get("winners") or [])
        who = ", ".join(_name(names, s) for s in winners)
        text = _t("winners" if len(winners) > 1 else "winner", words, names=who)
        reason = view.get("end_reason")
        if reason in END_REASONS:
            text += f"  ({_t('end.' + reason, words)})"
        return text
    if phase == "actions" and view.get("current") is not None:
        return "▶ " + _t("to_play", words, name=_name(names, int(view["current"])))
    waiting = ", ".join(_name(names, s) for s in view["active"])
    return _t("waiting", words, names=waiting)


def _order_chip(c: _Canvas, view: Mapping[str, Any], seat: int, x: float,
                names: Sequence[str]) -> None:
    th = c.theme
    player = view["players"][seat]
    current = view.get("current") == seat
    y0, y1 = 22, HEADER_H - 8
    c.box(x, y0, x + ORDER_CHIP_W, y1, fill=th.highlight if current else shade(th.header, 1.25),
          radius=8)
    c.circle(x + 14, (y0 + y1) / 2, 14, fill=th.seat(seat), outline=th.header_text, width=2)
    number = player.get("turn_number") or "–"
    c.text(x + ORDER_CHIP_W - 8, (y0 + y1) / 2, number, 20, fill=th.header_text,
           face=Face.BOLD, anchor="rm")
    name_w = ORDER_CHIP_W - 28 - 8 - c.width("00", 20, Face.BOLD) - 10
    c.fitted(x + 26, (y0 + y1) / 2, _name(names, seat), 16, name_w, fill=th.header_text,
             face=Face.CONDENSED_BOLD, anchor="lm", min_size=13)


# Building rows.

def _row(c: _Canvas, row: Sequence[Mapping[str, Any]], y: float, words: Translate) -> None:
    span = SIDE_X - MARGIN - 16
    n = len(row)
    if n == 0:
        c.box(MARGIN, y, MARGIN + TILE_W, y + TILE_H, outline=c.theme.tile_border, width=2,
              radius=10)
        return
    w = min(TILE_W, (span - (n - 1) * TILE_GAP) / n)
    for index, building in enumerate(row):
        _tile(c, building, MARGIN + index * (w + TILE_GAP), y, w, words)


def _tile(c: _Canvas, b: Mapping[str, Any], x: float, y: float, w: float,
          words: Translate) -> None:
    th = c.theme
    buyable = bool(b.get("buyable"))
    h = TILE_H
    if buyable:
        c.box(x, y, x + w, y + h, fill=th.buyable, radius=10)
        c.box(x + 4, y + 4, x + w - 4, y + h - 26, fill=th.tile, radius=8)
        c.text(x + 10, y + h - 13, "★ " + _t("buyable", words), 15, fill=th.text_on_dark,
               face=Face.BOLD, anchor="lm")
    else:
        c.box(x, y, x + w, y + h, fill=th.tile_muted, outline=th.tile_border, width=2,
              radius=10)
    c.circle(x + 30, y + 30, 42, fill=th.vp, outline=shade(th.vp, 0.7), width=2)
    c.number(x + 30, y + 30, str(b["vp"]), 24, fill=th.text)
    c.text(x + 30, y + 56, _t("vp", words), 11, fill=th.text_muted, face=Face.BOLD,
           anchor="mt")
    # The number sits in the bottom strip (the buyable band, or the free margin under the
    # cost), so the name can use the tile's whole width.
    c.text(x + w - 9, y + h - 13, f"#{b['id']}", 13,
           fill=th.text_on_dark if buyable else th.text_muted, anchor="rm")
    size, lines = _name_lines(c, building_name(int(b["id"]), words), w - 66)
    if len(lines) == 1:
        c.text(x + 58, y + 32, lines[0], size, fill=th.text, face=Face.CONDENSED_BOLD,
               anchor="lm")
    else:
        for i, line in enumerate(lines):
            c.text(x + 58, y + 21 + i * 21, line, size, fill=th.text,
                   face=Face.CONDENSED_BOLD, anchor="lm")
    _cost(c, b, x + 8, y + 74, w - 16, y + h - 32)


def _name_lines(c: _Canvas, name: str, max_w: float) -> tuple[int, list[str]]:
    """The largest size from 17 down to 13 at which ``name`` wraps into two whole lines."""
    for size in range(17, 12, -1):
        lines = wrap(name, c.font(size, Face.CONDENSED_BOLD), c.s(max_w), 2)
        if " ".join(lines) == " ".join(name.split()):
            return size, lines
    return 13, lines


def _cost(c: _Canvas, b: Mapping[str, Any], x: float, y: float, w: float, bottom: float) -> None:
    """The price as resource icons with counts, plus the architect requirement."""
    cost: Mapping[str, int] = b["cost"]
    items: list[tuple[str, float]] = []
    for kind in COST_ORDER:
        if cost.get(kind, 0) > 0:
            items.append((kind, 0.0))
    d = 32.0
    lines = _flow([d] * len(items) + ([d * 2.6] if b.get("architect") else []), w, 6)
    while len(lines) > 2 and d > 20:
        d -= 4
        lines = _flow([d] * len(items) + ([d * 2.6] if b.get("architect") else []), w, 6)
    line_h = d + 8
    top = y + max(0.0, (bottom - y - len(lines) * line_h) / 2)
    index = 0
    for li, line in enumerate(lines):
        total = sum(line) + 6 * (len(line) - 1)
        cx = x + (w - total) / 2
        cy = top + li * line_h + d / 2 + 4
        for item_w in line:
            if index < len(items):
                kind = items[index][0]
                c.resource(kind, cx + d / 2, cy, d, int(cost[kind]))
            else:
                _architect_badge(c, cx, cy, item_w, d)
            cx += item_w + 6
            index += 1


def _flow(widths: Sequence[float], max_w: float, gap: float) -> list[list[float]]:
    """Split item widths into lines no wider than ``max_w`` (greedy, order kept)."""
    lines: list[list[float]] = []
    current: list[float] = []
    for item in widths:
        if current and sum(current) + gap * len(current) + item > max_w:
            lines.append(current)
            current = []
        current.append(item)
    if current:
        lines.append(current)
    return lines


def _architect_badge(c: _Canvas, x: float, cy: float, w: float, d: float) -> None:
    th = c.theme
    c.box(x, cy - d / 2, x + w, cy + d / 2, fill=th.architect, radius=d / 4)
    c.circle(x + d / 2, cy, d - 8, fill=th.text_on_dark)
    c.number(x + d / 2, cy, "A", d * 0.5, fill=th.architect)
    c.number(x + d + (w - d) / 2 - 2, cy, str(CARDS["architect"].value), d * 0.56,
             fill=th.text_on_dark)


# Side column: pile, centre supply, bag / box / bank.

def _side(c: _Canvas, view: Mapping[str, Any], names: Sequence[str],
          words: Translate) -> None:
    th = c.theme
    x0, y0, x1 = SIDE_X + 16, BOARD_TOP + 14, WIDTH - MARGIN - 16
    for k in (2, 1, 0):
        c.box(x0 + k * 6, y0 + k * 6, x0 + 64 + k * 6, y0 + 84 + k * 6, fill=th.header,
              outline=th.card_back_edge, width=2, radius=6)
    c.text(x0 + 92, y0 + 4, _t("pile", words), 16, fill=th.text_muted, face=Face.BOLD)
    c.text(x0 + 92, y0 + 26, str(view["pile"]), 44, fill=th.text, face=Face.BOLD)

    # Bag / box / bank, to the right of the pile.
    bx = x0 + 200
    counts = (("bag", view["bag"]), ("box", view["box"]))
    for i, (key, value) in enumerate(counts):
        yy = y0 + 4 + i * 30
        c.text(bx, yy, _t(key, words), 17, fill=th.text_muted, face=Face.BOLD)
        c.text(x1, yy, str(value), 20, fill=th.text, face=Face.BOLD, anchor="ra")
    yy = y0 + 64
    c.text(bx, yy, _t("bank", words), 17, fill=th.text_muted, face=Face.BOLD)
    c.worker(x1 - 16, yy + 12, 32, int(view["bank_workers"]))

    # Centre supply: pesos then each material, each named (the board's colour legend).
    cy0 = y0 + 118
    c.box(SIDE_X + 10, cy0, WIDTH - MARGIN - 10, cy0 + 150, fill=th.tile, radius=10,
          outline=th.tile_border, width=1)
    c.text(x0, cy0 + 10, _t("centre", words), 18, fill=th.text, face=Face.BOLD)
    centre: Mapping[str, int] = view["centre"]
    kinds = ("pesos", *MATERIALS)
    step = (x1 - x0) / len(kinds)
    for i, kind in enumerate(kinds):
        cx = x0 + step * (i + 0.5)
        value = int(centre.get(kind, 0))
        c.resource(kind, cx, cy0 + 72, 46, value, faded=value == 0)
        c.fitted(cx, cy0 + 104, _t(kind, words), 14, step - 4, fill=th.text_muted,
                 face=Face.CONDENSED_BOLD, anchor="mt", min_size=11)

    notes: list[tuple[str, RGB]] = []
    doing = _in_progress(view, names, words)
    if doing:
        notes.append(("▶ " + doing, shade(th.highlight, 1.7)))
    if view.get("removed_this_round"):
        notes.append(("✓ " + _t("removed", words), shade(th.architect, 1.75)))
    for i, (text, colour) in enumerate(notes):
        ry = cy0 + 166 + i * 50
        c.box(SIDE_X + 10, ry, WIDTH - MARGIN - 10, ry + 40, fill=colour, radius=10)
        c.fitted(x0, ry + 20, text, 16, x1 - x0, fill=th.text, face=Face.BOLD, anchor="lm",
                 min_size=12)


def _in_progress(view: Mapping[str, Any], names: Sequence[str], words: Translate) -> str:
    """The card being carried out (and whom it targets) or the building being paid for."""
    context: Mapping[str, Any] | None = view.get("context")
    if view["phase"] != "actions" or not context:
        return ""
    if context.get("building") is not None:
        b = BUILDINGS[int(context["building"])]
        return _t("buying", words, building=building_name(b.id, words))
    if not context.get("card"):
        return ""
    text = card_name(str(context["card"]), words)
    # While a thief's victim is being chosen the targets are only candidates: not shown.
    choosing = str(view.get("step") or "").endswith("_target")
    targets = [_name(names, int(seat)) for seat in context.get("targets") or []]
    if targets and not choosing:
        text += " → " + ", ".join(targets)
    return text


# Player panels.

def _panel(c: _Canvas, view: Mapping[str, Any], p: Mapping[str, Any], x0: float, x1: float,
           names: Sequence[str], words: Translate) -> None:
    th = c.theme
    seat = int(p["seat"])
    phase = view["phase"]
    y0, y1 = PANEL_TOP, HEIGHT - MARGIN
    current = phase == "actions" and view.get("current") == seat
    winner = phase == "over" and seat in (view.get("winners") or [])
    seat_colour = th.seat(seat)

    if current or winner:
        c.box(x0 - 4, y0 - 4, x1 + 4, y1 + 4, fill=th.highlight if current else th.winner,
              radius=15)
        c.box(x0, y0, x1, y1, fill=th.panel, radius=12)
    else:
        c.box(x0, y0, x1, y1, outline=th.panel_border, width=2, radius=12)
    c.box(x0, y0, x1, y0 + PANEL_HEAD_H, fill=seat_colour, radius=12)
    c.box(x0, y0 + PANEL_HEAD_H - 12, x1, y0 + PANEL_HEAD_H, fill=seat_colour)

    # Header: name, a status pill, the turn number.
    text_colour = contrast_text(seat_colour, th)
    mid = y0 + PANEL_HEAD_H / 2
    number = p.get("turn_number") or "–"
    c.box(x1 - 66, y0 + 7, x1 - 8, y0 + PANEL_HEAD_H - 7, fill=th.card_face, radius=6)
    c.number(x1 - 37, mid, number, 22, fill=th.text)
    pill_right = x1 - 74
    pill = _panel_pill(view, p, words, current, winner)
    if pill is not None:
        label, colour = pill
        pw = c.width(label, 15, Face.BOLD) + 16
        c.box(pill_right - pw, y0 + 10, pill_right, y0 + PANEL_HEAD_H - 10, fill=colour,
              radius=8)
        c.text(pill_right - pw / 2, mid, label, 15, fill=th.text_on_dark, face=Face.BOLD,
               anchor="mm")
        pill_right -= pw + 8
    name = ("▶ " if current else "") + _name(names, seat)
    c.fitted(x0 + 12, mid, name, 22, pill_right - x0 - 16, fill=text_colour, face=Face.BOLD,
             anchor="lm", min_size=15)

    # Face-up cards.
    top = y0 + PANEL_HEAD_H + 12
    face_up: list[str] = list(p["face_up"])
    used = set(p["used"]) if current else set()
    for i in range(2):
        cx = x0 + 12 + i * (CARD_W + CARD_GAP)
        if i < len(face_up):
            _card(c, face_up[i], cx, top, words, used=face_up[i] in used)
        else:
            _card_back(c, cx, top, picked=bool(p["has_picked"]))

    # Stats to the right of the cards.
    sx = x0 + 12 + 2 * CARD_W + CARD_GAP + 14
    c.circle(sx + 24, top + 24, 48, fill=th.vp, outline=shade(th.vp, 0.7), width=2)
    c.number(sx + 24, top + 22, str(p["vp"]), 24, fill=th.text)
    c.text(sx + 24, top + 37, _t("vp", words), 10, fill=th.text, face=Face.BOLD, anchor="mm")
    c.coin(sx + 78, top + 24, 42, int(p["pesos"]), faded=int(p["pesos"]) == 0)
    c.worker(sx + 126, top + 24, 40, int(p["workers"]), faded=int(p["workers"]) == 0)
    materials: Mapping[str, int] = p["materials"]
    for i, kind in enumerate(MATERIALS):
        value = int(materials.get(kind, 0))
        c.cube(sx + 16 + i * 35, top + 70, 31, kind, value, faded=value == 0)
    c.fitted(sx, top + 98, _t("hand", words, hand=p["hand_count"], discard=p["discard_count"]),
             15, x1 - sx - 10, fill=th.text_muted, face=Face.CONDENSED_BOLD, min_size=12)
    if p.get("protected"):
        # Beside the worker when the panel is wide enough, else on the buildings title line
        # (a 4-player panel has no room beside the worker).
        if x1 - 12 - _protected_width(c, words) >= sx + 152:
            _protected(c, x1 - 12, top + 24, words)
        else:
            _protected(c, x1 - 12, top + CARD_H + 20, words)

    _buildings(c, list(p["buildings"]), x0 + 12, top + CARD_H + 12, x1 - 12, y1 - 10,
               words)


def _panel_pill(view: Mapping[str, Any], p: Mapping[str, Any], words: Translate, current: bool,
                winner: bool) -> tuple[str, RGB] | None:
    th_pick = view["phase"] in ("start_pick", "cover")
    if winner:
        return "♛ " + _t("winner_badge", words), (150, 110, 10)
    if current:
        return _t("playing", words), (196, 90, 10)
    if th_pick:
        if p["has_picked"]:
            return "✓ " + _t("chosen", words), (30, 120, 60)
        return _t("choosing", words), (70, 80, 150)
    return None


def _protected_width(c: _Canvas, words: Translate) -> float:
    return c.width(_t("protected", words), 14, Face.CONDENSED_BOLD) + 38


def _protected(c: _Canvas, right: float, cy: float, words: Translate) -> None:
    """A shield and the word, right-aligned at ``right`` (Protection face up)."""
    th = c.theme
    label = _t("protected", words)
    w = _protected_width(c, words)
    c.box(right - w, cy - 13, right, cy + 13, fill=th.protected, radius=8)
    sx, sy = right - w + 8, cy - 9
    points = [(sx, sy), (sx + 16, sy), (sx + 16, sy + 8), (sx + 8, sy + 18), (sx, sy + 8)]
    c.polygon(points, fill=th.text_on_dark)
    c.text(right - 8, cy, label, 14, fill=th.text_on_dark, face=Face.CONDENSED_BOLD,
           anchor="rm")


def _card(c: _Canvas, card_id: str, x: float, y: float, words: Translate, *,
          used: bool) -> None:
    th = c.theme
    fill = th.card_used if used else th.card_face
    c.box(x, y, x + CARD_W, y + CARD_H, fill=fill, outline=th.text, width=2, radius=8)
    c.number(x + CARD_W / 2, y + 32, str(CARDS[card_id].value), 42,
             fill=th.text_muted if used else th.text)
    name_font = c.font(13, Face.CONDENSED_BOLD)
    lines = wrap(card_name(card_id, words), name_font, c.s(CARD_W - 8), 3)
    base = y + CARD_H - 12 - (len(lines) - 1) * 15
    for i, line in enumerate(lines):
        c.text(x + CARD_W / 2, base + i * 15, line, 13, fill=th.text, face=Face.CONDENSED_BOLD,
               anchor="ms")
    if used:
        c.circle(x + CARD_W - 14, y + 14, 22, fill=th.done)
        c.text(x + CARD_W - 14, y + 14, "✓", 15, fill=th.text_on_dark, face=Face.BOLD,
               anchor="mm")


def _card_back(c: _Canvas, x: float, y: float, *, picked: bool) -> None:
    """A hidden pick: a card back with a tick once chosen, an empty slot before."""
    th = c.theme
    if picked:
        c.box(x, y, x + CARD_W, y + CARD_H, fill=th.card_back, outline=th.card_back_edge,
              width=3, radius=8)
        c.box(x + 9, y + 9, x + CARD_W - 9, y + CARD_H - 9, outline=th.card_back_edge,
              width=1, radius=5)
        c.circle(x + CARD_W / 2, y + CARD_H / 2, 40, fill=th.done)
        c.text(x + CARD_W / 2, y + CARD_H / 2, "✓", 26, fill=th.text_on_dark, face=Face.BOLD,
               anchor="mm")
    else:
        c.box(x, y, x + CARD_W, y + CARD_H, fill=th.tile_muted, outline=th.panel_border,
              width=2, radius=8)
        c.number(x + CARD_W / 2, y + CARD_H / 2, "?", 44, fill=th.text_muted)


def _buildings(c: _Canvas, ids: list[int], x0: float, y0: float, x1: float, y1: float,
               words: Translate) -> None:
    """The seat's buildings as compact chips (VP + name), "+N more" when they overflow."""
    th = c.theme
    c.text(x0, y0, _t("buildings", words, n=len(ids)), 14, fill=th.text_muted,
           face=Face.BOLD)
    top = y0 + 22
    # Two columns at most: a whole name per chip matters more than filling the width.
    cols = max(1, min(CHIP_COLUMNS, int((x1 - x0 + CHIP_GAP) // (CHIP_MIN_W + CHIP_GAP))))
    chip_w = (x1 - x0 - (cols - 1) * CHIP_GAP) / cols
    rows = max(1, int((y1 - top + CHIP_GAP) // (CHIP_H + CHIP_GAP)))
    capacity = cols * rows
    shown = ids if len(ids) <= capacity else ids[: capacity - 1]
    for index, bid in enumerate(shown):
        col, row = index % cols, index // cols
        x = x0 + col * (chip_w + CHIP_GAP)
        y = top + row * (CHIP_H + CHIP_GAP)
        c.box(x, y, x + chip_w, y + CHIP_H, fill=th.tile, outline=th.tile_border, width=1,
              radius=6)
        b = BUILDINGS[bid]
        c.circle(x + 14, y + CHIP_H / 2, 22, fill=th.vp)
        c.number(x + 14, y + CHIP_H / 2, str(b.vp), 13, fill=th.text)
        label = building_name(b.id, words)
        c.fitted(x + 30, y + CHIP_H / 2, label, 15, chip_w - 36, fill=th.text,
                 face=Face.CONDENSED_BOLD, anchor="lm", min_size=12)
    if len(shown) < len(ids):
        index = len(shown)
        x = x0 + (index % cols) * (chip_w + CHIP_GAP)
        y = top + (index // cols) * (CHIP_H + CHIP_GAP)
        c.text(x + chip_w / 2, y + CHIP_H / 2, _t("more", words, n=len(ids) - len(shown)),
               15, fill=th.text_muted, face=Face.BOLD, anchor="mm")
