"""The shared renderer pieces and the golden comparison helper itself."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from renderers import common
from renderers.common import (
    DEFAULT_THEME,
    ELLIPSIS,
    Canvas,
    Face,
    Theme,
    contrast_text,
    ellipsize,
    encode_png,
    fit_font,
    font,
    shade,
    wrap,
)
from tests.renderers import helper
from tests.renderers.helper import (
    DEFAULT_TOLERANCE,
    assert_image_similar,
    load_fixture,
    load_golden,
    mean_difference,
)
from tests.renderers.regenerate import GOLDENS, render_golden


@pytest.fixture
def out_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Failed comparisons write here instead of tests/renderers/_out/."""
    out = tmp_path / "_out"
    monkeypatch.setattr(helper, "OUT_DIR", out)
    return out


# assert_image_similar


def test_identical_images_pass(out_dir: Path) -> None:
    img = Image.new("RGB", (40, 30), (10, 20, 30))
    assert_image_similar(img, img.copy(), 0)
    assert not out_dir.exists()


def test_difference_is_pillows_measure() -> None:
    """Channel differences summed over channels, averaged over pixels."""
    a = Image.new("RGB", (10, 10), (0, 0, 0))
    b = a.copy()
    b.putpixel((3, 4), (255, 100, 0))
    assert mean_difference(a, b) == pytest.approx((255 + 100) / 100)


def test_a_difference_over_tolerance_fails_and_saves_the_actual(out_dir: Path) -> None:
    a = Image.new("RGB", (10, 10), (0, 0, 0))
    b = a.copy()
    b.putpixel((0, 0), (255, 255, 255))  # mean difference 7.65
    assert_image_similar(a, b, 7.65)
    with pytest.raises(AssertionError, match="average pixel difference 7.65"):
        assert_image_similar(b, a, 7.6, name="changed")
    saved = Image.open(out_dir / "changed.png")
    assert saved.getpixel((0, 0)) == (255, 255, 255)
    assert (out_dir / "changed.diff.png").exists()


@pytest.mark.parametrize("other", [Image.new("RGB", (10, 11)), Image.new("RGBA", (10, 10))])
def test_size_and_mode_must_match(out_dir: Path, other: Image.Image) -> None:
    with pytest.raises(AssertionError, match="differs"):
        assert_image_similar(Image.new("RGB", (10, 10)), other, 1000, name="shape")
    assert (out_dir / "shape.png").exists()


def test_the_default_tolerance_catches_one_changed_digit(out_dir: Path) -> None:
    """A board with one count changed by one must fail: the tolerance is not too loose."""
    golden = GOLDENS[0]
    view = load_fixture(golden.fixture)
    view["players"][0]["materials"]["glass"] += 1  # one small cube's number
    changed = golden.render(view)
    expected = load_golden(golden.name)
    with pytest.raises(AssertionError):
        assert_image_similar(changed, expected, DEFAULT_TOLERANCE, name="digit")


def test_load_golden_names_the_regenerate_command_when_missing() -> None:
    with pytest.raises(AssertionError, match="tests.renderers.regenerate"):
        load_golden("no_such_golden")


def test_every_registered_golden_has_its_fixture_and_file() -> None:
    names = [g.name for g in GOLDENS]
    assert len(names) == len(set(names))
    for golden in GOLDENS:
        assert (helper.FIXTURE_DIR / f"{golden.fixture}.json").exists(), golden.fixture
        assert helper.golden_path(golden.name).exists(), golden.name
        assert load_golden(golden.name).mode == render_golden(golden).mode == "RGB"


# Fonts and text fitting


def test_fonts_are_the_bundled_files_loaded_once() -> None:
    for face in Face:
        assert (common.FONT_DIR / face.value).is_file()
    assert font(18, Face.BOLD) is font(18, Face.BOLD)
    assert Path(str(font(18, Face.BOLD).path)).parent == common.FONT_DIR


