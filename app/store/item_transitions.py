"""Every change of ``items.status``, one function per transition.

This module is the only writer of an item's status (``tests/test_transitions_single_writer.py``
fails on a status write anywhere else). Each function runs inside the caller's write
transaction: the stage side of the same change is :mod:`app.store.stage_transitions`, and
the repositories (:mod:`app.store.jobs`, :mod:`app.store.stages`, :mod:`app.store.steps`)
call both in one short transaction.
"""

from __future__ import annotations

from typing import Any, Collection, Sequence

from sqlalchemy import ColumnElement, Connection, RowMapping, update

from app.errors import Code, NeedsReview
from app.store.database import dumps
from app.store.dialect import insert_many
from app.store.records import NewItem
from app.store.states import UNFINISHED_ITEMS, ItemState
from app.store.tables import items


def add(conn: Connection, job_id: int, new_items: Sequence[tuple[int, int, NewItem, int]], now: float) -> list[int]:
    """New item rows, ``(ordinal, group, item, revision)`` each: ``skipped`` (nothing to do), ``completed`` (every
    stage reused) or ``pending``; returns their ids in the same order.

    Written by :func:`~app.store.dialect.insert_many` (multi-row statements, ``COPY`` on
    PostgreSQL), not a statement per file: an add of a million files writes its items a
    batch at a time. The ids are matched by ordinal (unique within a job).
    """
    if not new_items:
        return []
    rows = []
    for ordinal, group, item, revision in new_items:
        all_reused = bool(item.stages) and all(s.reused_output is not None for s in item.stages)
        status = ItemState.SKIPPED if item.skip_reason else (ItemState.COMPLETED if all_reused else ItemState.PENDING)
        rows.append(dict(job_id=job_id, ordinal=ordinal, grp=group, path=item.path, kind=item.kind, size=item.size,
                         mtime_ns=item.mtime_ns, sha256=item.sha256, revision=revision, status=status,
                         skip_reason=item.skip_reason, error_code=item.skip_code, updated_at=now))
    return insert_many(conn, items, rows, ids_by="ordinal")


def start(conn: Connection, item_id: int, now: float) -> RowMapping:
    """One of its stages was claimed: the item is ``running``; its row as it now is (``RETURNING``: the claim
    needs the item's facts, and reading them from the UPDATE saves a statement per claim)."""
    return conn.execute(update(items).where(items.c.id == item_id).values(status=ItemState.RUNNING, updated_at=now)
                        .returning(*items.c)).mappings().one()


def back_to_pending(conn: Connection, item_id: int, now: float) -> None:
    """Its stage finished or will retry: the item waits for its next claim."""
    conn.execute(update(items).where(items.c.id == item_id).values(status=ItemState.PENDING, updated_at=now))


def complete(conn: Connection, item_id: int, now: float) -> None:
    """Its last stage succeeded."""
    conn.execute(update(items).where(items.c.id == item_id).values(status=ItemState.COMPLETED, updated_at=now))


def fail(conn: Connection, item_id: int, code: Code, message: str, now: float) -> None:
    """Its stage failed for good: the item carries the error."""
    conn.execute(
        update(items).where(items.c.id == item_id)
        .values(status=ItemState.FAILED, error_code=code, error=message, updated_at=now)
    )


def hold_for_review(conn: Connection, item_id: int, message: str, now: float) -> None:
    """A placement of the item waits for a person's decision."""
    conn.execute(
        update(items).where(items.c.id == item_id)
        .values(status=ItemState.REVIEW, error_code=NeedsReview.code, error=message, updated_at=now)
    )


def release_running(conn: Connection, item_ids: Collection[int], now: float) -> None:
    """Items whose running stage went back to the queue wait again (a pause, an expired lease, a rename)."""
    conn.execute(
        update(items).where(items.c.id.in_(item_ids), items.c.status == ItemState.RUNNING)
        .values(status=ItemState.PENDING, updated_at=now)
    )


def stop_unfinished(conn: Connection, where: ColumnElement[bool], outcome: ItemState, code: Code, message: str,
                    now: float) -> None:
    """Unfinished items matching ``where`` end as ``outcome``: a failed one carries the error, a skipped one says why."""
    reason = {"error_code": code, "error": message} if outcome == ItemState.FAILED else {"skip_reason": message}
    conn.execute(
        update(items).where(where, items.c.status.in_(UNFINISHED_ITEMS)).values(status=outcome, updated_at=now, **reason)
    )


def requeue_failed(conn: Connection, item_ids: Collection[int], now: float) -> None:
    """A person's retry: the failed items wait again, their errors cleared."""
    conn.execute(update(items).where(items.c.id.in_(item_ids))
                 .values(status=ItemState.PENDING, error_code=None, error=None, updated_at=now))


def replan(conn: Connection, item_id: int, all_reused: bool, overrides: dict[str, Any], now: float) -> None:
    """The item runs again under its own options (``completed`` at once when the cache has every stage)."""
    conn.execute(update(items).where(items.c.id == item_id).values(
        status=ItemState.COMPLETED if all_reused else ItemState.PENDING, error_code=None, error=None,
        result=None, options=dumps(overrides) if overrides else None, updated_at=now))


def skip_by_review(conn: Connection, item_id: int, reason: str, now: float) -> None:
    """A person chose to skip the item's placement in Review."""
    conn.execute(update(items).where(items.c.id == item_id).values(
        status=ItemState.SKIPPED, skip_reason=f"skipped in review: {reason}", error_code=None, error=None, updated_at=now))


def requeue_after_review(conn: Connection, item_id: int, now: float) -> None:
    """A person decided a review: the item waits for its stage to run again."""
    conn.execute(update(items).where(items.c.id == item_id).values(
        status=ItemState.PENDING, error_code=None, error=None, updated_at=now))
