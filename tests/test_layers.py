"""Imports point inward only: engines ← renderers ← bot ← cogs (ARCHITECTURE.md, Layers)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {
    "engines": {"engines"},
    "renderers": {"engines", "renderers", "PIL"},
    "bot": {"engines", "renderers", "bot", "discord", "aiosqlite", "asyncpg", "PIL", "dotenv",
            "babel"},
    "cogs": {"engines", "renderers", "bot", "cogs", "discord"},
}
PROJECT = {"engines", "renderers", "bot", "cogs"}
THIRD_PARTY = {"discord", "aiosqlite", "asyncpg", "PIL", "dotenv", "aiohttp", "babel"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_point_inward(layer: str) -> None:
    for path in sorted((ROOT / layer).rglob("*.py")):
        watched = _imports(path) & (PROJECT | THIRD_PARTY)
        bad = watched - ALLOWED[layer]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_checker_sees_forbidden_imports(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("import discord\nfrom PIL import Image\n"
                      "from bot.adapter.app import LudoBot\n")
    assert _imports(sample) >= {"discord", "PIL", "bot"}
