"""A worker reads and writes through its --path-map, records the library's paths, and never fails
what it cannot reach: unmapped items stay queued, a vanished mount gives the claim back."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import select

from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.path_map import PathMap
from app.engine.worker import check_mappings, worker_database, worker_scope
from app.errors import WorkerRefused
from app.paths import database_path
from app.store.states import StageState
from app.store.tables import stages, steps
from tests.engine_stages import PlaceStage, fake_pipeline, make_media


def _library(tmp_path: Path, data_dir: Path, folders: dict[str, int], fast_config: EngineConfig) -> tuple[Path, Path]:
    """Files under ``tmp/real``, added to the library as ``tmp/nas``, which then disappears (only workers see them)."""
    real = tmp_path / "real"
    for folder, n in folders.items():
        make_media(real / folder, n, prefix=folder)
    nas = tmp_path / "nas"
    nas.symlink_to(real)
    pipeline, _ = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline}, fast_config)
    try:
        lib.add(nas, JobOptions(naming="compat"))
    finally:
        lib.close()
    nas.unlink()
    return real, nas


def _worker(tmp_path: Path, data_dir: Path, fast_config: EngineConfig, mapping: str,
            place: PlaceStage | None = None) -> Library:
    pipeline, _ = fake_pipeline()
    if place is not None:
        pipeline = replace(pipeline, stages=[*pipeline.stages[:-1], place])
    return Library(tmp_path / "workspace", {"video": pipeline}, replace(fast_config, role="worker"),
                   database=database_path(data_dir), paths=PathMap.parse([mapping]), scope=worker_scope(None, False))


def _mount(tmp_path: Path, real: Path, name: str = "box") -> Path:
    mount = tmp_path / name / "mnt"
    mount.parent.mkdir(exist_ok=True)
    mount.symlink_to(real)
    return mount


def test_a_worker_writes_through_its_mount_and_records_the_librarys_paths(tmp_path: Path, data_dir: Path,
                                                                          fast_config: EngineConfig) -> None:
    real, nas = _library(tmp_path, data_dir, {"films": 3}, fast_config)
    mount = _mount(tmp_path, real)
    (tmp_path / "workspace").mkdir()
    lib = _worker(tmp_path, data_dir, fast_config, f"{nas}={mount}")
    try:
        assert [(c.listed, c.visible) for c in check_mappings(lib.store, lib.paths)] == [(3, 3)]
        lib.start()
        assert [w.role for w in lib.workers()] == ["worker"]
        lib.run_until_idle()
        (summary,) = lib.status()
        with lib.store.db.read() as conn:
            targets = conn.execute(select(steps.c.target, steps.c.state)).all()
    finally:
        lib.close()
    assert (summary.status, summary.done) == ("completed", 3)
    assert sorted(p.name for p in (real / "films").glob("*.test.srt")) == ["films000.test.srt", "films001.test.srt",
                                                                            "films002.test.srt"]
    assert sorted(targets) == [(str(nas / "films" / f"films{i:03d}.test.srt"), "succeeded") for i in range(3)]


def test_items_no_mapping_covers_stay_queued_for_other_machines(tmp_path: Path, data_dir: Path,
                                                                fast_config: EngineConfig) -> None:
    real, nas = _library(tmp_path, data_dir, {"films": 2, "series": 2}, fast_config)
    mount = _mount(tmp_path, real / "films")
    (tmp_path / "workspace").mkdir()
    lib = _worker(tmp_path, data_dir, fast_config, f"{nas / 'films'}={mount}")
    try:
        lib.start()
        lib.run_until_idle()
        items = {Path(i.path).name: i for i in lib.items(lib.status()[0].id)}
    finally:
        lib.close()
    assert {n: i.status for n, i in items.items()} == {"films000.mp4": "completed", "films001.mp4": "completed",
                                                       "series000.mp4": "pending", "series001.mp4": "pending"}
    assert all(i.attempts == 0 and i.error_code is None for n, i in items.items() if n.startswith("series"))


def test_a_mount_that_vanishes_mid_stage_gives_the_claim_back_unfailed(tmp_path: Path, data_dir: Path,
                                                                       fast_config: EngineConfig) -> None:
    real, nas = _library(tmp_path, data_dir, {"films": 2}, fast_config)
    mount = _mount(tmp_path, real)
    (tmp_path / "workspace").mkdir()

    unmounted: list[bool] = []

    def unmount(ctx: object) -> None:
        if not unmounted:  # the first place stage to run pulls the share away, once
            unmounted.append(True)
            mount.unlink()

    lib = _worker(tmp_path, data_dir, fast_config, f"{nas}={mount}", PlaceStage(before=unmount))
    try:
        lib.start()
        lib.run_until_idle()
        with lib.store.db.read() as conn:
            rows = conn.execute(select(stages.c.name, stages.c.status, stages.c.failures, stages.c.attempt,
                                       stages.c.error_code)).all()
        given_back = [r for r in rows if r.name == "place" and r.status == StageState.QUEUED]
        assert given_back and all(r.attempt == 0 for r in given_back), "given back, the attempt not counted"
        assert all(r.status in (StageState.QUEUED, StageState.WAITING) and r.failures == 0 and r.error_code is None
                   for r in rows if r.status != StageState.SUCCEEDED), rows
        assert list(real.rglob("*.test.srt")) == []

        mount.symlink_to(real)  # the share is back: the same worker finishes the job
        lib.wake()
        lib.run_until_idle()
        (summary,) = lib.status()
    finally:
        lib.close()
    assert (summary.status, summary.done, summary.failed) == ("completed", 2, 0)
    assert len(list(real.rglob("*.test.srt"))) == 2


def test_a_worker_refuses_a_missing_folder_and_a_folder_without_the_librarys_files(
        tmp_path: Path, data_dir: Path, fast_config: EngineConfig) -> None:
    real, nas = _library(tmp_path, data_dir, {"films": 4}, fast_config)
    empty = tmp_path / "empty"
    empty.mkdir()
    (tmp_path / "workspace").mkdir()
    for mapping, words in ((f"{nas}={tmp_path / 'nowhere'}", "does not exist"),
                           (f"{nas}={empty}", "4 of 4 files the library lists")):
        lib = _worker(tmp_path, data_dir, fast_config, mapping)
        try:
            with pytest.raises(WorkerRefused, match=words) as err:
                check_mappings(lib.store, lib.paths)
            assert err.value.code == "worker_refused"
        finally:
            lib.close()


def test_the_database_url_names_a_sqlite_file(data_dir: Path, fast_config: EngineConfig) -> None:
    Library(data_dir, {}, fast_config).close()
    db = database_path(data_dir)
    assert worker_database(str(db)) == db
    assert worker_database(f"sqlite:///{db}") == db
    with pytest.raises(WorkerRefused):
        worker_database(str(data_dir / "missing.sqlite3"))
