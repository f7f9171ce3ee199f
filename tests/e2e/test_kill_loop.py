"""A killed engine never loses, duplicates or corrupts work (kill -9 at random moments), on SQLite and PostgreSQL.

PostgreSQL gets a fifth of the kills (10 by default): each round starts an engine process
and a connection pool, and the claim paths under test are the same.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import select

from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.store import Store
from app.store.location import ENV, database_location
from app.store.tables import stages, steps
from tests.engine_stages import fake_pipeline, make_media

REPO = Path(__file__).resolve().parents[2]
KILLS = int(os.environ.get("SIDECAR_KILL_LOOPS", "50"))


def _add_job(data_dir: Path, folder: Path, database_url: str = "") -> int:
    pipeline, _ = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline}, EngineConfig(workers=1, database_url=database_url))
    try:
        return lib.add(folder, JobOptions()).id
    finally:
        lib.close()


# Enough work that every one of the KILLS interruptions lands before the job is done.
MAX_SLEEP = 0.08 * max(1.0, KILLS / 50)


def _child(data_dir: Path, database_url: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.engine_child", str(data_dir), "--max-sleep", str(MAX_SLEEP)],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env={**os.environ, ENV: database_url},
    )


def _outputs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.srt"))}


def _temp_files(*roots: Path) -> list[Path]:
    return [p for root in roots for p in root.rglob("*") if "sidecar-tmp" in p.name or p.name.endswith(".part")]


def test_killed_engine_never_duplicates_or_loses_outputs(tmp_path: Path, database_url: str) -> None:
    rng = random.Random(int(os.environ.get("SIDECAR_KILL_SEED", "7")))
    # A clean, uninterrupted run is the reference for every byte.
    ref_media, ref_data = tmp_path / "ref", tmp_path / "ref-data"
    make_media(ref_media, 30)
    ref_data.mkdir()
    _add_job(ref_data, ref_media)
    ref_env = {k: v for k, v in os.environ.items() if k != ENV}  # the reference bytes come from the SQLite default
    assert subprocess.run([sys.executable, "-m", "tests.engine_child", str(ref_data)], cwd=REPO, timeout=300,
                          env=ref_env).returncode == 0
    reference = _outputs(ref_media)
    assert len(reference) == 30

    media, data = tmp_path / "lib", tmp_path / "data"
    make_media(media, 30)
    data.mkdir(exist_ok=True)  # the data_dir fixture behind database_url made it
    job_id = _add_job(data, media, database_url)
    location = database_location(data, database_url)
    planned = KILLS if not database_url else max(1, KILLS // 5)
    kills = 0
    for _ in range(planned):
        child = _child(data, database_url)
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.15))
        if child.poll() is None:
            os.kill(child.pid, signal.SIGKILL)
            kills += 1
        child.wait(timeout=30)
        store = Store(location)
        assert store.integrity_check() == "ok"
        store.close()
        if child.returncode == 0:
            break
    # Then run to the end without interruption.
    assert subprocess.run([sys.executable, "-m", "tests.engine_child", str(data)], cwd=REPO, timeout=300,
                          env={**os.environ, ENV: database_url}).returncode == 0

    assert kills == planned, f"only {kills} of {planned} kills landed before the job finished"
    assert _outputs(media) == {k: v for k, v in reference.items()}
    assert _temp_files(media, data / "work") == []
    store = Store(location)
    try:
        assert store.integrity_check() == "ok"
        summary = store.jobs.summaries(job_id)[0]
        assert (summary.status, summary.done, summary.failed, summary.total) == ("completed", 30, 0, 30)
        with store.db.read() as conn:
            rows = conn.execute(select(stages.c.status, stages.c.attempt, stages.c.failures, stages.c.lease_owner)).all()
            step_rows = conn.execute(select(steps.c.item_id, steps.c.state, steps.c.attempts)).all()
        assert len(rows) == 30 * 5  # hash, then extract, transcribe, translate, place
        assert all(r.status == "succeeded" and r.attempt >= 1 and r.failures == 0 and r.lease_owner is None for r in rows)
        assert sum(r.attempt for r in rows) >= len(rows)
        assert sorted(r.item_id for r in step_rows) == sorted({r.item_id for r in step_rows})  # one step per item
        assert all(r.state == "succeeded" and r.attempts >= 1 for r in step_rows)
    finally:
        store.close()
