"""Schema upgrades through Alembic, for both backends, run by every process that opens the library.

Why Alembic: it is SQLAlchemy's migration tool, it speaks both dialects, and a revision
is a plain Python file. It runs here inside one write transaction of the store's own (on
SQLite ``BEGIN IMMEDIATE``, on PostgreSQL an advisory lock), so two engines
starting on a new library migrate it once and a failed revision changes nothing.

Alembic itself is imported only to upgrade (or to read its revision files): a library already
at :data:`HEAD_REVISION` opens without it, which is every command's start but the first after
an update (importing Alembic took ~0.2 s of each ``sidecar add`` and ``run``, issue 24).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text

from app.errors import Code, DatabaseUnusable
from app.store.dialect import WRITE_OPTION, take_migration_lock

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger(__name__)

SCRIPTS = Path(__file__).resolve().parent / "alembic"
VERSION_TABLE = "alembic_version"
#: The newest revision in ``alembic/versions``, which :func:`head_revision` reads from the files: a new revision
#: changes both (tests/test_store_schema.py fails until they agree).
HEAD_REVISION = "0009_cjk_characters"


def _config(conn: Connection | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(SCRIPTS))
    config.attributes["connection"] = conn
    return config


def head_revision() -> str:
    """The newest revision this Sidecar knows, as Alembic reads it from the revision files."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None, "app/store/alembic/versions holds no revision"
    return head


def known_revision(revision: str) -> bool:
    """Whether ``revision`` is one of this Sidecar's (else a newer Sidecar wrote the database)."""
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    try:
        return ScriptDirectory.from_config(_config()).get_revision(revision) is not None
    except CommandError:
        return False


def current_revision(conn: Connection) -> str | None:
    """The revision the database was last upgraded to (None before Alembic first ran on it)."""
    if not inspect(conn).has_table(VERSION_TABLE):
        return None
    return conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()


def upgrade_to_head(engine: Engine) -> str:
    """Bring the database to the newest revision; returns it."""
    with engine.connect().execution_options(**{WRITE_OPTION: True}) as conn, conn.begin():
        take_migration_lock(conn)
        current = current_revision(conn)
        if current == HEAD_REVISION:
            return HEAD_REVISION
        from alembic import command
        from alembic.util import CommandError

        head = head_revision()
        try:
            command.upgrade(_config(conn), "head")
        except CommandError as exc:
            raise DatabaseUnusable(f"this library was written by a newer Sidecar (schema {current}); please update the app",
                                   code=Code.DATABASE_TOO_NEW) from exc
    log.info("library schema upgraded from %s to %s", current or "nothing", head)
    return head
