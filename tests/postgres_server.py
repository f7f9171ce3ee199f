"""A throwaway PostgreSQL 15 cluster for the tests: ``initdb`` + ``pg_ctl`` in a temp dir.

Why this shape: the tests need a real server (claims with ``FOR UPDATE SKIP LOCKED``,
``pg_terminate_backend``, the server's clock), nothing outside 127.0.0.1, and no state
left behind. PostgreSQL refuses to run as root, and CI runs as root, so the cluster is
owned by and run as an unprivileged user (``postgres`` where the Debian package made
one, else ``nobody``) through ``setpriv``. Each test gets its own database in the one
cluster the session starts, so tests stay independent without paying an ``initdb`` each.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

BIN_DIRS = [Path(f"/usr/lib/postgresql/{v}/bin") for v in (17, 16, 15)]


def postgres_bin(name: str) -> str:
    """The path of a server program: Debian keeps them out of PATH, under its version folder."""
    for folder in BIN_DIRS:
        if (folder / name).exists():
            return str(folder / name)
    found = shutil.which(name)
    if found is None:
        raise FileNotFoundError(f"{name} not found: install PostgreSQL (scripts/setup-system)")
    return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PostgresCluster:
    """One server on 127.0.0.1 at a free port, owned by an unprivileged user."""

    def __init__(self) -> None:
        self.user = "postgres" if _has_user("postgres") else "nobody"
        self.root = Path(tempfile.mkdtemp(prefix="sidecar-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._run_as_owner: list[str] = []
        if os.geteuid() == 0:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
            self._run_as_owner = ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}",
                                  "--clear-groups", "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self._run_as_owner, *args], check=True, cwd=self.root,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def start(self) -> "PostgresCluster":
        self._run(postgres_bin("initdb"), "-D", str(self.data), "-U", "sidecar", "--auth=trust",
                  "--encoding=UTF8", "--locale=C.UTF-8")
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories='{self.root}'"
                   " -c fsync=off -c max_connections=200")
        self._run(postgres_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.root / "server.log"),
                  "-o", options, "-w", "start")
        return self

    def stop(self) -> None:
        try:
            self._run(postgres_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://sidecar@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A fresh, empty database; returns its SQLAlchemy URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=sidecar dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise TimeoutError(f"PostgreSQL did not answer on port {self.port}")


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False
