"""What differs between the two backends of the library database, in one place.

The repositories are SQLAlchemy Core and run unchanged on SQLite and PostgreSQL; the
few things the two spell differently (the migration lock, reading a JSON field,
locking a claim row, an insert-or-replace, the integrity check, whether the search
index exists) are asked here, so no repository tests the dialect name itself.

Write transactions: SQLite keeps one writer at a time (WAL, ``BEGIN IMMEDIATE``): its
ceiling is one transaction at a time, measured by ``bench/engine.py``. PostgreSQL
write transactions run side by side: each locks only the rows it changes, in the one
order :mod:`app.store.row_locks` documents (job → item → stage → step), so no two can
deadlock; the change counter is per-job deltas (:mod:`app.store.change_counter`), not
a hot row. Only a schema upgrade takes one advisory lock (two engines opening a new
library migrate it once), and writes to the search index take one of their own
(:func:`take_search_lock`).

Read transactions: on SQLite (WAL) a read transaction sees one snapshot; PostgreSQL's
default (READ COMMITTED) gives each statement a fresh one, so a read of several
statements could see a stage neither runnable (first statement) nor running (second,
after a commit requeued it) and call a busy library idle. Reads there run at
REPEATABLE READ: one snapshot, and a read-only transaction never fails serialisation.
"""

from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy import Connection, Engine, Select, Table, func, insert, literal_column, select
from sqlalchemy.dialects.postgresql import JSON
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.sql.elements import ColumnElement

from app.shown_names import escape


SQLITE = "sqlite"

WRITE_OPTION = "sidecar_write"
"""Execution option marking a write transaction (``BEGIN IMMEDIATE`` on SQLite)."""

MIGRATION_LOCK_KEY = 0x51DECA12
"""The advisory lock a PostgreSQL schema upgrade holds (any constant every Sidecar agrees on)."""


def is_sqlite(bind: Connection | Engine) -> bool:
    return bind.dialect.name == SQLITE


def snapshot_reads(conn: Connection) -> Connection:
    """``conn`` with its read transactions seeing one snapshot, as on SQLite (see the module's docstring)."""
    if is_sqlite(conn):
        return conn
    return conn.execution_options(isolation_level="REPEATABLE READ")


def take_migration_lock(conn: Connection) -> None:
    """Serialise schema upgrades of one library (SQLite did at ``BEGIN IMMEDIATE``)."""
    if not is_sqlite(conn):
        conn.execute(func.pg_advisory_xact_lock(MIGRATION_LOCK_KEY).select())


SEARCH_LOCK_KEY = 0x51DECA13
"""The advisory lock a PostgreSQL transaction holds while it writes the search index (see :func:`take_search_lock`)."""


def take_search_lock(conn: Connection) -> None:
    """Serialise writes to the search index with each other (only those: claims and completions do not wait).

    The index's change log numbers its rows ``max(seq) + 1`` and the in-process vector
    indexes read it in that order, which holds only when one writer appends at a time;
    its word statistics are one row per table. Taken last in the lock order of
    :mod:`app.store.row_locks` (after any job, item, stage or step row), and before any
    search row is written, so it closes no wait-for cycle. SQLite has one writer anyway.
    """
    if not is_sqlite(conn):
        conn.execute(func.pg_advisory_xact_lock(SEARCH_LOCK_KEY).select())


def lock_claim(conn: Connection, query: Select[Any], table: Any) -> Select[Any]:
    """The claim's candidate query, locking ``table``'s row it picks on PostgreSQL and skipping rows others hold.

    ``FOR NO KEY UPDATE``: the lock the claim's own UPDATE takes anyway, so adding rows
    that refer to it (their foreign key's ``KEY SHARE``) never waits on a claim.
    """
    if is_sqlite(conn):
        return query
    return query.with_for_update(skip_locked=True, of=table, key_share=True)


