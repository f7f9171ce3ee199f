"""The database's clock is read once per resync window and followed locally in between (issue 25.3).

Every claim and completion asks the time; on PostgreSQL each ask used to be a query.
"""

from __future__ import annotations

import time

from sqlalchemy import func, select

from app.store import Store
from app.store.clock import FollowedClock


def test_the_server_is_read_once_per_window_and_followed_between() -> None:
    reads: list[float] = []

    def server() -> float:
        reads.append(time.monotonic())
        return 5000.0  # a server clock far from this machine's

    clock = FollowedClock(server, resync_seconds=0.3)
    first = clock()
    time.sleep(0.05)
    second = clock()
    assert len(reads) == 1
    assert 5000.0 <= first < second < 5000.3  # followed forward on this machine's monotonic clock
    time.sleep(0.3)
    clock()
    assert len(reads) == 2  # the window passed: read again


def test_postgresql_time_stays_the_servers(postgres_url: str) -> None:
    store = Store(postgres_url, clock=lambda: 0.0)  # a local clock that is wildly wrong must not matter
    try:
        for _ in range(3):
            ours = store.db.now()
            with store.db.read() as conn:
                server = float(conn.execute(select(func.extract("epoch", func.clock_timestamp()))).scalar_one())
            assert abs(server - ours) < 0.5
    finally:
        store.close()
