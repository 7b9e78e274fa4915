"""Shared pytest setup: the --runslow flag for soak runs, and a real PostgreSQL server for
the tests that run against both storage backends."""

import os
from collections.abc import Iterator

import pytest

from bot.postgres_server import PostgresServer, find_bindir

REQUIRE_POSTGRES = "LUDO_REQUIRE_POSTGRES"  # set by .ci/run: no server is a failure there


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="run slow soak tests")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow (make soak)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def _unavailable(reason: str) -> None:
    if os.environ.get(REQUIRE_POSTGRES) == "1":
        pytest.fail(f"{reason} ({REQUIRE_POSTGRES}=1)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server per test process (each pytest-xdist worker has its own, in its
    own directory), started on first use."""
    bindir = find_bindir()
    if bindir is None:
        _unavailable("PostgreSQL is not installed (no initdb/pg_ctl/postgres found via "
                     "pg_config or /usr/lib/postgresql/*/bin): the PostgreSQL runs are skipped")
    assert bindir is not None
    server = PostgresServer(bindir)
    try:
        server.start()
    except Exception as err:  # noqa: BLE001 - any failure to start means no server
        server.stop()
        _unavailable(f"the PostgreSQL server could not be started: {err}")
    yield server
    server.stop()
