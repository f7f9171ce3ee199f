"""A character table beside each trigram table, so a 1–2 character CJK term (猫, 东京) is an index lookup, not a scan.

Adds ``search_image_cjk``, ``search_image_name_cjk`` and ``search_cue_cjk``
(``app.store.search_schema.CJK_SCHEMA``) on SQLite and fills them from the texts already
indexed, so an existing library finds short terms through them at once; new rows are
written with their word tables (``app.store.search_writes``). PostgreSQL answers such
terms from its trigram index already: nothing changes there.

Revision ID: 0009_cjk_characters
Revises: 0008_translations
Create Date: 2026-12-08
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import text

from app.errors import DowngradeRefused
from app.store.search_schema import CJK_SCHEMA, CJK_TABLES
from app.store.search_writes import index_cjk_characters

revision = "0009_cjk_characters"
down_revision = "0008_translations"
branch_labels = None
depends_on = None

CHUNK = 5_000


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name != "sqlite":
        return
    for statement in CJK_SCHEMA:
        conn.exec_driver_sql(statement)
    for base, columns in CJK_TABLES.items():
        last = 0
        while True:
            rows = conn.execute(text(f"SELECT id, {', '.join(columns)} FROM {base} WHERE id > :last ORDER BY id LIMIT :n"),
                                {"last": last, "n": CHUNK}).all()
            if not rows:
                break
            index_cjk_characters(conn, base, [(row.id, {name: getattr(row, name) for name in columns}) for row in rows])
            last = rows[-1].id


def downgrade() -> None:
    raise DowngradeRefused("the library database only moves forward")
