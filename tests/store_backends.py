"""Both backends of the library database for one test: ``store_location`` is a SQLite file or a PostgreSQL URL.

A test that takes ``store_location`` (or ``database_url`` for a whole Library) runs twice,
``[sqlite]`` and ``[postgres]``, the second on a fresh database of the session's
throwaway server (tests/postgres_server.py).

Fake clocks: tests move time by hand to expire leases. On SQLite the store's clock is
the local one the test passes; on PostgreSQL leases are stamped by the server's clock,
which no test can move, so :func:`open_store` makes the test's clock stand in for it
(``db.now``). What the server's clock does for real is tested in tests/test_liveness.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from app.store import Store

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def store_location(request: pytest.FixtureRequest, data_dir: Path) -> Path | str:
    """The library database of this test: the data dir's SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return data_dir / "library.sqlite3"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def database_url(store_location: Path | str) -> str:
    """``EngineConfig.database_url`` for the same choice ("" is the data dir's SQLite file)."""
    return store_location if isinstance(store_location, str) else ""


def open_store(location: Path | str, clock: Callable[[], float], **kwargs: Any) -> Store:
    """A Store on ``location`` whose leases are measured on ``clock``, on either backend."""
    store = Store(location, clock=clock, **kwargs)
    if isinstance(location, str):
        store.db.now = clock  # type: ignore[method-assign]  # the server's clock cannot be moved by a test
    return store
