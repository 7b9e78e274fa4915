"""What every board renderer shares: the theme, the bundled fonts, text fitting, the canvas
in board units, PNG encoding.

Colours are named by the role they play (python-chess's ``svg.board`` colour map), so a
renderer never hard-codes a colour and a theme can be swapped whole. Fonts come from
``renderers/fonts`` (DejaVu, bundled with its licence) and are loaded once per size: the
machine's own fonts are never used, so an image looks the same everywhere.

Every word drawn comes from the bot's catalogues through a :class:`Translate` function the
caller passes (``render(view, names=…, words=…)``): renderers keep no text tables and never
import the bot.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
FONT_DIR = Path(__file__).parent / "fonts"


class Translate(Protocol):
    """The text of a catalogue key in the reader's language (``bot.core.i18n.translator``)."""

    def __call__(self, key: str, /, **params: object) -> str: ...


@dataclass(frozen=True, slots=True)
class Theme:
    """Every colour a renderer uses, by role. Frozen so it can key the caches."""

    background: RGB = (236, 226, 206)
    header: RGB = (22, 78, 84)
    header_text: RGB = (250, 245, 232)
    header_muted: RGB = (160, 200, 196)
    panel: RGB = (250, 245, 234)
    panel_border: RGB = (170, 150, 120)
    text: RGB = (40, 32, 26)
    text_muted: RGB = (120, 106, 92)
    text_on_dark: RGB = (255, 255, 255)
    highlight: RGB = (236, 120, 24)       # whose turn it is
    waiting: RGB = (90, 110, 190)         # a seat we are waiting for (hidden pick)
    done: RGB = (46, 150, 74)             # a tick: picked, used
    tile: RGB = (255, 251, 241)
    tile_muted: RGB = (232, 224, 208)     # a building that cannot be bought now
    tile_border: RGB = (150, 130, 104)
    buyable: RGB = (30, 150, 96)          # a row end that can be bought
    vp: RGB = (214, 162, 28)
    peso: RGB = (244, 196, 48)
    peso_edge: RGB = (170, 120, 10)
    worker: RGB = (52, 62, 80)
    architect: RGB = (128, 62, 160)
    protected: RGB = (40, 120, 190)
    card_face: RGB = (255, 253, 246)
    card_back: RGB = (150, 44, 40)
    card_back_edge: RGB = (226, 180, 90)
    card_used: RGB = (214, 208, 196)
    winner: RGB = (214, 162, 28)
    brick: RGB = (196, 58, 46)
    sandstone: RGB = (236, 200, 80)
    clay: RGB = (128, 82, 44)
    glass: RGB = (70, 150, 220)
    rubble: RGB = (146, 146, 146)
    seats: tuple[RGB, ...] = ((200, 50, 60), (40, 110, 190), (40, 140, 80), (140, 80, 170))

    def seat(self, seat: int) -> RGB:
        return self.seats[seat % len(self.seats)]


DEFAULT_THEME = Theme()


class Face(Enum):
    """The bundled typefaces, by file name."""

    REGULAR = "DejaVuSans.ttf"
    BOLD = "DejaVuSans-Bold.ttf"
    CONDENSED = "DejaVuSansCondensed.ttf"
    CONDENSED_BOLD = "DejaVuSansCondensed-Bold.ttf"


