"""The Minos panel words and commands: every action kind has a verb, every phase is
explained in both languages, and the dice image comes exactly when the seat decides about
dice (its throw, or its combat throw)."""

from __future__ import annotations

import pytest

from cogs.minos import VERBS, MinosPresenter
from engines.minos import ENGINE
from engines.minos.checks import KINDS
from engines.minos.state import PHASES
from tests.renderers import minos_states

PRESENTER = MinosPresenter()
NAMES = ["Alice", "Bob", "Chloé", "Dmitri"]


def test_every_action_kind_has_a_verb() -> None:
    covered = {kind for verb in VERBS for kind in verb.kinds}
    assert covered == set(KINDS)
    assert len(VERBS) <= 25


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("stop", ["start", "rich", "conflict", "order", "over"])
def test_every_phase_is_worded(locale: str, stop: str) -> None:
    view = minos_states.view_at(stop, 3, 1)
    status = PRESENTER.status_text(view, NAMES[:3], locale)
    assert "minos." not in status
    for seat in range(3):
        text = PRESENTER.panel_text(view, seat, locale)
        assert "minos." not in text and text


def test_the_current_throw_is_drawn_for_the_player_deciding() -> None:
    view = minos_states.view_at("start", 2, 1)
    me = view["current"]
    image = PRESENTER.panel_image(view, me, "en")
    assert image is not None and image.width > image.height
    assert PRESENTER.panel_image(view, 1 - me, "en") is None
    assert "3" in PRESENTER.panel_text(view, me, "en")


def test_the_defender_sees_the_attackers_value_and_his_own_throw() -> None:
    view = minos_states.view_at("conflict", 3, 1)
    combat = view["combat"]
    defender = combat["defender"]
    text = PRESENTER.panel_text(view, defender, "en")
    assert str(combat["attack_value"]) in text
    assert PRESENTER.panel_image(view, defender, "en") is not None
    assert PRESENTER.panel_image(view, combat["attacker"], "en") is None


def test_phase_names_exist_in_both_languages() -> None:
    from bot.core.i18n import catalogue

    for locale in ("en", "fr"):
        cat = catalogue(locale)
        for phase in PHASES:
            assert f"minos.phase.{phase}" in cat
            assert f"minos.panel.ask.{phase}" in cat
    assert ENGINE.spec.key == "minos"
