"""Every message key the engine can emit or show exists in both catalogues (en, fr)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from engines.base import Message, MultiChoice
from engines.minos import ENGINE as E

from .test_playout import choose

ROOT = Path(__file__).resolve().parents[3]
CATALOGUES = {loc: json.loads((ROOT / "bot" / "locales" / loc / "minos.json").read_text(
    encoding="utf-8")) for loc in ("en", "fr")}
SHARED = {loc: json.loads((ROOT / "bot" / "locales" / loc / "errors.json").read_text(
    encoding="utf-8")) for loc in ("en", "fr")}


def _keys_in(key: str, params: Any) -> set[str]:
    keys = {key}
    for v in (params.values() if isinstance(params, dict) else params):
        if isinstance(v, Message):
            keys |= _keys_in(v.key, dict(v.params))
        elif isinstance(v, (list, dict)):
            keys |= _keys_in(key, v)
    return keys


def _message_keys(m: Message | None) -> set[str]:
    return set() if m is None else _keys_in(m.key, dict(m.params))


def test_catalogues_have_the_same_keys_and_a_rules_summary() -> None:
    assert set(CATALOGUES["en"]) == set(CATALOGUES["fr"])
    for loc in ("en", "fr"):
        assert 400 < len(CATALOGUES[loc]["minos.rules"]) <= 1800
        assert CATALOGUES[loc]["minos.name"] == "Minos"


def test_every_emitted_and_offered_key_is_translated() -> None:
    from engines.minos.data import SITES
    from engines.rng import Rng

    used: set[str] = {f"minos.site.{s}" for s in SITES}
    for seed in range(9):
        s = E.new_game(2 + seed % 3, seed)
        rng, bits = random.Random(seed), Rng(seed)
        while not E.is_over(s):
            (seat,) = E.active_players(s)
            for c in E.choices(s, seat):
                used |= _message_keys(c.label) | _message_keys(c.description)
                if isinstance(c, MultiChoice):
                    for m in c.option_labels:
                        used |= _message_keys(m)
            out = E.apply(s, seat, choose(s, seat, rng, bits))
            for e in out.events:
                used |= _keys_in(e.key, dict(e.params))
            s = out.state
        result = E.result(s)
        assert result is not None
        for m in result.details:
            used |= _message_keys(m)
    used.discard("turn_end")
    source = (ROOT / "engines" / "minos" / "checks.py").read_text(encoding="utf-8")
    used |= {f"minos.error.{k}" for k in re.findall(r'_illegal\("([a-z_0-9]+)"', source)}
    used |= set(re.findall(r'key="(minos\.error\.[a-z_]+)"', source))
    for spec_option in E.spec.options:
        used |= _message_keys(spec_option.description)
    for loc in ("en", "fr"):
        known = set(CATALOGUES[loc]) | set(SHARED[loc])
        missing = sorted(k for k in used if k not in known)
        assert not missing, (loc, missing)
    for prefix in ("minos.ev.", "minos.choice.", "minos.desc.", "minos.error."):
        assert any(k.startswith(prefix) for k in used)
