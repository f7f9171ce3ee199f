"""Engine overhead: no-op stage throughput and per-stage overhead, through the real store.

Run by hand: `.venv/bin/python bench/engine.py [--items N] [--stages S] [--stage-ms MS]
[--processes 1,2,4,8] [--database-url URL]`. Prints two tables: worker threads of one
engine running no-op stages, then 1, 2, 4 and 8 engine *processes* (one worker each)
sharing the library, on SQLite and, given a URL, on PostgreSQL too (each run adds its
own job to that database; start from an empty one).

In the process table every stage is a sleep of ``--stage-ms``: the machine has two cores,
so stages that computed would measure the CPU; a sleep takes none, and what is left is
the database and the engine's own work per stage (claims, completions, polls, leases).
On SQLite the writes take turns (one writer, WAL): the table prints that ceiling, the
stages/s of write transactions one after another.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Mapping

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app.pipelines  # noqa: E402,F401 - registers the media kinds (the video kind's extensions)
from app.engine.config import EngineConfig  # noqa: E402
from app.engine.library import JobOptions, Library  # noqa: E402
from app.engine.stage import ModelSpec, Pipeline, StageContext  # noqa: E402
from app.store.location import ENV  # noqa: E402
from tests.engine_stages import JsonOutput  # noqa: E402

HERE = Path(__file__).resolve()


class NoopStage:
    durable = True
    output_type = JsonOutput

    def __init__(self, name: str, seconds: float = 0.0) -> None:
        self.name = name
        self.seconds = seconds

    def fingerprint(self, options: Mapping[str, Any]) -> Mapping[str, Any]:
        return {}

    def model_spec(self, options: Mapping[str, Any]) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> JsonOutput:
        if self.seconds:
            time.sleep(self.seconds)
        return JsonOutput()


def measure(items: int, stages: int, workers: int) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        media = Path(tmp) / "lib"
        media.mkdir()
        for i in range(items):
            (media / f"v{i:05d}.mp4").write_bytes(b"%d" % i)
        data = Path(tmp) / "data"
        data.mkdir()
        pipeline = Pipeline("video", [NoopStage(f"s{i}") for i in range(stages)])
        lib = Library(data, {"video": pipeline}, EngineConfig(workers=workers, poll_interval=0.01))
        t0 = time.perf_counter()
        lib.add(media, JobOptions())
        t_add = time.perf_counter() - t0
        t0 = time.perf_counter()
        lib.start()
        lib.run_until_idle()
        t_run = time.perf_counter() - t0
        assert lib.status()[0].done == items
        lib.close()
    return t_add, t_run, items * stages / t_run


def _library(tmp: Path, items: int, stages: int, config: EngineConfig) -> Library:
    media = tmp / "lib"
    media.mkdir()
    run = os.urandom(8).hex().encode()  # contents new to the database: a later run must not reuse cached results
    for i in range(items):
        (media / f"v{i:05d}.mp4").write_bytes(b"%s-%d" % (run, i))
    data = tmp / "data"
    data.mkdir(exist_ok=True)
    return Library(data, {"video": Pipeline("video", [NoopStage(f"s{i}") for i in range(stages)])}, config)


def one_writer_ceiling(items: int, stages: int) -> float:
    """Stages/s of SQLite's write transactions back to back: each stage's claim and completion, nothing else.

    SQLite has one writer at a time, so no number of processes gets more stages through
    than this (their reads and their stages' own work do overlap it).
    """
    with tempfile.TemporaryDirectory() as tmp:
        lib = _library(Path(tmp), items, stages, EngineConfig(workers=1))
        lib.add(Path(tmp) / "lib", JobOptions())
        repo = lib.store.stages
        done, t0 = 0, time.perf_counter()
        while (claim := repo.claim_next_stage("ceiling:0", gpu=False)) is not None:
            repo.complete_stage(claim, {})
            done += 1
        elapsed = time.perf_counter() - t0
        lib.close()
    return done / elapsed


def measure_processes(items: int, stages: int, processes: int, database_url: str, stage_ms: float) -> float:
    """Stages/s of ``processes`` engine processes (one worker each) on one library, from a common start."""
    with tempfile.TemporaryDirectory() as tmp:
        lib = _library(Path(tmp), items, stages, EngineConfig(workers=1, database_url=database_url))
        job = lib.add(Path(tmp) / "lib", JobOptions()).id
        lib.close()
        go = Path(tmp) / "go"
        env = {**os.environ, ENV: database_url}
        children = [subprocess.Popen([sys.executable, str(HERE), "--child", tmp, "--stages", str(stages),
                                      "--stage-ms", str(stage_ms)],
                                     stdout=subprocess.PIPE, text=True, env=env) for _ in range(processes)]
        for child in children:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        t0 = time.perf_counter()
        go.touch()
        assert [child.wait(timeout=600) for child in children] == [0] * processes
        elapsed = time.perf_counter() - t0
        lib = Library(Path(tmp) / "data", {}, EngineConfig(workers=1, database_url=database_url))
        assert lib.status(job)[0].done == items
        lib.close()
    return items * stages / elapsed


def child(tmp: Path, stages: int, stage_ms: float) -> None:
    """One engine process of :func:`measure_processes`: open, say ready, wait for go, run to idle."""
    pipeline = Pipeline("video", [NoopStage(f"s{i}", stage_ms / 1000) for i in range(stages)])
    lib = Library(tmp / "data", {"video": pipeline}, EngineConfig(workers=1, poll_interval=0.01))
    print("ready", flush=True)
    while not (tmp / "go").exists():
        time.sleep(0.005)
    lib.start()
    lib.run_until_idle()
    lib.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=500, help="items of the thread table")
    ap.add_argument("--process-items", type=int, default=100, help="items of the process table")
    ap.add_argument("--stages", type=int, default=4)
    ap.add_argument("--stage-ms", type=float, default=20.0, help="each stage's sleep in the process table")
    ap.add_argument("--processes", default="1,2,4,8")
    ap.add_argument("--no-threads", action="store_true", help="only the process table")
    ap.add_argument("--database-url", default="", help="also measure on this PostgreSQL database")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(Path(args.child), args.stages, args.stage_ms)
        return
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores\n")
    if not args.no_threads:
        print(f"{'workers':>7} {'items':>6} {'stages':>6} {'add s':>7} {'run s':>7} {'stages/s':>9} {'ms/stage':>9}")
        for workers in (1, 2, 4):
            t_add, t_run, rate = measure(args.items, args.stages, workers)
            print(f"{workers:>7} {args.items:>6} {args.stages:>6} {t_add:>7.2f} {t_run:>7.2f} {rate:>9.1f} {1000 / rate:>9.2f}")
        print("(no-op stages; each = one claim transaction + one completion transaction, both BEGIN IMMEDIATE)")
        print()
    processes = [int(p) for p in args.processes.split(",")]
    print(f"{args.process_items} items x {args.stages} stages, each stage a {args.stage_ms:g} ms sleep (no CPU: "
          f"what is measured is the database and the engine's work per stage)")
    print(f"{'backend':>10} {'processes':>9} {'stages/s':>9} {'x one':>6} {'ideal':>6}")
    ideal_one = 1000 / args.stage_ms
    for backend, url in [("sqlite", "")] + ([("postgresql", args.database_url)] if args.database_url else []):
        one = 0.0
        for n in processes:
            rate = measure_processes(args.process_items, args.stages, n, url, args.stage_ms)
            one = one or rate
            print(f"{backend:>10} {n:>9} {rate:>9.1f} {rate / one:>6.2f} {n * ideal_one:>6.0f}", flush=True)
        if backend == "sqlite":
            print(f"{'sqlite':>10} {'ceiling':>9} {one_writer_ceiling(args.process_items, args.stages):>9.1f}"
                  "  (one writer: claim + completion transactions back to back, no stage work)")
    print("(engine processes with one worker each on one library, timed from a common start to the last exit;"
          " ideal: n / stage sleep)")


if __name__ == "__main__":
    main()
