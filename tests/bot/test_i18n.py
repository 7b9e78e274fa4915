"""Both catalogues hold the same keys, and every template formats with its own fields."""

from __future__ import annotations

import string

from bot.i18n import LOCALES, catalogue, normalise, t


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_every_locale_has_the_same_keys() -> None:
    en = set(catalogue("en"))
    for locale in LOCALES:
        assert set(catalogue(locale)) == en, f"{locale}: {set(catalogue(locale)) ^ en}"


def test_translations_use_the_same_fields_as_english() -> None:
    en = catalogue("en")
    for locale in LOCALES:
        for key, text in catalogue(locale).items():
            assert _fields(text) == _fields(en[key]), (locale, key)


def test_discord_locales_map_to_ours() -> None:
    assert normalise("fr") == "fr"
    assert normalise("en-US") == "en"
    assert normalise("de") == "en"
    assert normalise(None) == "en"


def test_t_formats_and_translates_key_params() -> None:
    assert t("ui.next", "fr", players="A") == "À suivre : A"
    assert t("no.such.key", "en") == "no.such.key"
    assert "{players}" in t("ui.next", "en")  # a missing field stays visible, no crash
