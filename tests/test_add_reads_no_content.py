"""Adding a folder records what the scan saw and reads no file; each item hashes its own content (issue 12.4)."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
from pathlib import Path

from sqlalchemy import select

from app.add_progress import AddProgressLine
from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.store.states import ItemState, JobSummaryStatus
from app.store.tables import items, stages
from tests.engine_stages import fake_pipeline, make_media


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _rows(lib: Library, job_id: int) -> dict[str, dict]:
    with lib.store.db.read() as conn:
        return {Path(r["path"]).name: dict(r) for r in conn.execute(select(items).where(items.c.job_id == job_id)).mappings()}


def test_a_new_job_is_runnable_before_any_content_is_read_and_running_it_hashes_every_file(
        data_dir: Path, tmp_path: Path, fast_config: EngineConfig) -> None:
    files = make_media(tmp_path / "lib", 5)
    lib = Library(data_dir, {"video": fake_pipeline()[0]}, fast_config)
    try:
        job = lib.add(tmp_path / "lib", JobOptions())
        assert (job.status, job.total) == (JobSummaryStatus.QUEUED, 5), "visible to the scheduler at once"
        assert {r["sha256"] for r in _rows(lib, job.id).values()} == {""}, "no file was read to add the folder"
        assert lib.store.stages.has_runnable_or_running()[0]
        claim = lib.store.stages.claim_next_stage("probe:0", gpu=None)
        assert claim is not None and claim.name == "hash" and claim.item_sha256 == ""
        lib.store.stages.release_stage(claim)

        lib.start()
        lib.run_until_idle()
        rows = _rows(lib, job.id)
        summary = lib.status(job.id)[0]
    finally:
        lib.close()
    assert summary.done == 5
    assert {name: r["sha256"] for name, r in rows.items()} == {p.name: _sha(p) for p in files}
    assert all(lib_row["status"] == ItemState.COMPLETED for lib_row in rows.values())


def test_identical_files_are_computed_once_after_hashing(data_dir: Path, tmp_path: Path, fast_config: EngineConfig) -> None:
    folder = tmp_path / "lib"
    folder.mkdir()
    for name in ("a.mp4", "b.mp4"):
        (folder / name).write_bytes(b"the same episode\n" * 50)
    (folder / "c.mp4").write_bytes(b"another episode\n" * 50)
    pipeline, digests = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline}, dataclasses.replace(fast_config, workers=1))
    try:
        job = lib.add(folder, JobOptions())
        lib.start()
        lib.run_until_idle()
        assert lib.status(job.id)[0].done == 3
        with lib.store.db.read() as conn:
            reused = {(Path(path).name, name) for path, name in conn.execute(
                select(items.c.path, stages.c.name).join(stages, stages.c.item_id == items.c.id).where(stages.c.reused == 1))}
    finally:
        lib.close()
    work = [name for d in digests for name, _ in d.calls]
    assert sorted(work) == sorted(["a.mp4", "c.mp4"] * 3), "each content's model work ran once"
    assert reused == {("b.mp4", "extract"), ("b.mp4", "transcribe"), ("b.mp4", "translate")}, \
        "the duplicate took every content stage from the cache once hashed (placing stays per path)"


def test_adding_a_processed_folder_again_reads_nothing_and_keeps_its_content_current(
        data_dir: Path, tmp_path: Path, fast_config: EngineConfig) -> None:
    files = make_media(tmp_path / "lib", 3)
    touched = files[0]
    lib = Library(data_dir, {"video": fake_pipeline()[0]}, fast_config)
    try:
        first = lib.add(tmp_path / "lib", JobOptions())
        lib.start()
        lib.run_until_idle()
        before = {p.name: lib.store.current.get(str(p)).sha256 for p in files}
        os.utime(touched, ns=(touched.stat().st_atime_ns, touched.stat().st_mtime_ns + 10**9))  # same bytes
        for placed in (tmp_path / "lib").glob("*.srt"):  # without them the files are not skipped as subtitled
            placed.unlink()
        again = lib.add(tmp_path / "lib", JobOptions())
        assert {r["sha256"] for name, r in _rows(lib, first.id).items()} == set(before.values())
        rows = _rows(lib, again.id)
        assert {name: r["sha256"] for name, r in rows.items()} == {**before, touched.name: ""}, \
            "unchanged files keep their recorded hash without being read; the touched one is read by its own stage"
        lib.run_until_idle()
        after = {p.name: lib.store.current.get(str(p)) for p in files}
        assert lib.status(again.id)[0].done == 3
        with lib.store.db.read() as conn:
            ran = {Path(path).name: set(names) for path, names in _stages_run(conn, again.id).items()}
    finally:
        lib.close()
    assert {name: cur.sha256 for name, cur in after.items()} == before
    assert ran == {touched.name: {"hash"}}, "only the touched file was read; every other stage came from the first job"


def _stages_run(conn, job_id: int) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    out: dict[str, list[str]] = {}
    for path, name in conn.execute(select(items.c.path, stages.c.name).join(stages, stages.c.item_id == items.c.id)
                                   .where(items.c.job_id == job_id, stages.c.reused == 0)):
        out.setdefault(path, []).append(name)
    return out


def test_a_file_changed_between_the_scan_and_its_hash_fails_as_changed_mid_run(
        data_dir: Path, tmp_path: Path, fast_config: EngineConfig) -> None:
    changed, kept = make_media(tmp_path / "lib", 2)
    lib = Library(data_dir, {"video": fake_pipeline()[0]}, fast_config)
    try:
        job = lib.add(tmp_path / "lib", JobOptions())
        with open(changed, "ab") as fh:
            fh.write(b"still being copied\n")
        lib.start()
        lib.run_until_idle()
        by_name = {Path(i.path).name: i for i in lib.items(job.id)}
        rows = _rows(lib, job.id)
    finally:
        lib.close()
    assert by_name[kept.name].status == ItemState.COMPLETED
    assert (by_name[changed.name].status, by_name[changed.name].error_code) == (ItemState.FAILED, "target_changed")
    assert by_name[changed.name].stage == "hash" and rows[changed.name]["sha256"] == "", "never identified, never current"
    assert not (changed.parent / f"{changed.stem}.test.srt").exists(), "nothing is placed for it"


class _Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_add_progress_rewrites_one_terminal_line_and_writes_plain_lines_to_a_log() -> None:
    clock, log, tty = _Clock(), io.StringIO(), _Terminal()
    for stream in (log, tty):
        clock.t = 0.0
        with AddProgressLine("/nas/films", stream, clock) as progress:
            progress(1, None)  # too soon after the start: nothing yet
            for n, t in ((5000, 11.0), (9000, 12.0), (10000, 25.0)):
                clock.t = t
                progress(n, None)
            clock.t = 40.0
            progress(10000, 10000)
    assert log.getvalue().splitlines() == ["/nas/films: 5000 media file(s) found so far",
                                           "/nas/films: 10000 media file(s) found so far",
                                           "/nas/films: 10000 of 10000 file(s) recorded"]
    assert "\n" not in tty.getvalue() and tty.getvalue().count("\r") == 5 and tty.getvalue().endswith("\r\033[K")
    assert "9000 media file(s) found so far" in tty.getvalue(), "a terminal line is updated more often"
