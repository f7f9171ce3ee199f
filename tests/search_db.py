"""A throwaway library database for the search tests: sqlean + sqlite-vec, the index schema and a tiny items table.

The store's real engine loads sqlite-vec on every connection the same way; ``items``
stands in for its path→sha256 table.
"""

from __future__ import annotations

import sqlean
import sqlite_vec
from sqlalchemy import Engine, create_engine, event, text

from app.store import search_schema
from app.store.search_queries import CurrentContent

CURRENT = CurrentContent("items")


def make_engine(path) -> Engine:
    engine = create_engine(f"sqlite:///{path}", module=sqlean)

    @event.listens_for(engine, "connect")
    def _load(dbapi_connection, _record):
        dbapi_connection.enable_load_extension(True)
        sqlite_vec.load(dbapi_connection)
        dbapi_connection.enable_load_extension(False)

    with engine.begin() as conn:
        for statement in search_schema.SCHEMA + search_schema.IMAGE_NAME_SCHEMA:
            conn.exec_driver_sql(statement)
        conn.exec_driver_sql("CREATE TABLE items (path TEXT PRIMARY KEY, sha256 TEXT NOT NULL)")
    return engine


def set_item(conn, path: str, sha: str) -> None:
    """Record that ``path`` now holds content ``sha``."""
    conn.execute(text("INSERT OR REPLACE INTO items (path, sha256) VALUES (:p, :s)"), {"p": path, "s": sha})
