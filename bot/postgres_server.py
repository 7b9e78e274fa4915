"""A real, throwaway PostgreSQL server, for the tests (``tests/conftest.py``) and the shards
benchmark (:mod:`bot.bench_shards`): ``initdb`` into a temporary directory, ``postgres``
listening on a unix socket there only, stopped and deleted at the end.

PostgreSQL refuses to run as root: run as root (CI), the server runs as the ``postgres``
system user (which the distribution's package creates), in a directory it owns.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

PORT = 5432  # only names the socket file: the server listens on no TCP port


def find_bindir() -> Path | None:
    """The directory holding ``initdb``, ``pg_ctl`` and ``postgres``, or None."""
    candidates: list[str] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        found = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        if found.returncode == 0:
            candidates.append(found.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(str(Path(initdb).parent))
    for candidate in candidates:
        path = Path(candidate)
        if all((path / name).exists() for name in ("initdb", "pg_ctl", "postgres")):
            return path
    return None


class PostgresServer:
    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="ludo-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._user: pwd.struct_passwd | None = None
        self._template_ready = False
        self._databases = 0
        if os.geteuid() == 0:
            self._user = pwd.getpwnam("postgres")
            os.chown(self.root, self._user.pw_uid, self._user.pw_gid)

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self._user is not None:
            command = ["runuser", "-u", self._user.pw_name, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            tail = self.log.read_text()[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr.strip()}\n{tail}")

    def start(self, *, durable: bool = False) -> None:
        """Create the cluster and start the server. Not ``durable`` (the tests): no fsync,
        which makes each test's database quick to create; ``durable`` (the benchmark): the
        server's defaults, each commit flushed to disk as in a deployment."""
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "--encoding=UTF8", "--locale=C", "--no-sync")
        options = (f"-c listen_addresses='' -c unix_socket_directories='{self.root}' "
                   f"-p {PORT} -c max_connections=200")
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                  "-t", "120", "start")

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.root}&port={PORT}"

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    async def create_database(self, *, migrated: bool = True) -> str:
        """A new empty database (``migrated``: with the bot's schema, copied from a
        template migrated once per session); returns its address."""
        from bot.core.storage.postgres import PostgresRepository

        if migrated and not self._template_ready:
            await self._admin("CREATE DATABASE ludo_template")
            repo = await PostgresRepository.open(self.dsn("ludo_template"))
            await repo.close()
            self._template_ready = True
        self._databases += 1
        name = f"test_{self._databases}"
        template = "ludo_template" if migrated else "template0"
        await self._admin(f"CREATE DATABASE {name} TEMPLATE {template}")
        return self.dsn(name)

    async def drop_database(self, dsn: str) -> None:
        """Drop a database made by :meth:`create_database` (each is a few megabytes: a
        session of hundreds of tests would otherwise fill the disk)."""
        name = urlsplit(dsn).path.lstrip("/")
        await self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    async def _admin(self, sql: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.dsn())
        try:
            await conn.execute(sql)
        finally:
            await conn.close()
