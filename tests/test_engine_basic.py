"""The scheduler's everyday promises, through the real store and step protocol with fake stages."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from sqlalchemy import func, select

from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.store.tables import stages
from tests.engine_stages import make_media, fake_pipeline


def run_job(data_dir: Path, folder: Path, config, **kw):  # type: ignore[no-untyped-def]
    pipeline, digests = fake_pipeline(**kw)
    lib = Library(data_dir, {"video": pipeline}, config)
    try:
        job = lib.add(folder, JobOptions())
        lib.start()
        lib.run_until_idle()
        return lib.status(job.id)[0], lib.items(job.id), digests
    finally:
        lib.close()


def first_started_at(lib: Library, job_id: int) -> float | None:
    """When the job's first stage was claimed (the store's clock), or None while none was."""
    with lib.store.db.read() as conn:
        return conn.execute(select(func.min(stages.c.started_at)).where(stages.c.job_id == job_id)).scalar()


def test_job_completes_and_places_one_file_per_video(data_dir: Path, tmp_path: Path, fast_config, database_url: str) -> None:
    """On either backend (``database_url`` "" is the SQLite file)."""
    media = make_media(tmp_path / "lib", 5)
    summary, items, _ = run_job(data_dir, tmp_path / "lib", dataclasses.replace(fast_config, database_url=database_url))
    assert summary.status == "completed"
    assert (summary.total, summary.done, summary.failed) == (5, 5, 0)
    for m in media:
        assert m.with_name(m.stem + ".test.srt").read_text().startswith("1\n")
    assert all(i.status == "completed" for i in items)


def test_a_running_engine_starts_a_dropped_file_at_once_not_at_its_next_poll(data_dir: Path, tmp_path: Path,
                                                                             fast_config) -> None:
    """The app's drop: ``add`` wakes the idle workers, so the first stage starts within moments, not a poll later.

    Workers that found nothing wait ``poll_interval`` before looking again; with a poll of a
    minute, only the wake on ``add`` can start the file within the ten seconds waited here
    (bench/first_subtitle.py measures it at a tenth of a second under load).
    """
    make_media(tmp_path / "drop", 1)
    pipeline, _ = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline}, dataclasses.replace(fast_config, poll_interval=60.0))
    try:
        lib.start()
        time.sleep(0.5)  # the workers found nothing and sleep until their next poll
        dropped = time.time()
        job = lib.add(tmp_path / "drop" / "clip000.mp4", JobOptions())
        deadline = time.monotonic() + 10
        while (started := first_started_at(lib, job.id)) is None and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        lib.close()
    assert started is not None and started >= dropped, "no stage started before the workers' next poll"


def test_waiting_for_idle_asks_the_store_only_while_every_worker_waits(data_dir: Path, tmp_path: Path, fast_config,
                                                                        monkeypatch) -> None:
    """``run_until_idle`` looks at the store (three reads) only when no worker of its own claims or runs.

    Between two stages a worker is claiming the next one: asking the store then, as the wait
    did after every stage, was a third of a PostgreSQL worker process's CPU in bench/engine.py.
    24 stages, one worker: the look comes at the start and the end, not between stages.
    """
    make_media(tmp_path / "lib", 6)
    pipeline, _ = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline}, dataclasses.replace(fast_config, workers=1))
    looks = []
    look = lib.store.stages.has_runnable_or_running
    monkeypatch.setattr(lib.store.stages, "has_runnable_or_running", lambda *a: looks.append(1) or look(*a))
    try:
        job = lib.add(tmp_path / "lib", JobOptions())
        lib.start()
        lib.run_until_idle()
        assert lib.status(job.id)[0].done == 6
    finally:
        lib.close()
    assert 1 <= len(looks) <= 3
