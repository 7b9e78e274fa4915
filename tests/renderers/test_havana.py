"""The Havana board: goldens per phase, shape and size, locale, no hidden information drawn,
every rulebook-visible item drawn, and real engine states of every phase drawable."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.core.i18n import t, translator
from engines.havana.data import BUILDINGS, CARDS
from engines.havana.engine import ENGINE
from renderers import havana
from renderers.common import encode_png
from tests.renderers import havana_states
from tests.renderers.helper import (
    DEFAULT_TOLERANCE,
    assert_image_similar,
    load_fixture,
    load_golden,
    mean_difference,
)
from tests.renderers.regenerate import GOLDENS, NAMES, Golden, render_golden

EN, FR = translator("en"), translator("fr")

HAVANA = [g for g in GOLDENS if g.name.startswith("havana_")]
PRIVATE_KEYS = ("hand", "discard", "pending_picks", "pending_cover")
MAX_PNG_BYTES = 1_500_000
PHASES = ("start_pick", "actions", "cover", "over")


def draw(view: dict[str, Any], locale: str = "en") -> Image.Image:
    return havana.render(view, names=NAMES, words=translator(locale))


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.mode == b.mode and a.tobytes() == b.tobytes()


# Goldens


@pytest.mark.parametrize("golden", HAVANA, ids=[g.name for g in HAVANA])
def test_golden(golden: Golden) -> None:
    assert_image_similar(render_golden(golden), load_golden(golden.name), name=golden.name)


def test_goldens_cover_every_phase_player_count_and_french() -> None:
    views = {g.name: load_fixture(g.fixture) for g in HAVANA}
    assert {v["phase"] for v in views.values()} == set(PHASES)
    assert {v["num_players"] for v in views.values()} == {2, 3, 4}
    start = views["havana_start_pick_2p"]
    assert [p["has_picked"] for p in start["players"]] == [True, False]  # hidden picks
    assert all(p["face_up"] == [] for p in start["players"])
    actions = views["havana_actions_3p"]
    assert actions["current"] is not None and actions["players"][actions["current"]]["used"]
    assert any(name.endswith("_fr") for name in views)


def test_fixtures_have_the_engine_view_schema() -> None:
    """A fixture older than the engine's view fails here: ``regenerate --fixtures``."""
    real = ENGINE.view(ENGINE.new_game(3, 1), None)
    public = set(real["players"][0])
    for golden in HAVANA:
        view = load_fixture(golden.fixture)
        assert set(view) == set(real), golden.fixture
        for player in view["players"]:
            assert set(player) - set(PRIVATE_KEYS) == public, golden.fixture


# Shape, size, locale


@pytest.mark.parametrize("golden", HAVANA, ids=[g.name for g in HAVANA])
def test_landscape_and_small_png(golden: Golden) -> None:
    img = render_golden(golden)
    width, height = img.size
    assert width > height and width / height >= 1.4  # not square-cropped on phones
    assert len(encode_png(img)) < MAX_PNG_BYTES


