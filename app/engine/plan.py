"""Turning a scanned file into stage rows: fingerprints, content identity and reuse.

A stage's fingerprint covers what changes its output (its own settings and the
fingerprint of the stage before it), so switching the translation model changes the
fingerprints from ``translate`` on and a re-added file re-runs only those stages.
Stage outputs are cached by (content sha256, stage, fingerprint).

Content identity is the item's own first stage (:class:`HashStage`), not part of adding
a folder: a job records what the scan saw (path, size, mtime) and is runnable at once,
instead of reading every byte of a NAS library (hours) before anything starts. A file
version Sidecar already identified keeps its recorded hash without being read, so its
reuse is planned at once; otherwise the reuse is planned when the hash stage finishes
(:func:`reused_after_hash`). The hash is its own stage rather than folded into a stage
that reads the file anyway (audio extraction): every kind needs it before its first
reusable stage, and it works the same for images, video and audio without any stage
plug-in knowing about it; the cost is a second sequential read of each new file.
"""

from __future__ import annotations

import errno
import hashlib
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Self, Sequence, TypeVar

from app.atomic_write import open_regular, sha256_file
from app.engine.job_options import JobOptions
from app.engine.stage import ModelSpec, Pipeline, Stage, StageContext, StageOutput
from app.errors import Code, SidecarError, TargetChanged
from app.store.current_items import CurrentItemRepo
from app.store.database import dumps
from app.store.jobs import JobRepo
from app.store.records import NewItem, NewStage

HASH_STAGE = "hash"
_HASH_FINGERPRINT = "content-sha256"
_CHUNK = 1 << 20  # small enough that a slow share still shows bytes read well within the stall limit

ITEM_BATCH = 1000
"""Files planned and written per transaction (an add, a watched folder receiving many files): big enough that a row
costs little more than its insert, small enough that the first rows are written within a second and memory stays a batch."""

T = TypeVar("T")


def batched(values: Iterable[T], n: int) -> Iterator[list[T]]:
    """``values`` in lists of ``n`` (the last shorter), consumed lazily (``itertools.batched`` is Python 3.12)."""
    it = iter(values)
    while chunk := list(islice(it, n)):
        yield chunk


@dataclass(frozen=True)
class HashOutput(StageOutput):
    """What :class:`HashStage` returns, and its one codec to and from the stored output."""

    sha256: str

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        return cls(str(output["sha256"]))

    def written(self) -> dict[str, Any]:
        return {"sha256": self.sha256}


@dataclass(frozen=True)
class HashStage:
    """The item's first stage: its content sha256, read once, in chunks, stoppable at each one.

    A file whose size or mtime differ from the scan fails as any stage does when its
    source changes mid-run (``target_changed``), and so does one that grows while it is
    read (more bytes than the scan saw: a download still being written). Pausing
    restarts the read from the start (a sha256 state cannot be checkpointed).

    Only a regular file is read (:func:`~app.atomic_write.open_regular`): a file that
    became a pipe or a device link since the scan fails ``not_a_regular_file`` instead
    of blocking or being read forever. An empty file fails ``empty_file`` (nothing in it
    can be media); one Sidecar may not read fails ``unreadable_file`` at once (permissions
    do not change by retrying), other read errors are retried.
    """

    name: str = HASH_STAGE
    durable: bool = True
    output_type: type[HashOutput] = HashOutput

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> HashOutput:
        ctx.verify_source_unchanged()
        digest, done = hashlib.sha256(), 0
        try:
            with open_regular(ctx.item.path) as fh:
                while chunk := fh.read(_CHUNK):
                    done += len(chunk)
                    if done > ctx.item.size:
                        raise TargetChanged(f"{ctx.item.path.name} grew while it was read; nothing was placed")
                    digest.update(chunk)
                    ctx.check()
                    ctx.progress(done / max(1, ctx.item.size), "reading")
        except FileNotFoundError as exc:
            raise SidecarError(f"{ctx.item.path.name} is gone", code=Code.FILE_MISSING) from exc
        except OSError as exc:
            denied = exc.errno in (errno.EACCES, errno.EPERM)
            raise SidecarError(f"{ctx.item.path.name} could not be read: {exc.strerror or exc}", code=Code.UNREADABLE_FILE,
                               transient=not denied) from exc
        ctx.verify_source_unchanged()
        if done == 0:
            raise SidecarError(f"{ctx.item.path.name} is empty (0 bytes)", code=Code.EMPTY_FILE)
        return HashOutput(digest.hexdigest())


def with_hash_stage(pipeline: Pipeline) -> Pipeline:
    """``pipeline`` with :class:`HashStage` first: every kind's items identify their content as their own work."""
    if pipeline.stages and isinstance(pipeline.stages[0], HashStage):
        return pipeline
    return Pipeline(pipeline.kind, [HashStage(), *pipeline.stages])


