"""The Castles of Tuscany board as one landscape image, drawn from any seat's or a spectator's
view.

Layout (1600 x 1000 at scale 1): a header with the round, the phase and who acts; a side
column with the 8 face-up tiles (numbered as the ``pick`` choices number them), the decks
and piles of the supply, the colour-bonus tiles showing their current side, and the
improvements left; then one panel per seat: its region as a hex board and its pieces
(storage, piles left, improvements, marbles, workers, jokers, the *number* of cards).

Hands are never drawn, even in the owner's view (which holds one): the board is public.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

from renderers.common import Face, Translate, shade
from renderers.tuscany_region import (
    COLOUR_CODES,
    DEFAULT_TUSCANY_THEME,
    IMPROVEMENTS,
    TuscanyCanvas,
    TuscanyTheme,
    board_size,
    card_icon,
    draw_board,
    draw_tile,
    empty_slot,
    head_line,
    improvement_chip,
    player_info,
    render_region,
    seat_name,
    tr,
)

__all__ = ["render", "render_region", "TuscanyTheme", "DEFAULT_TUSCANY_THEME"]

# Geometry, in pixels at scale 1.
WIDTH, HEIGHT = 1600, 1000
MARGIN = 16
HEADER_H = 64
TOP = 78
SIDE_X0, SIDE_X1 = MARGIN, 352
AREA_X0, AREA_X1 = 368, WIDTH - MARGIN
BOTTOM = HEIGHT - MARGIN
PANEL_GAP = 12
PANEL_HEAD_H = 44
DISPLAY_R = 34
DISPLAY_STEP = 78
BELOW_INFO_H = 230  # info under the board (up to 3 seats side by side)
INFO_UNIT = 1.2


def render(
    view: Mapping[str, Any],
    *,
    names: Sequence[str],
    words: Translate,
    theme: TuscanyTheme = DEFAULT_TUSCANY_THEME,
    scale: float = 1.0,
) -> Image.Image:
    """Draw ``view`` as an RGB image. Pure: the same view gives the same image.

    ``names[seat]`` is each seat's display name; the view itself holds no names.
    """
    players: list[Mapping[str, Any]] = list(view["players"])
    img = _background(len(players), theme, scale).copy()
    c = TuscanyCanvas(img, theme, scale)
    _header(c, view, names, words)
    y = _display(c, view, words, TOP)
    y = _supply(c, view, words, y + 10)
    y = _bonuses(c, view, words, y + 10)
    _improvement_supply(c, view, words, y + 10)
    winners = _winners(view)
    for rect, player in zip(_panels(len(players)), players, strict=False):
        _panel(c, view, player, rect, names, words, winners)
    return img


@lru_cache(maxsize=16)
def _background(num_players: int, theme: TuscanyTheme, scale: float) -> Image.Image:
    """What does not depend on the game: backdrop and header bar."""
    img = Image.new("RGB", (round(WIDTH * scale), round(HEIGHT * scale)), theme.background)
    TuscanyCanvas(img, theme, scale).box(0, 0, WIDTH, HEADER_H, fill=theme.header)
    return img


def _panels(n: int) -> list[tuple[float, float, float, float]]:
    """Panel rectangles: up to 3 seats side by side, 4 seats in a 2 x 2 grid."""
    cols, rows = (n, 1) if n <= 3 else (2, 2)
    cols = max(1, cols)
    w = (AREA_X1 - AREA_X0 - (cols - 1) * PANEL_GAP) / cols
    h = (BOTTOM - TOP - (rows - 1) * PANEL_GAP) / rows
    return [(AREA_X0 + (i % cols) * (w + PANEL_GAP), TOP + (i // cols) * (h + PANEL_GAP),
             AREA_X0 + (i % cols) * (w + PANEL_GAP) + w, TOP + (i // cols) * (h + PANEL_GAP) + h)
            for i in range(n)]


def _winners(view: Mapping[str, Any]) -> set[int]:
    """At the end: most red VP, then most empty spaces, then most green (rulebook ties)."""
    if view["phase"] != "over" or not view["players"]:
        return set()
    keys = {int(p["seat"]): (int(p["red"]), int(p["empty_spaces"]), int(p["green"]))
            for p in view["players"]}
    best = max(keys.values())
    return {seat for seat, key in keys.items() if key == best}


# ---------------------------------------------------------------- header

def _header(c: TuscanyCanvas, view: Mapping[str, Any], names: Sequence[str],
            words: Translate) -> None:
    th = c.theme
    title = tr("title", words)
    c.text(MARGIN, HEADER_H / 2, title, 24, fill=th.header_text, face=Face.BOLD, anchor="lm")
    x = MARGIN + c.width(title, 24, Face.BOLD) + 28
    parts = [tr("round", words, n=view["round"]), tr(f"phase.{view['phase']}", words)]
    if view["phase"] == "over":
        pass  # the rotation flags keep their last value; at the end they say nothing
    elif view.get("extra_rotation"):
        parts.append(tr("extra_rotation", words))
    elif view.get("round_ending"):
        parts.append(tr("round_ending", words))
    c.fitted(x, 8, "  ·  ".join(parts), 22, WIDTH - MARGIN - x, fill=th.header_text,
             face=Face.BOLD, min_size=15)
    c.fitted(x, 37, _status(view, names, words), 17, WIDTH - MARGIN - x,
             fill=th.header_muted, face=Face.BOLD, min_size=12)


def _status(view: Mapping[str, Any], names: Sequence[str], words: Translate) -> str:
    if view["phase"] == "over":
        winners = sorted(_winners(view))
        who = ", ".join(seat_name(names, s) for s in winners)
        return tr("winners" if len(winners) > 1 else "winner", words, names=who)
    current = view.get("current")
    if isinstance(current, int):
        text = "▶ " + tr("to_play", words, name=seat_name(names, current))
        pending = view.get("pending")
        if pending:
            text += " — " + tr(f"step.{pending['kind']}", words)
        return text
    waiting = ", ".join(seat_name(names, int(s)) for s in view.get("active", []))
    return tr("waiting", words, names=waiting or "—")


# ---------------------------------------------------------------- side column

def _section(c: TuscanyCanvas, y0: float, h: float, title: str, right: str = "") -> None:
    th = c.theme
    c.box(SIDE_X0, y0, SIDE_X1, y0 + h, fill=th.panel, outline=th.panel_border, width=2,
          radius=12)
    c.text(SIDE_X0 + 12, y0 + 8, title, 16, fill=th.text, face=Face.BOLD)
    if right:
        c.text(SIDE_X1 - 12, y0 + 10, right, 13, fill=th.text_muted, face=Face.BOLD,
               anchor="ra")


def _display(c: TuscanyCanvas, view: Mapping[str, Any], words: Translate, y0: float) -> float:
    """The 8 face-up tiles, 2 rows of 4, numbered 1-8 like the pick choices."""
    th = c.theme
    h = 190.0
    _section(c, y0, h, tr("display", words))
    slots: list[Mapping[str, Any] | None] = list(view["display"])
    x0 = SIDE_X0 + (SIDE_X1 - SIDE_X0 - 3 * DISPLAY_STEP - 2 * DISPLAY_R) / 2 + DISPLAY_R
    for i, tile in enumerate(slots):
        cx = x0 + (i % 4) * DISPLAY_STEP
        cy = y0 + 72 + (i // 4) * 76
        if tile:
            draw_tile(c, tile, cx, cy, DISPLAY_R, owner_ring=True)
        else:
            empty_slot(c, cx, cy, DISPLAY_R)
        c.circle(cx - DISPLAY_R * 0.75, cy - DISPLAY_R * 0.62, 20, fill=th.header,
                 outline=th.text_on_dark, width=1)
        c.number(cx - DISPLAY_R * 0.75, cy - DISPLAY_R * 0.62, str(i + 1), 12,
                 fill=th.text_on_dark)
    return y0 + h


def _supply(c: TuscanyCanvas, view: Mapping[str, Any], words: Translate, y0: float) -> float:
    th = c.theme
    h = 148.0
    _section(c, y0, h, tr("supply", words))
    card_icon(c, SIDE_X0 + 30, y0 + 62, 36)
    col1, col2 = SIDE_X0 + 56, SIDE_X0 + 190
    rows = (
        ((tr("deck", words), view["deck"]), (tr("discard", words), view["discard"])),
        ((tr("income", words), view["income_deck"]), None),
        ((tr("neutral", words), view["neutral_stack"]),
         (tr("neutral_discard", words), len(view["neutral_discard"]))),
    )
    for r, (left, right) in enumerate(rows):
        y = y0 + 44 + r * 32
        for x, item in ((col1, left), (col2, right)):
            if item is None:
                continue
            label, value = item
            c.fitted(x, y, label, 14, 90, fill=th.text_muted, face=Face.BOLD, min_size=10)
            c.text(x + 126, y - 3, str(value), 19, fill=th.text, face=Face.BOLD, anchor="ra")
    income: list[str] = list(view.get("income_discard") or [])
    if income:
        last = tr("income_last", words, card=tr(f"income.{income[-1]}", words))
        c.fitted(col2, y0 + 44 + 32, last, 14, SIDE_X1 - col2 - 10, fill=th.text,
                 face=Face.CONDENSED_BOLD, min_size=10)
    return y0 + h


def _bonuses(c: TuscanyCanvas, view: Mapping[str, Any], words: Translate, y0: float) -> float:
    """Each colour's bonus tile: its current side's points, the side, who claimed it."""
    th = c.theme
    h = 192.0
    _section(c, y0, h, tr("bonuses", words))
    bonuses: Mapping[str, Mapping[str, Any]] = view["bonuses"]
    w, bh, gap = 72.0, 68.0, 8.0
    x0 = SIDE_X0 + (SIDE_X1 - SIDE_X0 - 4 * w - 3 * gap) / 2
    for i, code in enumerate(COLOUR_CODES):
        bonus = bonuses.get(code, {"points": [0, 0], "claimed": []})
        points: list[int] = list(bonus["points"])
        claimed: list[int] = list(bonus["claimed"])
        x = x0 + (i % 4) * (w + gap)
        y = y0 + 36 + (i // 4) * (bh + gap)
        colour = th.domain(code)
        gone = len(claimed) >= len(points)
        fill = shade(colour, 1.6) if gone else colour
        ink = th.text_muted if gone else th.text_on_dark if sum(colour) < 560 else th.text
        c.box(x, y, x + w, y + bh, fill=fill, outline=shade(colour, 0.6), width=2, radius=8)
        if gone:
            c.number(x + w / 2, y + bh * 0.4, "—", 24, fill=ink)
        else:
            side = "I" * (len(claimed) + 1)
            c.number(x + w / 2, y + bh * 0.4, str(points[len(claimed)]), 26, fill=ink)
            c.text(x + w - 6, y + 4, side, 12, fill=ink, face=Face.BOLD, anchor="ra")
        for k, seat in enumerate(claimed):
            c.circle(x + 12 + k * 16, y + bh - 12, 13, fill=th.seat(int(seat)),
                     outline=th.text_on_dark, width=1)
    return y0 + h


def _improvement_supply(c: TuscanyCanvas, view: Mapping[str, Any], words: Translate,
                        y0: float) -> None:
    _section(c, y0, 96, tr("improvements", words))
    supply: Mapping[str, int] = view["improvement_supply"]
    w = (SIDE_X1 - SIDE_X0 - 24 - 4 * 6) / 5
    for i, kind in enumerate(IMPROVEMENTS):
        improvement_chip(c, kind, SIDE_X0 + 12 + i * (w + 6), y0 + 36, w, 48,
                         int(supply.get(kind, 0)), words)


# ---------------------------------------------------------------- seat panels

def _panel(c: TuscanyCanvas, view: Mapping[str, Any], p: Mapping[str, Any],
           rect: tuple[float, float, float, float], names: Sequence[str], words: Translate,
           winners: set[int]) -> None:
    th = c.theme
    x0, y0, x1, y1 = rect
    seat = int(p["seat"])
    current = view.get("current") == seat
    winner = seat in winners
    if current or winner:
        c.box(x0 - 4, y0 - 4, x1 + 4, y1 + 4, fill=th.highlight if current else th.winner,
              radius=15)
    c.box(x0, y0, x1, y1, fill=th.panel, outline=th.panel_border, width=2, radius=12)
    c.box(x0, y0, x1, y0 + PANEL_HEAD_H, fill=th.seat(seat), radius=12)
    c.box(x0, y0 + PANEL_HEAD_H - 12, x1, y0 + PANEL_HEAD_H, fill=th.seat(seat))
    name = ("▶ " if current else "") + seat_name(names, seat)
    head_line(c, p, x0, y0, x1, PANEL_HEAD_H, name, words,
              badge=_badge(view, p, words, winner))

    top = y0 + PANEL_HEAD_H + 10
    wide = (x1 - x0) > 1.2 * (y1 - y0)
    if wide:  # board left, pieces right
        r = (y1 - top - 16) / board_size(1)[1]
        bx, by = x0 + 16, top + 4
    else:  # board on top, pieces below
        r = min((x1 - x0 - 32) / board_size(1)[0], (y1 - top - BELOW_INFO_H) / board_size(1)[1])
        bx, by = x0 + (x1 - x0 - board_size(r)[0]) / 2, top + 4
    bw, bh = board_size(r)
    c.box(bx - 6, by - 6, bx + bw + 6, by + bh + 6, fill=th.board, radius=10)
    draw_board(c, p, bx, by, r)
    if wide:
        ix0, iy0 = bx + bw + 24, top + 8
    else:
        ix0, iy0 = x0 + 16, by + bh + 18
    bottom = player_info(c, p, ix0, iy0, x1 - 14, words, unit=INFO_UNIT)
    tail = tr("empty", words, n=p["empty_spaces"])
    if view["phase"] == "over" or view.get("extra_rotation"):
        tail += " · " + tr("leftovers", words, n=p["leftovers"])
    c.fitted(ix0, min(bottom + 10, y1 - 24), tail, 14, x1 - ix0 - 14, fill=th.text_muted,
             face=Face.BOLD, min_size=10)


def _badge(view: Mapping[str, Any], p: Mapping[str, Any], words: Translate,
           winner: bool) -> tuple[str, tuple[int, int, int]] | None:
    seat = int(p["seat"])
    if winner:
        return "♛ " + tr("winner_badge", words), (150, 110, 10)
    if view["phase"] == "arrange":
        if p["arrangement"]["confirmed"]:
            return "✓ " + tr("ready", words), (30, 120, 60)
        return tr("arranging", words), (70, 80, 150)
    if seat == view.get("first"):
        return tr("first", words), (60, 60, 70)
    return None
