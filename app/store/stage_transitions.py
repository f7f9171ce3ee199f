"""Every change of ``stages.status``, one function per transition, and the fence that guards a worker's writes.

This module is the only writer of a stage's status (``tests/test_transitions_single_writer.py``
fails on a status write anywhere else). Each function runs inside the caller's write
transaction, so a repository that changes a stage together with its item still commits
one short transaction; the item's side is :mod:`app.store.item_transitions`.

A worker's writes are fenced: an UPDATE conditioned on (stage, running, owner, claim
generation, unexpired lease) whose row count is checked, zero meaning the claim is gone
(:func:`lease_lost`).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from sqlalchemy import BigInteger, ColumnElement, Connection, Float, RowMapping, Text, and_, bindparam, select, update

from app.errors import Code, LeaseLost, NeedsReview
from app.store.database import dumps
from app.store.dialect import insert_many
from app.store.records import Claim, NewStage
from app.store.states import UNFINISHED_STAGES, StageState
from app.store.tables import items, stages

def lease_lost(claim: Claim) -> LeaseLost:
    """The error every fenced write raises when the claim no longer holds its stage."""
    return LeaseLost(f"stage {claim.stage_id} is no longer held by this worker")


def fence_where(stage_id: Any, owner: Any, generation: Any, now: Any) -> ColumnElement[bool]:
    """The fence: the claim still holds its stage (owner, generation, unexpired lease); values or bind parameters."""
    return and_(
        stages.c.id == stage_id,
        stages.c.status == StageState.RUNNING,
        stages.c.lease_owner == owner,
        stages.c.claim_generation == generation,
        stages.c.lease_expires_at > now,
    )


def fence(claim: Claim, now: float) -> ColumnElement[bool]:
    return fence_where(claim.stage_id, claim.owner, claim.generation, now)


#: The fenced update, built once with the claim and the time as parameters; its SET columns are the other parameters.
_FENCED_UPDATE = update(stages).where(fence_where(
    bindparam("fence_id", type_=BigInteger), bindparam("fence_owner", type_=Text),
    bindparam("fence_generation", type_=BigInteger), bindparam("fence_now", type_=Float)))


def fenced_update(conn: Connection, claim: Claim, now: float, **values: Any) -> None:
    """Set ``values`` on the claim's stage row if the claim still holds (``LeaseLost`` if not).

    One prepared statement (``_FENCED_UPDATE``) whose SET columns come from the
    parameters: every progress report, checkpoint and outcome goes through here, and
    building the fence and the update afresh each time was most of their Python.
    """
    params = {**values, "updated_at": now, "fence_id": claim.stage_id, "fence_owner": claim.owner,
              "fence_generation": claim.generation, "fence_now": now}
    if conn.execute(_FENCED_UPDATE, params).rowcount != 1:
        raise lease_lost(claim)


# -- planning -------------------------------------------------------------------------------


def planned_values(planned: Sequence[NewStage], now: float) -> list[dict[str, Any]]:
    """Column values of a plan's stage rows: cached stages succeeded, the first other one queued, the rest waiting."""
    out, first_open = [], True
    for stage in planned:
        reused = stage.reused_output is not None
        if reused:
            status = StageState.SUCCEEDED
        elif first_open:
            status, first_open = StageState.QUEUED, False
        else:
            status = StageState.WAITING
        out.append({"status": status, "gpu_mb": stage.gpu_mb, "model_key": stage.model_key,
                    "fingerprint": stage.fingerprint, "output": dumps(stage.reused_output) if reused else None,
                    "reused": int(reused), "progress": 1.0 if reused else 0.0, "finished_at": now if reused else None,
                    "updated_at": now})
    return out


def add_planned(conn: Connection, plans: Sequence[tuple[int, int, int, int, Sequence[NewStage]]], now: float) -> None:
    """The stage rows of new items, ``(item id, job id, group, ordinal, plan)`` each, in one bulk insert.

    An add writes thousands. Group and ordinal are the item's, copied so the claim order
    is one index over the stages (revision ``0005_claim_index``).
    """
    rows = [dict(item_id=item_id, job_id=job_id, grp=grp, ordinal=ordinal, idx=stage.idx, name=stage.name, **values)
            for item_id, job_id, grp, ordinal, planned in plans
            for stage, values in zip(planned, planned_values(planned, now))]
    insert_many(conn, stages, rows)


def replan(conn: Connection, item_id: int, planned: Sequence[NewStage], now: float) -> None:
    """The item's stages start over under a new plan; a claim running one of them is lost (the generation moves on)."""
    for stage, values in zip(planned, planned_values(planned, now)):
        conn.execute(
            update(stages).where(stages.c.item_id == item_id, stages.c.idx == stage.idx).values(
                **values, partial=None, attempt=0, failures=0, retry_at=None, lease_owner=None,
                lease_expires_at=None, claim_generation=stages.c.claim_generation + 1, note=None,
                error_code=None, error=None, started_at=None, crash_claims=None,
            )
        )


# -- a worker's claim -----------------------------------------------------------------------


def claim(conn: Connection, stage_id: int, owner: str, lease_seconds: float, now: float) -> RowMapping | None:
    """``queued → running`` under a fresh lease for ``owner`` (generation and attempt count up); the claimed row as it
    now is, or None if taken. The row comes back from the UPDATE itself (``RETURNING``): one statement fewer per claim."""
    return conn.execute(
        update(stages).where(stages.c.id == stage_id, stages.c.status == StageState.QUEUED).values(
            status=StageState.RUNNING, lease_owner=owner, lease_expires_at=now + lease_seconds,
            claim_generation=stages.c.claim_generation + 1, attempt=stages.c.attempt + 1,
            started_at=now, updated_at=now, retry_at=None,
        ).returning(*stages.c)
    ).mappings().first()


