"""The one order in which a PostgreSQL write transaction locks rows: job → item → stage → step.

Why: PostgreSQL write transactions no longer queue behind one global lock (issue 25);
each locks only the rows it changes, so two engines' claims, progress reports and
completions run side by side. Two transactions that lock the same rows in opposite
orders deadlock, so every write that changes a stage or an item first locks the items
it touches (sorted by id, after the jobs it changes), and only then writes items,
stages and steps:

* whoever holds a stage row's lock already holds its item's lock, so a transaction
  holding an item never waits on that item's stages, and waits on items happen in id
  order: no wait-for cycle can form;
* a claim never waits at all: it locks its item with ``SKIP LOCKED`` (an item another
  transaction holds is simply not a candidate now) and then its stage;
* the change counter no longer lives on the job row (see
  :mod:`app.store.change_counter`), so a stage or item change never touches its job.

Locks are ``FOR NO KEY UPDATE`` (an ordinary UPDATE's own lock level), which does not
conflict with the ``KEY SHARE`` lock a new row's foreign key takes on its parent, so
adding items never waits on a claim. Deleting rows (a cancelled job) needs the full
``FOR UPDATE``.

SQLite keeps one writer at a time (WAL, ``BEGIN IMMEDIATE``): these calls do nothing there.
"""

from __future__ import annotations

from typing import Collection

from sqlalchemy import ColumnElement, Connection, select

from app.store.dialect import is_sqlite
from app.store.tables import items, jobs


def lock_jobs(conn: Connection, where: ColumnElement[bool], *, for_delete: bool = False) -> None:
    """Lock the job rows matching ``where`` in id order (first in the order: before any item)."""
    if not is_sqlite(conn):
        conn.execute(select(jobs.c.id).where(where).order_by(jobs.c.id).with_for_update(key_share=not for_delete))


def lock_items(conn: Connection, where: ColumnElement[bool], *, for_delete: bool = False) -> None:
    """Lock the item rows matching ``where`` in id order, before writing them or any of their stages and steps."""
    if not is_sqlite(conn):
        conn.execute(select(items.c.id).where(where).order_by(items.c.id).with_for_update(key_share=not for_delete))


def lock_item_ids(conn: Connection, item_ids: Collection[int]) -> None:
    """:func:`lock_items` for known ids."""
    if item_ids:
        lock_items(conn, items.c.id.in_(sorted(set(item_ids))))