def stage_fingerprints(stages: Sequence[Stage], options: JobOptions, item_path: str, prev: str = "") -> list[str]:
    """Chained fingerprints; stages that write next to the file (``per_path``) include its path.

    ``prev`` is the fingerprint of the stage before the first of ``stages`` (``""``: none).
    The hash stage stays out of the chain, so results stored before it existed are still found.
    """
    fps = []
    for stage in stages:
        if isinstance(stage, HashStage):
            fps.append(_HASH_FINGERPRINT)
            continue
        payload: dict[str, Any] = {"stage": stage.name, "settings": dict(stage.fingerprint(options)), "prev": prev}
        if getattr(stage, "per_path", False):
            payload["path"] = item_path
        prev = hashlib.sha256(dumps(payload).encode()).hexdigest()
        fps.append(prev)
    return fps


def reusable_prefix(stages: Sequence[Stage], cached: Sequence[bool]) -> int:
    """How many leading stages can be taken from the cache.

    A stage whose output points into the (deleted) workspace is reusable only when the
    stage after it is reused too, since nothing else could read its output.
    """
    k = 0
    while k < len(stages) and cached[k]:
        k += 1
    while k > 0 and not stages[k - 1].durable and k < len(stages):
        k -= 1
    return k


def skipped_sha256(current: CurrentItemRepo, path: Path, known: str | None) -> str:
    """The content a skipped file holds, when Sidecar already knows the file; ``""`` for a file never seen.

    ``known`` is the hash recorded for this exact version (path, size, mtime), looked up
    for a whole batch of an add at once (:meth:`JobRepo.known_sha256s`).
    ``current_items`` is the newest row per path that has a sha256, so a skipped row
    without one (a folder added again after new episodes arrived: its processed videos
    are now "already subtitled") would hide the finished item and every cue it indexed.
    The skipped row carries the content instead: the same version's recorded hash, or
    a fresh hash when the path had content but the file was touched since (if the bytes
    changed, the old results rightly stop being current). Files whose content Sidecar
    never recorded are not read, so skipping a folder of subtitled videos stays a
    directory scan.
    """
    if known is None and current.had_content(str(path)):
        known = sha256_file(path)
    return known or ""


def _reused_outputs(repo: JobRepo, stages: Sequence[Stage], fps: Sequence[str], sha256: str) -> dict[int, dict[str, Any]]:
    """The outputs of the leading stages that content ``sha256`` already has (none while it is unknown)."""
    if not sha256:
        return {}
    cache = repo.cached_results(sha256, [(s.name, fp) for s, fp in zip(stages, fps) if not isinstance(s, HashStage)])
    outputs = [HashOutput(sha256).written() if isinstance(s, HashStage) else cache.get((s.name, fp))
               for s, fp in zip(stages, fps)]
    k = reusable_prefix(stages, [out is not None for out in outputs])
    return {idx: out for idx, out in enumerate(outputs[:k]) if out is not None}


def reused_after_hash(repo: JobRepo, pipeline: Pipeline, fingerprints: Sequence[str], sha256: str) -> dict[int, dict[str, Any]]:
    """The later stages an item just hashed can take from the cache (identical content computed before)."""
    reused = _reused_outputs(repo, pipeline.stages, fingerprints, sha256)
    return {idx: out for idx, out in reused.items() if not isinstance(pipeline.stages[idx], HashStage)}


class ItemPlanner:
    """Stage rows for the files of one kind under one job's options.

    What depends only on the options (each stage's model, the fingerprints up to the
    first ``per_path`` stage) is worked out once: an add of a million files would
    otherwise hash every stage's settings and look up its model a million times.
    """

    def __init__(self, repo: JobRepo, pipeline: Pipeline, options: JobOptions):
        self.repo = repo
        self.pipeline = pipeline
        self.options = options
        stages = pipeline.stages
        self._shared = next((i for i, s in enumerate(stages) if getattr(s, "per_path", False)), len(stages))
        self._shared_fps = stage_fingerprints(stages[:self._shared], options, "")
        self._prev = next((fp for s, fp in zip(reversed(stages[:self._shared]), reversed(self._shared_fps))
                           if not isinstance(s, HashStage)), "")
        self._specs = [stage.model_spec(options) for stage in stages]

    def plan(self, path: Path, size: int, mtime_ns: int, sha256: str) -> NewItem:
        """Stage rows for one file; ``sha256`` is empty when its content is not known yet (its hash stage finds it)."""
        stages = self.pipeline.stages
        fps = self._shared_fps + stage_fingerprints(stages[self._shared:], self.options, str(path), self._prev)
        reused = _reused_outputs(self.repo, stages, fps, sha256)
        new_stages = tuple(
            NewStage(idx=idx, name=stage.name, fingerprint=fp, gpu_mb=(spec.memory_mb or 1) if spec is not None else 0,
                     model_key=spec.key if spec is not None else None, reused_output=reused.get(idx))
            for idx, (stage, fp, spec) in enumerate(zip(stages, fps, self._specs)))
        return NewItem(path=str(path), kind=self.pipeline.kind, size=size, mtime_ns=mtime_ns, sha256=sha256,
                       stages=new_stages)


def plan_item(repo: JobRepo, pipeline: Pipeline, options: JobOptions, path: Path, size: int, mtime_ns: int,
              sha256: str) -> NewItem:
    """Stage rows for one file (a watched folder's, or an item planned again under its own options)."""
    return ItemPlanner(repo, pipeline, options).plan(path, size, mtime_ns, sha256)
