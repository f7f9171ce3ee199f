"""A file whose stage crashes the whole engine process is set aside after three crashes; the rest goes on."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

from sqlalchemy import select

from app.engine.config import EngineConfig
from app.engine.crash_reports import take_crash_report
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.errors import CrashLoop
from app.paths import database_path
from app.store import Store
from app.store.tables import stages
from tests.engine_stages import fake_pipeline, make_media

REPO = Path(__file__).resolve().parents[2]


def _engine(data_dir: Path, abort_on: str) -> int:
    """One start of the engine (as `sidecar run --until-idle` would), returning its exit status."""
    return subprocess.run([sys.executable, "-m", "tests.engine_child", str(data_dir), "--abort-on", abort_on],
                          cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300).returncode


def test_a_file_that_crashes_the_engine_three_times_is_failed_and_the_others_complete(tmp_path: Path) -> None:
    data, job_id = _job_of(tmp_path, 5)
    media = tmp_path / "lib"
    clips = sorted(media.glob("*.mp4"))
    bad = clips[2]

    exits = [_engine(data, bad.name) for _ in range(3)]
    assert exits == [-signal.SIGABRT] * 3, "each start claims the bad file again and crashes on it"
    assert _engine(data, bad.name) == 0, "the fourth start sets the file aside and finishes the rest"

    store = Store(database_path(data))
    try:
        items = {Path(i.path).name: i for i in store.jobs.items(job_id, 0, None)}
        summary = store.jobs.summaries(job_id)[0]
        with store.db.read() as conn:
            crashed = conn.execute(select(stages.c.name, stages.c.status, stages.c.error_code, stages.c.crash_claims)
                                   .where(stages.c.item_id == items[bad.name].id, stages.c.name == "extract")).one()
    finally:
        store.close()
    assert (summary.done, summary.failed, summary.total) == (4, 1, 5)
    assert items[bad.name].status == "failed" and items[bad.name].error_code == CrashLoop.code == "crash_loop"
    assert "crashed 3 times in a row" in items[bad.name].error and "extract" in items[bad.name].error
    assert "Aborted" in items[bad.name].error, "the crash as faulthandler named it is part of the evidence"
    assert (crashed.status, crashed.error_code) == ("failed", "crash_loop") and len(json.loads(crashed.crash_claims)) == 3
    assert all(items[c.name].status == "completed" and (media / f"{c.stem}.test.srt").exists() for c in clips if c != bad)
    assert not (media / f"{bad.stem}.test.srt").exists()
    assert list((data / "instances").glob("*.crash")) == [], "every crash report was read and removed"


def test_a_killed_engine_leaves_no_crash_to_count(tmp_path: Path) -> None:
    """SIGKILL (the kill-loop test, the OOM killer) cannot be caught: its report names no fatal error."""
    child = subprocess.Popen([sys.executable, "-m", "tests.engine_child", str(_job_of(tmp_path, 30)[0]), "--max-sleep", "0.5"],
                             cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    reports = list((tmp_path / "data" / "instances").glob("*.crash"))
    assert len(reports) == 1 and "worker " in reports[0].read_text()
    child.kill()
    child.wait(timeout=30)
    assert take_crash_report(reports[0].parent, reports[0].stem) is None
    assert not reports[0].exists()


def _job_of(tmp_path: Path, n: int) -> tuple[Path, int]:
    """A data folder holding one job over ``n`` fake videos in ``tmp_path/lib``."""
    media, data = tmp_path / "lib", tmp_path / "data"
    make_media(media, n)
    data.mkdir()
    pipeline, _ = fake_pipeline()
    lib = Library(data, {"video": pipeline}, EngineConfig(workers=1))
    try:
        return data, lib.add(media, JobOptions()).id
    finally:
        lib.close()
