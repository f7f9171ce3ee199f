"""One table says what becomes of a claim whose stage failed, and the scheduler does what it says (issue 33.4).

Each kind of failure goes through the real scheduler and store here, raised by a fake
stage on a file of its own, and the test reads what the item and its stage row came to:
failed with which code, retried or not, its attempt refunded or not, given back, held
for review. Out of device memory is raised by a model in a real child process, so the
ladder (release every model, then the CPU) runs as it does on a GPU.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select

from app.engine.config import EngineConfig
from app.engine.failures import FAILURES, Action, failure_of, typed_error
from app.engine.library import JobOptions, Library
from app.engine.stage import ModelSpec, Pipeline, StageContext
from app.errors import (Code, DatabaseUnavailable, FolderMissing, LeaseLost, MappingUnavailable, MediaError, NeedsReview,
                        NotMapped, OutOfDeviceMemory, SidecarError, StageStopped)
from app.store.tables import stages
from tests.engine_stages import DigestStage

GPU_MODEL = "tests.runtimes:OutOfMemoryOn"


@dataclass(frozen=True)
class Script:
    """What one file's stage does, run after run: raise ``first`` in order, then ``always`` on every run after
    (else ask ``model`` for an echo, if any, and succeed)."""

    first: tuple[Exception, ...] = ()
    always: Exception | None = None
    model: ModelSpec | None = None


SCRIPTS: dict[str, Script] = {
    "fine.mp4": Script(),
    "stopped.mp4": Script(first=(StageStopped("paused at a checkpoint"),)),
    "lease_lost.mp4": Script(first=(LeaseLost("taken over"),)),
    "cut_off.mp4": Script(first=(DatabaseUnavailable("connection reset"),)),
    "contested.mp4": Script(always=NeedsReview("the target changed while it was placed")),
    "unmapped.mp4": Script(always=NotMapped("no --path-map covers it")),
    "mount_gone.mp4": Script(first=(MappingUnavailable("the mapped folder is gone"),)),
    "disk_full.mp4": Script(first=(SidecarError("the disk is full", code=Code.DISK_FULL, transient=True),)),
    "corrupt.mp4": Script(always=MediaError("moov atom not found")),
    "bug.mp4": Script(always=ZeroDivisionError("division by zero")),
    "oom_once.mp4": Script(first=(OutOfDeviceMemory("CUDA failed with error out of memory"),)),
    "oom_no_cpu.mp4": Script(always=OutOfDeviceMemory("CUDA failed with error out of memory")),
    "oom_gpu.mp4": Script(model=ModelSpec.of(GPU_MODEL, device="cuda", oom_on="cuda")),
    "oom_everywhere.mp4": Script(model=ModelSpec.of(GPU_MODEL, device="cuda", oom_on="cuda,cpu")),
}
GONE = Script(always=FolderMissing("the folder is gone"))


class ScriptedRuns:
    """The ``on_run`` hook of the fake stage: it plays each file's script and counts its runs."""

    def __init__(self, scripts: dict[str, Script]) -> None:
        self.scripts = scripts
        self.runs: Counter[str] = Counter()
        self._lock = threading.Lock()

    def __call__(self, ctx: StageContext) -> None:
        name = ctx.item.path.name
        with self._lock:
            n = self.runs[name]
            self.runs[name] += 1
        script = self.scripts[name]
        if n < len(script.first):
            raise script.first[n]
        if script.always is not None:
            raise script.always
        if script.model is not None:
            assert ctx.model(script.model).call("echo", name) == name


def _files(folder: Path, names: list[str]) -> Path:
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).write_bytes(f"fake video {name}\n".encode() * 10)
    return folder


