"""Fake stages with controllable timing and failures, for testing the scheduler in isolation.

They go through the real store, the real step protocol and the real atomic writer;
only the work itself is fake. Outputs are deterministic functions of the item's path
and content, so an interrupted run can be compared byte for byte with a clean one.
"""

from __future__ import annotations

import hashlib
import os
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Self

from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.stage import ModelSpec, Output, Pipeline, StageContext, StageOutput
from app.store.records import ItemView, JobSummary
from app.errors import SidecarError


@dataclass(frozen=True)
class JsonOutput(StageOutput):
    """A test stage's output: any JSON-able dict, stored as it is."""

    data: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        return cls(dict(output))

    def written(self) -> dict[str, Any]:
        return dict(self.data)


@dataclass(frozen=True)
class DigestOutput(StageOutput):
    """What :class:`DigestStage` returns: a digest chained over the stages before it."""

    digest: str = ""

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        return cls(str(output.get("digest") or ""))

    def written(self) -> dict[str, Any]:
        return {"digest": self.digest}


def chained_digest(ctx: StageContext) -> str:
    """The digests of the item's earlier digest stages, in stage order."""
    return "".join(out.digest for out in ctx.earlier_outputs() if isinstance(out, DigestOutput))


@dataclass
class DigestStage:
    """Sleeps a random while in small checkpointed steps, then returns a digest of its inputs."""

    name: str
    max_sleep: float = 0.02
    durable: bool = True
    output_type: type[DigestOutput] = DigestOutput
    fail_codes: Mapping[str, tuple[str, bool]] = field(default_factory=dict)  # file name -> (code, transient)
    fail_times: dict[str, int] = field(default_factory=dict)  # file name -> how many more times to fail
    spec: ModelSpec | None = None
    journal: Path | None = None
    model_method: Callable[[str], str] | None = None
    on_run: Callable[[StageContext], None] | None = None
    calls: list[tuple[str, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"v": 1}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return self.spec

    def run(self, ctx: StageContext) -> DigestOutput:
        name = ctx.item.path.name
        started = time.time()
        if self.on_run is not None:
            self.on_run(ctx)
        with self.lock:
            self.calls.append((name, os.getpid()))
        if self.spec is not None:
            method = self.model_method(name) if self.model_method else "echo"
            assert ctx.model(self.spec).call(method, name) == name
        steps = random.randint(1, 4)
        for n in range(steps):
            ctx.check()
            time.sleep(random.uniform(0, self.max_sleep))
            ctx.progress((n + 1) / steps)
        with self.lock:
            left = self.fail_times.get(name, 0)
            if left:
                self.fail_times[name] = left - 1
        if name in self.fail_codes and (left or name not in self.fail_times):
            code, transient = self.fail_codes[name]
            raise SidecarError(f"{self.name} failed on purpose", code=code, transient=transient)
        if self.journal is not None:
            with open(self.journal, "a", encoding="utf-8") as fh:
                fh.write(f"{os.getpid()} {ctx.item.id} {self.name} {started!r} {time.time()!r}\n")
        digest = hashlib.sha256(f"{chained_digest(ctx)}|{self.name}|{ctx.item.sha256}".encode()).hexdigest()
        return DigestOutput(digest)


@dataclass
class PlaceStage:
    """Writes ``<stem>.test.srt`` next to the source through the real step protocol."""

    name: str = "place"
    durable: bool = True
    per_path: bool = True
    output_type: type[JsonOutput] = JsonOutput
    before: Callable[[StageContext], None] | None = None

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"naming": options.naming}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> JsonOutput:
        if self.before is not None:
            self.before(ctx)
        digest = chained_digest(ctx)
        body = f"1\n00:00:00,000 --> 00:00:01,000\n{ctx.item.path.name} {digest}\n".encode("utf-8", "surrogateescape")
        placed = ctx.place([Output(name=f"{ctx.item.path.stem}.test.srt", data=body, role="transcript")])
        return JsonOutput({"placed": [str(p.path) for p in placed], "actions": [p.action for p in placed]})


def fake_pipeline(max_sleep: float = 0.02, gpu_spec: ModelSpec | None = None, journal: Path | None = None,
                  place_before: Callable[[StageContext], None] | None = None,
                  **kw: Any) -> tuple[Pipeline, list[DigestStage]]:
    """extract → transcribe (optionally on a hosted model) → translate → place; ``kw`` configures extract,
    ``place_before`` runs in place before it writes."""
    digests = [DigestStage("extract", max_sleep, journal=journal, **kw),
               DigestStage("transcribe", max_sleep, spec=gpu_spec, journal=journal),
               DigestStage("translate", max_sleep, journal=journal)]
    return Pipeline("video", [*digests, PlaceStage(before=place_before)]), digests


def make_media(folder: Path, n: int, prefix: str = "clip") -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        p = folder / f"{prefix}{i:03d}.mp4"
        p.write_bytes(f"fake video {prefix} {i}\n".encode() * 10)
        paths.append(p)
    return paths


@dataclass
class Outcome:
    """What one job left behind, read before the library closed."""

    summary: JobSummary
    items: dict[str, ItemView]
    loads: dict[str, int]


def process(lib: Library, folder: Path, options: JobOptions | None = None) -> Outcome:
    """Add ``folder`` as a job, run the engine until idle, read the outcome and close the library."""
    try:
        job = lib.add(folder, options or JobOptions())
        lib.start()
        lib.run_until_idle()
        return Outcome(lib.status(job.id)[0], {Path(i.path).name: i for i in lib.items(job.id)}, lib.model_loads())
    finally:
        lib.close()


def fail_first_call(name: str, failing_method: str) -> Callable[[str], str]:
    """A model_method that calls ``failing_method`` the first time item ``name`` reaches the model, then echoes."""
    first = {"done": False}

    def method(item: str) -> str:
        if item == name and not first["done"]:
            first["done"] = True
            return failing_method
        return "echo"

    return method