def walk_in_index_order(conn: Connection) -> None:
    """Have PostgreSQL answer this transaction's ``ORDER BY … LIMIT`` queries by walking an index, never by sorting.

    Why: a claim wants the first runnable stage in claim order, which its partial index
    holds in order; reading the first entries costs the same at 10k and 1M stages. With
    no statistics yet (a bulk add, before autovacuum's ``ANALYZE``) the planner guessed
    one queued stage and read and sorted all of them instead: ~200 ms per claim at 100k,
    430 ms measured in one ``EXPLAIN ANALYZE``. Forbidding the sort leaves the walk as
    the only plan, whatever the statistics say. SQLite's planner is steered by
    :func:`common_condition`. ``SET LOCAL`` ends with the transaction.
    """
    if not is_sqlite(conn):
        conn.exec_driver_sql("SET LOCAL enable_sort = off")


def insert_many(conn: Connection, table: Table, rows: Sequence[dict[str, Any]], ids_by: str | None = None) -> list[int]:
    """Insert ``rows`` (each with the same columns); with ``ids_by`` return their new ids in row order.

    For an add's thousands of rows per transaction. PostgreSQL takes them by ``COPY``
    (ids drawn first from the table's identity): a multi-row INSERT there costs more to
    parse in psycopg than to run, and ``executemany`` is a statement per row. SQLite
    takes rows without ids by the driver's own ``executemany`` of one prepared INSERT:
    through SQLAlchemy, building each row's parameters cost more than SQLite's insert
    (profile of a 20k-file add: 4 s of 13 in ``construct_params``, ``_init_compiled``
    and the escaping hook, for 80k stage rows). Both bypass the cursor hook that
    escapes bound text, so their texts are escaped here (:func:`app.shown_names.escape`).
    With ``ids_by``, SQLite inserts many rows per statement with RETURNING, in no
    promised order: ``ids_by`` names a column unique among ``rows`` that matches each
    id to its row.
    """
    if not rows:
        return []
    if is_sqlite(conn):
        if ids_by is None:
            columns = list(rows[0])
            cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]  # in this transaction
            try:
                cursor.executemany(f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES "
                                   f"({', '.join('?' * len(columns))})",
                                   [[escape(str(v)) if isinstance(v, str) else v for v in row.values()] for row in rows])
            finally:
                cursor.close()
            return []
        key = table.c[ids_by]
        by_key = {k: int(i) for i, k in conn.execute(insert(table).returning(table.c.id, key), list(rows))}
        return [by_key[row[ids_by]] for row in rows]
    ids: list[int] = []
    if ids_by is not None:
        ids = list(conn.execute(select(func.nextval(func.pg_get_serial_sequence(table.name, "id")))
                                .select_from(func.generate_series(1, len(rows)))).scalars())
    columns = (["id"] if ids else []) + list(rows[0])
    cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]  # psycopg's, in this transaction
    with cursor, cursor.copy(f"COPY {table.name} ({', '.join(columns)}) FROM STDIN") as copy:
        for n, row in enumerate(rows):
            values = [escape(str(v)) if isinstance(v, str) else v for v in row.values()]
            copy.write_row([ids[n], *values] if ids else values)
    return ids


def insert_missing(conn: Connection, table: Table, values: dict[str, Any]) -> None:
    """Insert ``values`` unless a row with the same key exists (one statement: two writers never collide)."""
    stmt = (sqlite_insert if is_sqlite(conn) else postgresql_insert)(table).values(**values)
    conn.execute(stmt.on_conflict_do_nothing())


def upsert(conn: Connection, table: Table, values: dict[str, Any], keys: Sequence[str]) -> None:
    """Insert ``values``, or replace the row with the same ``keys`` (one statement: two writers never collide)."""
    stmt = (sqlite_insert if is_sqlite(conn) else postgresql_insert)(table).values(**values)
    conn.execute(stmt.on_conflict_do_update(index_elements=list(keys),
                                            set_={k: v for k, v in values.items() if k not in keys}))


def common_condition(sqlite: bool, cond: ColumnElement[bool]) -> ColumnElement[bool]:
    """``cond``, told to SQLite's planner as true of most rows, so it does not pick an index on it.

    SQLite, never ``ANALYZE``d, takes an equality on an indexed column for selective: for
    the claim's ``status = 'queued'`` it read every queued stage through ``stages_status``
    and sorted them, instead of the first entries of the partial index in claim order.
    ``likelihood()`` changes only that estimate (and still implies the partial index's WHERE).
    PostgreSQL keeps statistics and has no such function.
    """
    return func.likelihood(cond, literal_column("0.9")) if sqlite else cond  # a constant: SQLite refuses a bound one


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

