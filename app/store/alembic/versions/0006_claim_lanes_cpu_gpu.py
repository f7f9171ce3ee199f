"""Claims through an index per lane: queued CPU stages and queued GPU stages each have their own partial index.

``0005_claim_index`` put every queued stage into one index per direction, with
``gpu_mb`` as a trailing column, so a CPU claim walked past every queued GPU stage
ahead of the first CPU one (and a GPU claim past every CPU stage). A library of
photos waiting for OCR on a machine with no GPU worker awake had all of them ahead
of the next CPU stage: every CPU claim read the whole GPU queue. Each lane's own
partial index (``gpu_mb = 0`` deepest first, ``gpu_mb > 0`` shallowest first) holds
only the stages that lane may claim; ``stages_claim`` (every queued stage, shallowest
first) stays for the either-lane look (``gpu=None``: is anything runnable at all).

A GPU claim also asks whether an earlier GPU stage of its group is unfinished; that
read every unfinished stage of the job (120 ms per claim at 100k items). The group is
on the stage row since ``0005``, so ``stages_gpu_group`` answers it from a few rows.

Revision ID: 0006_claim_lanes
Revises: 0005_claim_index
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

from app.errors import DowngradeRefused

revision = "0006_claim_lanes"
down_revision = "0005_claim_index"
branch_labels = None
depends_on = None

SCHEMA = [
    "DROP INDEX stages_claim_deepest",
    # Without gpu_mb: SQLite took the one covering index for a GPU claim and walked CPU stages too.
    "DROP INDEX stages_claim",
    "CREATE INDEX stages_claim ON stages(job_id, grp, idx, ordinal, item_id, retry_at) WHERE status = 'queued'",
    "CREATE INDEX stages_claim_cpu ON stages(job_id, grp, idx DESC, ordinal, item_id, retry_at) "
    "WHERE status = 'queued' AND gpu_mb = 0",
    "CREATE INDEX stages_claim_gpu ON stages(job_id, grp, idx, ordinal, item_id, retry_at, gpu_mb) "
    "WHERE status = 'queued' AND gpu_mb > 0",
    "CREATE INDEX stages_gpu_group ON stages(job_id, grp, idx) WHERE gpu_mb > 0",
]


def upgrade() -> None:
    conn = op.get_bind()
    for statement in SCHEMA:
        conn.exec_driver_sql(statement)


def downgrade() -> None:
    raise DowngradeRefused("the library database only moves forward")