def test_every_kind_of_failure_ends_its_claim_as_its_row_says(data_dir: Path, tmp_path: Path,
                                                               fast_config: EngineConfig) -> None:
    runs = ScriptedRuns({**SCRIPTS, "gone.mp4": GONE})
    pipeline = Pipeline("video", [DigestStage("work", max_sleep=0.0, on_run=runs)])
    # One worker, so one file's "release every model" never ends another's model mid-call; a short lease,
    # so a claim left to expire comes back within a second or two.
    config = dataclasses.replace(fast_config, workers=1, lease_seconds=1.0)
    lib = Library(data_dir, {"video": pipeline}, config)
    try:
        job = lib.add(_files(tmp_path / "library", list(SCRIPTS)), JobOptions())
        doomed = lib.add(_files(tmp_path / "doomed", ["gone.mp4"]), JobOptions())
        lib.start()
        idle = threading.Thread(target=lib.run_until_idle, daemon=True)
        idle.start()
        idle.join(timeout=120)
        assert not idle.is_alive(), f"the engine never went idle: a failure left its claim hanging ({runs.runs})"
        items = {Path(i.path).name: i for i in lib.items(job.id) + lib.items(doomed.id)}
        with lib.store.db.read() as conn:
            rows = {r.item_id: r for r in conn.execute(select(stages.c.item_id, stages.c.status, stages.c.attempt,
                                                                 stages.c.failures, stages.c.error_code))}
        doomed_status = lib.status(doomed.id)[0].status
    finally:
        lib.close()

    def seen(name: str) -> tuple[str, str | None, int, int]:
        item = items[name]
        return item.status, item.error_code, rows[item.id].failures, runs.runs[name]

    tries = config.max_attempts
    # Stopped at a checkpoint, or given back for a mount that is gone: back in the queue unfailed, attempt refunded.
    for name in ("stopped.mp4", "mount_gone.mp4"):
        assert seen(name) == ("completed", None, 0, 2), name
        assert rows[items[name].id].attempt == 1, f"{name}: the given-back attempt is not counted"
    # The claim no longer ours, or the database out of reach: nothing recorded; the lease runs out and it runs again.
    for name in ("lease_lost.mp4", "cut_off.mp4"):
        assert seen(name) == ("completed", None, 0, 2), name
        assert rows[items[name].id].attempt == 2, f"{name}: the expired claim's attempt stays counted"
    assert seen("contested.mp4")[:2] == ("review", "manual_review") and rows[items["contested.mp4"].id].status == "review"
    # No mapping covers it: left queued for another machine, and never claimed here again.
    assert seen("unmapped.mp4") == ("pending", None, 0, 1) and rows[items["unmapped.mp4"].id].status == "queued"
    # The job's folder is gone: the job fails, and its item with the folder's code.
    assert (doomed_status, seen("gone.mp4")[:2]) == ("failed", ("failed", "folder_missing"))
    # Typed errors: transient ones retried with backoff, permanent ones failed at once with their own code.
    assert seen("disk_full.mp4") == ("completed", None, 1, 2)
    assert seen("corrupt.mp4") == ("failed", "corrupt_media", 1, 1)
    # Anything else is a bug: internal_error, with its type in the message, retried as a transient failure.
    assert seen("bug.mp4") == ("failed", "internal_error", tries, tries)
    assert (items["bug.mp4"].error or "").startswith("ZeroDivisionError: division by zero")
    # Out of device memory: every model released and the stage run again in the same claim, unfailed.
    assert seen("oom_once.mp4") == ("completed", None, 0, 2) and items["oom_once.mp4"].notes == ()
    # ... and with no model that could run on the CPU, models released and the stage retried later, twice a claim.
    assert seen("oom_no_cpu.mp4") == ("failed", "gpu_out_of_memory", tries, 2 * tries)
    # ... with one that can: a third run on the CPU, noted on the item, or out_of_memory for good if that fails too.
    assert seen("oom_gpu.mp4") == ("completed", None, 0, 3) and items["oom_gpu.mp4"].notes == ("gpu_fallback_cpu",)
    assert seen("oom_everywhere.mp4") == ("failed", "out_of_memory", 1, 3)
    assert "GPU and again on the CPU" in (items["oom_everywhere.mp4"].error or "")
    assert seen("fine.mp4") == ("completed", None, 0, 1)


def test_a_job_failed_while_the_database_is_out_of_reach_fails_when_it_is_back(data_dir: Path, tmp_path: Path,
                                                                            fast_config: EngineConfig) -> None:
    """Recording a job's failure is settled like any outcome: the database cut off at that moment leaves the claim
    to expire (the worker goes on), and the next run records it."""
    runs = ScriptedRuns({"gone.mp4": GONE})
    pipeline = Pipeline("video", [DigestStage("work", max_sleep=0.0, on_run=runs)])
    lib = Library(data_dir, {"video": pipeline}, dataclasses.replace(fast_config, workers=1, lease_seconds=1.0))
    try:
        job = lib.add(_files(tmp_path / "doomed", ["gone.mp4"]), JobOptions())
        record = lib.store.jobs.fail
        cut: list[int] = []

        def cut_once(job_id: int, code: Code, message: str) -> None:
            if not cut:
                cut.append(job_id)
                raise DatabaseUnavailable("connection reset")
            record(job_id, code, message)

        lib.store.jobs.fail = cut_once  # type: ignore[method-assign]
        lib.start()
        idle = threading.Thread(target=lib.run_until_idle, daemon=True)
        idle.start()
        idle.join(timeout=60)
        assert not idle.is_alive(), "the worker died recording the job's failure"
        assert (cut, runs.runs["gone.mp4"], lib.status(job.id)[0].status) == ([job.id], 2, "failed")
    finally:
        lib.close()


def test_the_failures_above_reach_every_action_of_the_table() -> None:
    """So a new action (or a row moved to another) cannot go untested by the scenario above."""
    raised = [error for script in (*SCRIPTS.values(), GONE) for error in (*script.first, script.always) if error]
    reached = {failure_of(typed_error(error)).action for error in raised}
    assert reached == set(Action), f"no failure above ends as {set(Action) - reached}"


def test_no_row_is_shadowed_by_an_earlier_base_class() -> None:
    for n, row in enumerate(FAILURES):
        assert not any(issubclass(row.error, earlier.error) for earlier in FAILURES[:n]), \
            f"{row.error.__name__} is never reached"
