"""Typed errors with stable codes.

Every failure that reaches a person or the store carries a lower_snake ``code`` that
never changes between releases (tests, the CLI's JSON and the GUI key on it) and a
human message. ``transient`` decides whether the scheduler retries with backoff or
fails the stage at once (:mod:`app.engine.failures` maps each class to what becomes of the claim).
The codes, and the words that explain them, are declared once in :mod:`app.codes`
(re-exported here: :class:`Code`, :data:`EXPLANATIONS`, :func:`explain`).
"""

from __future__ import annotations

from app.codes import EXPLANATIONS, Code, Explanation, explain


class SidecarError(Exception):
    """Base of all errors Sidecar reports; ``code`` is stable, ``message`` is for people."""

    code: Code = Code.INTERNAL_ERROR
    transient: bool = False
    _declared: dict[Code, type[SidecarError]] = {}  # code -> the class that declares it (error_for)

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "code" in cls.__dict__:
            SidecarError._declared.setdefault(cls.code, cls)

    def __init__(self, message: str | None = None, *, code: Code | None = None, transient: bool | None = None):
        if code is not None:
            self.code = code
        if transient is not None:
            self.transient = transient
        self.message = message or self.code.replace("_", " ")
        super().__init__(self.message)


class MediaError(SidecarError):
    """The person's file cannot be used as it is; retrying will not help."""

    code = Code.CORRUPT_MEDIA


class TransientError(SidecarError):
    """Something outside the file went wrong (a crashed runtime, a busy disk); worth a retry."""

    code = Code.TRANSIENT_ERROR
    transient = True


class ModelCrashed(TransientError):
    """A model runtime's child process died; the stage is retried on a fresh process."""

    code = Code.MODEL_CRASHED


class OutOfDeviceMemory(TransientError):
    """A model ran out of GPU memory: the engine releases every model and retries, then falls back to the CPU."""

    code = Code.GPU_OUT_OF_MEMORY


class OutOfMemory(SidecarError):
    """A model ran out of memory on the GPU and again on the CPU: the file needs more memory than is free."""

    code = Code.OUT_OF_MEMORY


class LeaseLost(SidecarError):
    """This worker no longer owns the stage (expired, reclaimed or cancelled): stop, write nothing."""

    code = Code.LEASE_LOST


class FolderMissing(SidecarError):
    """The folder the person chose is gone (moved, deleted, on a drive that is not connected)."""

    code = Code.FOLDER_MISSING


class StageStopped(SidecarError):
    """The stage stopped at a checkpoint because its job was paused or the engine is shutting down."""

    code = Code.STOPPED


class NotRegularFile(SidecarError):
    """A pipe, socket or device (or a link to one) where a media file was expected: never opened for reading."""

    code = Code.NOT_A_REGULAR_FILE


class Stalled(SidecarError):
    """A stage made no progress for longer than its watchdog limit: stopped so the queue goes on."""

    code = Code.STALLED


class TargetChanged(SidecarError):
    """The source file changed while it was processed; nothing is placed."""

    code = Code.TARGET_CHANGED


class ReviewConflict(SidecarError):
    """A review decision was already recorded by someone else."""

    code = Code.REVIEW_CONFLICT


class NotFound(SidecarError):
    """A job, item or review the caller named does not exist."""

    code = Code.NOT_FOUND


class NeedsReview(SidecarError):
    """A placement's outcome is unknown or contested; a person decides (SPEC §6)."""

    code = Code.MANUAL_REVIEW


class ItemNotChangeable(SidecarError):
    """A per-item choice (the queue's audio track) cannot be applied now.

    ``item_skipped``: the file was skipped, so nothing is planned to redo (add it again).
    ``item_in_review``: one of its subtitles is being placed or awaits a decision in Review.
    """

    code = Code.ITEM_IN_REVIEW


class CrashLoop(SidecarError):
    """The engine process itself died on this file again and again: the item is set aside so the queue goes on."""

    code = Code.CRASH_LOOP


class InvalidPathMap(SidecarError):
    """A ``--path-map`` argument that is not ``ABSOLUTE_PREFIX=ABSOLUTE_PREFIX``, or clashes with another."""

    code = Code.INVALID_PATH_MAP


class WorkerRefused(SidecarError):
    """``sidecar worker`` will not start: a mapping's folder is missing or does not show the library's files."""

    code = Code.WORKER_REFUSED


class MappingUnavailable(TransientError):
    """The mount a mapping points at vanished while a worker held a stage: the claim is given back, not failed."""

    code = Code.MAPPING_UNAVAILABLE


class NotMapped(SidecarError):
    """No ``--path-map`` of this worker covers the item's path: the stage is left for another machine."""

    code = Code.NOT_MAPPED


class DatabaseUnusable(SidecarError):
    """The database URL names no backend Sidecar speaks, or its schema is newer than this Sidecar."""

    code = Code.BAD_DATABASE_URL


class DatabaseUnavailable(TransientError):
    """The library's database server cannot be reached now (a cut connection, a restart, a partition).

    Transient: the engine keeps running and tries again; a claim it held while cut off is
    left to expire, so another machine (or this one, once reconnected) runs the stage.
    """

    code = Code.DATABASE_UNAVAILABLE


class DowngradeRefused(SidecarError):
    """A schema downgrade was asked for: the library database only moves forward.

    Going back would drop tables and columns that stage outputs, fences and other
    machines' leases live in; an older Sidecar opens a copy of the library instead.
    """

    code = Code.DOWNGRADE_REFUSED


class ModelError(SidecarError):
    """A model-manager request that cannot be done as asked; ``code`` says why."""

    code = Code.MODEL_ERROR



def error_for(code: Code, message: str, transient: bool) -> SidecarError:
    """An error reported as a code (over a model process's pipe) as the class that declares that code.

    So the scheduler's failure table (:mod:`app.engine.failures`) sees an out-of-memory
    in a model process as :class:`OutOfDeviceMemory`, as if it had been raised here.
    """
    error = SidecarError._declared.get(code, SidecarError)(message, transient=transient)
    error.code = code
    return error


__all__ = [
    "EXPLANATIONS", "Code", "CrashLoop", "DatabaseUnavailable", "DatabaseUnusable", "DowngradeRefused", "Explanation", "FolderMissing",
    "InvalidPathMap", "ItemNotChangeable", "LeaseLost", "MappingUnavailable", "MediaError", "ModelCrashed", "ModelError",
    "NeedsReview", "NotFound", "NotMapped", "NotRegularFile", "OutOfDeviceMemory", "OutOfMemory", "ReviewConflict", "SidecarError",
    "Stalled", "StageStopped", "TargetChanged", "TransientError", "WorkerRefused", "error_for", "explain",
]
