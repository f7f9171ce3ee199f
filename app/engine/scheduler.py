"""The in-process durable scheduler (SPEC §3): workers, heartbeat, recovery.

Workers claim runnable stages from the store, run the stage plug-in with a fenced
context, and hand the outcome back to the store, which owns every transition. No
transaction is held across a stage's work. A heartbeat thread beats this instance's row,
extends leases, notices lost claims and pause requests, and reclaims the work of dead
instances (app.engine.instances says which are dead). It is also the stall watchdog: a
stage that shows no life for its limit (:meth:`EngineConfig.stall_limit`) is stopped,
its models' processes ended, and its item fails ``stalled``; a worker thread stuck in a
call that never returns is left behind and replaced, so the queue always goes on.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import threading
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Callable, Mapping, ParamSpec, Sequence

from app import __version__
from app.engine.background import Hold, WorkGate
from app.engine.config import EngineConfig
from app.engine.context import ClaimContext
from app.engine.crash_reports import CrashRecorder, take_crash_report
from app.engine.failures import Action, Rerun, failure_of, typed_error
from app.engine.gpu_gate import GpuGate, MemoryProbe, NvmlProbe
from app.engine.instances import InstanceLock
from app.engine.job_options import JobOptions
from app.engine.model_pool import ModelPool
from app.engine.path_map import SAME_PATHS, LocalPaths
from app.engine.placement import cleanup_stray_temps, invalid_on_windows
from app.engine.plan import HashOutput, reused_after_hash
from app.engine.stage import BatchStage, Pipeline, Stage, StageOutput
from app.errors import (Code, DatabaseUnavailable, FolderMissing, LeaseLost, MappingUnavailable, NotMapped, SidecarError,
                        Stalled)
from app.paths import item_workspace, workspace_root
from app.store import Store
from app.store.claim_scope import EVERYTHING, ClaimScope
from app.store.instances import InstanceInfo
from app.store.records import Claim, ItemReport, Step

log = logging.getLogger(__name__)
P = ParamSpec("P")

_FLAG_REFRESH_SECONDS = 1.0
_IDLE_RELEASE_SECONDS = 20.0
#: Item note (``status --items --json``): a stage ran on the CPU because the GPU ran out of memory.
GPU_FALLBACK_CPU = Code.GPU_FALLBACK_CPU


class Scheduler:
    """``paths`` and ``scope`` make it a ``sidecar worker``: it claims only what its mappings
    reach (and its kinds, and GPU stages with ``--gpu-only``) and reads and writes through them."""

    def __init__(self, store: Store, pipelines: Mapping[str, Pipeline], data_dir: Path,
                 config: EngineConfig | None = None, probe: MemoryProbe | None = None,
                 observe_step: Callable[[str, Step], None] | None = None,
                 paths: LocalPaths = SAME_PATHS, scope: ClaimScope = EVERYTHING):
        self.store = store
        self.paths = paths
        self.scope = scope
        self._given_back: set[int] = set()  # items the mapping refused although the claim query let them through
        self.pipelines = dict(pipelines)
        self.data_dir = data_dir
        self.config = config or EngineConfig()
        self.instance = InstanceLock(data_dir)
        probe = probe if probe is not None else NvmlProbe()
        self._info = InstanceInfo(id=self.instance.id, hostname=self.instance.hostname, pid=os.getpid(),
                                  role=self.config.role, version=__version__,
                                  gpu=probe.device_name() if isinstance(probe, NvmlProbe) else None)
        store.instances.beat(self._info, self.config.lease_seconds)
        self._crashes = CrashRecorder(self.instance.folder, self.instance.id) if self.config.crash_reports else None
        self.pool = ModelPool(on_load=lambda spec: store.stages.count_model_load(spec.key))
        self.gate = GpuGate(self.config.gpu_budget_mb, self.config.max_gpu_concurrent, probe)
        self._observe_step = observe_step
        self._active: dict[int, ClaimContext] = {}
        self._active_lock = threading.Lock()
        # Worker threads (by token) that are claiming or running, not waiting: while one is, the engine is not idle,
        # so run_until_idle need not ask the store (its three reads, between every two stages, were a third of a
        # PostgreSQL worker process's CPU in bench/engine.py).
        self._seeking: set[object] = set()
        self._wake = threading.Condition()
        self._idle = threading.Condition()
        self._stopping = threading.Event()
        self._database_lost = threading.Event()  # set while claims fail with database_unavailable
        self._threads: list[threading.Thread] = []
        self._slots: dict[int, tuple[object, threading.Thread]] = {}  # worker number -> (token, thread) now serving it
        self._slot_of: dict[int, int] = {}  # stage id -> the worker number running it
        self._stalled_at: dict[int, float] = {}  # stage id -> when the watchdog stopped it
        self.on_change: Callable[[], None] = lambda: None
        self.work_gate: WorkGate | None = None  # schedule, battery, timed pause: consulted before each claim
        #: What each action of the failure table does (:meth:`_handle_failure`): one handler each.
        self._actions: Mapping[Action, Callable[[Claim, SidecarError], None]] = {
            Action.RELEASE: self._release, Action.DISCARD: self._discard, Action.LEAVE_TO_EXPIRE: self._leave_to_expire,
            Action.REVIEW: self._review, Action.GIVE_BACK: self._give_back, Action.LEAVE_TO_OTHERS: self._leave_to_others,
            Action.FAIL_JOB: self._fail_job, Action.RELEASE_MODELS_AND_RETRY: self._release_models_and_retry,
            Action.RETRY_OR_FAIL: self._retry_or_fail, Action.CRASH: self._crash,
        }

    # -- lifecycle ----------------------------------------------------------------------

    def recover(self) -> None:
        """Start-up recovery: dead instances' claims, expired leases, abandoned scans, stray temp files."""
        live = self._reclaim_others()
        failed = self.store.jobs.fail_abandoned_creating(live)
        if failed:
            log.warning("jobs %s were interrupted while scanning and are marked failed", failed)
        cleanup_stray_temps(self.store, self.paths)
        self._sweep_workspaces()

    def _sweep_workspaces(self) -> None:
        """Remove workspaces nobody needs any more (cancelled jobs, completed items) after a crash."""
        root = workspace_root(self.data_dir)
        if not root.is_dir():
            return
        live = self.store.jobs.unfinished_item_ids()
        for job_dir in root.iterdir():
            for item_dir in (job_dir.iterdir() if job_dir.is_dir() else []):
                if not item_dir.name.isdigit() or int(item_dir.name) not in live:
                    shutil.rmtree(item_dir, ignore_errors=True)
            if job_dir.is_dir() and not any(job_dir.iterdir()):
                job_dir.rmdir()

    def start(self) -> None:
        self.recover()
        if self._crashes is not None:
            self._crashes.start()
        self._stopping.clear()
        for n in range(self.config.workers):
            self._start_worker(n)
        hb = threading.Thread(target=self._heartbeat, name="sidecar-heartbeat", daemon=True)
        hb.start()
        self._threads.append(hb)
        log.info("engine %s started with %d worker(s)", self.instance.id, self.config.workers)

    def _start_worker(self, n: int) -> None:
        """Start the thread serving worker ``n``; a thread that finds another token in its slot ends."""
        token = object()
        t = threading.Thread(target=self._worker, args=(n, token), name=f"sidecar-worker-{n}", daemon=True)
        self._slots[n] = (token, t)
        self._threads.append(t)
        t.start()

    def stop(self, timeout: float = 30.0) -> None:
        """Stop workers at their next checkpoint, keep their progress, end model processes."""
        self._stopping.set()
        with self._active_lock:
            for ctx in self._active.values():
                ctx.stop_requested.set()
        self.wake()
        for t in self._threads:
            t.join(timeout=timeout)
        self._threads.clear()
        self.pool.release_all()
        try:
            self.store.instances.forget([self.instance.id])
        except DatabaseUnavailable as exc:
            log.warning("left this engine's heartbeat row to expire: %s", exc)
        if self._crashes is not None:
            self._crashes.stop()
        self.instance.release()

    def wake(self) -> None:
        with self._wake:
            self._wake.notify_all()

    def run_until_idle(self) -> None:
        """Block until nothing is runnable or running (retries that are due later are waited for).

        One quiet look at the store is enough: a claim is ``running`` from the moment it
        commits and finishing a stage queues the next in the same transaction, so there is
        no instant at which work exists but the store shows none.
        """
        tick = min(0.1, self.config.poll_interval / 2)
        while not self._stopping.is_set():
            with self._active_lock:
                busy = bool(self._active) or bool(self._seeking)
            if not busy:  # while a worker of its own claims or runs, the engine is not idle: no need to ask the store
                try:
                    runnable, running, next_retry = self.store.stages.has_runnable_or_running(self._scope())
                except DatabaseUnavailable:
                    runnable = True  # unknown until the database answers again: idle is never assumed
                if not (runnable or running or next_retry is not None):
                    return
            self.wake()
            with self._idle:
                self._idle.wait(timeout=tick)

    def held(self) -> Hold | None:
        """Why this engine may not work now (outside the schedule, on battery…), or None."""
        return self.work_gate.hold() if self.work_gate is not None else None

    def refresh_pauses(self) -> None:
        """Tell running stages of paused jobs (all of them while the work gate holds) to stop at their next checkpoint."""
        all_paused, paused_jobs = self.store.jobs.paused_state()
        all_paused = all_paused or self.held() is not None
        with self._active_lock:
            for ctx in self._active.values():
                if all_paused or ctx.claim.job_id in paused_jobs:
                    ctx.stop_requested.set()

    # -- workers ------------------------------------------------------------------------

    def _worker(self, n: int, token: object) -> None:
        owner = f"{self.instance.id}:{n}"
        if self._crashes is not None:
            self._crashes.worker_started(owner)
        try:
            self._serve(n, token, owner)
        finally:
            with self._active_lock:
                self._seeking.discard(token)

    def _serve(self, n: int, token: object, owner: str) -> None:
        """Claim and run until stopped or replaced; the worker counts as seeking except while it waits."""
        while not self._stopping.is_set() and self._slots[n][0] is token:
            with self._active_lock:
                self._seeking.add(token)
            wait = self.config.poll_interval
            try:
                claims = self._next_claims(owner)
                if self._database_lost.is_set():
                    self._database_lost.clear()
                    log.warning("the library database answers again; claiming work")
            except DatabaseUnavailable as exc:
                # Once per outage, not once a second per worker: an hour's outage is one line.
                if not self._database_lost.is_set():
                    self._database_lost.set()
                    log.warning("cannot claim work until the library database answers: %s (%s)", exc.message, exc.code)
                claims, wait = [], max(wait, _FLAG_REFRESH_SECONDS)
            except Exception:  # a store hiccup must not kill the worker
                log.exception("claim failed")
                claims = []
            if not claims:
                with self._active_lock:
                    self._seeking.discard(token)
                with self._wake:
                    # Checked under the lock that stop() notifies with, so a stop is never missed.
                    if not self._stopping.is_set():
                        self._wake.wait(timeout=wait)
                continue
            self._execute(claims, n)
            self.wake()
            with self._idle:
                self._idle.notify_all()
            self.on_change()

    def _scope(self) -> ClaimScope:
        """This engine's claim scope now: mappings whose folder is there, less the items given back."""
        prefixes = self.paths.reachable_prefixes()
        return replace(self.scope, prefixes=self.scope.prefixes if prefixes is None else prefixes,
                       exclude_items=self.scope.exclude_items | frozenset(self._given_back))

    def _next_claims(self, owner: str) -> list[Claim]:
        """A GPU stage when the gate admits the next one in order, else the next CPU stage (nothing while held).

        A GPU stage that runs batches comes with its companions (:meth:`_with_companions`),
        claimed under the gate's lock, so another worker admitted meanwhile cannot split the batch.
        """
        if self.held() is not None:
            return []
        scope = self._scope()
        with self.gate.lock:
            candidate = self.store.stages.peek_gpu_candidate(scope)
            if candidate is not None:
                sid, need, key = candidate
                if self.gate.try_admit(sid, need, key, self.pool.resident(), self.pool.release,
                                       in_use=self._models_in_use()):
                    claim = self.store.stages.claim_next_stage(owner, gpu=True, stage_id=sid, scope=scope)
                    if claim is not None:
                        return self._with_companions(claim)
                    self.gate.release(sid)
        if scope.gpu_only:
            return []
        claim = self.store.stages.claim_next_stage(owner, gpu=False, scope=scope)
        return [] if claim is None else [claim]

    def _models_in_use(self) -> set[str]:
        """Models running stages hold: the gate never releases these to make room.

        Stages declare their model, so the gate already spares the in-flight ones; this also
        covers a stage that asks for a model it did not declare (video ``place`` rows planned
        before that stage declared e5 do).
        """
        in_use: set[str] = set()
        with self._active_lock:
            for ctx in self._active.values():
                in_use |= ctx.models_in_use  # one C-level union: safe while the stage's thread adds to it
        return in_use

    def _with_companions(self, claim: Claim) -> list[Claim]:
        """``claim`` and, when its stage runs batches (:class:`BatchStage`), up to ``batch_size - 1`` more like it.

        The companions share the lead's model, so the GPU gate's admission of the lead
        covers them; each is still a claim of its own, fenced and completed apart.
        """
        pipeline = self.pipelines.get(claim.item_kind)
        stage = pipeline.stages[claim.idx] if pipeline is not None and claim.idx < len(pipeline.stages) else None
        if not isinstance(stage, BatchStage) or stage.batch_size <= 1:
            return [claim]
        try:
            return [claim, *self.store.stages.claim_companions(claim, stage.batch_size - 1, self._scope())]
        except Exception:
            log.warning("could not claim more %s stages to batch with item %s", claim.name, claim.item_id, exc_info=True)
            return [claim]

    def _begin(self, claim: Claim, n: int) -> ClaimContext | None:
        """The claim's context, registered as active; None when its file is out of reach (the failure is recorded)."""
        workspace = item_workspace(self.data_dir, claim.job_id, claim.item_id)
        pipeline = self.pipelines.get(claim.item_kind)
        try:
            self._check_source(claim)
            ctx = ClaimContext(self.store, claim, workspace, self.pool, self.config.progress_interval, self._observe_step, self.paths,
                               pipeline.stages[:claim.idx] if pipeline is not None else (),
                               not self.config.retry_policy.retries(claim.failures + 1))
        except SidecarError as exc:
            self._handle_failure(claim, exc)
            return None
        with self._active_lock:
            self._active[claim.stage_id] = ctx
            self._slot_of[claim.stage_id] = n
        return ctx

    def _execute(self, claims: list[Claim], n: int = 0) -> None:
        """Run the claims of one stage (the first one's gate admission covers all) and settle each on its own."""
        lead = claims[0]
        pipeline = self.pipelines.get(lead.item_kind)
        contexts: list[ClaimContext] = []
        try:
            for claim in claims:
                ctx = self._begin(claim, n)
                if ctx is not None:
                    contexts.append(ctx)
            if not contexts:
                return
            if pipeline is None:
                # A kind another engine on this library made (sidecar serve's requests, a newer Sidecar's
                # kind): handed back, unfailed, for that engine, and never claimed here again.
                for ctx in contexts:
                    self._handle_failure(ctx.claim, NotMapped(f"this engine has no pipeline for {lead.item_kind} items"))
                return
            if lead.idx >= len(pipeline.stages):
                error = SidecarError(f"no pipeline handles {lead.item_kind} items", code=Code.UNSUPPORTED_MEDIA)
                for ctx in contexts:
                    self._handle_failure(ctx.claim, error)
                return
            for ctx in contexts:
                ctx.workspace.mkdir(parents=True, exist_ok=True)
            self._prewarm_next(lead, pipeline)
            stage = pipeline.stages[lead.idx]
            if len(contexts) > 1 and isinstance(stage, BatchStage):
                outcomes = self._run_batch(stage, contexts)
            else:
                outcomes = [self._attempt(stage, ctx) for ctx in contexts]
            for ctx, outcome in zip(contexts, outcomes):
                self._settle_outcome(stage, pipeline, ctx, outcome)
        finally:
            self.gate.release(lead.stage_id)
            with self._active_lock:
                for claim in claims:
                    self._active.pop(claim.stage_id, None)
                    self._slot_of.pop(claim.stage_id, None)
                    self._stalled_at.pop(claim.stage_id, None)

    def _attempt(self, stage: Stage, ctx: ClaimContext) -> StageOutput | Exception:
        """One claim's run: its output, or what it raised (settled by :meth:`_settle_outcome`)."""
        try:
            return self._run_stage(stage, ctx)
        except Exception as exc:  # noqa: BLE001 - one bad file never stops the others: the failure table decides
            return exc

    def _run_batch(self, stage: BatchStage, contexts: list[ClaimContext]) -> list[StageOutput | Exception]:
        """One model call for every claim; a member's own failure comes back as its outcome.

        Should the call fail as a whole (the model process died, the device ran out of
        memory), each member runs alone instead, with the single run's out-of-memory
        handling: whichever file caused it then fails by itself.
        """
        try:
            outcomes = stage.run_batch(contexts)
        except Exception as exc:  # noqa: BLE001 - retried one by one below
            log.warning("batched %s of %d items failed as a whole (%s); running them one at a time",
                        stage.name, len(contexts), exc)
            return [self._attempt(stage, ctx) for ctx in contexts]
        return list(outcomes)

    def _settle_outcome(self, stage: Stage, pipeline: Pipeline, ctx: ClaimContext,
                        outcome: StageOutput | Exception) -> None:
        """Complete the claim with its output, or end it as the failure table says; each claim on its own."""
        claim = ctx.claim
        try:
            if isinstance(outcome, Exception):
                if ctx.stalled.is_set() and not isinstance(outcome, Stalled):
                    raise self._stalled(ctx) from outcome  # what the stopped stage raised is the stop's echo
                raise outcome
            if ctx.stalled.is_set():
                raise self._stalled(ctx)
            if ctx.lost.is_set():
                raise LeaseLost("claim lost while the stage ran")
            identified = outcome.sha256 if isinstance(outcome, HashOutput) else None
            reused = (reused_after_hash(self.store.jobs, pipeline, self.store.stages.fingerprints(claim.item_id), identified)
                      if identified else None)
            written = outcome.written()
            if ctx.on_cpu:  # it ran on the CPU after running out of device memory: the item notes why it was slow
                written = ItemReport(note=GPU_FALLBACK_CPU).written(written)
            if self.store.stages.complete_stage(claim, written, identified=identified, reused=reused):
                shutil.rmtree(ctx.workspace, ignore_errors=True)
        except Exception as exc:  # noqa: BLE001 - one bad file never stops the others: the failure table decides
            self._handle_failure(claim, exc)

    def _stall_limit(self, ctx: ClaimContext) -> float:
        uses_model = bool(ctx.models_in_use) or ctx.claim.model_key is not None
        return self.config.stall_limit(uses_model, _media_seconds(ctx.earlier_outputs()))

    def _stalled(self, ctx: ClaimContext) -> Stalled:
        return Stalled(f"step “{ctx.claim.name}” made no progress for {self._stall_limit(ctx):.0f} s, so it was "
                       "stopped (the file may be on a disk that stopped answering, or the model hung)")

    def _watch_stalls(self, active: list[ClaimContext], now: float) -> None:
        """Stop stages that showed no life for their limit; replace a worker whose stage will not stop.

        Stopping is asking (the stage's next :meth:`ClaimContext.check` raises) and ending
        the processes of the models it uses, which ends a hung model call at once. A stage
        stuck where it checks nothing (a read from a disk that stopped answering) gets as
        long again; then its item fails ``stalled`` here, its claim is dropped, and a fresh
        thread takes over its worker slot. The stuck thread's late result is refused
        (its claim is lost) and it ends instead of claiming more.
        """
        for ctx in active:
            sid, limit = ctx.claim.stage_id, self._stall_limit(ctx)
            if not ctx.stalled.is_set():
                if now - ctx.last_activity >= limit:
                    log.warning("stage %s of %s made no progress for %.0f s: stopping it", ctx.claim.name,
                                ctx.claim.item_path, now - ctx.last_activity)
                    self._stalled_at[sid] = now
                    ctx.stalled.set()
                    models = list(ctx.models_in_use)
                    if models:  # ending a process can take a moment; the heartbeat must not wait for it
                        threading.Thread(target=self._kill_models, args=(models,), name="sidecar-stall-release",
                                         daemon=True).start()
            elif now - self._stalled_at.get(sid, now) >= max(limit, self.config.heartbeat_seconds):
                self._abandon(ctx)

    def _kill_models(self, keys: list[str]) -> None:
        for key in keys:
            self.pool.release(key, hung=True)

    def _abandon(self, ctx: ClaimContext) -> None:
        claim = ctx.claim
        with self._active_lock:
            if self._active.pop(claim.stage_id, None) is None:
                return  # it finished after all
            n = self._slot_of.pop(claim.stage_id, 0)
            self._stalled_at.pop(claim.stage_id, None)
        log.warning("stage %s of %s did not stop after it stalled; its worker is replaced", claim.name, claim.item_path)
        ctx.lost.set()
        stalled = self._stalled(ctx)
        # Its row's action, without the table's look at the mount: a disk that stopped answering would hang
        # this thread (the heartbeat) as it hangs the stage's.
        self._actions[failure_of(stalled).action](claim, stalled)
        self.gate.release(claim.stage_id)
        stuck_token, stuck = self._slots[n]
        with self._active_lock:
            self._seeking.discard(stuck_token)  # a thread stuck in a stage must not keep run_until_idle waiting
        if stuck in self._threads:
            self._threads.remove(stuck)  # stop() does not wait for it
        if not self._stopping.is_set():
            self._start_worker(n)
        self.wake()

    def _run_stage(self, stage: Stage, ctx: ClaimContext) -> StageOutput:
        """Run the stage, and again up the ladder of its failure's row while it keeps failing that way.

        Out of device memory (:data:`app.engine.failures.FAILURES`): the first may be other
        resident models holding the device, so all are released and the stage runs again there
        (a checkpointing stage resumes where it stopped). Failing again, it runs once more with
        its models on the CPU and the item notes the fallback, so a person sees why it was slow.
        Out of memory on the CPU too fails the stage for good.
        """
        climbed = 0
        while True:
            try:
                return stage.run(ctx)
            except Exception as exc:
                error = typed_error(exc)
                failure = failure_of(error)
                rungs_left = failure.ladder[climbed:]
                if climbed and not rungs_left and failure.beyond_ladder is not None:
                    raise failure.beyond_ladder(ctx.claim.name) from exc
                if not rungs_left or not self._climb(rungs_left[0], ctx, error):
                    raise
                climbed += 1

    def _climb(self, rung: Rerun, ctx: ClaimContext, error: SidecarError) -> bool:
        """Ready the claim for the rung's run; False when it cannot take the rung (no model of it runs on the CPU)."""
        if rung.on_cpu and not ctx.can_fall_back:
            return False
        log.warning("%s in %s of %s: releasing every model and running it again%s", error.code, ctx.claim.name,
                    ctx.claim.item_path, " on the CPU" if rung.on_cpu else "")
        self.pool.release_all()
        ctx.on_cpu |= rung.on_cpu
        return True

    def _prewarm_next(self, claim: Claim, pipeline: Pipeline) -> None:
        """Start loading the model the item's next stage needs while this CPU stage runs.

        Only when the GPU side is idle and the model fits beside what is resident, so a
        prewarm never evicts anything and never competes with a running model stage.
        """
        if claim.gpu_mb or claim.idx + 1 >= len(pipeline.stages):
            return
        try:
            spec = pipeline.stages[claim.idx + 1].model_spec(JobOptions.from_stored(claim.options))
        except SidecarError:
            return
        resident = self.pool.resident()
        if spec is None or spec.key in resident or self.gate.in_flight:
            return
        if sum(resident.values()) + spec.memory_mb > self.gate.budget_mb(sum(resident.values())):
            return

        def load() -> None:
            try:
                self.pool.get(spec)
            except Exception as exc:  # noqa: BLE001 - the stage itself will report a load failure
                log.info("prewarming %s failed: %s", spec.runtime, exc)

        threading.Thread(target=load, name="sidecar-prewarm", daemon=True).start()

    def _fail(self, claim: Claim, code: Code, message: str, transient: bool) -> None:
        self.store.stages.fail_stage(claim, code, message, transient, self.config.retry_policy)

    @staticmethod
    def _settle(fn: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> None:
        try:
            fn(*args, **kwargs)
        except LeaseLost:
            log.info("claim lost before its outcome could be recorded")
        except DatabaseUnavailable as exc:
            log.warning("the outcome of a claim could not be recorded: %s (%s); its claim is left to expire",
                        exc.message, exc.code)

    def _check_source(self, claim: Claim) -> None:
        """The file is where this machine looks for it; a vanished mount is not a vanished file."""
        local = self.paths.to_local(claim.item_path)
        if local is None:
            raise NotMapped(f"no --path-map of this worker covers {claim.item_path}")
        if sys.platform == "win32" and invalid_on_windows(Path(local).name):
            raise SidecarError(f"{Path(local).name} is a name Windows does not allow, so this machine cannot open it; "
                               "rename it, or let a Linux or macOS machine process it", code=Code.INVALID_NAME)
        if os.path.exists(local):
            return
        if self._mount_gone(claim):
            raise MappingUnavailable(f"the mapped folder {self.paths.local_root(claim.item_path)} is gone")
        folder = self.paths.to_local(claim.job_folder)
        if folder is not None and not os.path.exists(folder):
            raise FolderMissing(f"the folder {claim.job_folder} is gone")
        raise SidecarError(f"{Path(claim.item_path).name} is gone", code=Code.FILE_MISSING)

    def _mount_gone(self, claim: Claim) -> bool:
        root = self.paths.local_root(claim.item_path)
        return root is not None and not os.path.isdir(root)

    def _handle_failure(self, claim: Claim, exc: Exception) -> None:
        """End a claim whose stage failed, or whose file was out of reach before it began, as its row says."""
        error = typed_error(exc)
        failure = failure_of(error)
        if failure.unless_mount_gone and self._mount_gone(claim):
            error = MappingUnavailable(f"{error.message} (the mapped folder is gone)")
            failure = failure_of(error)
        self._actions[failure.action](claim, error)

    # -- the failure table's actions (app.engine.failures.Action), one handler each -----------

    def _release(self, claim: Claim, error: SidecarError) -> None:
        self._settle(self.store.stages.release_stage, claim)

    def _discard(self, claim: Claim, error: SidecarError) -> None:
        log.info("stage %s of item %s: claim lost, its result is discarded", claim.name, claim.item_id)

    def _leave_to_expire(self, claim: Claim, error: SidecarError) -> None:
        # Nothing can be recorded or fenced now, so nothing was placed: the lease runs out and
        # whichever engine reaches the database runs the stage again, uncounted as a failure.
        log.warning("stage %s of item %s stopped: %s (%s); its claim is left to expire",
                    claim.name, claim.item_id, error.message, error.code)

    def _review(self, claim: Claim, error: SidecarError) -> None:
        self._settle(self.store.stages.to_review, claim, error.message)

    def _give_back(self, claim: Claim, error: SidecarError) -> None:
        """Hand the claim back unfailed (its attempt refunded, its checkpoint kept) for a machine that reaches it.

        A vanished mount leaves the scope by itself (:meth:`_scope` checks each mapping's folder).
        """
        log.warning("stage %s of %s given back (%s): %s", claim.name, claim.item_path, error.code, error.message)
        self._settle(self.store.stages.release_stage, claim)

    def _leave_to_others(self, claim: Claim, error: SidecarError) -> None:
        self._given_back.add(claim.item_id)  # out of this engine's scope from now on
        self._give_back(claim, error)

    def _fail_job(self, claim: Claim, error: SidecarError) -> None:
        self._settle(self.store.jobs.fail, claim.job_id, error.code, error.message)

    def _release_models_and_retry(self, claim: Claim, error: SidecarError) -> None:
        log.warning("out of device memory in %s of %s: releasing models and retrying", claim.name, claim.item_path)
        self.pool.release_all()
        self._settle(self._fail, claim, error.code, "the device ran out of memory; models were released and "
                     "the stage will be retried", True)

    def _retry_or_fail(self, claim: Claim, error: SidecarError) -> None:
        log.info("stage %s of %s failed: %s (%s)", claim.name, claim.item_path, error.message, error.code)
        self._settle(self._fail, claim, error.code, error.message, error.transient)

    def _crash(self, claim: Claim, error: SidecarError) -> None:
        log.error("stage %s of %s crashed", claim.name, claim.item_path, exc_info=error.__cause__ or error)
        self._settle(self._fail, claim, error.code, error.message, error.transient)

    # -- heartbeat ----------------------------------------------------------------------

    def _heartbeat(self) -> None:
        last_beat = last_recover = time.monotonic()
        idle_since: float | None = None
        while not self._stopping.wait(min(_FLAG_REFRESH_SECONDS, self.config.heartbeat_seconds)):
            try:
                now = time.monotonic()
                with self._active_lock:
                    active = list(self._active.values())
                if now - last_beat >= self.config.heartbeat_seconds:
                    last_beat = now
                    self.store.instances.beat(self._info, self.config.lease_seconds,
                                              Counter(ctx.claim.name for ctx in active))
                    lost = {c.stage_id for c in self.store.stages.heartbeat([ctx.claim for ctx in active])}
                    for ctx in active:
                        if ctx.claim.stage_id in lost:
                            ctx.lost.set()
                self.refresh_pauses()
                self._watch_stalls(active, now)
                if now - last_recover >= self.config.lease_seconds:
                    last_recover = now
                    self._reclaim_others()
                idle_since = self._release_idle_models(bool(active), idle_since, now)
            except DatabaseUnavailable as exc:
                log.warning("heartbeat failed: %s (%s)", exc.message, exc.code)
            except Exception:  # keep beating through transient store errors
                log.exception("heartbeat failed")

    def _reclaim_others(self) -> list[str]:
        """Reclaim what dead instances held, and any expired lease; returns the live instances.

        Dead means its lock here is free (this machine: at once, and its crash report is
        read) or its heartbeat row expired (any machine). Rows of instances dead for a
        while are pruned.
        """
        others = [r for r in self.store.instances.rows() if r.id != self.instance.id]
        dead = [r.id for r in others if r.hostname == self.instance.hostname and self.instance.is_dead(r.id)]
        for iid in dead:
            crash = take_crash_report(self.instance.folder, iid)
            if crash is not None:
                self.store.stages.count_crash(crash.owner, crash.error, self.config.crash_limit)
        if dead:
            self.store.stages.reclaim(instances_gone=dead, expired=False)
            self.store.instances.forget(dead)
            for iid in dead:
                self.instance.remove_lock(iid)
        expired = self.store.instances.reclaim_expired(exclude=self.instance.id)
        self.store.instances.prune()
        if self.store.stages.reclaim(expired=True) or dead or expired:
            self.wake()
        return [self.instance.id] + [r.id for r in others if r.id not in dead and not r.expired]

    def _release_idle_models(self, busy: bool, idle_since: float | None, now: float) -> float | None:
        if busy or not self.pool.resident():
            return None
        if idle_since is None:
            return now
        if now - idle_since >= _IDLE_RELEASE_SECONDS:
            self.pool.release_all()
            return None
        return idle_since


def _media_seconds(earlier: Sequence[StageOutput]) -> float:
    """The item's media duration as its earlier stages found it (audio extraction, transcription); 0 before."""
    return max((seconds for output in earlier if (seconds := output.media_seconds) is not None), default=0.0)
