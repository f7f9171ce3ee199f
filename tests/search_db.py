"""A throwaway library database for the search tests: sqlean + sqlite-vec, the index schema (with the vector index's change counter) and a tiny items table.

The store's real engine loads sqlite-vec on every connection the same way; ``items``
stands in for its path→sha256 table.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import sqlean
import sqlite_vec
from sqlalchemy import Engine, create_engine, event, text

import app.store
from app.store import search_schema, vector_index
from app.store.search_queries import CurrentContent

CURRENT = CurrentContent("items")


def open_engine(path) -> Engine:
    """An engine on an existing library file (a second process's view of it)."""
    engine = create_engine(f"sqlite:///{path}", module=sqlean)

    @event.listens_for(engine, "connect")
    def _load(dbapi_connection, _record):
        dbapi_connection.enable_load_extension(True)
        sqlite_vec.load(dbapi_connection)
        dbapi_connection.enable_load_extension(False)

    return engine


def make_engine(path) -> Engine:
    engine = open_engine(path)
    with engine.begin() as conn:
        for statement in [*search_schema.SCHEMA, *search_schema.IMAGE_NAME_SCHEMA, *vector_index.CHANGES_SCHEMA,
                          *search_schema.PASSAGE_SCHEMA, *search_schema.TRANSLATION_SCHEMA, *search_schema.CJK_SCHEMA,
                          *vector_index.change_triggers("passage", search_schema.PASSAGE_TABLE)]:
            conn.exec_driver_sql(statement)
        conn.exec_driver_sql("CREATE TABLE items (path TEXT PRIMARY KEY, sha256 TEXT NOT NULL)")
    return engine


def set_item(conn, path: str, sha: str) -> None:
    """Record that ``path`` now holds content ``sha``."""
    conn.execute(text("INSERT OR REPLACE INTO items (path, sha256) VALUES (:p, :s)"), {"p": path, "s": sha})


def run_revision(conn: Any, file_name: str) -> None:
    """Run one schema revision's ``upgrade`` on ``conn`` (later revisions already ran: replaying the chain cannot)."""
    from alembic.migration import MigrationContext
    from alembic.operations import Operations

    path = Path(app.store.__file__).parent / "alembic" / "versions" / file_name
    spec = importlib.util.spec_from_file_location(f"revision_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with Operations.context(MigrationContext.configure(conn)):
        module.upgrade()
