"""Placement steps (external effects) and the manual-review decisions on them.

A step's life: ``prepared → started → succeeded | manual_review``; a person's
decision moves a ``manual_review`` step to ``succeeded`` (applied), back to ``prepared``
(not applied) or to ``skipped``. Worker transitions are fenced on the stage's claim.
The state changes themselves are :mod:`app.store.step_transitions`.
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

from sqlalchemy import Connection, select

from app.errors import NotFound, ReviewConflict
from app.store import item_transitions, stage_transitions, step_transitions
from app.store.database import Database
from app.store.row_locks import lock_items
from app.store.records import Claim, Review, Step, StepIntent
from app.store.stages import StageRepo
from app.store.states import StageState, StepState
from app.store.tables import items, placed_outputs, stages, steps
from app.store.shared_transitions import remember_placed_output

log = logging.getLogger(__name__)

DECISIONS = tuple(step_transitions.DECIDED)


def _step(row: Any) -> Step:
    return Step(
        id=row["id"], op_id=row["op_id"], item_id=row["item_id"], stage_id=row["stage_id"], seq=row["seq"],
        role=row["role"], target=row["target"], content_path=row["content_path"],
        expected_sha256=row["expected_sha256"], prior_sha256=row["prior_sha256"], action=row["action"],
        state=StepState(row["state"]), attempts=row["attempts"],
        found_sha256=row["found_sha256"], error_code=row["error_code"], error=row["error"], decision=row["decision"],
    )


class StepRepo:
    def __init__(self, db: Database, stage_repo: StageRepo):
        self.db = db
        self.stage_repo = stage_repo

    def _fenced(self, conn: Connection, claim: Claim) -> None:
        self.stage_repo.touch(conn, claim)

    def freeze_plan(self, claim: Claim, intents: Sequence[StepIntent]) -> list[Step]:
        """Record the placement plan once; a replay after a crash gets the plan decided the first time."""
        now = self.db.now()
        with self.db.write() as conn:
            self._fenced(conn, claim)
            existing = conn.execute(select(steps).where(steps.c.stage_id == claim.stage_id).order_by(steps.c.seq)).mappings().all()
            if existing:
                return [_step(r) for r in existing]
            step_transitions.prepare(conn, claim.item_id, claim.stage_id, intents, now)
            rows = conn.execute(select(steps).where(steps.c.stage_id == claim.stage_id).order_by(steps.c.seq)).mappings().all()
        return [_step(r) for r in rows]

    def transition(self, claim: Claim, step_id: int, from_states: Sequence[StepState], to_state: StepState,
                   **values: Any) -> None:
        """One fenced step transition; a step not in ``from_states`` means someone else moved it."""
        now = self.db.now()
        with self.db.write() as conn:
            self._fenced(conn, claim)
            if not step_transitions.move(conn, step_id, from_states, to_state, now, **values):
                raise ReviewConflict(f"step {step_id} is no longer in {from_states}")
            if to_state == StepState.SUCCEEDED and values.get("found_sha256"):
                target = conn.execute(select(steps.c.target).where(steps.c.id == step_id)).scalar_one()
                remember_placed_output(conn, target, values["found_sha256"], now)

    def is_our_output(self, path: str, sha256: str) -> bool:
        """True when Sidecar itself wrote exactly this content at this path before (it may be replaced)."""
        with self.db.read() as conn:
            return conn.execute(
                select(placed_outputs.c.path).where(placed_outputs.c.path == path, placed_outputs.c.sha256 == sha256)
            ).first() is not None

    def unsettled_steps(self) -> list[Step]:
        """Steps of stages nobody holds that may have left a temp file behind (start-up cleanup)."""
        with self.db.read() as conn:
            q = (
                select(steps).join(stages, stages.c.id == steps.c.stage_id)
                .where(steps.c.state.in_((StepState.STARTED, StepState.PREPARED)), stages.c.status != StageState.RUNNING)
            )
            return [_step(r) for r in conn.execute(q).mappings()]

    # -- manual review ----------------------------------------------------------------------

    def reviews(self, include_decided: bool = False) -> list[Review]:
        with self.db.read() as conn:
            q = select(steps, items.c.path.label("item_path"), items.c.job_id).join(items, items.c.id == steps.c.item_id)
            if include_decided:
                q = q.where((steps.c.state == StepState.MANUAL_REVIEW) | steps.c.decision.is_not(None))
            else:
                q = q.where(steps.c.state == StepState.MANUAL_REVIEW)
            rows = conn.execute(q.order_by(steps.c.id)).mappings().all()
        return [
            Review(
                id=r["id"], item=r["item_id"], job=r["job_id"], path=r["item_path"], target=r["target"],
                expected_sha256=r["expected_sha256"], found_sha256=r["found_sha256"], error=r["error"],
                attempts=r["attempts"], state=StepState(r["state"]), decision=r["decision"], decision_actor=r["decision_actor"],
                decision_reason=r["decision_reason"], decided_at=r["decided_at"], revision=r["review_revision"],
                content_path=r["content_path"],
            )
            for r in rows
        ]

    def decide(self, step_id: int, decision: str, actor: str, reason: str, expected_revision: int | None = None) -> Review:
        """Record a person's decision and act on it in the same transaction.

        ``expected_revision`` (what the person saw) makes a decision on a review that
        changed in between a conflict as well.
        """
        if decision not in DECISIONS:
            raise ValueError(f"decision must be one of {DECISIONS}")
        now = self.db.now()
        with self.db.write() as conn:
            lock_items(conn, items.c.id.in_(select(steps.c.item_id).where(steps.c.id == step_id)))
            row = conn.execute(select(steps).where(steps.c.id == step_id)).mappings().first()
            if row is None:
                raise NotFound(f"no review {step_id}")
            if row["decision"] is not None or row["state"] != StepState.MANUAL_REVIEW:
                raise ReviewConflict(
                    f"review {step_id} was already decided ({row['decision'] or row['state']}"
                    f"{' by ' + row['decision_actor'] if row['decision_actor'] else ''}); nothing was changed"
                )
            if expected_revision is not None and expected_revision != row["review_revision"]:
                raise ReviewConflict(f"review {step_id} changed since it was shown (revision {row['review_revision']})")
            if not step_transitions.decide(conn, step_id, decision, actor, reason, now):
                raise ReviewConflict(f"review {step_id} was decided concurrently")
            stage_id, item_id = row["stage_id"], row["item_id"]
            if decision == "skip":
                stage_transitions.skip_by_review(conn, stage_id, reason, now)
                item_transitions.skip_by_review(conn, item_id, reason, now)
            else:
                if decision == "applied" and row["found_sha256"]:
                    remember_placed_output(conn, row["target"], row["found_sha256"], now)
                stage_transitions.requeue_after_review(conn, stage_id, now)
                item_transitions.requeue_after_review(conn, item_id, now)
        return next(r for r in self.reviews(include_decided=True) if r.id == step_id)
