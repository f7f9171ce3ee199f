"""Unplugging and plugging in: how long until the engine stops claiming, has stopped, and works again.

A private system bus with python-dbusmock's UPower (as the tests use), the real scheduler
with the fake stages of tests/engine_stages.py (each stage a few checkpointed sleeps of up
to ``--stage-s``), ``--workers`` workers. For each round: switch UPower to battery, time
until the engine reports the hold, until no stage runs; switch back, time until the next
stage starts. Run by hand: `.venv/bin/python bench/battery.py [--rounds 5]`. Prints a table.

What bounds it: the gate reads UPower at most every ``PROBE_TTL_S`` (2 s); the heartbeat
asks running stages to stop once a second; a stage stops at its next checkpoint.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dbusmock.testcase import BusType, PrivateDBus, SpawnedMock

import app.pipelines  # noqa: F401 - registers the media kinds, as the CLI does
from app.engine.background import BackgroundRules, WorkGate
from app.engine.config import EngineConfig
from app.engine.library import JobOptions, Library
from app.engine.power import UPowerProbe
from tests.engine_stages import fake_pipeline, make_media
from tests.private_dbus import UPowerControl


def until(condition, timeout: float = 30.0) -> float:  # type: ignore[no-untyped-def]
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > timeout:
            raise TimeoutError("condition not reached")
        time.sleep(0.01)
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--stage-s", type=float, default=0.3, help="longest sleep between two checkpoints")
    args = parser.parse_args()
    rows = []
    with PrivateDBus(BusType.SYSTEM), tempfile.TemporaryDirectory() as tmp, \
            SpawnedMock.spawn_with_template("upower", {"OnBattery": False}, bustype=BusType.SYSTEM) as mock:
        power = UPowerControl(mock.obj)
        pipeline, digests = fake_pipeline(max_sleep=args.stage_s)
        config = dataclasses.replace(EngineConfig(), workers=args.workers, poll_interval=0.05, progress_interval=0.0)
        (Path(tmp) / "data").mkdir()
        lib = Library(Path(tmp) / "data", {"video": pipeline}, config)
        lib.scheduler.work_gate = WorkGate(BackgroundRules(), power=UPowerProbe())
        make_media(Path(tmp) / "lib", 400)
        job = lib.add(Path(tmp) / "lib", JobOptions())
        lib.start()
        try:
            for _ in range(args.rounds):
                until(lambda: lib.status(job.id)[0].running > 0)
                time.sleep(0.5)
                power.set_battery(True, 60.0)
                held = until(lambda: lib.held() is not None)
                stopped = held + until(lambda: lib.status(job.id)[0].running == 0)
                claimed = sum(len(d.calls) for d in digests)
                power.set_battery(False)
                resumed = until(lambda claimed=claimed: sum(len(d.calls) for d in digests) > claimed)
                rows.append((held, stopped, resumed))
        finally:
            lib.close()
    print(f"{args.rounds} rounds, {args.workers} workers, stages checkpointing at most every {args.stage_s} s\n")
    print("| | median s | max s |\n|---|---|---|")
    for n, label in enumerate(("battery → engine holds", "battery → no stage running", "mains → next stage starts")):
        values = [r[n] for r in rows]
        print(f"| {label} | {statistics.median(values):.2f} | {max(values):.2f} |")


if __name__ == "__main__":
    main()
