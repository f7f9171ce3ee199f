"""A PostgreSQL server out of reach is the store's typed, transient ``database_unavailable``; other errors
stay theirs; a read sees one snapshot on both backends."""

from __future__ import annotations

import time
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ProgrammingError

from app.engine.config import EngineConfig
from app.engine.library import Library
from app.errors import DatabaseUnavailable
from app.store import Store
from app.store.instances import InstanceInfo
from app.store.tables import instances

GONE_ROLE = "gone_box"


def _terminate_others(url: str) -> int:
    u = make_url(url)
    with psycopg.connect(host=u.host, port=u.port, user=u.username, dbname=u.database, autocommit=True) as admin:
        return len(admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                 "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall())


def test_a_connection_cut_mid_transaction_is_database_unavailable_and_the_next_call_reconnects(postgres_url: str) -> None:
    store = Store(postgres_url)
    try:
        with pytest.raises(DatabaseUnavailable) as raised:
            with store.db.read() as conn:
                assert _terminate_others(postgres_url) == 1
                conn.execute(text("SELECT 1"))
        assert raised.value.code == "database_unavailable" and raised.value.transient
        with store.db.write() as conn:
            assert conn.execute(text("SELECT 1")).scalar_one() == 1
    finally:
        store.close()


def test_a_failed_statement_is_not_database_unavailable(postgres_url: str) -> None:
    store = Store(postgres_url)
    try:
        with pytest.raises(ProgrammingError):
            with store.db.read() as conn:
                conn.execute(text("SELECT no_such_column FROM stages"))
    finally:
        store.close()


def test_a_read_of_several_statements_sees_one_snapshot(store_location: Path | str) -> None:
    """As on SQLite: a commit between two statements of one read is not seen by the second
    (else "nothing runnable, nothing running" could be read across a requeue)."""
    store, other = Store(store_location), Store(store_location)
    try:
        with store.db.read() as conn:
            before = conn.execute(select(func.count()).select_from(instances)).scalar_one()
            other.instances.beat(InstanceInfo(id="box-1", hostname="box", pid=1, role="worker"), 30.0)
            assert conn.execute(select(func.count()).select_from(instances)).scalar_one() == before
        assert [r.id for r in store.instances.rows()] == ["box-1"]
    finally:
        other.close()
        store.close()


def test_an_engine_closed_while_the_server_is_out_of_reach_stops_and_leaves_its_heartbeat_to_expire(
        postgres_url: str, data_dir: Path, fast_config: EngineConfig, caplog: pytest.LogCaptureFixture) -> None:
    """Quitting the app during an outage must not raise: the heartbeat row it cannot delete expires by itself.
    Meanwhile the outage is one line in the log, not one a second per worker."""
    box_url = make_url(postgres_url).set(username=GONE_ROLE).render_as_string(hide_password=False)
    u = make_url(postgres_url)
    with psycopg.connect(host=u.host, port=u.port, user=u.username, dbname=u.database, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {GONE_ROLE} LOGIN SUPERUSER")
        lib = Library(data_dir, {}, fast_config, database=box_url)
        try:
            lib.start()
            instance, engine_threads = lib.scheduler.instance.id, list(lib.scheduler._threads)
            admin.execute(f"ALTER ROLE {GONE_ROLE} NOLOGIN")
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", (GONE_ROLE,))
            time.sleep(3)  # each of the two workers retries its claim about once a second
            lines = [r for r in caplog.records if "cannot claim work" in r.getMessage()]
            assert len(lines) == 1, [r.getMessage() for r in lines]
            lib.close()
            assert engine_threads and not any(t.is_alive() for t in engine_threads), "engine threads outlived close"
            left = admin.execute("SELECT count(*) FROM instances WHERE id = %s", (instance,)).fetchone()
            assert left == (1,), "the row it could not delete is still there, to expire"
        finally:
            admin.execute(f"ALTER ROLE {GONE_ROLE} LOGIN")
            lib.close()
            admin.execute(f"DROP OWNED BY {GONE_ROLE}")
            admin.execute(f"DROP ROLE {GONE_ROLE}")
