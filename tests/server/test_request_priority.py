"""A request job's stages are claimed before a folder job's remaining ones (SPEC §21: requests go before folder work).

Real store and scheduler, fake stages (tests/engine_stages.py): a folder of eight files
runs on one worker; once its first item has started, a request is added. Every stage of
the request must run before any folder item that had not started by then; without the
request pass of the claim (``StageRepo._claim_walks``) the job id order puts it last.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.stage import Pipeline
from tests.engine_stages import fake_pipeline, make_media


def _journal(path: Path) -> list[tuple[int, str, float, float]]:
    rows = []
    for line in path.read_text().splitlines():
        _, item, stage, started, ended = line.split()
        rows.append((int(item), stage, float(started), float(ended)))
    return rows


def test_a_request_runs_before_the_folders_remaining_items(tmp_path: Path, data_dir: Path) -> None:
    journal = tmp_path / "journal.txt"
    pipeline, _ = fake_pipeline(max_sleep=0.05, journal=journal)
    lib = Library(data_dir, {"video": pipeline},
                  EngineConfig(workers=1, lease_seconds=3.0, poll_interval=0.02, progress_interval=0.0))
    try:
        folder_files = make_media(tmp_path / "library", 8)
        upload = make_media(tmp_path / "uploads" / "one", 1, prefix="upload")[0]
        folder_job = lib.add(tmp_path / "library", JobOptions(target_lang="en"))
        lib.start()
        deadline = time.time() + 30
        while not journal.exists() and time.time() < deadline:  # the folder's first stage has finished
            time.sleep(0.01)
        asked = time.time()
        request_job = lib.add_request(upload, JobOptions(target_lang="en"), "video")
        done = threading.Event()

        def wait() -> None:
            lib.run_until_idle()
            done.set()

        threading.Thread(target=wait, daemon=True).start()
        assert done.wait(60)
        request_item = lib.items(request_job)[0].id
        folder_items = {i.id for i in lib.items(folder_job.id)}
        assert len(folder_items) == len(folder_files)
    finally:
        lib.close()
    rows = _journal(journal)
    request_rows = [r for r in rows if r[0] == request_item]
    assert [r[1] for r in request_rows] == ["extract", "transcribe", "translate"]
    request_done = max(r[3] for r in request_rows)
    started_first = {r[0] for r in rows if r[0] in folder_items and r[2] < asked}
    later = [r for r in rows if r[0] in folder_items and r[0] not in started_first]
    assert len(later) >= 6 * 3  # most of the folder was still to come when the request arrived
    assert all(r[2] >= request_done for r in later), "a folder item that had not started ran before the request"


def test_an_engine_without_the_request_pipelines_leaves_requests_to_sidecar_serve(tmp_path: Path, data_dir: Path) -> None:
    """Two engines on one library (the desktop app and ``sidecar serve``): a request item is never failed by the one that
    cannot run it; it is handed back, untouched, for the one that can."""
    pipeline, _ = fake_pipeline(max_sleep=0.0)
    requests_kind = Pipeline("request_kind", list(pipeline.stages))
    plain = Library(data_dir, {"video": pipeline}, EngineConfig(workers=1, poll_interval=0.02, progress_interval=0.0))
    try:
        upload = make_media(tmp_path / "uploads" / "one", 1, prefix="upload")[0]
        serving_side = Library(data_dir, {"video": pipeline, "request_kind": requests_kind},
                               EngineConfig(workers=1, poll_interval=0.02, progress_interval=0.0))
        job = serving_side.add_request(upload, JobOptions(target_lang="en"), "request_kind")
        serving_side.close()
        plain.start()
        plain.run_until_idle()
        (item,) = plain.items(job)
        assert item.status == "pending" and item.error_code is None
    finally:
        plain.close()
    serving_side = Library(data_dir, {"video": pipeline, "request_kind": requests_kind},
                           EngineConfig(workers=1, poll_interval=0.02, progress_interval=0.0))
    try:
        serving_side.start()
        serving_side.run_until_idle()
        assert serving_side.items(job)[0].status == "completed"
    finally:
        serving_side.close()
