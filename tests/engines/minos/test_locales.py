"""What the shared catalogue test (tests/engines/test_catalogues.py) cannot see in Minos:
the error keys its checks name, and every site's name whether or not a game reached it."""

from __future__ import annotations

import re

from engines.minos import ENGINE as E
from engines.minos.data import SITES

from ..test_catalogues import ROOT, catalogue, played_keys


def test_every_error_and_site_key_is_translated() -> None:
    source = (ROOT / "engines" / "minos" / "checks.py").read_text(encoding="utf-8")
    named = {f"minos.error.{k}" for k in re.findall(r'_illegal\("([a-z_0-9]+)"', source)}
    named |= set(re.findall(r'key="(minos\.error\.[a-z_]+)"', source))
    named |= {f"minos.site.{s}" for s in SITES}
    assert len(named) > len(SITES)
    for loc in ("en", "fr"):
        assert not sorted(named - set(catalogue("minos", loc))), loc
        assert catalogue("minos", loc)["minos.name"] == "Minos"


def test_games_reach_events_menus_and_effect_lines() -> None:
    used = played_keys(E, games=3)
    for prefix in ("minos.ev.", "minos.choice.", "minos.desc."):
        assert any(k.startswith(prefix) for k in used), prefix
