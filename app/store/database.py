"""The store's handle on the library database: short read and write transactions, on SQLite or PostgreSQL."""

from __future__ import annotations

import json
import re
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from sqlalchemy import Connection, CursorResult, Engine
from sqlalchemy.exc import DBAPIError

from app.errors import DatabaseUnavailable, DatabaseUnusable
from app.store import postgres_engine, sqlite_engine
from app.store.byte_text import escape_bound_text
from app.store.clock import Clock, FollowedClock, engine_now
from app.store.dialect import WRITE_OPTION, snapshot_reads
from app.store.migrate import upgrade_to_head

_guard_local = threading.local()


def one_line(error: BaseException | None) -> str:
    """A driver's message on one line (psycopg's spans several, indented), without OS error numbers
    (``[Errno -2]``): people read it in a status line or a dialog."""
    return " ".join(re.sub(r"\[Errno -?\d+\]\s*", "", str(error)).split())


def dumps(value: Any) -> str:
    """Compact, stable JSON; a file name's undecodable bytes (lone surrogates) become ``\\udcXX`` escapes.

    Non-ASCII text stays readable, but a lone surrogate is not valid text for any
    database: that one value is written with ASCII escapes, which ``json.loads`` turns
    back into the same surrogates (so the exact bytes of the name).
    """
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return text


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
    engine = sqlite_engine.open_engine(location) if isinstance(location, Path) else postgres_engine.open_engine(location)
    escape_bound_text(engine)
    return engine


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
        self._server_clock = None if isinstance(location, Path) else FollowedClock(lambda: engine_now(self.engine, clock))
        try:
            with self._reachable():
                self.schema_version = upgrade_to_head(self.engine)
        except DBAPIError as exc:
            # Reached, but not a library it can open (no such database, a failed login
            # that is not transient): the reason in one line, as the CLI and Settings show it.
            self.engine.dispose()
            raise DatabaseUnusable(f"the library database cannot be opened: {one_line(exc.orig)}") from exc
        except BaseException:
            self.engine.dispose()
            raise

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
                raise DatabaseUnavailable(f"the library database cannot be reached: {one_line(exc.orig)}") from exc
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
            return engine_now(self.engine, self.clock) if self._server_clock is None else self._server_clock()

    def close(self) -> None:
        self.engine.dispose()
