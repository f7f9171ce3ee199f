"""The state changes several repositories share, each written once, and the pause-all flag every claim reads.

The status columns have one writer each: :mod:`app.store.job_transitions`,
:mod:`app.store.item_transitions`, :mod:`app.store.stage_transitions` and
:mod:`app.store.step_transitions`, one function per transition of that table. This
module writes no status itself: it composes their changes that move a stage and its
item together, under names none of them uses (``stage_transitions.requeue_running``
moves stages only; :func:`requeue_running_stages_and_items` moves both). Each function runs inside the caller's write transaction (it
neither begins nor commits), so a repository method that makes one of these changes
together with its own writes still commits them as one short transaction:

* :func:`requeue_running_stages_and_items` — a running stage goes back to the queue (its lease is
  dropped): a dead instance's or an expired lease (:meth:`StageRepo.reclaim`), an
  instance whose heartbeat row expired (:meth:`InstanceRepo.reclaim_expired`; both
  pick an instance's stages with :func:`owned_by`), a pause
  (:meth:`StageRepo.release_stage`), a rename under the worker (:meth:`CurrentItemRepo.rename`).
* :func:`stop_unfinished_items_and_stages` — unfinished items and their stages end as failed (the
  job's folder is gone: :meth:`JobRepo.fail`) or skipped (the file vanished or
  changed: :meth:`CurrentItemRepo.mark_removed`, :meth:`CurrentItemRepo.supersede_unfinished`).
* :func:`remember_placed_output` — Sidecar wrote this content at this path, so it may
  replace it later (:meth:`StepRepo.transition`, :meth:`StepRepo.decide`, a rename).
* :func:`is_paused_all` / :func:`set_paused_all` — the "pause everything" flag.
"""

from __future__ import annotations

from typing import Sequence

from sqlalchemy import ColumnElement, Connection, and_, delete, insert, or_, select, true, update

from app.errors import Code
from app.store import item_transitions, stage_transitions
from app.store.dialect import insert_missing
from app.store.row_locks import lock_item_ids, lock_items, lock_jobs
from app.store.states import ItemState, StageState
from app.store.tables import engine_flags, jobs, placed_outputs, stages

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
        lock_jobs(conn, true())
        conn.execute(update(jobs).values(paused=0, updated_at=now))


def owned_by(instance_ids: Sequence[str]) -> ColumnElement[bool]:
    """Stage rows whose lease belongs to one of these instances (owners are ``<instance>:<worker>``)."""
    return or_(*[stages.c.lease_owner.like(f"{iid}:%") for iid in instance_ids])


def requeue_running_stages_and_items(conn: Connection, where: ColumnElement[bool], now: float, *, refund_attempt: bool) -> int:
    """Running stages matching ``where`` go back to ``queued`` and their items to ``pending``; returns how many.

    Their checkpoints stay. ``refund_attempt`` gives the claim back without counting
    it (a pause, a rename); a crashed or expired worker's attempt stays counted.
    Whoever held the lease finds it gone at its next fenced write. Their items are
    locked first (:mod:`app.store.row_locks`), and only the stages of the items locked are
    requeued: a stage claimed after the lock (its item unlocked here) is left alone, where
    requeuing it would write an item out of lock order (a deadlock on PostgreSQL under load).
    """
    running = select(stages.c.item_id).where(where, stages.c.status == StageState.RUNNING)
    item_ids = sorted(set(conn.execute(running).scalars()))
    if not item_ids:
        return 0
    lock_item_ids(conn, item_ids)
    requeued = stage_transitions.requeue_running(conn, and_(where, stages.c.item_id.in_(item_ids)), now,
                                                 refund_attempt=refund_attempt)
    if requeued:
        item_transitions.release_running(conn, {item_id for _, item_id in requeued}, now)
    return len(requeued)


def stop_unfinished_items_and_stages(conn: Connection, where: ColumnElement[bool], outcome: ItemState, code: Code, message: str,
                    now: float) -> None:
    """Unfinished items matching ``where`` and their unfinished stages end as ``outcome`` (failed or skipped).

    A failed item carries the error; a skipped one says why it was skipped. A stage
    running here loses its lease: the worker's next fenced write fails and its
    result is never placed. The items are locked first (:mod:`app.store.row_locks`).
    """
    lock_items(conn, where)
    stage_outcome = {ItemState.FAILED: StageState.FAILED, ItemState.SKIPPED: StageState.SKIPPED}[outcome]
    stage_transitions.stop_unfinished(conn, where, stage_outcome, code, message, now)
    item_transitions.stop_unfinished(conn, where, outcome, code, message, now)


def remember_placed_output(conn: Connection, path: str, sha256: str, now: float) -> None:
    """Record that Sidecar itself put exactly this content at ``path``."""
    insert_missing(conn, placed_outputs, dict(path=path, sha256=sha256, placed_at=now))
