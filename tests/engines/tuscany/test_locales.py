"""What the shared catalogue test (tests/engines/test_catalogues.py) cannot see in Tuscany:
the error keys its checks name, each in both catalogues."""

from __future__ import annotations

import re

from ..test_catalogues import ROOT, catalogue


def test_every_error_key_in_the_checks_is_translated() -> None:
    source = (ROOT / "engines" / "tuscany" / "checks.py").read_text(encoding="utf-8")
    errors = re.findall(r'_illegal\(\s*f?"[^"]*",\s*"([a-z_]+)"', source)
    assert len(errors) == source.count("_illegal(") - 1  # every call but the definition
    for loc in ("en", "fr"):
        missing = sorted(f"tuscany.error.{k}" for k in errors
                         if f"tuscany.error.{k}" not in catalogue("tuscany", loc))
        assert not missing, (loc, missing)
