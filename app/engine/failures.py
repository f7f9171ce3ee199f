"""What the scheduler does with a claim whose stage failed: one table from failure to action.

procrastinate's worker decides a job's end in one place; so does this module, for every
path that ends a claim early (the stage raised while it ran, its file was out of reach
before it began, the watchdog gave up on it, the engine has no pipeline for its kind).
Each :class:`Failure` row names a class of error and says all that becomes of it: the
runs again inside the claim before it settles (the out-of-memory ladder), whether a
vanished mount makes it a give-back, and the :class:`Action` that settles the claim. The first row whose class the error is an
instance of decides; an error from a model process comes back as the class that
declares its code (:func:`app.errors.error_for`), so the table sees classes there too.
The scheduler runs the row as written: one named handler per action, no branch on the
kind of failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, auto
from typing import Callable

from app.codes import Code
from app.errors import (DatabaseUnavailable, FolderMissing, LeaseLost, MappingUnavailable, NeedsReview, NotMapped,
                        OutOfDeviceMemory, OutOfMemory, SidecarError, StageStopped)


class Action(Enum):
    """How the claim settles once its failure is final."""

    RELEASE = auto()
    """Stopped at a checkpoint (pause, shutdown): back in the queue unfailed, the attempt refunded, progress kept."""
    DISCARD = auto()
    """The claim is no longer ours: record nothing; whoever holds the stage now decides."""
    LEAVE_TO_EXPIRE = auto()
    """The database cannot be reached: nothing can be recorded, the lease runs out and any engine retries it."""
    REVIEW = auto()
    """A placement's outcome is unknown or contested: the stage waits for a person's decision."""
    GIVE_BACK = auto()
    """This machine cannot see the file now (its mount is gone): back in the queue unfailed, the attempt refunded.
    The mapping leaves this engine's claim scope by itself while its folder is gone."""
    LEAVE_TO_OTHERS = auto()
    """This engine can never run it (no mapping covers the file, no pipeline for its kind): given back as
    :attr:`GIVE_BACK` is, and this engine never claims the item again."""
    FAIL_JOB = auto()
    """The job's folder is gone: the job and all its unfinished items fail."""
    RELEASE_MODELS_AND_RETRY = auto()
    """The device ran out of memory and the stage cannot run on the CPU instead: free every model, retry later."""
    RETRY_OR_FAIL = auto()
    """A typed error: retried with backoff while transient and attempts remain, else failed with its code."""
    CRASH = auto()
    """A bug: logged with its trace, then retried or failed as :attr:`RETRY_OR_FAIL` (as ``internal_error``)."""


@dataclass(frozen=True)
class Rerun:
    """One rung of a ladder: every resident model is released, then the stage runs again in the same claim.

    A checkpointing stage resumes where it stopped, so a rung costs the work since the
    last checkpoint, not the whole stage.
    """

    on_cpu: bool
    """The stage's models load on the CPU this time; a stage none of whose models could skips the rung (and the
    rest of the ladder), and its failure settles as the row says."""


AFTER_RELEASING_MODELS = Rerun(on_cpu=False)
"""Other resident models may have held the device: with them gone the stage may fit."""
ON_THE_CPU = Rerun(on_cpu=True)
"""Slow, but the file gets done; the item notes ``gpu_fallback_cpu`` so a person sees why."""


@dataclass(frozen=True)
class Failure:
    """One row of the table: a class of error, and everything the scheduler does about it."""

    error: type[SidecarError]
    action: Action
    ladder: tuple[Rerun, ...] = ()
    """Runs again inside the claim, in order, each while the stage keeps failing with this row's error."""
    beyond_ladder: Callable[[str], SidecarError] | None = None
    """What it fails as when it fails again on the last rung, from the step's name (settled by its own row)."""
    unless_mount_gone: bool = False
    """While the mapped folder is gone the claim is given back instead (:class:`MappingUnavailable`): the file
    may be fine, this machine cannot see it."""


class InternalError(SidecarError):
    """What the table sees of an exception that is no :class:`SidecarError`: a bug, with the exception as its cause.

    It keeps ``internal_error`` as the instance's code, not the class's, so
    :func:`app.errors.error_for` never makes one of a code a model process sent.
    """

    transient = True  # retried: a bug may be a race or a resource that comes back

    def __init__(self, cause: Exception):
        super().__init__(f"{type(cause).__name__}: {cause}", code=Code.INTERNAL_ERROR)
        self.__cause__ = cause


def _out_of_memory_on_the_cpu_too(step: str) -> SidecarError:
    return OutOfMemory(f"step “{step}” needs more memory than is free: it ran out on the GPU and again on the CPU. "
                       "Close other programs or choose a smaller model, then retry.")


#: The failure table, first match wins (so a subclass row comes before its base's); the last row takes any error.
FAILURES: tuple[Failure, ...] = (
    Failure(StageStopped, Action.RELEASE),
    Failure(LeaseLost, Action.DISCARD),
    Failure(DatabaseUnavailable, Action.LEAVE_TO_EXPIRE),
    Failure(NeedsReview, Action.REVIEW),
    Failure(NotMapped, Action.LEAVE_TO_OTHERS),
    Failure(MappingUnavailable, Action.GIVE_BACK),
    Failure(FolderMissing, Action.FAIL_JOB, unless_mount_gone=True),
    Failure(OutOfDeviceMemory, Action.RELEASE_MODELS_AND_RETRY, ladder=(AFTER_RELEASING_MODELS, ON_THE_CPU),
            beyond_ladder=_out_of_memory_on_the_cpu_too, unless_mount_gone=True),
    Failure(InternalError, Action.CRASH, unless_mount_gone=True),
    Failure(SidecarError, Action.RETRY_OR_FAIL, unless_mount_gone=True),
)


def typed_error(exc: Exception) -> SidecarError:
    """``exc`` itself when it is a :class:`SidecarError`, else the :class:`InternalError` it is."""
    return exc if isinstance(exc, SidecarError) else InternalError(exc)


def failure_of(error: SidecarError) -> Failure:
    """The first row of :data:`FAILURES` that ``error`` is an instance of."""
    return next(row for row in FAILURES if isinstance(error, row.error))
