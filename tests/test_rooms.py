"""The two rooms of ``bot/`` and the shape of the import graph (docs/DESIGN.md).

The core (``bot/core``) never imports discord, the adapter or a cog, so the game service,
storage and timing run and are tested without Discord. No module of the project takes part
in an import circle — counting every import: at module level, inside functions, and under
``TYPE_CHECKING`` (a circle hidden from the interpreter is still one a reader must untangle).
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engines", "renderers", "bot", "cogs")
CORE_MAY_NOT = ("discord", "bot.adapter", "cogs")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, wherever the import stands. ``from a import b`` is
    ``a.b`` when that is a module of the project, else ``a`` (``b`` is a name in it)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative to the module's package
                package = module_name(path if path.name == "__init__.py" else path.parent)
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            found.update(f"{base}.{a.name}" if is_module(f"{base}.{a.name}") else base
                         for a in node.names)
    return found


def project_graph() -> dict[str, set[str]]:
    paths = [p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]
    modules = {module_name(p): p for p in paths}
    return {name: {m for m in imported(path) if m in modules} - {name}
            for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan): each is a set of
    modules that import one another, directly or not."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


# Circles that predate this test, inside one engine package (function-level imports in
# Río's rules): listed so no new one can appear; remove an entry when its circle is undone.
KNOWN = {
    frozenset({"engines.rio.combat", "engines.rio.rules"}),
    frozenset({"engines.rio.checks", "engines.rio.engine", "engines.rio.view"}),
}


def test_the_core_never_imports_discord_the_adapter_or_cogs() -> None:
    core = sorted((ROOT / "bot" / "core").rglob("*.py"))
    assert len(core) > 10  # the room exists and the walk found it
    for path in core:
        bad = {m for m in imported(path) for forbidden in CORE_MAY_NOT
               if m == forbidden or m.startswith(forbidden + ".")}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_project_has_no_import_circle() -> None:
    graph = project_graph()
    assert "bot.adapter.app" in graph and "bot.core.service" in graph["bot.adapter.app"]
    found = circles(graph)
    new = [sorted(c) for c in found - KNOWN]
    assert not new, f"import circles: {new}"
    assert found >= KNOWN, f"undone, remove from KNOWN: {[sorted(c) for c in KNOWN - found]}"
    assert not any(name.startswith(("bot.", "cogs.")) for c in found for name in c)


@pytest.mark.parametrize("code, sees", [
    ("import discord.ui\n", {"discord.ui"}),
    ("from bot.adapter import app, panels\n", {"bot.adapter.app", "bot.adapter.panels"}),
    ("def f():\n    from bot.core.service import GameService\n", {"bot.core.service"}),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.adapter.app import X\n",
     {"bot.adapter.app", "typing"}),
])
def test_the_walk_sees_every_kind_of_import(tmp_path: Path, code: str, sees: set[str]) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(code)
    assert imported(sample) == sees


def test_a_circle_is_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {
        frozenset({"a", "b", "c"})}
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == set()


# The writes that change a game, its seats, its clocks' policy or its votes: only the service
# makes them (under the game's lock, version-checked), whoever decides them.
GAME_WRITES = {
    "create_game", "set_seats", "replace_seat", "start_game", "save_move", "set_status",
    "save_undo", "import_game", "set_deadline_policy", "set_clocks", "start_clock",
    "abandon_seat", "take_over_seat", "add_vacation", "end_vacation", "mark_vacation_resumed",
    "update_guild_settings", "update_user_settings", "create_vote", "cast_ballot",
    "close_vote", "close_open_votes", "withdraw_ballots",
}
THE_WRITER = "bot/core/service/"  # the service's parts (bot/core/service/__init__.py)


def repository_calls(path: Path) -> set[str]:
    """The names of the methods ``path`` calls on a ``repo`` attribute or variable."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name == "repo":
                found.add(node.func.attr)
    return found


