"""``Library.open`` as the CLI and GUI use it, and ``Library.changes``: only jobs that changed are re-read."""

from __future__ import annotations

from pathlib import Path

from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.settings import Settings, save_settings
from tests.engine_stages import fake_pipeline, make_media


def test_open_builds_the_library_from_the_persons_settings(data_dir: Path) -> None:
    save_settings(data_dir, Settings(workers=3, gpu_budget_mb=2048))
    lib = Library.open(data_dir, lease_seconds=7.0)
    try:
        assert set(lib.pipelines) == {"video", "image", "audio"}
        assert (lib.config.workers, lib.config.lease_seconds) == (3, 7.0)
        assert lib.status() == []
    finally:
        lib.close()


def test_changes_rereads_only_jobs_whose_counter_moved(data_dir: Path, tmp_path: Path, fast_config) -> None:
    make_media(tmp_path / "a", 2)
    make_media(tmp_path / "b", 3)
    lib = Library(data_dir, {"video": fake_pipeline()[0]}, fast_config)
    try:
        a = lib.add(tmp_path / "a", JobOptions())
        b = lib.add(tmp_path / "b", JobOptions())
        first = lib.changes()
        assert [j.id for j in first.changed] == [a.id, b.id] and first.removed == ()

        idle = lib.changes(first)
        assert idle.changed == (), "nothing changed, yet jobs were re-read"

        lib.start()
        lib.run_until_idle()
        done = lib.changes(idle)
        assert {j.id: (j.status, j.done) for j in done.changed} == {a.id: ("completed", 2), b.id: ("completed", 3)}

        lib.pause(b.id)
        paused = lib.changes(done)
        assert [(j.id, j.paused) for j in paused.changed] == [(b.id, True)], "only the paused job is re-read"

        lib.pause(None)  # pausing everything changes every job's status
        everything = lib.changes(paused)
        assert {j.id for j in everything.changed} == {a.id, b.id}

        lib.cancel(a.id)
        gone = lib.changes(everything)
        assert gone.removed == (a.id,) and a.id not in gone.marks
    finally:
        lib.close()
