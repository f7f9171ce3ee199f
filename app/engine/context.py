"""The concrete StageContext the scheduler hands to a stage for one claim."""

from __future__ import annotations

import logging
import os
import stat
import threading
import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Callable, Sequence

from app.engine.job_options import JobOptions
from app.engine.model_pool import ModelPool
from app.engine.path_map import SAME_PATHS, LocalPaths
from app.engine.placement import Placement
from app.engine.stage import ItemRef, ModelClient, Output, OutputT, Placed, SearchIndex, Stage, StageOutput
from app.errors import Code, LeaseLost, NotMapped, NotRegularFile, SidecarError, Stalled, StageStopped, TargetChanged
from app.ml.spec import ModelSpec
from app.store import Store
from app.store.records import Claim, Step
from app.store.search_writes import SearchIndexWriter

log = logging.getLogger(__name__)


class ClaimContext:
    """Everything a stage may touch, all of it fenced on the claim.

    ``item.path`` is where this machine reads the file (``paths`` maps the library's path);
    what the stage records — placed files, search rows — goes back under the library's path.
    ``earlier`` are the item's stages before this one: :meth:`input` finds an output by the type they declare.
    """

    def __init__(self, store: Store, claim: Claim, workspace: Path, pool: ModelPool,
                 progress_interval: float, observe_step: Callable[[str, Step], None] | None = None,
                 paths: LocalPaths = SAME_PATHS, earlier: Sequence[Stage] = (), last_try: bool = True):
        self.store = store
        self.claim = claim
        self.last_try = last_try
        self.paths = paths
        local = paths.to_local(claim.item_path)
        if local is None:
            raise NotMapped(f"no --path-map of this worker covers {claim.item_path}")
        self.workspace = workspace
        self.pool = pool
        self.item = ItemRef(
            id=claim.item_id, job_id=claim.job_id, path=Path(local), kind=claim.item_kind,
            sha256=claim.item_sha256, size=claim.item_size, mtime_ns=claim.item_mtime_ns, revision=claim.item_revision,
        )
        self.options = JobOptions.from_stored(claim.options)
        self.earlier = tuple(earlier)
        self._earlier_outputs: list[StageOutput] | None = None
        self.partial: Any = claim.partial
        self.lost = threading.Event()
        self.stop_requested = threading.Event()
        #: Set by the scheduler's stall watchdog: the stage made no progress for too long.
        self.stalled = threading.Event()
        #: When the stage last showed life (a progress report, a model asked for): what the watchdog reads.
        self.last_activity = time.monotonic()
        self.models_in_use: set[str] = set()
        #: Set by the scheduler after an out-of-memory error that survived releasing every model:
        #: the stage's models then load on the CPU (see :meth:`ModelSpec.on_cpu`).
        self.on_cpu = False
        #: Whether a model this claim asked for runs on a GPU and could run on the CPU instead.
        self.can_fall_back = False
        self._progress_interval = progress_interval
        self._last_progress = 0.0
        self._observe_step = observe_step
        self.search_index: SearchIndex = SearchIndexWriter(self._fenced_write, self._library_path)

    def save_partial(self, data: Any) -> None:
        self.store.stages.record_checkpoint(self.claim, data)
        self.partial = data

    def progress(self, fraction: float, note: str = "") -> None:
        now = self.last_activity = time.monotonic()
        if fraction < 1.0 and now - self._last_progress < self._progress_interval:
            return
        self._last_progress = now
        try:
            self.store.stages.record_progress(self.claim, fraction, note)
        except LeaseLost:
            self.lost.set()
            raise

    def should_stop(self) -> bool:
        return self.lost.is_set() or self.stop_requested.is_set() or self.stalled.is_set()

    def check(self) -> None:
        if self.lost.is_set():
            raise LeaseLost("this stage was taken over or cancelled")
        if self.stalled.is_set():
            raise Stalled(f"step “{self.claim.name}” made no progress for too long and was stopped")
        if self.stop_requested.is_set():
            raise StageStopped("paused at a checkpoint")

    def model(self, spec: ModelSpec) -> ModelClient:
        self.check()
        self.last_activity = time.monotonic()
        cpu = spec.on_cpu()
        if cpu is not None:
            self.can_fall_back = True
            if self.on_cpu:
                spec = cpu
        self.models_in_use.add(spec.key)  # the gate never releases it until this stage ends
        return self.pool.get(spec)

    def input(self, kind: type[OutputT]) -> OutputT:
        for stage in reversed(self.earlier):
            if stage.output_type is kind:
                return kind.read(self.claim.inputs.get(stage.name) or {})
        raise LookupError(f"no stage before “{self.claim.name}” returns {kind.__name__}")

    def earlier_outputs(self) -> list[StageOutput]:
        """Every earlier stage's output, decoded once (the stall watchdog asks on every heartbeat), in stage order."""
        if self._earlier_outputs is None:
            self._earlier_outputs = [stage.output_type.read(self.claim.inputs.get(stage.name) or {})
                                     for stage in self.earlier]
        return self._earlier_outputs

    def computed_output(self, kind: type[OutputT]) -> OutputT | None:
        found = self.store.stages.computed_output(self.claim)
        return None if found is None else kind.read(found)

    def _library_path(self, local: str) -> str:
        return self.paths.to_library(str(local)) or str(local)

    def _fenced_write(self) -> AbstractContextManager[Any]:
        """The transaction of one index write: refused when stopping, and checked on the claim inside it."""
        self.check()
        return self.store.stages.fenced_write(self.claim)

    def verify_source_unchanged(self) -> None:
        try:
            st = os.stat(self.item.path)
        except FileNotFoundError as exc:
            raise SidecarError(f"{self.item.path.name} is gone", code=Code.FILE_MISSING) from exc
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(f"{self.item.path.name} is no longer a regular file (a pipe, socket or device now)")
        if st.st_size != self.item.size or st.st_mtime_ns != self.item.mtime_ns:
            raise TargetChanged(f"{self.item.path.name} changed while it was being processed; nothing was placed")

    def place(self, outputs: Sequence[Output]) -> list[Placed]:
        self.check()
        self.verify_source_unchanged()
        return Placement(self.store, self.claim, self.workspace, self.options.existing_policy, self.verify_source_unchanged,
                         self._observe_step, self.paths).place(outputs)