def test_ellipsize_keeps_what_fits_and_cuts_the_rest() -> None:
    fnt = font(16)
    assert ellipsize("Havana", fnt, 1000) == "Havana"
    cut = ellipsize("Maximilien-Alexandre de la Havane", fnt, 80)
    assert cut.endswith(ELLIPSIS) and fnt.getlength(cut) <= 80
    assert ellipsize("Havana", fnt, 1) == ELLIPSIS


def test_fit_font_shrinks_before_it_cuts() -> None:
    text = "Manufacture de cigares"
    full = font(20, Face.BOLD).getlength(text)
    fnt, shown = fit_font(text, full * 0.9, 20, 10, Face.BOLD)
    assert shown == text and fnt.size < 20
    fnt, shown = fit_font(text, full * 0.2, 20, 18, Face.BOLD)
    assert fnt.size == 18 and shown.endswith(ELLIPSIS)


def test_wrap_fills_lines_then_ellipsises_the_last() -> None:
    fnt = font(14)
    width = fnt.getlength("Parc avec") + 1
    assert wrap("Parc avec statue", fnt, width, 2) == ["Parc avec", "statue"]
    lines = wrap("un deux trois quatre cinq six sept", fnt, fnt.getlength("quatre") + 1, 2)
    assert len(lines) == 2 and lines[1].endswith(ELLIPSIS)


# Colours


def test_contrast_text_picks_the_readable_colour() -> None:
    assert contrast_text((255, 255, 255), DEFAULT_THEME) == DEFAULT_THEME.text
    assert contrast_text((20, 20, 60), DEFAULT_THEME) == DEFAULT_THEME.text_on_dark


def test_shade_darkens_and_lightens() -> None:
    assert shade((100, 200, 50), 0.5) == (50, 100, 25)
    assert shade((100, 200, 50), 1.5) == (178, 228, 152)
    assert shade((100, 200, 50), 2.0) == (255, 255, 255)


def test_theme_is_frozen_and_hashable() -> None:
    """Renderers cache backgrounds per theme."""
    assert hash(Theme()) == hash(DEFAULT_THEME)
    assert Theme(background=(0, 0, 0)) != DEFAULT_THEME
    assert DEFAULT_THEME.seat(5) == DEFAULT_THEME.seats[1]


# PNG encoding


def test_canvas_scales_board_units_and_stops_a_box_before_its_far_edge() -> None:
    """At scale 2 a box from 1 to 3 covers pixels 2..5: neighbours tile without overlap."""
    img = Image.new("RGB", (10, 10), (0, 0, 0))
    c = Canvas(img, DEFAULT_THEME, 2.0)
    c.box(1, 1, 3, 3, fill=(255, 255, 255))
    assert img.getbbox() == (2, 2, 6, 6)
    assert c.width("Havana", 10) == pytest.approx(font(20).getlength("Havana") / 2)
    assert c.theme is DEFAULT_THEME


def test_canvas_outline_is_at_least_one_pixel() -> None:
    img = Image.new("RGB", (20, 20), (0, 0, 0))
    Canvas(img, DEFAULT_THEME, 0.25).box(0, 0, 80, 80, outline=(255, 0, 0), width=1)
    assert img.getpixel((0, 0)) == (255, 0, 0)
    assert img.getpixel((19, 19)) == (255, 0, 0)
    assert img.getpixel((1, 1)) == (0, 0, 0)


def test_encode_png_is_a_paletted_png_close_to_the_board() -> None:
    golden = GOLDENS[0]
    img = render_golden(golden)
    data = encode_png(img)
    decoded = Image.open(io.BytesIO(data))
    assert decoded.format == "PNG" and decoded.mode == "P" and decoded.size == img.size
    # Flat colours and anti-aliased text survive the 256-colour palette: no pixel moves
    # far (measured: at most 28 of 255 per channel, 1.7 on average over the channels).
    rgb = decoded.convert("RGB")
    assert_image_similar(rgb, img, 2.5, name="encoded")
    diff = ImageChops.difference(rgb, img)
    largest = max(value for channel in diff.split()
                  for value, count in enumerate(channel.histogram()) if count)
    assert largest <= 48