def succeed(conn: Connection, claim: Claim, output: Mapping[str, Any], now: float) -> None:
    """``running → succeeded`` with its output (fenced)."""
    fenced_update(conn, claim, now, status=StageState.SUCCEEDED, output=dumps(output), progress=1.0, lease_owner=None,
                  lease_expires_at=None, finished_at=now, error_code=None, error=None, crash_claims=None)


def reuse(conn: Connection, item_id: int, reused: Mapping[int, Mapping[str, Any]], now: float) -> None:
    """Later stages (by index) the identified content already has results for: ``waiting | queued → succeeded``."""
    for idx, out in reused.items():
        conn.execute(
            update(stages).where(stages.c.item_id == item_id, stages.c.idx == idx,
                                 stages.c.status.in_([StageState.WAITING, StageState.QUEUED]))
            .values(status=StageState.SUCCEEDED, output=dumps(out), reused=1, progress=1.0, finished_at=now,
                    updated_at=now)
        )


def open_next(conn: Connection, stage_id: int, now: float) -> None:
    """``waiting → queued``: the stage before it succeeded."""
    conn.execute(
        update(stages).where(stages.c.id == stage_id, stages.c.status == StageState.WAITING)
        .values(status=StageState.QUEUED, updated_at=now)
    )


def retry_later(conn: Connection, claim: Claim, failures: int, retry_at: float, code: Code, message: str,
                now: float) -> None:
    """``running → queued`` after a transient failure, claimable again at ``retry_at`` (fenced)."""
    fenced_update(conn, claim, now, status=StageState.QUEUED, failures=failures, retry_at=retry_at, lease_owner=None,
                  lease_expires_at=None, error_code=code, error=message, crash_claims=None)


def fail(conn: Connection, claim: Claim, failures: int, code: Code, message: str, now: float) -> None:
    """``running → failed`` (fenced)."""
    fenced_update(conn, claim, now, status=StageState.FAILED, failures=failures, lease_owner=None,
                  lease_expires_at=None, error_code=code, error=message, finished_at=now)


def hold_for_review(conn: Connection, claim: Claim, message: str, now: float) -> None:
    """``running → review``: a person decides one of its placement steps (fenced)."""
    fenced_update(conn, claim, now, status=StageState.REVIEW, lease_owner=None, lease_expires_at=None,
                  error_code=NeedsReview.code, error=message)


# -- recovery and people's decisions ---------------------------------------------------------


def requeue_running(conn: Connection, where: ColumnElement[bool], now: float, *,
                    refund_attempt: bool) -> list[tuple[int, int]]:
    """Running stages matching ``where`` go back to ``queued`` (lease dropped); returns their (stage, item) ids."""
    rows = conn.execute(select(stages.c.id, stages.c.item_id).where(where, stages.c.status == StageState.RUNNING)).all()
    if not rows:
        return []
    values: dict[str, Any] = {"status": StageState.QUEUED, "lease_owner": None, "lease_expires_at": None, "updated_at": now}
    if refund_attempt:
        values["attempt"] = stages.c.attempt - 1
    conn.execute(
        update(stages).where(stages.c.id.in_([r.id for r in rows]), stages.c.status == StageState.RUNNING).values(**values)
    )
    return [(int(r.id), int(r.item_id)) for r in rows]


def stop_unfinished(conn: Connection, items_where: ColumnElement[bool], outcome: StageState, code: Code, message: str,
                    now: float) -> None:
    """Unfinished stages of the items matching ``items_where`` end as ``outcome`` (failed or skipped).

    A stage running here loses its lease: the worker's next fenced write fails and its
    result is never placed.
    """
    conn.execute(
        update(stages).where(stages.c.item_id.in_(select(items.c.id).where(items_where)),
                             stages.c.status.in_(UNFINISHED_STAGES))
        .values(status=outcome, lease_owner=None, lease_expires_at=None, error_code=code, error=message,
                updated_at=now)
    )


def requeue_failed(conn: Connection, item_ids: Sequence[int], now: float) -> None:
    """``failed → queued`` for a person's retry: attempts, errors and crash counts start afresh."""
    conn.execute(
        update(stages).where(stages.c.item_id.in_(item_ids), stages.c.status == StageState.FAILED)
        .values(status=StageState.QUEUED, failures=0, retry_at=None, error_code=None, error=None, lease_owner=None,
                crash_claims=None, updated_at=now)
    )


def skip_by_review(conn: Connection, stage_id: int, reason: str, now: float) -> None:
    """A person chose to skip the stage's placement: it ends ``skipped``."""
    conn.execute(update(stages).where(stages.c.id == stage_id).values(
        status=StageState.SKIPPED, error_code=Code.SKIPPED_BY_REVIEW, error=reason, updated_at=now))


def requeue_after_review(conn: Connection, stage_id: int, now: float) -> None:
    """``review → queued``: a person decided, the stage runs again to act on it."""
    conn.execute(update(stages).where(stages.c.id == stage_id, stages.c.status == StageState.REVIEW).values(
        status=StageState.QUEUED, error_code=None, error=None, retry_at=None, updated_at=now))
