"""Engine overhead: no-op stage throughput and per-stage overhead, through the real store.

Run by hand: `.venv/bin/python bench/engine.py [--items N] [--workers W]`. Prints a table.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Mapping

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.config import EngineConfig  # noqa: E402
from app.engine.library import JobOptions, Library  # noqa: E402
from app.engine.stage import ModelSpec, Pipeline, StageContext  # noqa: E402


class NoopStage:
    durable = True

    def __init__(self, name: str) -> None:
        self.name = name

    def fingerprint(self, options: Mapping[str, Any]) -> Mapping[str, Any]:
        return {}

    def model_spec(self, options: Mapping[str, Any]) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> dict[str, Any]:
        return {}


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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=500)
    ap.add_argument("--stages", type=int, default=4)
    args = ap.parse_args()
    print(f"{'workers':>7} {'items':>6} {'stages':>6} {'add s':>7} {'run s':>7} {'stages/s':>9} {'ms/stage':>9}")
    for workers in (1, 2, 4):
        t_add, t_run, rate = measure(args.items, args.stages, workers)
        print(f"{workers:>7} {args.items:>6} {args.stages:>6} {t_add:>7.2f} {t_run:>7.2f} {rate:>9.1f} {1000 / rate:>9.2f}")
    print("(each stage = one claim transaction + one completion transaction, both BEGIN IMMEDIATE, synchronous=FULL)")


if __name__ == "__main__":
    main()
