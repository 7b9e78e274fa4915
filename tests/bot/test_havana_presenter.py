"""The Havana panel words: the start says that two cards are to be chosen, and which one."""

from __future__ import annotations

import pytest

from bot.core.i18n import t
from cogs.havana import HavanaPresenter
from engines.havana import ENGINE

PRESENTER = HavanaPresenter()


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_start_panel_says_two_cards_are_to_be_chosen(locale: str) -> None:
    state = ENGINE.new_game(2, 1)
    assert ENGINE.view(state, 0)["phase"] == "start_pick"
    first = PRESENTER.panel_text(ENGINE.view(state, 0), 0, locale)
    assert t("havana.panel.ask.start_pick", locale, n=1) in first
    state = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0]).state
    second = PRESENTER.panel_text(ENGINE.view(state, 0), 0, locale)
    assert t("havana.panel.ask.start_pick", locale, n=2) in second
    state = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0]).state
    done = PRESENTER.panel_text(ENGINE.view(state, 0), 0, locale)  # waits for the others
    assert t("havana.panel.ask.start_pick", locale, n=1) not in done
    assert t("havana.panel.ask.start_pick", locale, n=3) not in done
    assert "havana." not in first + second + done  # no missing key shown as itself
