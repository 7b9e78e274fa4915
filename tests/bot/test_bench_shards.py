"""make bench-shards runs end to end (tiny sizes) on each backend: both tables of
docs/DEPLOY.md come out. The PostgreSQL run works in databases it creates on the session's
real server (given as ``LUDO_DATABASE``) and drops them."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot import bench_shards
from tests.bot.conftest import both_backends


@both_backends
def test_tiny_bench_measures_both_tables(backend: str, request: pytest.FixtureRequest,
                                         monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("LUDO_DATABASE", raising=False)
    if backend == "postgresql":
        server = request.getfixturevalue("postgres_server")
        monkeypatch.setenv("LUDO_DATABASE", server.dsn())
    assert bench_shards.main(["--tiny", "--backend", backend]) == 0
    out = capsys.readouterr().out
    assert ("PostgreSQL (the server of LUDO_DATABASE)" if backend == "postgresql"
            else "SQLite (one file, WAL)") in out
    rows = [line.split("|")[1:-1] for line in out.splitlines() if line.startswith("| ")
            and line.split("|")[2].strip()[:1].isdigit()]
    label = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}[backend]
    assert {r[0].strip() for r in rows} == {label}
    assert [int(r[1]) for r in rows[:2]] == [1, 2]  # processes
    assert all(float(r[4]) > 0 for r in rows[:2])  # moves per second
    assert rows[2][1].strip() == "100"  # the stored-games row
    assert float(rows[2][3]) > 0  # move p50 (ms)
    if backend == "postgresql":
        assert bench_databases(server.dsn()) == []  # every bench database dropped


def bench_databases(dsn: str) -> list[str]:
    """The ``ludo_bench_…`` databases left on the server."""

    async def names() -> list[str]:
        conn = await asyncpg.connect(dsn)
        try:
            return [r[0] for r in await conn.fetch(
                "SELECT datname FROM pg_database WHERE datname LIKE 'ludo_bench_%'")]
        finally:
            await conn.close()

    return asyncio.run(names())
