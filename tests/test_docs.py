"""The README and docs/ stand alone: no path outside the repository, and every repository
path they name in backquotes exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_docs_never_point_outside_the_repository() -> None:
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for outside in ("../", "/work/", "shared/"):
            assert outside not in text, f"{path.relative_to(ROOT)} mentions {outside!r}"


def test_docs_name_only_files_that_exist() -> None:
    named = re.compile(r"`((?:engines|renderers|bot|cogs|tests|docs)/[\w./-]+\.(?:py|md|json))`")
    for path in DOCS:
        for found in named.findall(path.read_text(encoding="utf-8")):
            assert (ROOT / found).exists(), f"{path.relative_to(ROOT)} names {found}"
