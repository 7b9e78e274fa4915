"""Fixtures for the bot tests: a real SQLite file, a fake clock, the test-only race game."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.core.service import GameService
from bot.core.storage import SqliteRepository
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


@pytest.fixture
async def repo(db_path: Path) -> AsyncIterator[SqliteRepository]:
    repository = await SqliteRepository.open(db_path)
    yield repository
    await repository.close()


@pytest.fixture
def render() -> FakeRender:
    return FakeRender()


@pytest.fixture
def service(repo: SqliteRepository, clock: FakeClock, render: FakeRender) -> GameService:
    return GameService(repo, clock=clock, render=render, engine_for=engine_for)
