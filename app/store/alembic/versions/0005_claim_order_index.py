"""Claims through an index: a stage row carries its item's group and ordinal, and queued stages are indexed in claim order.

The claim takes the first runnable stage ordered by (job, group, stage index, ordinal),
CPU stages deepest first. Group and ordinal lived on the item, so neither SQLite nor
PostgreSQL could read the queue in that order from an index: each claim joined and
sorted every queued stage (~40 ms at 2k items, ~100 ms at 20k). Copied onto the stage
row (they never change after an add), the order is one partial index over queued
stages only, in each direction, and a claim reads its first few entries.

Revision ID: 0005_claim_index
Revises: 0004_change_deltas
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

from app.errors import DowngradeRefused

revision = "0005_claim_index"
down_revision = "0004_change_deltas"
branch_labels = None
depends_on = None

SCHEMA = [
    "ALTER TABLE stages ADD COLUMN grp INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE stages ADD COLUMN ordinal INTEGER NOT NULL DEFAULT 0",
    "UPDATE stages SET grp = (SELECT grp FROM items WHERE items.id = stages.item_id), "
    "ordinal = (SELECT ordinal FROM items WHERE items.id = stages.item_id)",
    # GPU stages and a scope-free look: shallowest first. CPU stages: deepest first.
    "CREATE INDEX stages_claim ON stages(job_id, grp, idx, ordinal, item_id, retry_at, gpu_mb) WHERE status = 'queued'",
    "CREATE INDEX stages_claim_deepest ON stages(job_id, grp, idx DESC, ordinal, item_id, retry_at, gpu_mb) "
    "WHERE status = 'queued'",
]


def upgrade() -> None:
    conn = op.get_bind()
    for statement in SCHEMA:
        conn.exec_driver_sql(statement)


def downgrade() -> None:
    raise DowngradeRefused("the library database only moves forward")
