"""Liveness costs: what a heartbeat write costs, and how soon a dead engine's stage goes back to the queue.

Run by hand: `.venv/bin/python bench/liveness.py [--beats N] [--rounds R] [--postgres]`. Prints a table.

* heartbeat write: one ``InstanceRepo.beat`` (an UPDATE of the instance row in its own
  write transaction; SQLite in WAL with synchronous=FULL, or a throwaway PostgreSQL 15
  cluster with ``--postgres``). Every engine writes one per ``lease/3`` seconds.
* reclaim, killed here: an engine process (tests/engine_child.py) is killed with -9
  mid-stage; another engine on this machine finds its lock free at its next liveness
  pass (every lease) and requeues the stage.
* reclaim, remote stopped: an instance row of another machine holds a stage and stops
  beating; it is requeued once its row (and the stage's lease) expire: between one and
  two leases.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Mapping

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sqlalchemy import select  # noqa: E402

import app.pipelines  # noqa: E402,F401 - registers the media kinds, as the CLI does
from app.engine.config import EngineConfig  # noqa: E402
from app.engine.library import JobOptions, Library  # noqa: E402
from app.engine.stage import ModelSpec, Pipeline, StageContext  # noqa: E402
from app.store import Store  # noqa: E402
from app.store.database import Database  # noqa: E402
from app.store.instances import InstanceInfo, InstanceRepo  # noqa: E402
from app.store.tables import stages  # noqa: E402
from tests.engine_stages import JsonOutput, fake_pipeline, make_media  # noqa: E402

REMOTE = InstanceInfo("far-box-1-bench", "far-box", 1, "worker")


class SlowStage:
    """A stage that takes long enough to be running when its engine dies."""

    durable = True
    output_type = JsonOutput

    def __init__(self, name: str) -> None:
        self.name = name

    def fingerprint(self, options: Mapping[str, Any]) -> Mapping[str, Any]:
        return JsonOutput()

    def model_spec(self, options: Mapping[str, Any]) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> JsonOutput:
        for _ in range(100):
            ctx.check()
            time.sleep(0.1)
        return JsonOutput()


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    return statistics.mean(ordered), ordered[len(ordered) // 2], ordered[int(len(ordered) * 0.95) - 1]


def beat_cost(db: Database, beats: int) -> tuple[float, float, float]:
    repo = InstanceRepo(db)
    repo.beat(REMOTE, 30.0)
    samples = []
    for n in range(beats):
        t0 = time.perf_counter()
        repo.beat(REMOTE, 30.0, {"transcribe": 1, "place": n % 3})
        samples.append((time.perf_counter() - t0) * 1000)
    return percentiles(samples)


def _slow_job(tmp: Path, config: EngineConfig) -> Library:
    media = tmp / "lib"
    media.mkdir()
    for i in range(4):
        (media / f"v{i}.mp4").write_bytes(b"%d" % i)
    lib = Library(tmp / "data", {"video": Pipeline("video", [SlowStage("work")])}, config)
    lib.add(media, JobOptions())
    return lib


def _wait(condition: Callable[[], bool], timeout: float = 60.0) -> float:
    t0 = time.monotonic()
    while not condition():
        if time.monotonic() - t0 > timeout:
            raise TimeoutError("the stage was never reclaimed")
        time.sleep(0.02)
    return time.monotonic()


def _owners(store: Store) -> list[str | None]:
    with store.db.read() as conn:
        return list(conn.execute(select(stages.c.lease_owner).where(stages.c.status == "running")).scalars())


def reclaim_after_kill(lease: float) -> float:
    """Seconds from kill -9 of an engine here to its running stage being requeued by another engine.

    The killed engine is tests/engine_child.py (its stages sleep up to 3 s, its lease is 5 s).
    """
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        make_media(Path(tmp) / "lib", 4)
        config = EngineConfig(workers=0, lease_seconds=lease, poll_interval=0.05)
        lib = Library(data, {"video": fake_pipeline(3.0)[0]}, config)
        lib.add(Path(tmp) / "lib", JobOptions(naming="compat"))
        child = subprocess.Popen([sys.executable, "-m", "tests.engine_child", str(data), "--workers", "1",
                                  "--max-sleep", "3"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
            prefix = f"{socket.gethostname()[:20]}-{child.pid}-"
            _wait(lambda: any((o or "").startswith(prefix) for o in _owners(lib.store)))
            lib.start()  # the surviving engine (no workers of its own: it only watches)
            time.sleep(lease * 0.3)  # kill at an arbitrary point of the survivor's liveness cycle
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
            t0 = time.monotonic()
            return _wait(lambda: not any((o or "").startswith(prefix) for o in _owners(lib.store))) - t0
        finally:
            if child.poll() is None:
                child.kill()
            lib.close()


def reclaim_after_silence(lease: float) -> float:
    """Seconds from a remote instance's last heartbeat to its running stage being requeued."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "data").mkdir()
        lib = _slow_job(Path(tmp), EngineConfig(workers=0, lease_seconds=lease, poll_interval=0.05))
        try:
            lib.store.instances.beat(REMOTE, lease)
            assert lib.store.stages.claim_next_stage(f"{REMOTE.id}:0", gpu=None) is not None
            t0 = time.monotonic()
            lib.start()
            done = _wait(lambda: f"{REMOTE.id}:0" not in _owners(lib.store))
            return done - t0
        finally:
            lib.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--beats", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--lease", type=float, default=5.0,
                    help="the survivor's lease seconds (heartbeat every lease/3; the killed engine's is 5)")
    ap.add_argument("--postgres", action="store_true", help="also time heartbeats on a throwaway PostgreSQL 15")
    args = ap.parse_args()

    print(f"{'measure':<36} {'mean':>8} {'p50':>8} {'p95':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "lib.sqlite3")
        mean, p50, p95 = beat_cost(store.db, args.beats)
        store.close()
    print(f"{'heartbeat write, SQLite (ms)':<36} {mean:>8.2f} {p50:>8.2f} {p95:>8.2f}")
    if args.postgres:
        from tests.postgres_server import PostgresCluster

        cluster = PostgresCluster().start()
        try:
            db = Database(cluster.create_database())
            mean, p50, p95 = beat_cost(db, args.beats)
            db.close()
        finally:
            cluster.stop()
        print(f"{'heartbeat write, PostgreSQL (ms)':<36} {mean:>8.2f} {p50:>8.2f} {p95:>8.2f}")
    for label, measure in ((f"reclaim, killed here (s, lease {args.lease:g})", reclaim_after_kill),
                           (f"reclaim, remote stopped (s, lease {args.lease:g})", reclaim_after_silence)):
        mean, p50, p95 = percentiles([measure(args.lease) for _ in range(args.rounds)])
        print(f"{label:<36} {mean:>8.2f} {p50:>8.2f} {p95:>8.2f}")
    print(f"(p95 of {args.rounds} rounds is their maximum; engines check liveness once per lease)")


if __name__ == "__main__":
    main()
