"""A child engine process for crash tests: ``python -m tests.engine_child DATA_DIR [options]``.

It runs the fake pipeline (tests/engine_stages.py) over whatever jobs the database
holds until idle, printing ``ready`` once the engine has started so the parent can
kill it at a random moment of real work.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from app.engine.config import EngineConfig
from app.engine.library import Library
from app.engine.stage import StageContext
from tests.engine_stages import fake_pipeline


REPO = Path(__file__).resolve().parents[1]


def run_child(data_dir: Path, crash_after: str | None = None, workers: int = 1) -> int:
    """Run this child to idle (or to its planned crash) and return its exit code (9 = crashed on purpose)."""
    cmd = [sys.executable, "-m", "tests.engine_child", str(data_dir), "--workers", str(workers)]
    if crash_after:
        cmd += ["--crash-after", crash_after]
    return subprocess.run(cmd, cwd=REPO, stdout=subprocess.DEVNULL, timeout=300).returncode


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("data_dir", type=Path)
    p.add_argument("--max-sleep", type=float, default=0.03)
    p.add_argument("--journal", type=Path)
    p.add_argument("--crash-after", choices=("started", "replaced"))
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--abort-on", help="file name whose extract stage aborts the whole process (os.abort)")
    p.add_argument("--hold-place", type=Path,
                   help="place prints 'placing NAME' and waits until this file exists before it writes")
    args = p.parse_args()

    def observe(event: str, step: object) -> None:
        if args.crash_after == event:
            os._exit(9)

    def abort_on(ctx: StageContext) -> None:
        if ctx.item.path.name == args.abort_on:
            os.abort()

    def hold_place(ctx: StageContext) -> None:
        print(f"placing {ctx.item.path.name}", flush=True)
        while not args.hold_place.exists():
            time.sleep(0.05)

    pipeline, _ = fake_pipeline(args.max_sleep, journal=args.journal, on_run=abort_on,
                                place_before=hold_place if args.hold_place else None)
    # Like `sidecar run`, this process is the engine: it writes a crash report.
    config = EngineConfig(workers=args.workers, lease_seconds=5.0, backoff_base=0.05, backoff_cap=0.2,
                          poll_interval=0.05, progress_interval=0.0, crash_reports=True)
    lib = Library(args.data_dir, {"video": pipeline}, config, observe_step=observe)
    lib.start()
    print("ready", flush=True)
    lib.run_until_idle()
    lib.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