@lru_cache(maxsize=256)
def font(size: int, face: Face = Face.REGULAR) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size`` pixels, loaded once.

    Basic layout (no raqm) keeps images identical across machines and is faster; the
    texts drawn here are short and left-to-right.
    """
    return ImageFont.truetype(
        str(FONT_DIR / face.value), max(1, size), layout_engine=ImageFont.Layout.BASIC
    )


def text_width(text: str, fnt: ImageFont.FreeTypeFont) -> float:
    return fnt.getlength(text)


ELLIPSIS = "…"


def ellipsize(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> str:
    """``text`` cut with an ellipsis so it fits ``max_width`` (whole text if it fits)."""
    if fnt.getlength(text) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if fnt.getlength(text[:mid].rstrip() + ELLIPSIS) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS


def fit_font(
    text: str, max_width: float, size: int, min_size: int, face: Face = Face.REGULAR
) -> tuple[ImageFont.FreeTypeFont, str]:
    """The largest font from ``size`` down to ``min_size`` that fits; ellipsised if none does."""
    for candidate in range(size, min_size - 1, -1):
        fnt = font(candidate, face)
        if fnt.getlength(text) <= max_width:
            return fnt, text
    fnt = font(min_size, face)
    return fnt, ellipsize(text, fnt, max_width)


ThemeT = TypeVar("ThemeT", bound=Theme)


class Canvas(Generic[ThemeT]):
    """ImageDraw in board units: every coordinate and size is multiplied by ``scale`` here.

    A renderer lays its board out once at scale 1 and gets any size for free. Generic over
    the theme so a game's own colours (a :class:`Theme` subclass) stay typed on
    ``canvas.theme``. Boxes and circles end one pixel before ``x1``/``y1``, so shapes that
    share an edge tile without overlapping; an outline is at least one pixel wide.
    """

    def __init__(self, img: Image.Image, theme: ThemeT, scale: float) -> None:
        self.img = img
        self.draw = ImageDraw.Draw(img)
        self.theme = theme
        self.scale = scale

    def s(self, v: float) -> int:
        return round(v * self.scale)

    def font(self, size: float, face: Face = Face.REGULAR) -> ImageFont.FreeTypeFont:
        return font(self.s(size), face)

    def box(
        self, x0: float, y0: float, x1: float, y1: float, *, fill: RGB | None = None,
        outline: RGB | None = None, width: float = 0, radius: float = 0,
    ) -> None:
        xy = (self.s(x0), self.s(y0), self.s(x1) - 1, self.s(y1) - 1)
        w = max(1, self.s(width)) if outline else 0
        if radius:
            self.draw.rounded_rectangle(xy, self.s(radius), fill=fill, outline=outline, width=w)
        else:
            self.draw.rectangle(xy, fill=fill, outline=outline, width=w)

    def circle(
        self, cx: float, cy: float, d: float, *, fill: RGB, outline: RGB | None = None,
        width: float = 0,
    ) -> None:
        r = d / 2
        xy = (self.s(cx - r), self.s(cy - r), self.s(cx + r) - 1, self.s(cy + r) - 1)
        w = max(1, self.s(width)) if outline else 0
        self.draw.ellipse(xy, fill=fill, outline=outline, width=w)

    def polygon(
        self, points: Sequence[tuple[float, float]], *, fill: RGB | None,
        outline: RGB | None = None, width: float = 1,
    ) -> None:
        pts = [(self.s(x), self.s(y)) for x, y in points]
        w = max(1, self.s(width)) if outline else 0
        self.draw.polygon(pts, fill=fill, outline=outline, width=w)

    def line(
        self, a: tuple[float, float], b: tuple[float, float], *, fill: RGB, width: float,
    ) -> None:
        self.draw.line([(self.s(a[0]), self.s(a[1])), (self.s(b[0]), self.s(b[1]))],
                       fill=fill, width=max(1, self.s(width)))

    def text(
        self, x: float, y: float, text: str, size: float, *, fill: RGB,
        face: Face = Face.REGULAR, anchor: str = "la",
    ) -> None:
        self.draw.text((self.s(x), self.s(y)), text, font=self.font(size, face), fill=fill,
                       anchor=anchor)

    def fitted(
        self, x: float, y: float, text: str, size: float, max_w: float, *, fill: RGB,
        face: Face = Face.REGULAR, anchor: str = "la", min_size: float | None = None,
    ) -> None:
        """Text shrunk (down to ``min_size``) then ellipsised to fit ``max_w``."""
        fnt, shown = fit_font(text, self.s(max_w), self.s(size),
                              self.s(min_size if min_size is not None else size), face)
        self.draw.text((self.s(x), self.s(y)), shown, font=fnt, fill=fill, anchor=anchor)

    def number(
        self, cx: float, cy: float, text: str, size: float, *, fill: RGB,
        face: Face = Face.BOLD,
    ) -> None:
        """Short text centred on its ink box (digits and glyphs sit high with anchors)."""
        fnt = self.font(size, face)
        left, top, right, bottom = fnt.getbbox(text)
        self.draw.text((self.s(cx) - (left + right) / 2, self.s(cy) - (top + bottom) / 2),
                       text, font=fnt, fill=fill)

    def width(self, text: str, size: float, face: Face = Face.REGULAR) -> float:
        """Width of ``text`` in board units."""
        return float(self.font(size, face).getlength(text)) / self.scale


def wrap(text: str, fnt: ImageFont.FreeTypeFont, max_width: float, max_lines: int) -> list[str]:
    """Greedy word wrap into at most ``max_lines``; the last line is ellipsised if needed."""
    words = text.split()
    lines: list[str] = []
    current = ""
    for index, word in enumerate(words):
        trial = f"{current} {word}".strip()
        if fnt.getlength(trial) <= max_width or not current:
            current = trial
            continue
        if len(lines) == max_lines - 1:
            current = " ".join([current, *words[index:]])
            break
        lines.append(current)
        current = word
    if current:
        lines.append(current)
    return [ellipsize(line, fnt, max_width) for line in lines[:max_lines]]


def draw_text_centered(
    draw: ImageDraw.ImageDraw,
    center: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: RGB,
) -> None:
    """Draw ``text`` centred on ``center`` (middle of the ink box, not of the baseline)."""
    draw.text(center, text, font=fnt, fill=fill, anchor="mm")


def contrast_text(colour: RGB, theme: Theme) -> RGB:
    """Dark or light text, whichever reads better on ``colour``."""
    r, g, b = colour
    luminance = 0.299 * r + 0.587 * g + 0.114 * b
    return theme.text if luminance > 150 else theme.text_on_dark


def shade(colour: RGB, factor: float) -> RGB:
    """``colour`` darkened (factor < 1) or lightened towards white (factor > 1)."""
    if factor <= 1:
        return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))
    t = min(1.0, factor - 1)
    return (
        round(colour[0] + (255 - colour[0]) * t),
        round(colour[1] + (255 - colour[1]) * t),
        round(colour[2] + (255 - colour[2]) * t),
    )


PNG_COLOURS = 256


def encode_png(img: Image.Image) -> bytes:
    """The image as a compact PNG.

    Boards are flat colours plus anti-aliased text, so a 256-colour palette (fast octree,
    no dithering) is visually lossless, a third of the size of RGB and quicker to compress.
    """
    rgb = img if img.mode == "RGB" else img.convert("RGB")
    # The palette is chosen on every other pixel each way (a quarter of the work: flat
    # colours and anti-aliased shades are all there), then each pixel takes its nearest
    # entry: a third of the time of quantizing the whole board, the same mean difference.
    sample = rgb.resize((max(1, rgb.width // 2), max(1, rgb.height // 2)),
                        Image.Resampling.NEAREST)
    palette = sample.quantize(
        colors=PNG_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    paletted = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    paletted.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()
