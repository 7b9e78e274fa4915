"""The Río board: goldens per phase (placement, combat, end, French, a quarter close-up),
size, the owner's view drawn as the spectator's, and real states of every phase drawable."""

from __future__ import annotations

import pytest
from PIL import Image

from engines.rio import ENGINE
from renderers import rio
from renderers.common import encode_png
from tests.renderers import rio_states
from tests.renderers.helper import assert_image_similar, load_fixture, load_golden
from tests.renderers.regenerate import EN, FR, GOLDENS, RIO_NAMES, Golden, render_golden

RIO = [g for g in GOLDENS if g.name.startswith("rio_")]
MAX_PNG_BYTES = 1_500_000


@pytest.mark.parametrize("golden", RIO, ids=[g.name for g in RIO])
def test_golden(golden: Golden) -> None:
    assert_image_similar(render_golden(golden), load_golden(golden.name), name=golden.name)


def test_goldens_cover_placement_combat_end_and_every_count() -> None:
    views = {g.fixture: load_fixture(g.fixture) for g in RIO}
    assert {v["phase"] for v in views.values()} == {"place", "combat", "over"}
    assert {v["num_players"] for v in views.values()} == {3, 4, 5}
    combat = views["rio_combat_4p"]["combat"]
    assert combat["step"] == "round" and len(combat["groups"]) >= 4


@pytest.mark.parametrize("kind, n", [("place", 2), ("combat", 3), ("over", 4), ("place", 5)])
def test_real_states_draw_small_and_identical_for_owner_and_spectator(kind: str,
                                                                       n: int) -> None:
    state = rio_states.play_until(kind, n, 3)
    spectator = rio.render(ENGINE.view(state, None), names=RIO_NAMES, words=EN)
    owner = rio.render(ENGINE.view(state, 0), names=RIO_NAMES, words=EN)
    assert spectator.size == (rio.WIDTH, rio.HEIGHT)
    assert spectator.tobytes() == owner.tobytes()  # a seat's menu and draft are never drawn
    assert len(encode_png(spectator)) < MAX_PNG_BYTES


def test_quarter_close_up_highlights_the_legal_cells() -> None:
    view = load_fixture("rio_place_3p")
    plain = rio.render_quarter(view, 6, (), words=EN)
    marked = rio.render_quarter(view, 6, ("5.7",), words=EN)
    assert plain.size == marked.size and plain.tobytes() != marked.tobytes()
    x, y = 20 + 1 * 110 + 55, 50 + 2 * 110 + 8  # inside cell 5.7, away from its content
    assert marked.getpixel((x, y)) == rio.RIO_THEME.highlight
    assert plain.getpixel((x, y)) != rio.RIO_THEME.highlight


def test_scale_and_locale() -> None:
    view = load_fixture("rio_over_5p")
    half = rio.render(view, names=RIO_NAMES, words=EN, scale=0.5)
    assert half.size == (rio.WIDTH // 2, rio.HEIGHT // 2)
    en = rio.render(view, names=RIO_NAMES, words=EN)
    fr = rio.render(view, names=RIO_NAMES, words=FR)
    assert isinstance(fr, Image.Image) and en.tobytes() != fr.tobytes()
