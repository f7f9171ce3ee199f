"""Every change of ``steps.state``, one function per transition.

This module is the only writer of a placement step's state
(``tests/test_transitions_single_writer.py`` fails on a state write anywhere else). A
step's life: ``prepared → started → succeeded | manual_review``; a person's decision moves
a ``manual_review`` step to ``succeeded`` (applied), back to ``prepared`` (not applied) or
to ``skipped``. Each function runs inside the caller's write transaction, after the
caller checked the stage's claim where a worker writes.
"""

from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy import Connection, insert, update

from app.store.records import StepIntent
from app.store.states import StepState
from app.store.tables import steps

#: The state each review decision moves a ``manual_review`` step to.
DECIDED = {"applied": StepState.SUCCEEDED, "not_applied": StepState.PREPARED, "skip": StepState.SKIPPED}


def prepare(conn: Connection, item_id: int, stage_id: int, intents: Sequence[StepIntent], now: float) -> None:
    """The stage's placement plan, every step ``prepared``."""
    for intent in intents:
        conn.execute(
            insert(steps).values(
                op_id=intent.op_id, item_id=item_id, stage_id=stage_id, seq=intent.seq,
                role=intent.role, target=intent.target, content_path=intent.content_path,
                expected_sha256=intent.expected_sha256, prior_sha256=intent.prior_sha256, action=intent.action,
                state=StepState.PREPARED, created_at=now, updated_at=now,
            )
        )


def move(conn: Connection, step_id: int, from_states: Sequence[StepState], to_state: StepState, now: float,
         **values: Any) -> bool:
    """``from_states → to_state`` (a start counts an attempt); False when the step is no longer in ``from_states``."""
    if to_state == StepState.STARTED:
        values["attempts"] = steps.c.attempts + 1
    return conn.execute(
        update(steps).where(steps.c.id == step_id, steps.c.state.in_(list(from_states)))
        .values(state=to_state, updated_at=now, **values)
    ).rowcount == 1


def decide(conn: Connection, step_id: int, decision: str, actor: str, reason: str, now: float) -> bool:
    """``manual_review →`` the decision's state, recorded with who decided and why; False if decided meanwhile."""
    return conn.execute(
        update(steps).where(steps.c.id == step_id, steps.c.state == StepState.MANUAL_REVIEW,
                            steps.c.decision.is_(None)).values(
            state=DECIDED[decision], decision=decision, decision_actor=actor, decision_reason=reason, decided_at=now,
            review_revision=steps.c.review_revision + 1, updated_at=now,
        )
    ).rowcount == 1
