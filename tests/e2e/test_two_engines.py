"""Two engine processes on one database (SQLite, PostgreSQL) never run the same stage at once, and both make progress."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.store.location import ENV
from tests.engine_stages import fake_pipeline, make_media

REPO = Path(__file__).resolve().parents[2]


def test_two_engines_share_one_library_without_overlap(tmp_path: Path, data_dir: Path, database_url: str) -> None:
    media = tmp_path / "lib"
    make_media(media, 40)
    pipeline, _ = fake_pipeline()
    config = EngineConfig(workers=1, database_url=database_url)
    lib = Library(data_dir, {"video": pipeline}, config)
    job_id = lib.add(media, JobOptions()).id
    lib.close()

    journal = tmp_path / "journal.txt"
    cmd = [sys.executable, "-m", "tests.engine_child", str(data_dir), "--max-sleep", "0.02", "--journal", str(journal)]
    env = {**os.environ, ENV: database_url}
    procs = [subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, env=env) for _ in range(2)]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]

    runs: dict[tuple[str, str], list[tuple[float, float, str]]] = defaultdict(list)
    pids = set()
    for line in journal.read_text().splitlines():
        pid, item, stage, t0, t1 = line.split()
        runs[(item, stage)].append((float(t0), float(t1), pid))
        pids.add(pid)
    assert len(pids) == 2, "both engines must make progress"
    assert len(runs) == 40 * 3
    for key, intervals in runs.items():
        assert len(intervals) == 1, f"{key} ran more than once: {intervals}"

    lib = Library(data_dir, {"video": pipeline}, config)
    summary = lib.status(job_id)[0]
    lib.close()
    assert (summary.status, summary.done) == ("completed", 40)
    assert len(list(media.glob("*.test.srt"))) == 40
