"""Scheduler rules from SPEC §1 and §3, through the real store with fake stages."""

from __future__ import annotations

import time
from pathlib import Path

from sqlalchemy import select

from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.paths import workspace_root
from app.store.instances import InstanceInfo
from app.store.tables import stages
from tests.engine_stages import fake_pipeline, make_media


def wait_for(cond, timeout: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.02)
    raise AssertionError("condition not reached")


def test_transient_errors_retry_with_backoff_permanent_fail_at_once(data_dir: Path, tmp_path: Path, fast_config) -> None:
    media = make_media(tmp_path / "lib", 4)
    pipeline, digests = fake_pipeline(fail_codes={media[0].name: ("disk_busy", True), media[1].name: ("corrupt_media", False)},
                                      fail_times={media[0].name: 2})
    lib = Library(data_dir, {"video": pipeline}, fast_config)
    try:
        job = lib.add(tmp_path / "lib", JobOptions())
        lib.start()
        lib.run_until_idle()
        items = {Path(i.path).name: i for i in lib.items(job.id)}
        with lib.store.db.read() as conn:
            failures = dict(conn.execute(select(stages.c.item_id, stages.c.failures).where(stages.c.name == "extract")).all())
        summary = lib.status(job.id)[0]
    finally:
        lib.close()
    assert items[media[0].name].status == "completed" and failures[items[media[0].name].id] == 2
    assert items[media[1].name].status == "failed" and items[media[1].name].error_code == "corrupt_media"
    assert failures[items[media[1].name].id] == 1, "a permanent error is not retried"
    assert (summary.done, summary.failed, summary.status) == (3, 1, "completed")


def test_transient_error_gives_up_after_max_attempts_and_retry_keeps_finished_stages(data_dir: Path, tmp_path: Path, fast_config) -> None:
    media = make_media(tmp_path / "lib", 2)
    pipeline, digests = fake_pipeline()
    digests[2].fail_codes = {media[0].name: ("endpoint_unavailable", True)}
    lib = Library(data_dir, {"video": pipeline}, fast_config)
    try:
        job = lib.add(tmp_path / "lib", JobOptions())
        lib.start()
        lib.run_until_idle()
        item = next(i for i in lib.items(job.id) if Path(i.path).name == media[0].name)
        assert (item.status, item.stage, item.error_code) == ("failed", "translate", "endpoint_unavailable")
        calls_before = [n for n, _ in digests[0].calls].count(media[0].name)
        digests[2].fail_codes = {}
        assert lib.retry_item(item.id) == 1
        assert lib.retry_item(item.id) == 0, "retry is idempotent"
        lib.run_until_idle()
        item = next(i for i in lib.items(job.id) if i.id == item.id)
    finally:
        lib.close()
    assert item.status == "completed"
    assert [n for n, _ in digests[0].calls].count(media[0].name) == calls_before, "finished stages are not redone"
    assert [n for n, _ in digests[2].calls].count(media[0].name) == fast_config.max_attempts + 1


def test_pause_stops_new_work_and_resume_finishes(data_dir: Path, tmp_path: Path, fast_config) -> None:
    make_media(tmp_path / "lib", 12)
    pipeline, digests = fake_pipeline(max_sleep=0.1)
    lib = Library(data_dir, {"video": pipeline}, fast_config)
    try:
        job = lib.add(tmp_path / "lib", JobOptions())
        lib.start()
        wait_for(lambda: lib.status(job.id)[0].done >= 1)
        lib.pause(job.id)
        wait_for(lambda: lib.status(job.id)[0].running == 0)
        paused = lib.status(job.id)[0]
        calls = sum(len(d.calls) for d in digests)
        time.sleep(0.5)
        assert sum(len(d.calls) for d in digests) == calls, "no stage starts while paused"
        assert paused.status == "paused" and paused.done < 12
        assert any(i.status == "paused" for i in lib.items(job.id))
        lib.resume(job.id)
        lib.run_until_idle()
        done = lib.status(job.id)[0]
    finally:
        lib.close()
    assert (done.status, done.done) == ("completed", 12)


