"""Image comparison for the golden tests (after Pillow's ``Tests/helper.py``).

Goldens are compared with a tolerance rather than byte for byte: a harmless change of
anti-aliasing must not fail the suite, a changed number or name must. The measure is
Pillow's: the absolute difference of every channel, summed over the channels and averaged
over the pixels. On failure the actual image and a difference map are written to
``tests/renderers/_out/`` (git-ignored) so the change can be looked at.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

HERE = Path(__file__).parent
GOLDEN_DIR = HERE / "goldens"
FIXTURE_DIR = HERE / "fixtures"
OUT_DIR = HERE / "_out"

# A board is 1.6 megapixels, so the mean moves little: one cost digit changed from 1 to 3
# on a building tile moves it by 0.0098 (the smallest change measured on the Havana board),
# a redrawn pile count by 0.15. The renderers are deterministic for a given Pillow, so the
# tolerance only has to absorb anti-aliasing noise: five times under the smallest change.
DEFAULT_TOLERANCE = 0.002


def golden_path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.png"


def load_golden(name: str) -> Image.Image:
    """The golden image ``goldens/<name>.png``, fully loaded (the file is closed)."""
    path = golden_path(name)
    if not path.exists():
        raise AssertionError(f"no golden {path}; run `python -m tests.renderers.regenerate`")
    with Image.open(path) as img:
        img.load()
        return img.copy()


def load_fixture(name: str) -> dict[str, Any]:
    """A view saved as JSON in ``fixtures/`` (``name`` with or without ``.json``)."""
    file = name if name.endswith(".json") else f"{name}.json"
    data: dict[str, Any] = json.loads((FIXTURE_DIR / file).read_text(encoding="utf-8"))
    return data


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    """Sum over channels of the mean absolute pixel difference (Pillow's measure)."""
    if a.mode != b.mode:
        raise AssertionError(f"mode differs: {a.mode} != {b.mode}")
    if a.size != b.size:
        raise AssertionError(f"size differs: {a.size} != {b.size}")
    diff = ImageChops.difference(a, b)
    total = 0
    for channel in diff.split():
        total += sum(value * count for value, count in enumerate(channel.histogram()))
    return total / (a.size[0] * a.size[1])


def save_actual(img: Image.Image, name: str, expected: Image.Image | None = None) -> Path:
    """Write ``img`` (and, given ``expected``, a difference map) to ``_out/``; the path."""
    OUT_DIR.mkdir(exist_ok=True)
    path = OUT_DIR / f"{name}.png"
    img.save(path)
    if expected is not None and expected.size == img.size and expected.mode == img.mode:
        # Differences amplified so a one-pixel change is visible.
        diff = ImageChops.difference(img, expected).point(lambda v: min(255, v * 8))
        diff.save(OUT_DIR / f"{name}.diff.png")
    return path


def assert_image_similar(
    a: Image.Image, b: Image.Image, tolerance: float = DEFAULT_TOLERANCE, *,
    name: str = "actual",
) -> None:
    """Fail unless ``a`` (actual) and ``b`` (expected) match within ``tolerance``.

    Same size and mode are required. On failure ``a`` is saved as ``_out/<name>.png``.
    """
    try:
        average = mean_difference(a, b)
    except AssertionError as exc:
        path = save_actual(a, name)
        raise AssertionError(f"{exc}; actual image saved to {path}") from None
    if average > tolerance:
        path = save_actual(a, name, b)
        raise AssertionError(
            f"average pixel difference {average:.4f} > tolerance {tolerance}; "
            f"actual image saved to {path}")
