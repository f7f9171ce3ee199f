"""The state changes several repositories make, each written once, and the pause-all flag every claim reads.

Each function runs inside the caller's write transaction (it neither begins nor
commits), so a repository method that makes one of these changes together with its
own writes still commits them as one short transaction:

* :func:`requeue_running` — a running stage goes back to the queue (its lease is
  dropped): a dead instance's or an expired lease (:meth:`StageRepo.reclaim`), an
  instance whose heartbeat row expired (:meth:`InstanceRepo.reclaim_expired`; both
  pick an instance's stages with :func:`owned_by`), a pause
  (:meth:`StageRepo.release_stage`), a rename under the worker (:meth:`CurrentItemRepo.rename`).
* :func:`stop_unfinished` — unfinished items and their stages end as failed (the
  job's folder is gone: :meth:`JobRepo.fail`) or skipped (the file vanished or
  changed: :meth:`CurrentItemRepo.mark_removed`, :meth:`CurrentItemRepo.supersede_unfinished`).
* :func:`remember_placed_output` — Sidecar wrote this content at this path, so it may
  replace it later (:meth:`StepRepo.transition`, :meth:`StepRepo.decide`, a rename).
* :func:`is_paused_all` / :func:`set_paused_all` — the "pause everything" flag.
"""

from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy import ColumnElement, Connection, delete, insert, or_, select, update

from app.store.states import UNFINISHED_ITEMS, UNFINISHED_STAGES, ItemState, StageState
from app.store.tables import engine_flags, items, jobs, placed_outputs, stages

PAUSE_ALL_FLAG = "paused_all"


_PAUSED_ALL = select(engine_flags.c.value).where(engine_flags.c.name == PAUSE_ALL_FLAG)  # built once: read per claim


def is_paused_all(conn: Connection) -> bool:
    """Whether the person paused everything: no stage is claimed and every unfinished item shows paused."""
    return conn.execute(_PAUSED_ALL).first() is not None


def set_paused_all(conn: Connection, paused: bool, now: float) -> None:
    """Pause everything, or resume everything (which also resumes every job paused on its own)."""
    conn.execute(delete(engine_flags).where(engine_flags.c.name == PAUSE_ALL_FLAG))
    if paused:
        conn.execute(insert(engine_flags).values(name=PAUSE_ALL_FLAG, value="1"))
    else:
        conn.execute(update(jobs).values(paused=0, updated_at=now))


def owned_by(instance_ids: Sequence[str]) -> ColumnElement[bool]:
    """Stage rows whose lease belongs to one of these instances (owners are ``<instance>:<worker>``)."""
    return or_(*[stages.c.lease_owner.like(f"{iid}:%") for iid in instance_ids])


def requeue_running(conn: Connection, where: ColumnElement[bool], now: float, *, refund_attempt: bool) -> int:
    """Running stages matching ``where`` go back to ``queued`` and their items to ``pending``; returns how many.

    Their checkpoints stay. ``refund_attempt`` gives the claim back without counting
    it (a pause, a rename); a crashed or expired worker's attempt stays counted.
    Whoever held the lease finds it gone at its next fenced write.
    """
    rows = conn.execute(select(stages.c.id, stages.c.item_id).where(where, stages.c.status == StageState.RUNNING)).all()
    if not rows:
        return 0
    values: dict[str, Any] = {"status": StageState.QUEUED, "lease_owner": None, "lease_expires_at": None, "updated_at": now}
    if refund_attempt:
        values["attempt"] = stages.c.attempt - 1
    conn.execute(
        update(stages).where(stages.c.id.in_([r.id for r in rows]), stages.c.status == StageState.RUNNING).values(**values)
    )
    conn.execute(
        update(items).where(items.c.id.in_({r.item_id for r in rows}), items.c.status == ItemState.RUNNING)
        .values(status=ItemState.PENDING, updated_at=now)
    )
    return len(rows)


def stop_unfinished(conn: Connection, where: ColumnElement[bool], outcome: ItemState, code: str, message: str,
                    now: float) -> None:
    """Unfinished items matching ``where`` and their unfinished stages end as ``outcome`` (failed or skipped).

    A failed item carries the error; a skipped one says why it was skipped. A stage
    running here loses its lease: the worker's next fenced write fails and its
    result is never placed.
    """
    stage_outcome = {ItemState.FAILED: StageState.FAILED, ItemState.SKIPPED: StageState.SKIPPED}[outcome]
    conn.execute(
        update(stages).where(stages.c.item_id.in_(select(items.c.id).where(where)), stages.c.status.in_(UNFINISHED_STAGES))
        .values(status=stage_outcome, lease_owner=None, lease_expires_at=None, error_code=code, error=message,
                updated_at=now)
    )
    reason = {"error_code": code, "error": message} if outcome == ItemState.FAILED else {"skip_reason": message}
    conn.execute(
        update(items).where(where, items.c.status.in_(UNFINISHED_ITEMS)).values(status=outcome, updated_at=now, **reason)
    )


def remember_placed_output(conn: Connection, path: str, sha256: str, now: float) -> None:
    """Record that Sidecar itself put exactly this content at ``path``."""
    known = conn.execute(
        select(placed_outputs.c.path).where(placed_outputs.c.path == path, placed_outputs.c.sha256 == sha256)
    ).first()
    if known is None:
        conn.execute(insert(placed_outputs).values(path=path, sha256=sha256, placed_at=now))
