"""The scheduler's everyday promises, through the real store and step protocol with fake stages."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from app.engine.library import JobOptions, Library
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


def test_job_completes_and_places_one_file_per_video(data_dir: Path, tmp_path: Path, fast_config, database_url: str) -> None:
    """On either backend (``database_url`` "" is the SQLite file)."""
    media = make_media(tmp_path / "lib", 5)
    summary, items, _ = run_job(data_dir, tmp_path / "lib", dataclasses.replace(fast_config, database_url=database_url))
    assert summary.status == "completed"
    assert (summary.total, summary.done, summary.failed) == (5, 5, 0)
    for m in media:
        assert m.with_name(m.stem + ".test.srt").read_text().startswith("1\n")
    assert all(i.status == "completed" for i in items)
