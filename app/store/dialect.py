"""What differs between the two backends of the library database, in one place.

The repositories are SQLAlchemy Core and run unchanged on SQLite and PostgreSQL; the
few things the two spell differently (taking the write lock, reading a JSON field,
locking a claim row, the integrity check, whether the search index exists) are asked
here, so no repository tests the dialect name itself.

Write transactions: SQLite serialises writers with ``BEGIN IMMEDIATE``; on PostgreSQL
every write transaction takes one transaction-scoped advisory lock first. The store's
check-then-insert writes and its change-counter triggers (a stage or item update bumps
its job's row) were written for one writer at a time; with rows locked in whatever
order each transaction touches them, a claim (stage, then job) and a cancel (job, then
stages) could deadlock. One lock taken first is a consistent lock order by construction.
Reads never take it.

Read transactions: on SQLite (WAL) a read transaction sees one snapshot; PostgreSQL's
default (READ COMMITTED) gives each statement a fresh one, so a read of several
statements could see a stage neither runnable (first statement) nor running (second,
after a commit requeued it) and call a busy library idle. Reads there run at
REPEATABLE READ: one snapshot, and a read-only transaction never fails serialisation.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, Select, func
from sqlalchemy.dialects.postgresql import JSON
from sqlalchemy.sql.elements import ColumnElement


SQLITE = "sqlite"
POSTGRESQL = "postgresql"

WRITE_OPTION = "sidecar_write"
"""Execution option marking a write transaction (``BEGIN IMMEDIATE`` on SQLite)."""

WRITE_LOCK_KEY = 0x51DECA12
"""The advisory lock every PostgreSQL write transaction holds (any constant both sides agree on)."""


def is_sqlite(bind: Connection | Engine) -> bool:
    return bind.dialect.name == SQLITE


def snapshot_reads(conn: Connection) -> Connection:
    """``conn`` with its read transactions seeing one snapshot, as on SQLite (see the module's docstring)."""
    if is_sqlite(conn):
        return conn
    return conn.execution_options(isolation_level="REPEATABLE READ")


def take_write_lock(conn: Connection) -> None:
    """Serialise this write transaction with every other one (SQLite did at ``BEGIN IMMEDIATE``)."""
    if not is_sqlite(conn):
        conn.execute(func.pg_advisory_xact_lock(WRITE_LOCK_KEY).select())


def lock_claim(conn: Connection, query: Select[Any], table: Any) -> Select[Any]:
    """The claim's candidate query, locking the row it picks on PostgreSQL and skipping rows others hold."""
    if is_sqlite(conn):
        return query
    return query.with_for_update(skip_locked=True, of=table)


def json_field(conn: Connection, column: Any, key: str) -> ColumnElement[Any]:
    """``column``'s top-level ``key`` as SQL reads it: numbers as numbers, objects and lists as JSON."""
    if is_sqlite(conn):
        return func.json_extract(column, f"$.{key}")
    return column.cast(JSON()).op("->")(key)


def integrity_check(conn: Connection) -> str:
    """``ok`` when the database answers its own consistency check (PostgreSQL checks pages itself)."""
    if is_sqlite(conn):
        return str(conn.exec_driver_sql("PRAGMA integrity_check").scalar_one())
    return "ok" if conn.exec_driver_sql("SELECT 1").scalar_one() == 1 else "unreachable"

