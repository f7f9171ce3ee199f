"""Each job's change counter, which a viewer compares to know which jobs to read again.

SQLite keeps it on the job row (``jobs.change_count``, bumped by triggers: one writer
at a time, so nothing contends). PostgreSQL keeps per-job deltas in ``job_changes``
(revision ``0004_change_deltas``): a trigger appends a row per change, which locks no
existing row, so workers changing stages of one job never queue on its job row, and the
counter is the sum of the job's deltas. The sum only grows with commits (a count by
row id would not: ids are handed out before commit order is known).
:func:`compact` folds a job's rows into one with the same sum.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger, Column, Connection, MetaData, Select, Table, func, select, text

from app.store.dialect import is_sqlite
from app.store.tables import jobs

job_changes = Table("job_changes", MetaData(), Column("job_id", BigInteger), Column("delta", BigInteger))

COMPACT_BATCH = 10_000
"""Delta rows folded per :func:`compact` call: one short transaction however far behind it is."""


def counters(conn: Connection) -> Select[Any]:
    """(job id, change counter) of every job."""
    if is_sqlite(conn):
        return select(jobs.c.id, jobs.c.change_count)
    total = (select(func.coalesce(func.sum(job_changes.c.delta), 0)).where(job_changes.c.job_id == jobs.c.id)
             .scalar_subquery())
    return select(jobs.c.id, total)


def compact(conn: Connection) -> int:
    """Fold up to :data:`COMPACT_BATCH` delta rows into one row per job (PostgreSQL); returns rows folded.

    Inside the caller's write transaction: the rows are deleted and their sums inserted
    together, so every reader sees the same counters before and after. ``SKIP LOCKED``:
    rows another compaction is folding are left to it (no wait, no double count).
    """
    if is_sqlite(conn):
        return 0
    folded = conn.execute(text(
        "WITH gone AS (DELETE FROM job_changes WHERE ctid IN ("
        "  SELECT ctid FROM job_changes LIMIT :batch FOR UPDATE SKIP LOCKED) RETURNING job_id, delta),"
        " summed AS (INSERT INTO job_changes (job_id, delta) SELECT job_id, sum(delta) FROM gone GROUP BY job_id"
        " RETURNING 1)"
        " SELECT count(*) FROM gone"), {"batch": COMPACT_BATCH}).scalar_one()
    return int(folded)
