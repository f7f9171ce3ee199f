"""A stable code is a :class:`~app.codes.Code` wherever a failure or a skip is raised or recorded (issue 33.4).

``scripts/test`` runs mypy over app/; these parameters being typed ``Code`` (not ``str``)
is what makes it reject ``_fail(claim, "oops", ...)`` or ``SidecarError(code="oops")``.
This test pins the annotations, so widening one back to ``str`` fails here even where no
caller passes a bare string yet.
"""

from __future__ import annotations

import pickle
from typing import Any, Callable, get_type_hints

from app.codes import Code
from app.engine import scan
from app.engine.kinds import Skip
from app.engine.scheduler import Scheduler
from app.errors import MediaError, SidecarError, error_for
from app.ml.item_failures import ItemFailed
from app.server import http_app
from app.server.requests_queue import RequestFailed
from app.store import item_transitions, job_transitions, shared_transitions, stage_transitions
from app.store.jobs import JobRepo
from app.store.records import NewItem
from app.store.stages import StageRepo

WRITERS: dict[str, tuple[Callable[..., Any], str]] = {
    "error_for": (error_for, "code"),
    "Scheduler._fail": (Scheduler._fail, "code"),
    "StageRepo.fail_stage": (StageRepo.fail_stage, "code"),
    "JobRepo.fail": (JobRepo.fail, "code"),
    "stage_transitions.retry_later": (stage_transitions.retry_later, "code"),
    "stage_transitions.fail": (stage_transitions.fail, "code"),
    "stage_transitions.stop_unfinished": (stage_transitions.stop_unfinished, "code"),
    "item_transitions.fail": (item_transitions.fail, "code"),
    "item_transitions.stop_unfinished": (item_transitions.stop_unfinished, "code"),
    "shared_transitions.stop_unfinished_items_and_stages": (shared_transitions.stop_unfinished_items_and_stages, "code"),
    "job_transitions.fail": (job_transitions.fail, "code"),
    "RequestFailed": (RequestFailed.__init__, "code"),
    "http_app.error": (http_app.error, "code"),
}

RECORDS: dict[str, tuple[type, str, object]] = {
    "SidecarError.code": (SidecarError, "code", Code),
    "ItemFailed.code": (ItemFailed, "code", Code),
    "Skip.code": (Skip, "code", Code),
    "ScanEntry.skip_code": (scan.ScanEntry, "skip_code", Code | None),
    "NewItem.skip_code": (NewItem, "skip_code", Code | None),
}


def test_every_code_a_failure_or_skip_records_is_typed_code_not_str() -> None:
    wrong = {name: get_type_hints(fn)[param] for name, (fn, param) in WRITERS.items() if get_type_hints(fn)[param] is not Code}
    wrong |= {name: get_type_hints(cls)[field] for name, (cls, field, want) in RECORDS.items()
              if get_type_hints(cls)[field] != want}
    assert not wrong, f"typed as something other than Code, so mypy would take a bare string: {wrong}"


def test_a_failed_input_crosses_a_process_with_its_code_still_a_code() -> None:
    failed = pickle.loads(pickle.dumps(ItemFailed.of(MediaError("not media"))))
    error = failed.error()
    assert type(error) is MediaError and error.code is Code.CORRUPT_MEDIA and error.message == "not media"
