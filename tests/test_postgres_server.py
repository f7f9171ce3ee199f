"""The throwaway PostgreSQL server the backend tests run against is real and local only."""

from __future__ import annotations

import sqlalchemy as sa

from tests.postgres_server import PostgresCluster


def test_each_test_gets_an_empty_database_on_a_local_only_server(postgres_cluster: PostgresCluster) -> None:
    first, second = postgres_cluster.create_database(), postgres_cluster.create_database()
    assert first != second
    engine = sa.create_engine(first)
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.text("SHOW listen_addresses")).scalar() == "127.0.0.1"
            assert conn.execute(sa.text("SELECT current_user")).scalar() == "sidecar"
            assert conn.execute(sa.text(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")).scalar() == 0
    finally:
        engine.dispose()
