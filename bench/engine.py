"""Engine overhead: no-op stage throughput and per-stage overhead, through the real store.

Run by hand: `.venv/bin/python bench/engine.py [--items N] [--stages S] [--database-url URL]`.
Prints two tables: worker threads of one engine, then 1, 2 and 4 engine *processes*
(one worker each) sharing the library, on SQLite and, given a URL, on PostgreSQL too
(each run adds its own job to that database; start from an empty one).
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

    def __init__(self, name: str) -> None:
        self.name = name

    def fingerprint(self, options: Mapping[str, Any]) -> Mapping[str, Any]:
        return JsonOutput()

    def model_spec(self, options: Mapping[str, Any]) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> JsonOutput:
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
    for i in range(items):
        (media / f"v{i:05d}.mp4").write_bytes(b"%d" % i)
    data = tmp / "data"
    data.mkdir(exist_ok=True)
    return Library(data, {"video": Pipeline("video", [NoopStage(f"s{i}") for i in range(stages)])}, config)


def measure_processes(items: int, stages: int, processes: int, database_url: str) -> float:
    """Stages/s of ``processes`` engine processes (one worker each) on one library, from a common start."""
    with tempfile.TemporaryDirectory() as tmp:
        lib = _library(Path(tmp), items, stages, EngineConfig(workers=1, database_url=database_url))
        job = lib.add(Path(tmp) / "lib", JobOptions()).id
        lib.close()
        go = Path(tmp) / "go"
        env = {**os.environ, ENV: database_url}
        children = [subprocess.Popen([sys.executable, str(HERE), "--child", tmp, "--stages", str(stages)],
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


def child(tmp: Path, stages: int) -> None:
    """One engine process of :func:`measure_processes`: open, say ready, wait for go, run to idle."""
    pipeline = Pipeline("video", [NoopStage(f"s{i}") for i in range(stages)])
    lib = Library(tmp / "data", {"video": pipeline}, EngineConfig(workers=1, poll_interval=0.01))
    print("ready", flush=True)
    while not (tmp / "go").exists():
        time.sleep(0.005)
    lib.start()
    lib.run_until_idle()
    lib.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=500)
    ap.add_argument("--stages", type=int, default=4)
    ap.add_argument("--database-url", default="", help="also measure on this PostgreSQL database")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(Path(args.child), args.stages)
        return
    print(f"{'workers':>7} {'items':>6} {'stages':>6} {'add s':>7} {'run s':>7} {'stages/s':>9} {'ms/stage':>9}")
    for workers in (1, 2, 4):
        t_add, t_run, rate = measure(args.items, args.stages, workers)
        print(f"{workers:>7} {args.items:>6} {args.stages:>6} {t_add:>7.2f} {t_run:>7.2f} {rate:>9.1f} {1000 / rate:>9.2f}")
    print("(each stage = one claim transaction + one completion transaction, both BEGIN IMMEDIATE, synchronous=FULL)")
    print()
    print(f"{'backend':>10} {'processes':>9} {'stages/s':>9}")
    for backend, url in [("sqlite", "")] + ([("postgresql", args.database_url)] if args.database_url else []):
        for processes in (1, 2, 4):
            rate = measure_processes(args.items, args.stages, processes, url)
            print(f"{backend:>10} {processes:>9} {rate:>9.1f}")
    print("(engine processes with one worker each on one library, timed from a common start to the last exit)")


if __name__ == "__main__":
    main()
