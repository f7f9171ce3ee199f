"""The store's handle on the library database: short read and write transactions, on SQLite or PostgreSQL."""

from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from sqlalchemy import Connection, CursorResult, Engine
from sqlalchemy.exc import DBAPIError

from app.errors import DatabaseUnavailable
from app.store import postgres_engine, sqlite_engine
from app.store.clock import Clock, engine_now
from app.store.dialect import WRITE_OPTION, snapshot_reads
from app.store.migrate import upgrade_to_head

_guard_local = threading.local()


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def loads(value: str | None) -> Any:
    return None if value is None else json.loads(value)


def inserted_id(result: CursorResult[Any]) -> int:
    """The primary key a one-row INSERT created (SQLAlchemy types it optional: a many-row insert has none)."""
    key = result.inserted_primary_key
    if key is None:
        raise RuntimeError("the insert reported no primary key")
    return int(key[0])


def open_location(location: Path | str) -> Engine:
    """The engine for a SQLite file (a Path) or a PostgreSQL URL (a string)."""
    if isinstance(location, Path):
        return sqlite_engine.open_engine(location)
    return postgres_engine.open_engine(location)


class Database:
    """Owns the SQLAlchemy engine; every store call is one short transaction from here.

    ``thread_guard`` lets the GUI forbid store access on its own thread: the guard is
    called at every transaction start and raises there.
    """

    thread_guard: Callable[[], None] | None = None

    def __init__(self, location: Path | str, clock: Clock = time.time):
        """``location`` is a SQLite file or a PostgreSQL URL (app.store.location decides which)."""
        self.location = location
        self.clock = clock
        self.engine = open_location(location)
        self.schema_version = upgrade_to_head(self.engine)

    def _check_thread(self) -> None:
        if Database.thread_guard is not None:
            Database.thread_guard()

    @contextmanager
    def _reachable(self) -> Iterator[None]:
        """Turn a PostgreSQL server out of reach into ``database_unavailable`` (transient, typed).

        The transaction is gone with its connection (nothing it wrote committed), and the
        pool reconnects on the next call; callers decide whether to wait or give up.
        """
        try:
            yield
        except DBAPIError as exc:
            if isinstance(self.location, str) and postgres_engine.unreachable(exc):
                raise DatabaseUnavailable(f"the library database cannot be reached: {exc.orig}") from exc
            raise

    @contextmanager
    def read(self) -> Iterator[Connection]:
        self._check_thread()
        with self._reachable(), self.engine.connect() as conn, snapshot_reads(conn).begin():
            yield conn

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: SQLite's one writer (``BEGIN IMMEDIATE``), so keep it short.

        On PostgreSQL it takes no lock of its own: the rows it changes are locked in
        :mod:`app.store.row_locks`' order, and writers of other rows run alongside.
        """
        self._check_thread()
        with self._reachable(), self.engine.connect().execution_options(**{WRITE_OPTION: True}) as conn, conn.begin():
            yield conn

    def now(self) -> float:
        """The database's clock (app.store.clock): leases written by several machines compare on it."""
        with self._reachable():
            return engine_now(self.engine, self.clock)

    def close(self) -> None:
        self.engine.dispose()
