"""The one translation system for every word a player reads (English and French).

Catalogues are flat JSON files ``bot/locales/<locale>/<namespace>.json`` mapping a key to
either a ``str.format`` template or, for a text that counts, a plural object
``{"count": "n", "one": "{n} card", "other": "{n} cards"}``: the form is chosen by the
locale's CLDR plural rule (Babel) for the parameter named by ``"count"`` (default
``count``); French "one" covers 0 and 1. Keys are namespaced by their file
(``<game>.card.<id>`` lives in ``<game>.json``). A missing French string falls back to
English, a missing English one to the key itself, so a gap shows up in tests
(``tests/bot/test_i18n.py`` checks both catalogues have the same keys and fields).

A parameter is only ever looked up in the catalogues when it is a :class:`Message` (or a
list of them): user text, however it starts, is shown as written.
"""

from __future__ import annotations

import json
import logging
import string
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale

from engines.base import Event, GameError, Message

LOCALES = ("en", "fr")
DEFAULT = "en"
COUNT = "count"  # the parameter a plural object counts, unless it names another
_DIR = Path(__file__).parent.parent / "locales"
log = logging.getLogger(__name__)

Entry = str | dict[str, str]  # a template, or a plural object


def _check_entry(path: Path, key: str, value: object) -> Entry:
    if isinstance(value, str):
        return value
    if (isinstance(value, dict) and "other" in value
            and all(isinstance(v, str) for v in value.values())
            and set(value) <= {COUNT, "zero", "one", "two", "few", "many", "other"}):
        return value
    raise ValueError(f"{path}: {key} is neither a template nor a plural object")


@cache
def catalogue(locale: str) -> dict[str, Entry]:
    merged: dict[str, Entry] = {}
    for path in sorted((_DIR / locale).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, value in data.items():
            if key in merged:
                raise ValueError(f"duplicate key {key} in {path}")
            merged[key] = _check_entry(path, key, value)
    return merged


def templates(entry: Entry) -> list[str]:
    """Every template of an entry (one, or one per plural form)."""
    if isinstance(entry, str):
        return [entry]
    return [v for k, v in entry.items() if k != COUNT]


def normalise(locale: str | None) -> str:
    """Map a Discord locale ("fr", "en-US", "en-GB") to one we ship."""
    if not locale:
        return DEFAULT
    short = str(locale).split("-")[0].lower()
    return short if short in LOCALES else DEFAULT


@cache
def _plural_rule(locale: str) -> Callable[[int], str]:
    rule: Callable[[int], str] = Locale.parse(locale).plural_form
    return rule


class _Lenient(string.Formatter):
    """Leaves unknown ``{fields}`` visible instead of raising, so a bad param never crashes."""

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        if isinstance(key, str):
            return kwargs.get(key, "{" + key + "}")
        return super().get_value(key, args, kwargs)


_fmt = _Lenient()


def _template(entry: Entry, locale: str, params: dict[str, Any]) -> str:
    if isinstance(entry, str):
        return entry
    count = params.get(entry.get(COUNT, COUNT))
    form = "other"
    if isinstance(count, int) and not isinstance(count, bool):
        form = _plural_rule(locale)(abs(count))
    return entry.get(form) or entry["other"]


def t(key: str, locale: str | None = None, /, **params: Any) -> str:
    loc = normalise(locale)
    entry = catalogue(loc).get(key) or catalogue(DEFAULT).get(key)
    if entry is None:
        log.warning("missing translation %s", key)
        return key
    resolved = {k: _resolve(v, loc) for k, v in params.items()}
    return _fmt.format(_template(entry, loc, params), **resolved)


def _resolve(value: Any, locale: str) -> Any:
    """Nested :class:`Message` s are translated; lists are joined; anything else is shown
    as it is (user text is never taken for a key)."""
    if isinstance(value, Message):
        return tm(value, locale)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_resolve(v, locale)) for v in value)
    return value


def tm(message: Message, locale: str | None = None) -> str:
    return t(message.key, locale, **dict(message.params))


def translator(locale: str | None) -> Callable[..., str]:
    """``t`` bound to a locale: what a renderer receives to word its labels."""
    loc = normalise(locale)

    def translate(key: str, /, **params: Any) -> str:
        return t(key, loc, **params)

    return translate


def error_text(err: GameError, locale: str | None = None) -> str:
    """A rules error in the reader's language; falls back to the engine's English text."""
    loc = normalise(locale)
    if err.key in catalogue(loc) or err.key in catalogue(DEFAULT):
        return t(err.key, loc, **err.params)
    return str(err)


def stored_event(event: Event) -> Event:
    """An event read back from the log. Before nested :class:`Message` s (November 2026)
    the engines wrote a text to translate as ``"@<key>"``: such a parameter becomes that
    Message when ``<key>`` is in the catalogues; any other text ("@everyone") stays as
    written. Only stored engine events come here, never user text."""
    def one(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("@") and value[1:] in catalogue(DEFAULT):
            return Message(value[1:])
        if isinstance(value, list):
            return [one(v) for v in value]
        if isinstance(value, Message):
            return Message(value.key, {k: one(v) for k, v in value.params.items()})
        return value

    return Event(event.key, {k: one(v) for k, v in event.params.items()}, event.to)
