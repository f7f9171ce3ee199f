"""A PostgreSQL server reached through psycopg 3, for a library shared by several machines.

Connections are pooled like SQLite's and checked before use (``pool_pre_ping``): a
server restart or a cut connection costs one reconnect, not a failed stage. Times come
from the server's clock (app.store.clock); write transactions take the advisory lock
of app.store.dialect first.
"""

from __future__ import annotations

import logging

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url

log = logging.getLogger(__name__)

DRIVER = "postgresql+psycopg"


def normalised_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` get the psycopg 3 driver (SQLAlchemy would pick psycopg2)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql" and parsed.drivername != DRIVER:
        parsed = parsed.set(drivername=DRIVER)
    return parsed.render_as_string(hide_password=False)


def open_engine(url: str) -> Engine:
    """A pooled engine on ``url`` (``postgresql+psycopg://user@host:port/db``)."""
    engine = create_engine(normalised_url(url), pool_size=8, max_overflow=16, pool_pre_ping=True)
    log.debug("opened %s", engine.url.render_as_string(hide_password=True))
    return engine
