"""Minos images: goldens per phase (a conflict included), the dice of the private panel,
every phase drawable live for 2-4 players, pure drawing and sizes fit for Discord."""

from __future__ import annotations

import json
from typing import Any

import pytest
from PIL import ImageChops

from engines.minos import ENGINE
from engines.minos.data import FACES
from renderers import minos
from renderers.common import encode_png
from tests.renderers import minos_states
from tests.renderers.helper import assert_image_similar, load_fixture, load_golden
from tests.renderers.regenerate import EN, FR, GOLDENS, NAMES, render_golden

MINOS = [g for g in GOLDENS if g.name.startswith("minos_")]
MAX_PNG_BYTES = 1_500_000


@pytest.mark.parametrize("golden", MINOS, ids=[g.name for g in MINOS])
def test_golden(golden: Any) -> None:
    assert_image_similar(render_golden(golden), load_golden(golden.name), name=golden.name)


def test_goldens_cover_every_phase_and_a_conflict() -> None:
    phases = {load_fixture(g.fixture)["phase"] for g in MINOS}
    assert {"act", "order", "defend", "over"} <= phases
    conflict = load_fixture("minos_conflict_3p")["combat"]
    assert conflict["attack_value"] is not None and conflict["defence_value"] is not None


@pytest.mark.parametrize(("stop", "n", "seed"), [
    ("start", 2, 2), ("rich", 3, 2), ("conflict", 4, 2), ("order", 3, 2), ("over", 4, 2)])
def test_every_phase_draws_small_enough_for_discord(stop: str, n: int, seed: int) -> None:
    view = minos_states.view_at(stop, n, seed)
    json.dumps(view)
    img = minos.render(view, names=NAMES[:n], words=FR)
    assert img.size == (minos.WIDTH, minos.HEIGHT)
    assert len(encode_png(img)) <= MAX_PNG_BYTES


def test_the_drawing_is_pure_and_the_same_for_every_seat() -> None:
    state = next(s for s in (minos_states.play_until(3, seed, minos_states.rich)
                             for seed in range(1, 60)) if s is not None)
    images = [minos.render(ENGINE.view(state, seat), names=NAMES[:3], words=EN)
              for seat in (None, 0, 2)]
    for img in images[1:]:
        assert ImageChops.difference(images[0], img).getbbox() is None


def test_values_beyond_the_track_and_missing_names_still_draw() -> None:
    view = load_fixture("minos_rich_4p")
    view["players"][0]["value"] = 57
    img = minos.render(view, names=[], words=EN)
    assert img.size == (minos.WIDTH, minos.HEIGHT)


def test_dice_images_show_each_face_differently() -> None:
    singles = [minos.render_dice([face]) for face in FACES]
    for i, a in enumerate(singles):
        for b in singles[i + 1:]:
            assert ImageChops.difference(a, b).getbbox() is not None
    used = minos.render_dice(["star"], [True])
    assert ImageChops.difference(used, singles[-1]).getbbox() is not None
