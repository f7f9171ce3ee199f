"""One SQLite file in WAL mode with sqlite-vec on every connection.

``synchronous=FULL`` makes a committed claim or finished stage survive power loss;
``busy_timeout`` lets two engine processes share the file. Python's built-in sqlite3
cannot load extensions on some builds (pyenv's among them), so sqlean-py, which
ships SQLite with extension loading, is used there.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from types import ModuleType
from typing import Any

import sqlite_vec
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.pool import QueuePool

from app.store.dialect import WRITE_OPTION

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 30_000


def sqlite_module() -> ModuleType:
    """The DB-API module to use: built-in sqlite3 when it can load extensions, else sqlean."""
    probe = sqlite3.connect(":memory:")
    try:
        if hasattr(probe, "enable_load_extension"):
            try:
                probe.enable_load_extension(True)
                sqlite_vec.load(probe)
                return sqlite3
            except (sqlite3.OperationalError, AttributeError):
                pass
    finally:
        probe.close()
    import sqlean

    return sqlean


def open_engine(path: Path) -> Engine:
    """An engine whose every connection has WAL, FULL sync, foreign keys and sqlite-vec."""
    module = sqlite_module()
    engine = create_engine(
        f"sqlite:///{path}",
        module=module,
        poolclass=QueuePool,
        pool_size=8,
        max_overflow=16,
        connect_args={"timeout": BUSY_TIMEOUT_MS / 1000, "check_same_thread": False, "isolation_level": None},
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.enable_load_extension(True)
        sqlite_vec.load(dbapi_conn)
        dbapi_conn.enable_load_extension(False)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # A deferred BEGIN that later writes would upgrade its lock mid-transaction and
        # fail with SQLITE_BUSY instead of waiting, so write transactions take the write
        # lock up front (BEGIN IMMEDIATE); readers are never blocked in WAL mode.
        immediate = conn.get_execution_options().get(WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    log.debug("opened %s with %s", path, module.__name__)
    return engine
