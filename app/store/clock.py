"""The one clock that leases and heartbeats are measured on: the database's.

Several machines write leases and heartbeats into one database; if each stamped them
with its own clock, a machine whose clock runs an hour fast would see every other
machine's lease as expired and steal live work. So every lease and heartbeat time
comes from the database server. SQLite is embedded (one machine only), so there the
local clock is the database's clock, and tests may replace it with a fake one.
"""

from __future__ import annotations

import time
from typing import Callable

from sqlalchemy import Connection, Engine, func, select

Clock = Callable[[], float]


def database_now(conn: Connection, local: Clock) -> float:
    """Seconds since the epoch on the database's clock (``clock_timestamp()`` on PostgreSQL).

    ``clock_timestamp()`` rather than ``now()``: ``now()`` stays fixed for a whole
    transaction, and a lease is measured from the moment it is written.
    """
    if conn.dialect.name == "sqlite":
        return local()
    return float(conn.execute(select(func.extract("epoch", func.clock_timestamp()))).scalar_one())


def engine_now(engine: Engine, local: Clock) -> float:
    """:func:`database_now` outside a transaction (on SQLite without touching the file)."""
    if engine.dialect.name == "sqlite":
        return local()
    with engine.connect() as conn:
        return database_now(conn, local)


RESYNC_SECONDS = 10.0
"""How long :class:`FollowedClock` follows the database's clock on this machine's before reading it again."""


class FollowedClock:
    """The database server's clock, read every :data:`RESYNC_SECONDS` and followed on the local monotonic clock in between.

    Why: every claim, completion and idle look asks the time, and on PostgreSQL each
    ask was a query on a pooled connection (two round trips with its rollback): 374 of
    them for 200 stages, the most frequent statement after the claim itself. Followed
    on ``time.monotonic`` (which no clock adjustment moves) from the last reading, it
    drifts by parts per million between readings, and the time still is the server's,
    so machines whose own clocks disagree still compare leases on one clock.
    """

    def __init__(self, read: Clock, resync_seconds: float = RESYNC_SECONDS):
        self._read = read
        self._resync = resync_seconds
        self._base: tuple[float, float] | None = None  # (server time, monotonic time) at the last reading

    def __call__(self) -> float:
        base, mono = self._base, time.monotonic()
        if base is None or mono - base[1] >= self._resync:
            before = time.monotonic()
            server = self._read()
            mono = time.monotonic()
            base = self._base = (server, (before + mono) / 2)  # the server read its clock about halfway
        return base[0] + (mono - base[1])
