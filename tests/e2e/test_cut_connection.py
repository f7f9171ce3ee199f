"""A worker whose database connection is cut mid-stage loses its lease and never writes a file (PostgreSQL).

The cut is what a network partition does to a worker on another machine: its backends are
terminated (``pg_terminate_backend``) and it cannot log in again until the partition heals
(its role is made ``NOLOGIN``; a bare termination would only cost it one reconnect). The
worker sits in ``place`` (tests/engine_child.py ``--hold-place``) while its lease runs
out, another engine re-claims the stage and places the file, then the cut worker goes on
— first still cut, then reconnected — and must write nothing, keep running, and exit
cleanly once the library is done.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import psycopg
from sqlalchemy import select
from sqlalchemy.engine import make_url

from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.store import Store
from app.store.location import ENV
from app.store.tables import stages, steps
from tests.engine_stages import fake_pipeline, make_media

REPO = Path(__file__).resolve().parents[2]
CUT_ROLE = "cut_box"


def _admin(url: str) -> psycopg.Connection:
    u = make_url(url)
    return psycopg.connect(host=u.host, port=u.port, user=u.username, dbname=u.database, autocommit=True)


def _read_until(stream: IO[str], wanted: str) -> None:
    for line in iter(stream.readline, ""):
        if wanted in line:
            return
    raise AssertionError(f"the worker ended before it printed {wanted!r}")


def _wait_for_log(box: subprocess.Popen[str], log: Path, wanted: str) -> None:
    """Until the worker's stderr (a file: it logs every failed heartbeat while cut) shows ``wanted``."""
    while wanted not in log.read_text(errors="replace"):
        assert box.poll() is None, f"the worker ended before it logged {wanted!r}: {log.read_text()[-3000:]}"
        time.sleep(0.1)


def test_a_worker_cut_off_mid_stage_loses_its_lease_and_writes_nothing(tmp_path: Path, postgres_url: str) -> None:
    media = tmp_path / "lib"
    make_media(media, 1)
    config = EngineConfig(workers=1, lease_seconds=3.0, backoff_base=0.05, backoff_cap=0.2, poll_interval=0.05,
                          progress_interval=0.0, database_url=postgres_url)
    lib = Library(tmp_path / "nas", {"video": fake_pipeline()[0]}, config)
    try:
        job_id = lib.add(media, JobOptions()).id
    finally:
        lib.close()
    with _admin(postgres_url) as admin:
        admin.execute(f"CREATE ROLE {CUT_ROLE} LOGIN SUPERUSER")
    box_url = make_url(postgres_url).set(username=CUT_ROLE).render_as_string(hide_password=False)

    gate = tmp_path / "go-on"
    box_data = tmp_path / "box"
    box_data.mkdir()
    box_log = tmp_path / "box.log"
    with box_log.open("w") as log_file:
        box = subprocess.Popen([sys.executable, "-m", "tests.engine_child", str(box_data), "--workers", "1",
                                "--max-sleep", "0.01", "--hold-place", str(gate)],
                               cwd=REPO, stdout=subprocess.PIPE, stderr=log_file, text=True,
                               env={**os.environ, ENV: box_url})
    try:
        assert box.stdout is not None
        _read_until(box.stdout, "placing clip000.mp4")
        with _admin(postgres_url) as admin:
            admin.execute(f"ALTER ROLE {CUT_ROLE} NOLOGIN")
            cut = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall()
        assert cut, "the worker held connections to cut"

        # Another engine (another machine: its own data dir) finds the lease expired and finishes the item.
        rescuer = Library(tmp_path / "rescuer", {"video": fake_pipeline()[0]}, config)
        try:
            rescuer.start()
            rescuer.run_until_idle()
            summary = rescuer.status(job_id)[0]
        finally:
            rescuer.close()
        assert (summary.status, summary.done, summary.failed) == ("completed", 1, 0)
        (placed,) = media.glob("*.test.srt")
        before = placed.stat()
        body = placed.read_bytes()

        gate.touch()  # the cut worker goes on to place while it still cannot reach the database
        _wait_for_log(box, box_log, "stage place of item")
        with _admin(postgres_url) as admin:
            admin.execute(f"ALTER ROLE {CUT_ROLE} LOGIN")
        box.communicate(timeout=60)
        assert box.returncode == 0, box_log.read_text()[-3000:]
    finally:
        if box.poll() is None:
            box.kill()
            box.wait()

    after = placed.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns), "the cut worker wrote nothing"
    assert placed.read_bytes() == body
    assert sorted(p.name for p in media.iterdir()) == ["clip000.mp4", "clip000.test.srt"], "no temp file left"
    store = Store(postgres_url)
    try:
        with store.db.read() as conn:
            place = conn.execute(select(stages.c.status, stages.c.attempt, stages.c.failures, stages.c.lease_owner)
                                 .where(stages.c.name == "place")).one()
            step_rows = conn.execute(select(steps.c.state, steps.c.attempts)).all()
        assert (place.status, place.failures, place.lease_owner) == ("succeeded", 0, None)
        assert place.attempt == 2, "claimed by the cut worker, then re-claimed once by the rescuer"
        assert [r.state for r in step_rows] == ["succeeded"], "one step, placed once"
        assert store.jobs.summaries(job_id)[0].status == "completed"
    finally:
        store.close()
