"""No hot job row on PostgreSQL: the change counter becomes per-job deltas, summed on read.

Until now each trigger bumped ``jobs.change_count``, so every stage or item change of a
job also locked that job's row: with PostgreSQL writers no longer serialised by one
advisory lock (issue 25), every worker's claim and completion would queue on it, and a
claim (stage, then job) against a cancel (job, then stages) could deadlock. Now the
triggers append ``(job_id, 1)`` to ``job_changes`` — an insert locks no existing row —
and a job's counter is ``sum(delta)`` of its rows (:mod:`app.store.change_counter`),
which compacts old rows into one without changing any sum. The job's own
``change_count`` is carried over as its first delta and no longer written. SQLite keeps
its triggers (one writer at a time, nothing to contend on).

Revision ID: 0004_change_deltas
Revises: 0003_no_text_vector
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

from app.errors import DowngradeRefused

revision = "0004_change_deltas"
down_revision = "0003_no_text_vector"
branch_labels = None
depends_on = None

POSTGRES_SCHEMA = [
    # No foreign key: a key check would share-lock the job row, the very thing avoided here.
    "CREATE TABLE job_changes (job_id BIGINT NOT NULL, delta BIGINT NOT NULL)",
    "CREATE INDEX job_changes_job ON job_changes(job_id)",
    "INSERT INTO job_changes (job_id, delta) SELECT id, change_count FROM jobs WHERE change_count > 0",
    *[f"""CREATE OR REPLACE FUNCTION sidecar_{name}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO job_changes (job_id, delta) VALUES ({job}, 1);
            RETURN NULL;
        END $$"""
      for name, job in (("job_changed", "NEW.id"), ("job_row_changed", "NEW.job_id"),
                        ("step_changed", "(SELECT job_id FROM items WHERE id = NEW.item_id)"))],
]


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        return
    for statement in POSTGRES_SCHEMA:
        conn.exec_driver_sql(statement)


def downgrade() -> None:
    raise DowngradeRefused("the library database only moves forward")
