"""Fixtures for the bot tests: a real database, a fake clock, the test-only race game.

The repository is a SQLite file unless a test or module is marked ``both_backends``: then
each test also runs on a fresh PostgreSQL database of the session's real server (see
``tests/conftest.py``)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.core.service import GameService
from bot.core.storage import Repository, open_repository
from engines import registry
from engines.base import Engine
from tests.bot.race import RACE


class FakeClock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FakeRender:
    """Records what was drawn; the 'PNG' is the JSON of the view, so tests can read it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any], list[str], str]] = []

    async def __call__(self, game_key: str, view: Mapping[str, Any], names: Sequence[str],
                       locale: str) -> bytes:
        self.calls.append((game_key, dict(view), list(names), locale))
        return b"PNG" + json.dumps(view, sort_keys=True).encode()


def engine_for(key: str) -> Engine:
    if key == "race":
        return RACE
    return registry.get(key)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ludo.sqlite3"


BACKENDS = ("sqlite", "postgresql")
# On a test or a module (``pytestmark``): every test using the repository runs on both.
both_backends = pytest.mark.both_backends


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker(
            "both_backends"):
        metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The storage backend of this test: SQLite unless parametrized (``both_backends``)."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
async def database(backend: str, db_path: Path,
                   request: pytest.FixtureRequest) -> AsyncIterator[str | Path]:
    """Where this test's repository lives: a SQLite file, or a fresh PostgreSQL database
    (dropped after the test)."""
    if backend == "sqlite":
        yield db_path
        return
    server = request.getfixturevalue("postgres_server")
    dsn = await server.create_database()
    yield dsn
    await server.drop_database(dsn)


@pytest.fixture
async def repo(database: str | Path) -> AsyncIterator[Repository]:
    repository = await open_repository(database)
    yield repository
    await repository.close()


@pytest.fixture
def render() -> FakeRender:
    return FakeRender()


@pytest.fixture
def service(repo: Repository, clock: FakeClock, render: FakeRender) -> GameService:
    return GameService(repo, clock=clock, render=render, engine_for=engine_for)
