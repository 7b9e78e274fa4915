"""Frames to an animated GIF small enough for Discord.

GIF is the one animated format every Discord client plays inline. Board frames differ in
small areas from one turn to the next, so Pillow's GIF writer (which stores only the
changed rectangle of each frame) keeps the file small; frames are scaled down to
``max_width`` and, if the file is still over ``max_bytes``, scaled down again.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

DISCORD_LIMIT = 10 * 1024 * 1024


def _scaled(frame: Image.Image, width: int) -> Image.Image:
    rgb = frame.convert("RGB")
    if rgb.width <= width:
        return rgb
    height = round(rgb.height * width / rgb.width)
    return rgb.resize((width, height), Image.Resampling.LANCZOS)


def encode_gif(frames: Sequence[Image.Image], *, duration_ms: int = 800,
               last_ms: int = 3000, max_width: int = 640) -> bytes:
    """One looping GIF; the last frame (the final position) stays longer."""
    if not frames:
        raise ValueError("no frames")
    scaled = [_scaled(f, max_width).quantize(colors=128, method=Image.Quantize.MEDIANCUT,
                                             dither=Image.Dither.NONE) for f in frames]
    durations = [duration_ms] * (len(scaled) - 1) + [last_ms]
    out = io.BytesIO()
    scaled[0].save(out, format="GIF", save_all=True, append_images=scaled[1:],
                   duration=durations, loop=0, optimize=False, disposal=1)
    return out.getvalue()


def animate(frames: Sequence[Image.Image], *, max_bytes: int = 4 * 1024 * 1024,
            max_width: int = 640, duration_ms: int = 800) -> bytes:
    """The GIF at the largest width (from ``max_width`` down) that fits ``max_bytes``."""
    width = max_width
    while True:
        data = encode_gif(frames, duration_ms=duration_ms, max_width=width)
        if len(data) <= max_bytes or width <= 240:
            if len(data) > DISCORD_LIMIT:
                raise ValueError(f"animation of {len(data)} bytes is over Discord's limit")
            return data
        width = int(width * 0.75)
