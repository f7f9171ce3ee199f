"""The library database: WAL, sqlite-vec on every connection, and upgrades that keep rows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sqlalchemy import text

from app.store import Store
from app.store.sqlite_engine import open_engine
from app.store.legacy_migrations import upgrade
from app.store.migrate import HEAD_REVISION, head_revision


def test_connections_are_wal_full_sync_with_sqlite_vec(data_dir: Path) -> None:
    store = Store(data_dir / "lib.sqlite3")
    try:
        with store.db.read() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() > 0
            assert conn.exec_driver_sql("select vec_version()").scalar().startswith("v")
            dist = conn.execute(text("select vec_distance_cosine(vec_f32('[1,0]'), vec_f32('[0,1]'))")).scalar()
            assert abs(dist - 1.0) < 1e-6
    finally:
        store.close()


def _database_at(path: Path, version: int, *inserts: str) -> Path:
    """A library database left at schema ``version`` by an older Sidecar, holding these rows."""
    engine = open_engine(path)
    assert upgrade(engine, target=version) == version
    with engine.connect().execution_options(sidecar_write=True) as conn, conn.begin():
        for statement in inserts:
            conn.exec_driver_sql(statement)
    engine.dispose()
    return path


def test_database_from_schema_v1_upgrades_without_losing_rows(data_dir: Path) -> None:
    path = _database_at(
        data_dir / "old.sqlite3", 1,
        "INSERT INTO jobs (id, folder, state, paused, options, scan_report, created_at, updated_at) "
        "VALUES (7, '/media', 'ready', 0, '{}', '{}', 1, 1)",
        "INSERT INTO items (id, job_id, ordinal, path, kind, sha256, status, updated_at) "
        "VALUES (3, 7, 0, '/media/a.mp4', 'video', 'abc', 'completed', 1)")

    store = Store(path)
    try:
        assert store.db.schema_version == head_revision()
        summary = store.jobs.summaries(7)[0]
        assert (summary.folder, summary.done, summary.status) == ("/media", 1, "completed")
        with store.db.read() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM steps").scalar() == 0
    finally:
        store.close()


def test_upgrade_gives_skipped_rows_of_a_known_file_version_their_content_back(data_dir: Path) -> None:
    path = _database_at(
        data_dir / "v6.sqlite3", 6,
        "INSERT INTO jobs (id, folder, state, paused, options, scan_report, created_at, updated_at) "
        "VALUES (1, '/media', 'completed', 0, '{}', '{}', 1, 1), (2, '/media', 'completed', 0, '{}', '{}', 2, 2)",
        # processed once, then the folder was added again (and b.mp4 touched since)
        "INSERT INTO items (id, job_id, ordinal, path, kind, size, mtime_ns, sha256, status, updated_at) VALUES "
        "(1, 1, 0, '/media/a.mp4', 'video', 10, 100, 'aaa', 'completed', 1), "
        "(2, 1, 1, '/media/b.mp4', 'video', 10, 100, 'bbb', 'completed', 1), "
        "(3, 2, 0, '/media/a.mp4', 'video', 10, 100, '', 'skipped', 2), "
        "(4, 2, 1, '/media/b.mp4', 'video', 10, 999, '', 'skipped', 2)")

    store = Store(path)
    try:
        a, b = store.current.get("/media/a.mp4"), store.current.get("/media/b.mp4")
    finally:
        store.close()
    assert a is not None and (a.item_id, a.sha256) == (3, "aaa")
    assert b is None, "a touched file's content is unknown until it is read again (adding the folder again reads it)"


def test_the_head_constant_is_the_newest_revision_file() -> None:
    assert HEAD_REVISION == head_revision(), "a revision was added: set HEAD_REVISION in app/store/migrate.py to it"


def test_a_library_at_the_head_opens_without_importing_alembic_or_the_orm(data_dir: Path) -> None:
    """Every command opens the library; only the first open after an update needs Alembic, none SQLAlchemy's ORM
    (issue 24: together ~0.3 s of each ``sidecar add`` and ``run`` start-up on two cores)."""
    opened = ("import sys; from pathlib import Path; from app.store import Store; "
              f"Store(Path({str(data_dir / 'lib.sqlite3')!r})).close(); print('alembic' in sys.modules, 'sqlalchemy.orm' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", opened], capture_output=True, text=True, check=True,
                           cwd=Path(__file__).resolve().parents[1]).stdout.split() for _ in range(2)]
    assert runs[0][0] == "True", "the first open creates the schema through Alembic"
    assert runs[1] == ["False", "False"], "the next open needs neither Alembic nor the ORM"
