"""The Castles of Tuscany images: goldens, no hand ever drawn, labels where the ids are used,
every phase and table size drawable, and sizes fit for Discord."""

from __future__ import annotations

import copy
from functools import partial
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.core.i18n import translator
from engines.base import Action
from engines.tuscany.engine import ENGINE
from engines.tuscany.state import State
from renderers import tuscany
from renderers.common import encode_png
from renderers.tuscany_region import DEFAULT_TUSCANY_THEME, REGION_R, region_centres
from tests.renderers import tuscany_states
from tests.renderers.helper import assert_image_similar, load_fixture, load_golden
from tests.renderers.regenerate import GOLDENS, NAMES, render_golden

EN, FR = translator("en"), translator("fr")

TUSCANY = [g for g in GOLDENS if g.name.startswith("tuscany_")]
MAX_PNG_BYTES = 1_500_000


def in_phase(phase: str, state: State) -> bool:
    return state.phase == phase


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def without_hands(view: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(view)
    for player in out["players"]:
        player.pop("hand", None)
    return out


def other_hands(view: dict[str, Any]) -> dict[str, Any]:
    """The same view with every hand changed (its total kept, as the count is public)."""
    out = copy.deepcopy(view)
    for player in out["players"]:
        if "hand" in player:
            total = sum(player["hand"].values())
            player["hand"] = {c: 0 for c in player["hand"]} | {"t": total}
    return out


@pytest.mark.parametrize("golden", TUSCANY, ids=[g.name for g in TUSCANY])
def test_golden(golden: Any) -> None:
    assert_image_similar(render_golden(golden), load_golden(golden.name), name=golden.name)


def test_goldens_cover_boards_of_two_and_four_and_a_region() -> None:
    names = {g.name for g in TUSCANY}
    assert {"tuscany_rich_2p", "tuscany_space_4p", "tuscany_region_space_4p"} <= names
    sizes = {len(load_fixture(g.fixture)["players"]) for g in TUSCANY}
    assert {2, 4} <= sizes


@pytest.mark.parametrize("fixture, seat", [("tuscany_rich_2p", 0), ("tuscany_space_4p", 1)])
def test_no_card_of_a_hand_is_drawn(fixture: str, seat: int) -> None:
    view = load_fixture(fixture)
    assert "hand" in view["players"][seat]  # an owner's view: the test can fail
    def board(v: dict[str, Any]) -> Image.Image:
        return tuscany.render(v, names=NAMES, words=EN)

    def region(v: dict[str, Any]) -> Image.Image:
        return tuscany.render_region(v, seat, names=NAMES, labels=True, words=EN)

    for draw in (board, region):
        image = draw(view)
        assert same(image, draw(without_hands(view)))
        assert same(image, draw(other_hands(view)))


def test_owner_and_spectator_boards_are_identical_on_a_live_game() -> None:
    state = tuscany_states.play_until(3, 2, tuscany_states.choosing_space)
    assert state is not None
    spectator = tuscany.render(ENGINE.view(state, None), names=NAMES, words=EN)
    for seat in range(3):
        assert same(tuscany.render(ENGINE.view(state, seat), names=NAMES, words=EN), spectator)


def test_a_changed_count_changes_the_board() -> None:
    """The no-leak checks above compare images: they would pass on a blank board."""
    view = load_fixture("tuscany_rich_2p")
    changed = copy.deepcopy(view)
    changed["players"][1]["hand_count"] += 1
    assert not same(tuscany.render(view, names=NAMES, words=EN),
                    tuscany.render(changed, names=NAMES, words=EN))


def test_labels_mark_every_empty_space_and_no_tile() -> None:
    view = load_fixture("tuscany_space_4p")
    seat = 1
    plain = tuscany.render_region(view, seat, names=NAMES, words=EN)
    labelled = tuscany.render_region(view, seat, names=NAMES, labels=True, words=EN)
    centres = region_centres(view["players"][seat])
    spaces = view["players"][seat]["spaces"]
    assert any(s["tile"] for s in spaces) and any(not s["tile"] for s in spaces)
    for space in spaces:
        x, y = centres[space["label"]]
        box = (round(x) - 20, round(y) - 14, round(x) + 20, round(y) + 14)
        differs = not same(plain.crop(box), labelled.crop(box))
        assert differs == (space["tile"] is None), space["label"]


def test_the_spaces_to_choose_are_ringed_in_the_owners_region() -> None:
    view = load_fixture("tuscany_space_4p")
    seat = 1
    targets = view["targets"]
    assert targets and view["viewer"] == seat  # the fixture asks seat 1 for a space
    lit = tuscany.render_region(view, seat, names=NAMES, labels=True, words=EN)
    unlit_view = copy.deepcopy(view)
    unlit_view["targets"] = []
    unlit = tuscany.render_region(unlit_view, seat, names=NAMES, labels=True, words=EN)
    spectator = copy.deepcopy(view)
    spectator["viewer"] = None  # /tuscany look: the public view, no highlight
    assert same(tuscany.render_region(spectator, seat, names=NAMES, labels=True, words=EN), unlit)
    centres = region_centres(view["players"][seat])
    ring = DEFAULT_TUSCANY_THEME.target
    for label, (cx, cy) in centres.items():
        # just inside the ring's right-hand corner (the ring's radius is 0.86 of the hex)
        where = (round(cx + REGION_R * 0.86) - 3, round(cy))
        assert (lit.getpixel(where) == ring) == (label in targets), label
        assert unlit.getpixel(where) != ring
    other = next(s for s in view["players"][seat]["spaces"]
                 if s["tile"] is None and s["label"] not in targets)
    cx, cy = centres[other["label"]]
    probe = (round(cx - REGION_R * 0.6), round(cy))  # an empty space's fill, left of its label
    assert lit.getpixel(probe) != unlit.getpixel(probe)  # the others are faded


def test_region_shows_its_arrangement() -> None:
    """The setup preview: turning a module moves its spaces' colours."""
    state = tuscany_states.play_until(2, 1, tuscany_states.arranging_half)
    assert state is not None
    seat = next(i for i, p in enumerate(state.players) if not p.confirmed)
    before = tuscany.render_region(ENGINE.view(state, seat), seat, names=NAMES, words=EN)
    turns = state.players[seat].turns
    flipped = ("1" if turns[0] == "0" else "0") + turns[1:]
    action = Action.parse(
        f"arrange {state.players[seat].order} {flipped} {state.players[seat].shifts}")
    after_state = ENGINE.apply(state, seat, action).state
    after = tuscany.render_region(ENGINE.view(after_state, seat), seat, names=NAMES, words=EN)
    assert not same(before, after)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_phase_draws(players: int) -> None:
    seen = set()
    for stop in ("arrange", "castle", "improve", "play", "over"):
        state = tuscany_states.play_until(players, 5, partial(in_phase, stop))
        assert state is not None, stop
        view = ENGINE.view(state, None)
        for locale in ("en", "fr"):
            image = tuscany.render(view, names=NAMES[:players], words=translator(locale))
            assert image.size == (1600, 1000) and image.mode == "RGB"
        region = tuscany.render_region(view, 0, names=[], labels=True, words=EN)
        assert region.width > region.height  # landscape, like the board
        seen.add(view["phase"])
    assert seen == {"arrange", "castle", "improve", "play", "over"}


def test_scale_and_png_size() -> None:
    view = load_fixture("tuscany_space_4p")
    assert tuscany.render(view, names=NAMES, scale=0.5, words=EN).size == (800, 500)
    data = encode_png(tuscany.render(view, names=NAMES, words=EN))
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < MAX_PNG_BYTES
    region = encode_png(tuscany.render_region(view, 1, names=NAMES, labels=True, words=EN))
    assert len(region) < MAX_PNG_BYTES
