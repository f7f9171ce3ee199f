"""What the scheduler does with a stage that raised: one table from exception class to outcome.

procrastinate's worker maps an exception to a job status in one place; so does this
module, for both paths that can end a claim early (the stage raised while it ran, or
the file was out of reach before it began). The first row whose class the error is an
instance of decides; an error from a model process comes back as the class that
declares its code (:func:`app.errors.error_for`), so the table sees classes there too.

A vanished mount is checked before the table: any error while the mapped folder is
gone gives the claim back (the file may be fine; this machine cannot see it).
"""

from __future__ import annotations

from enum import Enum, auto

from app.errors import (DatabaseUnavailable, FolderMissing, LeaseLost, MappingUnavailable, NeedsReview, NotMapped,
                        OutOfDeviceMemory, SidecarError, StageStopped)


class Outcome(Enum):
    """What becomes of the claim."""

    RELEASE = auto()
    """Stopped at a checkpoint (pause, shutdown): back in the queue unfailed, the attempt refunded, progress kept."""
    DISCARD = auto()
    """The claim is no longer ours: record nothing; whoever holds the stage now decides."""
    LEAVE_TO_EXPIRE = auto()
    """The database cannot be reached: nothing can be recorded, the lease runs out and any engine retries it."""
    REVIEW = auto()
    """A placement's outcome is unknown or contested: the stage waits for a person's decision."""
    GIVE_BACK = auto()
    """This machine cannot reach the file (mapping): back in the queue unfailed for one that can."""
    FAIL_JOB = auto()
    """The job's folder is gone: the job and all its unfinished items fail."""
    RELEASE_MODELS_AND_RETRY = auto()
    """The device ran out of memory and the stage cannot run on the CPU instead: free every model, retry later."""
    RETRY_OR_FAIL = auto()
    """A typed error: retried with backoff while transient and attempts remain, else failed with its code."""
    CRASH = auto()
    """Anything else is a bug: logged with its trace, failed as ``internal_error`` (retried, it may be transient)."""


#: The failure table, first match wins (so a subclass row comes before its base's).
FAILURES: tuple[tuple[type[BaseException], Outcome], ...] = (
    (StageStopped, Outcome.RELEASE),
    (LeaseLost, Outcome.DISCARD),
    (DatabaseUnavailable, Outcome.LEAVE_TO_EXPIRE),
    (NeedsReview, Outcome.REVIEW),
    (NotMapped, Outcome.GIVE_BACK),
    (MappingUnavailable, Outcome.GIVE_BACK),
    (FolderMissing, Outcome.FAIL_JOB),
    (OutOfDeviceMemory, Outcome.RELEASE_MODELS_AND_RETRY),
    (SidecarError, Outcome.RETRY_OR_FAIL),
    (Exception, Outcome.CRASH),
)


def outcome_of(exc: BaseException) -> Outcome:
    """The first row of :data:`FAILURES` that ``exc`` is an instance of."""
    for cls, outcome in FAILURES:
        if isinstance(exc, cls):
            return outcome
    return Outcome.CRASH
