"""The queue's invariants, checked on one read snapshot: the state machine test and the PostgreSQL stress test share them."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.store import Store
from app.store.tables import items, stages


def assert_rows_consistent(store: Store) -> None:
    """Stage and item rows agree: leases only on running stages, stages open in order, the item's status follows its stages."""
    with store.db.read() as conn:
        stage_rows = conn.execute(select(stages).order_by(stages.c.item_id, stages.c.idx)).mappings().all()
        item_rows = {r["id"]: r for r in conn.execute(select(items)).mappings()}
    by_item: dict[int, list[Any]] = {}
    for s in stage_rows:
        by_item.setdefault(s["item_id"], []).append(s)
        if s["status"] == "running":
            assert s["lease_owner"] and s["lease_expires_at"] is not None
        else:
            assert s["lease_owner"] is None, f"{s['status']} stage keeps an owner"
        assert s["attempt"] >= 0 and s["failures"] >= 0
    for item_id, rows in by_item.items():
        statuses = [r["status"] for r in rows]
        first_open = next((i for i, s in enumerate(statuses) if s != "succeeded"), None)
        if first_open is not None:
            assert all(s == "waiting" for s in statuses[first_open + 1:]), statuses
        assert sum(s == "running" for s in statuses) <= 1
        item_status = item_rows[item_id]["status"]
        if first_open is None:
            assert item_status == "completed"
        elif statuses[first_open] == "failed":
            assert item_status == "failed"
        elif statuses[first_open] == "running":
            assert item_status == "running"
        else:
            assert item_status == "pending", (item_status, statuses)


def assert_summaries_consistent(store: Store) -> None:
    """A job's summary counts every item once and never calls a job completed early."""
    for job in store.jobs.summaries():
        if job.status == "completed":
            assert job.done + job.failed == job.total
        assert job.total == job.done + job.failed + job.review + sum(
            1 for i in store.jobs.items(job.id) if i.status in ("pending", "running", "paused"))