def test_scale_keeps_the_aspect() -> None:
    img = havana.render(load_fixture("havana_cover_4p"), names=NAMES, scale=0.5, words=EN)
    assert img.size == (havana.WIDTH // 2, havana.HEIGHT // 2)


def test_french_draws_french_names() -> None:
    view = load_fixture("havana_actions_3p")
    english, french = draw(view, "en"), draw(view, "fr")
    assert mean_difference(french, english) > 10 * DEFAULT_TOLERANCE
    assert mean_difference(load_golden("havana_actions_3p_fr"),
                           load_golden("havana_actions_3p")) > 10 * DEFAULT_TOLERANCE
    # Every name comes from the catalogues (the view carries ids only).
    row_building = view["rows"][0][0]
    assert havana.building_name(row_building["id"], FR) == t(
        f"havana.building.{row_building['id']}", "fr")
    assert havana.card_name("siesta", FR) == t("havana.card.siesta", "fr") != t(
        "havana.card.siesta", "en")
    # A label changed in the catalogue changes the image where it is drawn.
    renamed = havana.render(view, names=NAMES, words=lambda key, **params: (
        "Renamed" if key.startswith("havana.building.") else EN(key, **params)))
    assert mean_difference(renamed, english) > DEFAULT_TOLERANCE


def test_an_unknown_locale_falls_back_to_english() -> None:
    view = load_fixture("havana_over_4p")
    assert same_pixels(draw(view, "de"), draw(view, "en"))


# Hidden information


def _with_fake_private(view: dict[str, Any]) -> dict[str, Any]:
    """Every seat given a made-up hand, discard and pending picks."""
    out = copy.deepcopy(view)
    cards = sorted(CARDS)
    for player in out["players"]:
        player["hand"] = cards[:6]
        player["discard"] = cards[6:9]
        player["pending_picks"] = cards[9:11]
        player["pending_cover"] = cards[0]
    return out


def _without_private(view: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(view)
    for player in out["players"]:
        for key in PRIVATE_KEYS:
            player.pop(key, None)
    return out


@pytest.mark.parametrize("golden", HAVANA, ids=[g.name for g in HAVANA])
def test_the_board_never_draws_a_hand(golden: Golden) -> None:
    view = load_fixture(golden.fixture)
    bare = draw(_without_private(view))
    assert same_pixels(draw(_with_fake_private(view)), bare)
    assert same_pixels(draw(view), bare)


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("phase", PHASES)
def test_every_seat_sees_the_spectator_board(phase: str, num_players: int) -> None:
    """From a real state: each seat's own view (with its hand) draws the spectator's image."""
    s = havana_states.state_at(phase, num_players, seed=2)
    spectator = draw(ENGINE.view(s, None))
    for seat in range(num_players):
        own = ENGINE.view(s, seat)
        assert "hand" in own["players"][seat]
        assert same_pixels(draw(own), spectator), seat


# Every rulebook-visible item is drawn (issue 3): changing it changes the image.


def _first_building(view: dict[str, Any]) -> dict[str, Any]:
    building: dict[str, Any] = view["rows"][0][0]
    return building


def _other_card(card: str) -> str:
    return next(c for c in sorted(CARDS) if c != card)


CENTRE = ("pesos", "brick", "sandstone", "clay", "glass", "rubble")


def _add(path: tuple[str | int, ...]) -> Callable[[dict[str, Any]], None]:
    """A mutation adding 1 to the number at ``path`` in the view."""
    def mutate(view: dict[str, Any]) -> None:
        node: Any = view
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] += 1
    return mutate


MUTATIONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "round": lambda v: v.update(round=v["round"] + 1),
    "whose turn": lambda v: v.update(current=v["turn_order"][-1]),
    "pile": lambda v: v.update(pile=v["pile"] + 1),
    "building": lambda v: _first_building(v).update(id=_first_building(v)["id"] % 36 + 1),
    "building vp": lambda v: _first_building(v).update(vp=_first_building(v)["vp"] + 1),
    "building cost": lambda v: _first_building(v)["cost"].update(glass=3),
    "architect": lambda v: _first_building(v).update(
        architect=not _first_building(v)["architect"]),
    "buyable": lambda v: _first_building(v).update(buyable=not _first_building(v)["buyable"]),
    "second row": lambda v: v["rows"][1][0].update(vp=v["rows"][1][0]["vp"] + 1),
    **{f"centre {kind}": _add(("centre", kind)) for kind in CENTRE},
    **{f"seat {seat} {field}": _add(("players", seat, field))
       for seat in (0, 2) for field in ("pesos", "workers", "vp")},
    **{f"seat 1 {kind}": _add(("players", 1, "materials", kind)) for kind in CENTRE[1:]},
    "face-up card": lambda v: v["players"][1]["face_up"].__setitem__(
        0, _other_card(v["players"][1]["face_up"][0])),
    "second face-up card": lambda v: v["players"][2]["face_up"].__setitem__(
        1, _other_card(v["players"][2]["face_up"][1])),
    "turn number": lambda v: v["players"][1].update(turn_number="99"),
    "built building": lambda v: v["players"][0]["buildings"].append(1),
    "protection": lambda v: v["players"][2].update(protected=not v["players"][2]["protected"]),
    "used card": lambda v: v["players"][v["current"]]["used"].clear(),
    "goal": lambda v: v.update(vp_to_win=v["vp_to_win"] + 1),
    "card in progress": lambda v: v["context"].update(card="mama"),
    "building being bought": lambda v: v["context"].update(card=None, building=1),
    "tax targets": lambda v: v["context"].update(targets=[1, 2]),
}


