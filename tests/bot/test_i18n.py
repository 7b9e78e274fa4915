"""Both catalogues hold the same keys, every template formats with its own fields, plurals
follow each language's CLDR rule, and user text is never looked up as a key."""

from __future__ import annotations

import string

from bot.core import messages
from bot.core.i18n import COUNT, LOCALES, Entry, catalogue, normalise, t, templates, translator
from bot.core.service import GameService
from engines.base import Event, Message


def _fields(entry: Entry) -> set[str]:
    return {f for template in templates(entry)
            for _, f, _, _ in string.Formatter().parse(template) if f}


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


def test_plural_objects_count_a_parameter_they_show() -> None:
    for locale in LOCALES:
        for key, entry in catalogue(locale).items():
            if isinstance(entry, dict):
                assert entry.get(COUNT, COUNT) in _fields(entry), (locale, key)
                assert "one" in entry and "other" in entry, (locale, key)


def test_plurals_follow_each_language() -> None:
    assert t("havana.ev.workers", "en", seat="A", n=1) == "A takes 1 worker."
    assert t("havana.ev.workers", "en", seat="A", n=2) == "A takes 2 workers."
    assert t("havana.ev.workers", "en", seat="A", n=0) == "A takes 0 workers."
    assert t("havana.ev.workers", "fr", seat="A", n=0) == "A prend 0 ouvrier."  # "one": 0, 1
    assert t("havana.ev.workers", "fr", seat="A", n=1) == "A prend 1 ouvrier."
    assert t("havana.ev.workers", "fr", seat="A", n=3) == "A prend 3 ouvriers."


def test_no_catalogue_text_writes_an_optional_plural() -> None:
    for locale in LOCALES:
        for key, entry in catalogue(locale).items():
            for template in templates(entry):
                assert "(s)" not in template and "(x)" not in template, (locale, key)


def test_a_payment_counts_its_cards() -> None:
    """Issue 13 §7: "Pay 1 orange card, 1 orange card" reads "Pay 2 orange cards"."""
    from engines.tuscany.rules import payment

    label = Message("tuscany.choice.pay", {"payment": payment(["v", "v", "worker"])})
    assert t(label.key, "en", **label.params) == "Pay 2 orange cards, 1 worker"
    assert t(label.key, "fr", **label.params) == "Payer 2 cartes orange, 1 Ouvrier"


def test_user_text_is_never_a_key() -> None:
    """Issue 13 §4: a player named "@everyone…" (or like a key) is shown as written."""
    assert t("ui.next", "en", players="@ui.next") == "Next: @ui.next"
    assert t("ui.next", "en", players="@everyone") == "Next: @everyone"


def test_nested_messages_are_translated_and_survive_storage() -> None:
    card = Message("havana.card.mama")
    assert t("ui.next", "fr", players=card) == "À suivre : Mama"
    event = Event("havana.ev.built", {"seat": 0, "building": Message("havana.building.1"),
                                      "vp": 1})
    stored = Event.from_dict(event.to_dict())
    assert stored == event
    assert stored.params["building"] == Message("havana.building.1")
    # a stored string that looks like a key stays a string
    assert Event.from_dict({"key": "k", "params": {"x": "@havana.card.mama"}}).params == {
        "x": "@havana.card.mama"}


def test_a_renderer_receives_a_translate_function() -> None:
    words = translator("fr")
    assert words("havana.board.round", n=3) == "Manche 3"
    assert words("tuscany.board.empty", n=1) == "1 vide"
    assert words("tuscany.board.empty", n=2) == "2 vides"


async def test_events_stored_before_nested_messages_show_translated(
        service: GameService) -> None:
    """Issue 13 §4: log rows written before nested ``Message`` s carry "@key" strings; read
    back from the database they show translated. Any other "@…" text stays as written."""
    game = await service.create(guild_id=1, channel_id=5, game_key="havana", creator_id=1,
                                creator_name="Ann")
    await service.join(game.id, 2, "Bob")
    await service.start(game.id, 1)
    started = await service.get(game.id)
    old = Event("havana.ev.covered", {"seat": 0, "card": "@havana.card.mama",
                                      "covered": ["@havana.card.siesta", "@everyone"],
                                      "number": "@no.such.key"})
    await service.repo.save_move(
        game.id, expected_version=started.version, state=(await service.repo.load_game(
            game.id))[1], seat=0, action="legacy", public=[old], private=[], turn_end=False,
        finished=False, awaited=[], now=0.0)
    (row,) = await service.repo.entries(game.id, started.version + 1, started.version + 1)
    (event,) = row.public
    assert event.params["card"] == Message("havana.card.mama")
    shown = messages.event_text(event, messages.spec_of(started), ["Ann", "Bob"], "fr")
    assert shown == t("havana.ev.covered", "fr", seat="**Ann**", card=Message("havana.card.mama"),
                      covered=[Message("havana.card.siesta"), "@everyone"],
                      number="@no.such.key")
    assert "@havana" not in shown and "@everyone" in shown and "@no.such.key" in shown
    (logged,) = [e for e in await service.log(game.id, limit=50) if e.action == "legacy"]
    assert logged.public == row.public
