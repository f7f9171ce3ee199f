"""Where the library database is: one function, so the app, `sidecar run` and `sidecar worker` agree.

SQLite in the data dir unless a URL says otherwise. The URL comes from ``--database-url``
or the ``database_url`` setting (the caller passes whichever it has; the flag wins), else
from ``SIDECAR_DATABASE_URL``.
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from app.errors import DatabaseUnusable
from app.paths import database_path

ENV = "SIDECAR_DATABASE_URL"


def database_location(data_dir: Path, url: str | None = None) -> Path | str:
    """A SQLite file's Path, or a PostgreSQL URL string.

    ``sqlite:///abs/path`` is read as that file (the same as no URL for the default file).
    """
    chosen = (url or os.environ.get(ENV, "")).strip()
    if not chosen:
        return database_path(data_dir)
    try:
        parsed = make_url(chosen)
    except (ArgumentError, ValueError) as exc:  # ValueError: a port that is not a number
        raise DatabaseUnusable(f"{chosen!r} is not a database URL ({exc})") from exc
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if not parsed.database or parsed.database == ":memory:":
            raise DatabaseUnusable("a SQLite URL must name a file: sqlite:///absolute/path")
        return Path(parsed.database).expanduser().resolve()
    if backend in ("postgresql", "postgres"):  # postgres:// is how many servers print their URL
        return chosen
    raise DatabaseUnusable(f"Sidecar keeps its library in SQLite or PostgreSQL, not {backend}")
