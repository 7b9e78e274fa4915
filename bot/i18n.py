"""The one translation function for every user-facing string (English and French).

Catalogues are flat JSON files ``bot/locales/<locale>/<namespace>.json`` mapping a key to a
``str.format`` template. Keys are namespaced by their file (``havana.card.mama`` lives in
``havana.json``; ``lobby.*`` in ``lobby.json``; ``error.*`` in ``errors.json``). A missing
French string falls back to English, a missing English one to the key itself, so a gap
shows up in tests (``tests/bot/test_i18n.py`` checks both catalogues have the same keys).
"""

from __future__ import annotations

import json
import logging
import string
from functools import cache
from pathlib import Path
from typing import Any

from engines.base import GameError, Message

LOCALES = ("en", "fr")
DEFAULT = "en"
_DIR = Path(__file__).parent / "locales"
log = logging.getLogger(__name__)


@cache
def catalogue(locale: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in sorted((_DIR / locale).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, text in data.items():
            if key in merged:
                raise ValueError(f"duplicate key {key} in {path}")
            merged[key] = text
    return merged


def normalise(locale: str | None) -> str:
    """Map a Discord locale ("fr", "en-US", "en-GB") to one we ship."""
    if not locale:
        return DEFAULT
    short = str(locale).split("-")[0].lower()
    return short if short in LOCALES else DEFAULT


class _Lenient(string.Formatter):
    """Leaves unknown ``{fields}`` visible instead of raising, so a bad param never crashes."""

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        if isinstance(key, str):
            return kwargs.get(key, "{" + key + "}")
        return super().get_value(key, args, kwargs)


_fmt = _Lenient()


def t(key: str, locale: str | None = None, /, **params: Any) -> str:
    loc = normalise(locale)
    template = catalogue(loc).get(key) or catalogue(DEFAULT).get(key)
    if template is None:
        log.warning("missing translation %s", key)
        return key
    # Parameters that are themselves keys ("@havana.card.mama") are translated first.
    resolved = {k: _resolve(v, loc) for k, v in params.items()}
    return _fmt.format(template, **resolved)


def _resolve(value: Any, locale: str) -> Any:
    if isinstance(value, str) and value.startswith("@"):
        return t(value[1:], locale)
    if isinstance(value, list):
        return ", ".join(str(_resolve(v, locale)) for v in value)
    return value


def tm(message: Message, locale: str | None = None) -> str:
    return t(message.key, locale, **dict(message.params))


def error_text(err: GameError, locale: str | None = None) -> str:
    """A rules error in the reader's language; falls back to the engine's English text."""
    loc = normalise(locale)
    if err.key in catalogue(loc) or err.key in catalogue(DEFAULT):
        return t(err.key, loc, **err.params)
    return str(err)
