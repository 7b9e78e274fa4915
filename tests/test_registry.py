"""One registration point: every registered game has every part, and the bot names none.

Adding a game is the README's checklist — engine package, renderer, cog (with its
presenter), both catalogues, tests, rules doc — plus one entry in ``engines/registry.py``.
A registered game missing any part fails here.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from pathlib import Path

import pytest

from engines import registry
from engines.registry import Entry

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ("en", "fr")


def _module(path: str) -> object | None:
    try:
        return importlib.import_module(path)
    except ImportError:
        return None


def missing_parts(entry: Entry, root: Path = ROOT) -> list[str]:
    """What a registered game lacks (empty when it is complete)."""
    missing = []
    engine = _module(entry.engine)
    found = getattr(engine, "ENGINE", None)
    if found is None or getattr(getattr(found, "spec", None), "key", None) != entry.key:
        missing.append(f"engine package {entry.engine} exporting ENGINE (spec.key {entry.key})")
    renderer = _module(entry.renderer)
    if not callable(getattr(renderer, "render", None)):
        missing.append(f"renderer module {entry.renderer} with render()")
    cog = _module(entry.cog)
    if not inspect.iscoroutinefunction(getattr(cog, "setup", None)):
        missing.append(f"cog module {entry.cog} with async setup()")
    presenter = getattr(cog, "PRESENTER", None)
    if presenter is None or not all(callable(getattr(presenter, m, None)) for m in
                                    ("panel_text", "status_text", "panel_image")):
        missing.append(f"PRESENTER in {entry.cog}")
    for locale in LOCALES:
        path = root / "bot" / "locales" / locale / f"{entry.key}.json"
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        for key in (f"{entry.key}.name", f"{entry.key}.rules"):
            if key not in data:
                missing.append(f"{key} in bot/locales/{locale}/{entry.key}.json")
    tests = root / "tests" / "engines" / entry.key
    if not any(tests.glob("test_*.py")):
        missing.append(f"tests/engines/{entry.key}/test_*.py")
    if not (root / "docs" / "rules" / f"{entry.key}.md").is_file():
        missing.append(f"docs/rules/{entry.key}.md")
    return missing


@pytest.mark.parametrize("entry", registry.entries(), ids=lambda e: e.key)
def test_every_registered_game_has_every_part(entry: Entry) -> None:
    assert missing_parts(entry) == []


def test_a_game_missing_its_parts_is_caught(tmp_path: Path) -> None:
    ghost = Entry("ghost", engine="engines.ghost", renderer="renderers.ghost",
                  cog="cogs.ghost")
    assert len(missing_parts(ghost)) == 10  # 3 modules, presenter, 4 keys, tests, rules doc
    real = registry.entries()[0]
    from dataclasses import replace

    assert missing_parts(replace(real, renderer="renderers.common")) == [
        "renderer module renderers.common with render()"]
    assert missing_parts(replace(real, cog="cogs.lobby")) == ["PRESENTER in cogs.lobby"]
    assert len(missing_parts(real, root=tmp_path)) == 6  # no catalogues, tests, rules doc


def test_one_entry_per_key_and_the_engines_load() -> None:
    keys = [e.key for e in registry.entries()]
    assert len(keys) == len(set(keys))
    assert sorted(registry.games()) == sorted(keys)
    with pytest.raises(KeyError):
        registry.get("ghost")


def test_nothing_in_the_bot_names_a_game() -> None:
    """The bot discovers games from the registry: no game's key in its code."""
    keys = "|".join(re.escape(e.key) for e in registry.entries())
    pattern = re.compile(rf"\b(?:{keys})\b", re.I)  # "rio" as a word, not in "period"
    for path in sorted((ROOT / "bot").rglob("*.py")):
        found = pattern.search(path.read_text(encoding="utf-8"))
        assert found is None, f"{path.relative_to(ROOT)} names {found.group(0)!r}"


def test_a_game_cog_registers_nothing_by_itself() -> None:
    """The presenter is read from the registered cog; cogs do not register it."""
    for entry in registry.entries():
        source = Path(inspect.getfile(importlib.import_module(entry.cog))).read_text()
        assert "presenters[" not in source


def test_game_commands_are_in_the_game_catalogues() -> None:
    for locale in LOCALES:
        shared = json.loads((ROOT / "bot" / "locales" / locale / "commands.json").read_text(
            encoding="utf-8"))
        for entry in registry.entries():
            assert not [k for k in shared if k.startswith(f"cmd.{entry.key}")], locale
