"""The named states of jobs, items, stages and placement steps (the only place their words are written).

The values are exactly the words stored in the database and printed in JSON, so a
member compares equal to (and serialises as) the plain string. Which transition moves
a row from one state to another is the store's business: each table's status has one
writer (:mod:`app.store.job_transitions`, :mod:`~app.store.item_transitions`,
:mod:`~app.store.stage_transitions`, :mod:`~app.store.step_transitions`), and
:mod:`app.store.shared_transitions` composes the changes several repositories make.
"""

from __future__ import annotations

from enum import StrEnum


class JobState(StrEnum):
    """``jobs.state``: whether the scheduler may see a job's items (stored; shown as a :class:`JobSummaryStatus`)."""

    CREATING = "creating"
    READY = "ready"
    FAILED = "failed"


class JobSummaryStatus(StrEnum):
    """``JobSummary.status``, what a job's row shows: derived from its :class:`JobState`, items and pauses; never stored.

    The ``*State`` enums name the words stored in a status column; this one is computed
    when a summary is read (:meth:`app.store.jobs.JobRepo.summaries`), hence its other name.
    """

    CREATING = "creating"
    FAILED = "failed"
    PAUSED = "paused"
    RUNNING = "running"
    QUEUED = "queued"
    REVIEW = "review"
    COMPLETED = "completed"


class ItemState(StrEnum):
    """``items.status``. ``PAUSED`` is only shown (a pending item of a paused job), never stored."""

    PENDING = "pending"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    SKIPPED = "skipped"
    REVIEW = "review"
    PAUSED = "paused"


class StageState(StrEnum):
    """``stages.status``: ``waiting`` for an earlier stage, ``queued`` to be claimed, ``running`` under a lease."""

    WAITING = "waiting"
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    REVIEW = "review"
    SKIPPED = "skipped"


class StepState(StrEnum):
    """``steps.state``: ``prepared → started → succeeded | manual_review``, or ``skipped``."""

    PREPARED = "prepared"
    STARTED = "started"
    SUCCEEDED = "succeeded"
    MANUAL_REVIEW = "manual_review"
    SKIPPED = "skipped"


UNFINISHED_ITEMS: tuple[ItemState, ...] = (ItemState.PENDING, ItemState.RUNNING)
"""Items with work still to do: a pause, a failed folder or a vanished file stops them."""

UNFINISHED_STAGES: tuple[StageState, ...] = (StageState.WAITING, StageState.QUEUED, StageState.RUNNING)
"""Stages that have not reached an outcome (and can still be stopped)."""

SETTLED_ITEMS: tuple[ItemState, ...] = (ItemState.COMPLETED, ItemState.SKIPPED)
"""Items whose workspace is no longer needed."""

__all__ = [
    "ItemState", "JobState", "JobSummaryStatus", "SETTLED_ITEMS", "StageState", "StepState", "UNFINISHED_ITEMS",
    "UNFINISHED_STAGES",
]
