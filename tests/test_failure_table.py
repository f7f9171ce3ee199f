"""One failure table decides what becomes of a claim whose stage raised (issue 22.3)."""

from __future__ import annotations

import pytest

from app.engine.failures import FAILURES, Outcome, outcome_of
from app.errors import (Code, DatabaseUnavailable, FolderMissing, LeaseLost, MappingUnavailable, MediaError, ModelCrashed,
                        NeedsReview, NotMapped, OutOfDeviceMemory, OutOfMemory, SidecarError, StageStopped, error_for)


@pytest.mark.parametrize("error, outcome", [
    (StageStopped("paused"), Outcome.RELEASE),
    (LeaseLost("taken over"), Outcome.DISCARD),
    (DatabaseUnavailable("cut off"), Outcome.LEAVE_TO_EXPIRE),
    (NeedsReview("contested"), Outcome.REVIEW),
    (NotMapped("no mapping"), Outcome.GIVE_BACK),
    (MappingUnavailable("mount gone"), Outcome.GIVE_BACK),
    (FolderMissing("gone"), Outcome.FAIL_JOB),
    (OutOfDeviceMemory("cuda"), Outcome.RELEASE_MODELS_AND_RETRY),
    (OutOfMemory("cpu too"), Outcome.RETRY_OR_FAIL),
    (ModelCrashed("died"), Outcome.RETRY_OR_FAIL),
    (MediaError("bad file", code=Code.CORRUPT_MEDIA), Outcome.RETRY_OR_FAIL),
    (SidecarError("disk full", code=Code.DISK_FULL, transient=True), Outcome.RETRY_OR_FAIL),
    (ZeroDivisionError("bug"), Outcome.CRASH),
])
def test_each_error_class_has_one_outcome(error: Exception, outcome: Outcome) -> None:
    assert outcome_of(error) is outcome


def test_an_out_of_memory_in_a_model_process_is_handled_as_one_raised_here() -> None:
    """The model host sends codes over its pipe; the error it raises is the declaring class, so the table applies."""
    assert outcome_of(error_for(Code.GPU_OUT_OF_MEMORY, "CUDA failed with error out of memory", True)) \
        is Outcome.RELEASE_MODELS_AND_RETRY


def test_no_row_is_shadowed_by_an_earlier_base_class() -> None:
    for n, (cls, _) in enumerate(FAILURES):
        assert not any(issubclass(cls, earlier) for earlier, _ in FAILURES[:n]), f"{cls.__name__} is never reached"
