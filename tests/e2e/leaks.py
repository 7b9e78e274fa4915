"""The no-leak check shared by the game e2e tests: private wording never in a public message."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from tests.e2e.fake_discord import FakeDiscord, StoredMessage

LOCALES_DIR = Path(__file__).resolve().parents[2] / "bot" / "locales"


def private_patterns(namespace: str, keys: Sequence[str]) -> list[re.Pattern[str]]:
    """The wording of every private-only text (``keys`` of ``namespace``), in en and fr."""
    patterns = []
    for locale in ("en", "fr"):
        catalogue = json.loads((LOCALES_DIR / locale / f"{namespace}.json").read_text("utf-8"))
        for key in keys:
            parts = re.split(r"\{[a-z_]+\}", catalogue[key])
            patterns.append(re.compile(".+?".join(re.escape(p) for p in parts)))
    return patterns


def assert_no_private_text(fake: FakeDiscord, patterns: Sequence[re.Pattern[str]]) -> None:
    """No public message, in any of its versions, matches a private wording."""
    checked = 0
    for message in fake.public_messages():
        for version in [*message.history, message.data]:
            text = StoredMessage(version).text()
            for pattern in patterns:
                assert not pattern.search(text), f"private text in public message: {text!r}"
            checked += 1
    assert checked > 0