def test_only_the_service_writes_games_seats_policies_and_votes() -> None:
    storage = ROOT / "bot" / "core" / "storage"
    writers: dict[str, set[str]] = {}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if storage in path.parents:
            continue
        writes = repository_calls(path) & GAME_WRITES
        if writes:
            writers[path.relative_to(ROOT).as_posix()] = writes
    outside = {path: writes for path, writes in writers.items()
               if not path.startswith(THE_WRITER)}
    assert not outside, outside
    assert {"save_move", "cast_ballot", "save_undo", "take_over_seat"} <= set().union(
        *writers.values())


def test_each_service_operation_is_defined_once_in_a_part_that_calls_no_other_part() -> None:
    """``GameService`` is composed of parts (bot/core/service/), each deriving from the
    shared ``ServiceBase`` alone: an operation has one home, and a part reaches only the
    shared base and its own methods, so the parts stay independent of one another."""
    from bot.core.service import GameService
    from bot.core.service.base import ServiceBase

    parts = GameService.__bases__
    assert len(parts) > 3 and not [n for n in vars(GameService) if not n.startswith("__")]
    home: dict[str, str] = {}
    for part in parts:
        assert part.__bases__ == (ServiceBase,), part
        for name in vars(part):
            if not name.startswith("__"):
                assert name not in vars(ServiceBase) and name not in home, name
                home[name] = part.__name__
    for part in parts:
        source = Path(inspect.getfile(part)).read_text(encoding="utf-8")
        reached = set(re.findall(r"\bself\.(\w+)", source))
        foreign = {n: home[n] for n in reached if home.get(n, part.__name__) != part.__name__}
        assert not foreign, f"{part.__name__} calls {foreign}"


def test_the_write_names_are_the_storage_interface_s() -> None:
    """Declared by the storage's interfaces: one ``…Store`` class per aggregate."""
    declared: set[str] = set()
    for path in (ROOT / "bot/core/storage").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Store"):
                declared |= {n.name for n in node.body if isinstance(n, ast.AsyncFunctionDef)}
    assert declared >= GAME_WRITES, sorted(GAME_WRITES - declared)


def test_design_names_every_module_of_both_rooms_and_only_modules_that_exist() -> None:
    """docs/DESIGN.md stays true: each module of bot/core and bot/adapter is named there (the
    storage's by its folder), and each ``bot/…`` path it names exists."""
    design = (ROOT / "docs" / "DESIGN.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(bot/[\w/]+(?:\.py|/))`", design))
    assert named, "DESIGN.md names no module"
    missing_files = sorted(n for n in named if not (ROOT / n).exists())
    assert not missing_files, f"DESIGN.md names {missing_files}"
    for room in ("core", "adapter"):
        for path in sorted((ROOT / "bot" / room).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if path.name == "__init__.py" or rel.startswith("bot/core/storage/"):
                continue
            assert rel in named, f"DESIGN.md does not say what {rel} holds"
    assert "bot/core/storage/" in named


# The service's private methods are its own: undo, absence policies, tools and tests go
# through its public API (a private step called from outside skips the lock or the checks
# the public method wraps around it).
THE_SERVICE = "bot/core/service/"  # the package of the service and its parts


def private_service_calls(path: Path) -> set[str]:
    """The ``_private`` methods ``path`` calls on a ``service`` variable or attribute
    (``service._x()``, ``self.service._x()``, ``bot.service._x()``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner, name = node.func.value, node.func.attr
            owner_name = owner.attr if isinstance(owner, ast.Attribute) else getattr(
                owner, "id", "")
            if owner_name == "service" and name.startswith("_") and not name.startswith("__"):
                found.add(name)
    return found


def test_nothing_outside_the_service_calls_its_private_methods() -> None:
    callers: dict[str, set[str]] = {}
    for package in ("bot", "cogs", "tests"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(THE_SERVICE):
                continue
            if calls := private_service_calls(path):
                callers[rel] = calls
    assert not callers, callers


def test_the_private_call_walk_sees_each_form(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("async def f(self, service, bot):\n"
                      "    await service._load(1)\n    self.service._apply()\n"
                      "    bot.service._render(2)\n    service.load(1)\n"
                      "    self.repo._x()\n    x = bot.service._render_fn\n")
    assert private_service_calls(sample) == {"_load", "_apply", "_render"}
