"""Typed errors with stable codes.

Every failure that reaches a person or the store carries a lower_snake ``code`` that
never changes between releases (tests, the CLI's JSON and the GUI key on it) and a
human message. ``transient`` decides whether the scheduler retries with backoff or
fails the stage at once.
"""

from __future__ import annotations


class SidecarError(Exception):
    """Base of all errors Sidecar reports; ``code`` is stable, ``message`` is for people."""

    code: str = "internal_error"
    transient: bool = False

    def __init__(self, message: str | None = None, *, code: str | None = None, transient: bool | None = None):
        if code is not None:
            self.code = code
        if transient is not None:
            self.transient = transient
        self.message = message or self.code.replace("_", " ")
        super().__init__(self.message)


class MediaError(SidecarError):
    """The person's file cannot be used as it is; retrying will not help."""

    code = "corrupt_media"


class TransientError(SidecarError):
    """Something outside the file went wrong (a crashed runtime, a busy disk); worth a retry."""

    code = "transient_error"
    transient = True


class ModelCrashed(TransientError):
    """A model runtime's child process died; the stage is retried on a fresh process."""

    code = "model_crashed"


class OutOfDeviceMemory(TransientError):
    """A model ran out of GPU memory: the engine releases every model and retries, then falls back to the CPU."""

    code = "gpu_out_of_memory"


class OutOfMemory(SidecarError):
    """A model ran out of memory on the GPU and again on the CPU: the file needs more memory than is free."""

    code = "out_of_memory"


class LeaseLost(SidecarError):
    """This worker no longer owns the stage (expired, reclaimed or cancelled): stop, write nothing."""

    code = "lease_lost"


class StageStopped(SidecarError):
    """The stage stopped at a checkpoint because its job was paused or the engine is shutting down."""

    code = "stopped"


class TargetChanged(SidecarError):
    """The source file changed while it was processed; nothing is placed."""

    code = "target_changed"


class ReviewConflict(SidecarError):
    """A review decision was already recorded by someone else."""

    code = "review_conflict"


class NotFound(SidecarError):
    """A job, item or review the caller named does not exist."""

    code = "not_found"


class NeedsReview(SidecarError):
    """A placement's outcome is unknown or contested; a person decides (SPEC §6)."""

    code = "manual_review"


class CrashLoop(SidecarError):
    """The engine process itself died on this file again and again: the item is set aside so the queue goes on."""

    code = "crash_loop"


class ModelError(SidecarError):
    """A model-manager request that cannot be done as asked; ``code`` says why."""

    code = "model_error"
