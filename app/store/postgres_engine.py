"""A PostgreSQL server reached through psycopg 3, for a library shared by several machines.

Connections are pooled like SQLite's and checked before use (``pool_pre_ping``): a
server restart or a cut connection costs one reconnect, not a failed stage. A connection
cut while in use, or a server that cannot be reached at all, is told apart from other
database errors by :func:`unreachable`, so the store can raise its one transient
``database_unavailable`` instead of a driver error the engine would treat as a bug.
Times come from the server's clock (app.store.clock); write transactions take the advisory lock
of app.store.dialect first.
"""

from __future__ import annotations

import logging

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

log = logging.getLogger(__name__)

DRIVER = "postgresql+psycopg"

#: SQLSTATEs of a server out of reach: any connection exception (class 08) or refused login
#: (class 28), and the server ending the session (``pg_terminate_backend``, shutdown, starting up).
_UNREACHABLE_CLASSES = ("08", "28")
_UNREACHABLE_STATES = ("57P01", "57P02", "57P03")


def normalised_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` get the psycopg 3 driver (SQLAlchemy would pick psycopg2)."""
    parsed = make_url(url)
    if parsed.get_backend_name() in ("postgresql", "postgres") and parsed.drivername != DRIVER:
        parsed = parsed.set(drivername=DRIVER)
    return parsed.render_as_string(hide_password=False)


def open_engine(url: str) -> Engine:
    """A pooled engine on ``url`` (``postgresql+psycopg://user@host:port/db``)."""
    engine = create_engine(normalised_url(url), pool_size=8, max_overflow=16, pool_pre_ping=True)
    log.debug("opened %s", engine.url.render_as_string(hide_password=True))
    return engine


def unreachable(exc: DBAPIError) -> bool:
    """Whether ``exc`` means the server is out of reach now (worth waiting for), not a failed statement.

    A connection lost on the client side carries no SQLSTATE; a deadlock or a constraint
    does, and stays the error it is.
    """
    if not isinstance(exc, (OperationalError, InterfaceError)):
        return False
    if exc.connection_invalidated:
        return True
    state = getattr(exc.orig, "sqlstate", None)
    return state is None or state[:2] in _UNREACHABLE_CLASSES or state in _UNREACHABLE_STATES
