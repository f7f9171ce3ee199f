"""Whether a library database URL leads to a library this Sidecar can open, checked without changing it.

Settings checks a URL when it is saved, and the app's start-up recovery checks the one the
person corrects, so a typo is caught while they still look at it rather than at the next
start. The probe connects and reads the schema revision only: an empty database is fine
(the first Sidecar that opens it creates the tables), one written by a newer Sidecar is
not. Failures are the store's typed errors, each with its reason in one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.exc import DBAPIError

from app.errors import Code, DatabaseUnavailable, DatabaseUnusable
from app.store import postgres_engine
from app.store.database import one_line, open_location
from app.store.location import database_location
from app.store.migrate import current_revision, head_revision, known_revision


@dataclass(frozen=True)
class DatabaseProbe:
    """What the URL leads to: the backend, and whether the library's tables exist there yet."""

    location: Path | str
    backend: str  # "sqlite" or "postgresql"
    revision: str | None  # None: an empty database (the tables are created when Sidecar opens it)
    current: bool  # the revision is this Sidecar's newest


def probe_database(data_dir: Path, url: str) -> DatabaseProbe:
    """Connect to the database ``url`` names (the data dir's SQLite file when empty) and read its schema.

    Raises ``bad_database_url`` (not a URL Sidecar speaks; a server without that database;
    a newer schema: ``database_too_new``) or ``database_unavailable`` (no server answers).
    """
    location = database_location(data_dir, url)
    if isinstance(location, Path) and not location.parent.is_dir():
        raise DatabaseUnusable(f"there is no folder {location.parent} for the SQLite library")
    if isinstance(location, Path) and not location.exists():
        return DatabaseProbe(location, "sqlite", None, False)  # a new local library: created at the next start
    engine = open_location(location)
    try:
        with engine.connect() as conn:
            revision = current_revision(conn)
    except DBAPIError as exc:
        if isinstance(location, str) and postgres_engine.unreachable(exc):
            raise DatabaseUnavailable(f"the library database cannot be reached: {one_line(exc.orig)}") from exc
        raise DatabaseUnusable(f"the library database cannot be opened: {one_line(exc.orig)}") from exc
    finally:
        engine.dispose()
    if revision is not None and not known_revision(revision):
        raise DatabaseUnusable(f"this library was written by a newer Sidecar (schema {revision}); please update the app",
                               code=Code.DATABASE_TOO_NEW)
    return DatabaseProbe(location, "sqlite" if isinstance(location, Path) else "postgresql", revision,
                         revision == head_revision())
