"""The Tuscany panel words and commands: every decision has a verb, every step is explained,
the region image comes exactly when a space is asked."""

from __future__ import annotations

import random

import pytest

from bot.core.i18n import t
from cogs.tuscany import VERBS, TuscanyPresenter, asks_for_space, step_of
from engines.ai import random_action
from engines.tuscany.checks import _ARITY, _STEP_KINDS
from engines.tuscany.engine import ENGINE
from tests.renderers import tuscany_states

PRESENTER = TuscanyPresenter()
NAMES = ["Alice", "Bob", "Chloé"]


def test_every_action_kind_has_a_verb() -> None:
    covered = {kind for verb in VERBS for kind in verb.kinds}
    step_kinds = set().union(*_STEP_KINDS.values())
    assert step_kinds <= covered
    assert set(_ARITY) == covered  # setup kinds too, and no verb for a kind that does not exist
    assert len(VERBS) <= 25
    for locale in ("en", "fr"):  # Discord's limit on a description, from the catalogues
        assert all(len(t(f"tuscany.cmd.{v.name}.desc", locale)) <= 100 for v in VERBS)


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_a_whole_game_is_worded_without_missing_keys(locale: str) -> None:
    rng = random.Random(1)
    state = ENGINE.new_game(3, 9)
    steps: set[str] = set()
    while not ENGINE.is_over(state):
        for seat in range(3):
            view = ENGINE.view(state, seat)
            text = PRESENTER.panel_text(view, seat, locale)
            assert "tuscany." not in text, text  # a missing key shows as itself
            if seat in view["active"]:
                steps.add(step_of(view))
        status = PRESENTER.status_text(ENGINE.view(state, None), NAMES, locale)
        assert "tuscany." not in status
        seat = min(ENGINE.active_players(state))
        state = ENGINE.apply(state, seat, random_action(ENGINE, state, seat, rng)).state
    assert {"setup_arrange", "setup_castle", "setup_improve", "main", "take", "space",
            "pay"} <= steps
    assert "tuscany." not in PRESENTER.status_text(ENGINE.view(state, None), NAMES, locale)


def test_the_hand_is_in_its_owners_panel_only_as_counts_per_colour() -> None:
    state = tuscany_states.play_until(2, 11, tuscany_states.rich_mid_game)
    assert state is not None
    view = ENGINE.view(state, 0)
    hand = view["players"][0]["hand"]
    text = PRESENTER.panel_text(view, 0, "en")
    first = text.splitlines()[0]
    assert first.startswith(f"Your cards ({sum(hand.values())}):")
    for code, count in hand.items():
        if count:
            assert f"{count} × " in first and code in "crifqvmt"


def test_region_image_only_when_a_space_is_asked() -> None:
    state = tuscany_states.play_until(3, 2, tuscany_states.choosing_space)
    assert state is not None
    current = state.current
    view = ENGINE.view(state, current)
    assert asks_for_space(view, current)
    image = PRESENTER.panel_image(view, current, "en")
    assert image is not None and image.width > image.height
    other = (current + 1) % 3
    assert PRESENTER.panel_image(ENGINE.view(state, other), other, "en") is None
    main = tuscany_states.play_until(3, 2, lambda s: s.phase == "play"
                                     and s.stack[-1].kind == "main")
    assert main is not None
    assert PRESENTER.panel_image(ENGINE.view(main, main.current), main.current, "en") is None
    setup = ENGINE.new_game(2, 1)
    assert PRESENTER.panel_image(ENGINE.view(setup, 0), 0, "fr") is not None  # the preview


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_action_menu_says_why_no_stored_tile_can_be_placed(locale: str) -> None:
    from bot.core.i18n import t
    from tests.engines.tuscany.helpers import grab, hand, ready

    state = ready()
    state.players[0].storage[0] = grab(state, "M")  # no yellow space touches the castle
    hand(state, 0, m=2)
    text = PRESENTER.panel_text(ENGINE.view(state, 0), 0, locale)
    assert t("tuscany.panel.ask.main", locale) not in text  # no "…or place a stored tile"
    assert t("tuscany.panel.ask.main_no_place", locale) in text
    assert t("tuscany.error.no_free_space", locale) in text
    state.players[0].storage[0] = grab(state, "F")  # a free light-green space by the castle
    hand(state, 0, f=1)
    assert t("tuscany.error.no_cards", locale) in PRESENTER.panel_text(
        ENGINE.view(state, 0), 0, locale)
    hand(state, 0, f=2)  # now it can be paid: the usual wording, no reason
    text = PRESENTER.panel_text(ENGINE.view(state, 0), 0, locale)
    assert t("tuscany.panel.ask.main", locale) in text
    assert t("tuscany.panel.ask.main_no_place", locale) not in text


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_action_menu_says_when_no_card_is_left_to_draw(locale: str) -> None:
    from tests.engines.tuscany.helpers import grab, hand, ready

    state = ready()
    state.players[0].storage[0] = grab(state, "F")  # placeable by the castle, and paid
    hand(state, 0, f=2)
    state.deck, state.discard = [], []  # every card in a hand (ruling 15)
    text = PRESENTER.panel_text(ENGINE.view(state, 0), 0, locale)
    assert t("tuscany.panel.ask.main_no_draw", locale) in text
    assert [str(a) for a in ENGINE.legal_actions(state, 0)] == ["take", "place"]
    state.players[0].storage[0] = None  # nothing stored: take is all that is left
    text = PRESENTER.panel_text(ENGINE.view(state, 0), 0, locale)
    assert t("tuscany.panel.ask.main_take_only", locale) in text
    assert t("tuscany.panel.ask.main_no_place", locale) not in text
    assert t("tuscany.error.storage_empty", locale) in text
