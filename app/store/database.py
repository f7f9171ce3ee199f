"""The store's handle on the library database: short read and write transactions."""

from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from sqlalchemy import Connection

from app.store.clock import Clock, engine_now
from app.store.sqlite_engine import WRITE_OPTION, open_engine
from app.store.migrations import upgrade

_guard_local = threading.local()


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def loads(value: str | None) -> Any:
    return None if value is None else json.loads(value)


class Database:
    """Owns the SQLAlchemy engine; every store call is one short transaction from here.

    ``thread_guard`` lets the GUI forbid store access on its own thread: the guard is
    called at every transaction start and raises there.
    """

    thread_guard: Callable[[], None] | None = None

    def __init__(self, path: Path, clock: Clock = time.time):
        self.path = path
        self.clock = clock
        self.engine = open_engine(path)
        self.schema_version = upgrade(self.engine)

    def _check_thread(self) -> None:
        if Database.thread_guard is not None:
            Database.thread_guard()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        self._check_thread()
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A ``BEGIN IMMEDIATE`` transaction: it holds SQLite's write lock, so keep it short."""
        self._check_thread()
        with self.engine.connect().execution_options(**{WRITE_OPTION: True}) as conn, conn.begin():
            yield conn

    def now(self) -> float:
        """The database's clock (app.store.clock): leases written by several machines compare on it."""
        return engine_now(self.engine, self.clock)

    def close(self) -> None:
        self.engine.dispose()
