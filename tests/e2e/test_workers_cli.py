"""`sidecar workers` lists a running engine process with what it runs, and shows it dead once killed."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from app.engine.job_options import JobOptions
from app.engine.library import Library
from tests.engine_stages import fake_pipeline, make_media

REPO = Path(__file__).resolve().parents[2]


def _workers(data: Path) -> list[dict[str, Any]]:
    done = subprocess.run([sys.executable, "-m", "app", "--data-dir", str(data), "workers", "--json"],
                          cwd=REPO, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)["workers"]


def test_workers_lists_a_running_engine_and_shows_it_dead_after_kill_9(tmp_path: Path, data_dir: Path, fast_config) -> None:
    data = data_dir
    make_media(tmp_path / "lib", 4)
    lib = Library(data, {"video": fake_pipeline()[0]}, fast_config)
    try:
        lib.add(tmp_path / "lib", JobOptions(naming="compat"))
    finally:
        lib.close()

    child = subprocess.Popen([sys.executable, "-m", "tests.engine_child", str(data), "--workers", "1",
                              "--max-sleep", "3"], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 60
        seen: dict[str, Any] = {}
        while time.monotonic() < deadline and not seen.get("running"):
            seen = next(w for w in _workers(data) if w["pid"] == child.pid)
        assert seen["running"], "a heartbeat reports the stage it runs"
        assert (seen["machine"], seen["role"], seen["alive"]) == (socket.gethostname(), "engine", True)
        assert set(seen["running"]) <= {"hash", "extract", "transcribe", "translate", "place"}
        assert sum(seen["running"].values()) == 1, "one worker runs one stage at a time"
        assert 0 <= seen["heartbeat_age_s"] < 5.0, "beaten within its grace (lease_seconds 5)"

        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
        (after,) = [w for w in _workers(data) if w["pid"] == child.pid]
        assert after["alive"] is False, "its lock is free at once, long before its row would expire"
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
