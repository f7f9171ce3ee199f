"""Every change of ``jobs.state``, one function per transition.

This module is the only writer of a job's state (``tests/test_transitions_single_writer.py``
fails on a state write anywhere else). A job is ``creating`` while its folder is scanned
(the scheduler cannot see it), ``ready`` once its items are scheduled, or ``failed`` (its
folder is gone, or its scan was cut short). Each function runs inside the caller's write
transaction.
"""

from __future__ import annotations

from typing import Any, Collection, Sequence

from sqlalchemy import Connection, insert, select, update

from app.errors import Code
from app.store.database import dumps, inserted_id
from app.store.states import JobState
from app.store.tables import items, jobs

#: A job whose scan was cut short stays failed when its items are retried: its folder must be added again.
SCAN_INTERRUPTED = Code.SCAN_INTERRUPTED


def create(conn: Connection, folder: str, options: dict[str, Any], owner: str, state: JobState,
           scan_report: dict[str, Any], now: float) -> int:
    """A new job, ``creating`` (an add) or ``ready`` (a watched folder's rolling job); returns its id."""
    return inserted_id(conn.execute(
        insert(jobs).values(
            folder=folder, state=state, owner=owner, paused=0, options=dumps(options),
            scan_report=dumps(scan_report), created_at=now, updated_at=now,
        )
    ))


def finish_creating(conn: Connection, job_id: int, scan_report: dict[str, Any], now: float) -> None:
    """``creating → ready``: only now can the scheduler see the job's items."""
    conn.execute(
        update(jobs).where(jobs.c.id == job_id, jobs.c.state == JobState.CREATING)
        .values(state=JobState.READY, scan_report=dumps(scan_report), updated_at=now)
    )


def fail_abandoned_creating(conn: Connection, live_owners: Sequence[str], now: float) -> list[int]:
    """Jobs left ``creating`` by a process that died mid-scan become ``failed``; returns their ids."""
    stale = list(conn.execute(
        select(jobs.c.id).where(jobs.c.state == JobState.CREATING, jobs.c.owner.not_in(list(live_owners)))
    ).scalars())
    if stale:
        conn.execute(
            update(jobs).where(jobs.c.id.in_(stale)).values(
                state=JobState.FAILED, error_code=SCAN_INTERRUPTED,
                error="Sidecar stopped while this folder was being scanned; add the folder again.",
                updated_at=now,
            )
        )
    return stale


def fail(conn: Connection, job_id: int, code: Code, message: str, now: float) -> None:
    """A job-level failure (its folder is gone)."""
    conn.execute(update(jobs).where(jobs.c.id == job_id).values(state=JobState.FAILED, error_code=code, error=message,
                                                                updated_at=now))


def reopen_failed(conn: Connection, item_ids: Collection[int], now: float) -> None:
    """The failed jobs of items queued again become ready (a job whose scan was cut short stays failed)."""
    job_ids = conn.execute(select(items.c.job_id).where(items.c.id.in_(list(item_ids))).distinct()).scalars().all()
    conn.execute(
        update(jobs).where(jobs.c.id.in_(job_ids), jobs.c.state == JobState.FAILED, jobs.c.error_code != SCAN_INTERRUPTED)
        .values(state=JobState.READY, error_code=None, error=None, updated_at=now)
    )
