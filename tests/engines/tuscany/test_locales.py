"""Every message key the engine can emit exists in both catalogues (en, fr)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from engines.ai import random_action
from engines.base import Message
from engines.tuscany import ENGINE as E

ROOT = Path(__file__).resolve().parents[3]
CATALOGUES = {loc: json.loads((ROOT / "bot" / "locales" / loc / "tuscany.json").read_text(
    encoding="utf-8")) for loc in ("en", "fr")}
SHARED = {loc: json.loads((ROOT / "bot" / "locales" / loc / "errors.json").read_text(
    encoding="utf-8")) for loc in ("en", "fr")}


def _keys_in(key: str, params: Any) -> set[str]:
    keys = {key}
    values = params.values() if isinstance(params, dict) else params
    for v in values:
        if isinstance(v, Message):
            keys |= _keys_in(v.key, dict(v.params))
        elif isinstance(v, (list, dict)):
            keys |= _keys_in(key, v)
    return keys


def _message_keys(m: Message | None) -> set[str]:
    return set() if m is None else _keys_in(m.key, dict(m.params))


def test_catalogues_have_the_same_keys_and_a_short_rules_text() -> None:
    assert set(CATALOGUES["en"]) == set(CATALOGUES["fr"])
    for loc in ("en", "fr"):
        assert 0 < len(CATALOGUES[loc]["tuscany.rules"]) <= 1800


def test_every_emitted_key_is_translated() -> None:
    used: set[str] = set()
    for seed in range(12):
        s = E.new_game(2 + seed % 3, seed)
        rng = random.Random(seed)
        while not E.is_over(s):
            seat = rng.choice(sorted(E.active_players(s)))
            for c in E.choices(s, seat):
                used |= _message_keys(c.label) | _message_keys(c.description)
                for m in getattr(c, "option_labels", ()):
                    used |= _message_keys(m)
            out = E.apply(s, seat, random_action(E, s, seat, rng))
            for e in out.events:
                used |= _keys_in(e.key, dict(e.params))
            s = out.state
        result = E.result(s)
        assert result is not None
        for m in result.details:
            used |= _message_keys(m)
    used.discard("turn_end")
    source = (ROOT / "engines" / "tuscany" / "checks.py").read_text(encoding="utf-8")
    errors = re.findall(r'_illegal\(\s*f?"[^"]*",\s*"([a-z_]+)"', source)
    assert len(errors) == source.count("_illegal(") - 1  # every call but the definition
    used |= {f"tuscany.error.{k}" for k in errors}
    for loc in ("en", "fr"):
        known = set(CATALOGUES[loc]) | set(SHARED[loc])
        missing = sorted(k for k in used if k not in known)
        assert not missing, (loc, missing)
    assert any(k.startswith("tuscany.ev.") for k in used)
    assert any(k.startswith("tuscany.choice.") for k in used)