@pytest.mark.parametrize("item", list(MUTATIONS))
def test_every_visible_item_is_drawn(item: str) -> None:
    view = load_fixture("havana_actions_3p")
    base = draw(view)
    changed = copy.deepcopy(view)
    MUTATIONS[item](changed)
    assert changed != view
    assert mean_difference(draw(changed), base) > DEFAULT_TOLERANCE, item


def test_hidden_picks_show_who_has_chosen() -> None:
    view = load_fixture("havana_start_pick_2p")
    chosen = copy.deepcopy(view)
    chosen["players"][1]["has_picked"] = True
    assert mean_difference(draw(chosen), draw(view)) > DEFAULT_TOLERANCE


# Real engine states


@pytest.mark.parametrize("seed", [1, 7, 23])
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_spectator_views_of_real_games_render(seed: int, num_players: int) -> None:
    for phase in PHASES:
        img = draw(havana_states.view_at(phase, num_players, seed), "fr" if seed % 2 else "en")
        assert img.mode == "RGB" and img.size == (havana.WIDTH, havana.HEIGHT)


def test_many_buildings_stay_inside_their_panel() -> None:
    """Thirty buildings overflow into "+N more" and draw nothing outside the seat's panel."""
    view = load_fixture("havana_over_4p")
    crowded = copy.deepcopy(view)
    crowded["players"][0]["buildings"] = sorted(BUILDINGS)[:30]
    a, b = draw(view), draw(crowded)
    assert mean_difference(a, b) > DEFAULT_TOLERANCE
    x0, x1 = havana._panel_columns(4)[0]
    hidden = (0, havana.PANEL_TOP - 4, round(x1) + 4, havana.HEIGHT)  # the panel and its frame
    for img in (a, b):
        img.paste((0, 0, 0), hidden)
    assert same_pixels(a, b)


def test_missing_display_names_fall_back_to_seat_numbers() -> None:
    view = load_fixture("havana_cover_4p")
    short = havana.render(view, names=["Alice"], words=EN)
    assert same_pixels(short, havana.render(view, names=["Alice", "", "", ""], words=EN))
    assert mean_difference(short, draw(view)) > DEFAULT_TOLERANCE


@pytest.mark.parametrize("fixture", ["havana_cover_4p", "havana_actions_3p"])
def test_protected_marker_overlaps_nothing(fixture: str) -> None:
    """The shield goes beside the worker only where it fits; a 4-player panel moves it below
    the cards, so it never covers the seat's pesos or workers."""
    view = load_fixture(fixture)
    for player in view["players"]:
        player["protected"] = False
    seat = view["num_players"] - 1
    shielded = copy.deepcopy(view)
    shielded["players"][seat]["protected"] = True
    diff = ImageChops.difference(draw(view), draw(shielded)).getbbox()
    assert diff is not None
    x0, _ = havana._panel_columns(view["num_players"])[seat]
    stats_right = x0 + 12 + 2 * havana.CARD_W + havana.CARD_GAP + 14 + 146  # worker's edge
    below_cards = havana.PANEL_TOP + havana.PANEL_HEAD_H + 12 + havana.CARD_H
    assert diff[0] >= stats_right or diff[1] >= below_cards, diff
