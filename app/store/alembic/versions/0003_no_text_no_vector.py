"""Images without text lose their e5 text vector (both backends).

An image in which OCR read no letter or digit used to get the e5 passage vector of its
(empty, or tags-only) document, and that vector sits near every query: a black frame was
the first answer to "Rechnung", "China" and "cheap price". New images without text get
no text vector (:func:`app.store.search_writes.has_text`); this revision removes the ones
stored before, so existing libraries stop returning them. Each changed base row is
touched, so the change-counter triggers tell every in-process vector index
(app.store.vector_index) to drop the vector too; the row itself, its words and its CLIP
vector stay: the image is still found by its name, EXIF and CLIP.

Revision ID: 0003_no_text_vector
Revises: 0002_pg_search
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import inspect, text

from app.errors import DowngradeRefused
from app.store.search_writes import has_text

revision = "0003_no_text_vector"
down_revision = "0002_pg_search"
branch_labels = None
depends_on = None

CHUNK = 1000


def upgrade() -> None:
    conn = op.get_bind()
    if not inspect(conn).has_table("search_image"):
        return
    ids = [row.id for row in conn.execute(text("SELECT id, ocr_text FROM search_image")) if not has_text(row.ocr_text or "")]
    for start in range(0, len(ids), CHUNK):
        params = [{"id": row_id} for row_id in ids[start:start + CHUNK]]
        conn.execute(text("DELETE FROM search_image_text_vec WHERE rowid = :id"), params)
        conn.execute(text("UPDATE search_image SET indexed_at = indexed_at WHERE id = :id"), params)


def downgrade() -> None:
    raise DowngradeRefused("the library database only moves forward")
