"""The one clock that leases and heartbeats are measured on: the database's.

Several machines write leases and heartbeats into one database; if each stamped them
with its own clock, a machine whose clock runs an hour fast would see every other
machine's lease as expired and steal live work. So every lease and heartbeat time
comes from the database server. SQLite is embedded (one machine only), so there the
local clock is the database's clock, and tests may replace it with a fake one.
"""

from __future__ import annotations

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