def test_cancel_deletes_job_and_workspace_but_never_the_files(data_dir: Path, tmp_path: Path, fast_config) -> None:
    media = make_media(tmp_path / "lib", 6)
    pipeline, _ = fake_pipeline(max_sleep=0.1)
    lib = Library(data_dir, {"video": pipeline}, fast_config)
    try:
        job = lib.add(tmp_path / "lib", JobOptions())
        lib.start()
        wait_for(lambda: (workspace_root(data_dir) / str(job.id)).exists())
        lib.cancel(job.id)
        lib.run_until_idle()
        assert lib.status() == []
    finally:
        lib.close()
    assert not (workspace_root(data_dir) / str(job.id)).exists()
    assert all(m.exists() for m in media)


def test_missing_file_and_missing_folder_fail_with_their_codes(data_dir: Path, tmp_path: Path, fast_config) -> None:
    media = make_media(tmp_path / "a", 2) + make_media(tmp_path / "b", 1, prefix="other")
    lib = Library(data_dir, {"video": fake_pipeline()[0]}, fast_config)
    try:
        job_a = lib.add(tmp_path / "a", JobOptions())
        job_b = lib.add(tmp_path / "b", JobOptions())
        media[0].unlink()
        for p in (tmp_path / "b").iterdir():
            p.unlink()
        (tmp_path / "b").rmdir()
        lib.start()
        lib.run_until_idle()
        a_items = {Path(i.path).name: i for i in lib.items(job_a.id)}
        b = lib.status(job_b.id)[0]
    finally:
        lib.close()
    assert a_items[media[0].name].error_code == "file_missing"
    assert a_items[media[1].name].status == "completed"
    assert (b.status, b.error_code) == ("failed", "folder_missing")


def test_unchanged_file_reuses_all_work_and_a_changed_setting_reruns_only_later_stages(data_dir: Path, tmp_path: Path, fast_config) -> None:
    media = make_media(tmp_path / "lib", 3)
    pipeline, digests = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline}, fast_config)
    try:
        lib.add(tmp_path / "lib", JobOptions())
        lib.start()
        lib.run_until_idle()
        for m in media:  # so the already-subtitled rule does not skip them
            m.with_name(m.stem + ".test.srt").unlink()
        runs = [len(d.calls) for d in digests]

        same = lib.add(tmp_path / "lib", JobOptions())
        lib.run_until_idle()
        assert [len(d.calls) for d in digests] == runs, "an unchanged file with the same settings does no work"
        assert (same.status, same.done) == ("completed", 3)

        media[0].write_bytes(b"new content")
        changed = lib.add(tmp_path / "lib", JobOptions(naming="compat"))
        lib.run_until_idle()
        after = lib.status(changed.id)[0]
        revisions = sorted(i.path for i in lib.items(changed.id))
    finally:
        lib.close()
    # Only the changed file re-runs the digest stages; the naming change re-runs only `place`.
    assert [len(d.calls) - r for d, r in zip(digests, runs)] == [1, 1, 1]
    assert (after.status, after.done) == ("completed", 3)
    assert len(revisions) == 3
    assert all(m.with_name(m.stem + ".test.srt").exists() for m in media)


def test_job_left_creating_by_a_dead_process_fails_at_start(data_dir: Path, tmp_path: Path, fast_config) -> None:
    lib = Library(data_dir, {"video": fake_pipeline()[0]}, fast_config)
    try:
        job_id = lib.store.jobs.create(str(tmp_path), {}, owner="gone-123-abc")
        lib.store.instances.beat(InstanceInfo("gone-123-abc", "elsewhere", 123, "worker"), grace=0)
        lib.start()
        summary = lib.status(job_id)[0]
    finally:
        lib.close()
    assert (summary.status, summary.error_code) == ("failed", "scan_interrupted")
