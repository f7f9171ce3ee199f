"""Turning a scanned file into stage rows: fingerprints, content identity and reuse.

A stage's fingerprint covers what changes its output (its own settings and the
fingerprint of the stage before it), so switching the translation model changes the
fingerprints from ``translate`` on and a re-added file re-runs only those stages.
Stage outputs are cached by (content sha256, stage, fingerprint).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Mapping, Sequence

from app.atomic_write import sha256_file
from app.engine.stage import Pipeline, Stage
from app.store.current_items import CurrentItemRepo
from app.store.database import dumps
from app.store.jobs import JobRepo
from app.store.records import NewItem, NewStage


def stage_fingerprints(stages: Sequence[Stage], options: Mapping[str, Any], item_path: str) -> list[str]:
    """Chained fingerprints; stages that write next to the file (``per_path``) include its path."""
    fps, prev = [], ""
    for stage in stages:
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


def content_sha256(repo: JobRepo, path: Path, size: int, mtime_ns: int) -> str:
    """The file's sha256, read from an earlier scan of the same version when there is one."""
    known = repo.known_sha256(str(path), size, mtime_ns)
    return known or (sha256_file(path) or "")


def skipped_sha256(repo: JobRepo, current: CurrentItemRepo, path: Path, size: int, mtime_ns: int) -> str:
    """The content a skipped file holds, when Sidecar already knows the file; ``""`` for a file never seen.

    ``current_items`` is the newest row per path that has a sha256, so a skipped row
    without one (a folder added again after new episodes arrived: its processed videos
    are now "already subtitled") would hide the finished item and every cue it indexed.
    The skipped row carries the content instead: the same version's recorded hash, or
    a fresh hash when the path had content but the file was touched since (if the bytes
    changed, the old results rightly stop being current). Files whose content Sidecar
    never recorded are not read, so skipping a folder of subtitled videos stays a
    directory scan.
    """
    known = repo.known_sha256(str(path), size, mtime_ns)
    if known is None and current.had_content(str(path)):
        known = sha256_file(path)
    return known or ""


def plan_item(repo: JobRepo, pipeline: Pipeline, options: Mapping[str, Any], path: Path, size: int, mtime_ns: int,
              sha256: str) -> NewItem:
    fps = stage_fingerprints(pipeline.stages, options, str(path))
    cache = repo.cached_results(sha256, [(s.name, fp) for s, fp in zip(pipeline.stages, fps)])
    cached = [(s.name, fp) in cache for s, fp in zip(pipeline.stages, fps)]
    k = reusable_prefix(pipeline.stages, cached)
    new_stages = []
    for idx, (stage, fp) in enumerate(zip(pipeline.stages, fps)):
        spec = stage.model_spec(options)
        new_stages.append(NewStage(
            idx=idx, name=stage.name, fingerprint=fp,
            gpu_mb=(spec.memory_mb or 1) if spec is not None else 0,
            model_key=spec.key if spec is not None else None,
            reused_output=cache[(stage.name, fp)] if idx < k else None,
        ))
    return NewItem(path=str(path), kind=pipeline.kind, size=size, mtime_ns=mtime_ns, sha256=sha256, stages=tuple(new_stages))
