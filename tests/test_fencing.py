"""A worker whose lease expired and was reclaimed can write nothing: no checkpoint, status or file (SQLite and PostgreSQL)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from app.engine.placement import Placement
from app.engine.stage import Output
from app.errors import Code, LeaseLost
from app.store import Store
from app.store.records import NewItem, NewStage
from app.store.retry_policy import RetryPolicy
from tests.store_backends import open_store


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def _store_with_item(location: Path | str, media: Path, clock: Clock) -> Store:
    store = open_store(location, clock, lease_seconds=10)
    job = store.jobs.create(str(media.parent), {}, owner="test")
    sha = hashlib.sha256(media.read_bytes()).hexdigest()
    st = media.stat()
    store.jobs.add_items(job, [NewItem(str(media), "video", st.st_size, st.st_mtime_ns, sha,
                                       (NewStage(0, "place", "fp0"),))])
    store.jobs.finish_creating(job, {})
    return store


def test_reclaimed_worker_cannot_write_checkpoint_status_or_file(store_location: Path | str, tmp_path: Path) -> None:
    media = tmp_path / "movie.mp4"
    media.write_bytes(b"video")
    clock = Clock()
    store = _store_with_item(store_location, media, clock)
    stale = store.stages.claim_next_stage("dead:0")
    assert stale is not None and stale.generation == 1

    clock.t += 11  # the lease runs out
    assert store.stages.reclaim(expired=True) == 1
    fresh = store.stages.claim_next_stage("alive:0")
    assert fresh is not None and fresh.generation == 2 and fresh.stage_id == stale.stage_id

    with pytest.raises(LeaseLost):
        store.stages.record_checkpoint(stale, {"segments": 3})
    with pytest.raises(LeaseLost):
        store.stages.record_progress(stale, 0.5)
    with pytest.raises(LeaseLost):
        store.stages.complete_stage(stale, {"done": True})
    with pytest.raises(LeaseLost):
        store.stages.fail_stage(stale, Code.RUNTIME_ERROR, "x", False, RetryPolicy(3, 1, 1))
    with pytest.raises(LeaseLost):
        store.stages.release_stage(stale)
    assert store.stages.heartbeat([stale]) == [stale]

    workspace = tmp_path / "ws"
    with pytest.raises(LeaseLost):
        Placement(store, stale, workspace, "skip", lambda: None).place([Output("movie.en.srt", b"stale", "t")])
    assert not (tmp_path / "movie.en.srt").exists()

    # The new owner's writes all go through, and its file lands.
    store.stages.record_checkpoint(fresh, {"segments": 1})
    placed = Placement(store, fresh, workspace, "skip", lambda: None).place([Output("movie.en.srt", b"fresh", "t")])
    assert placed[0].action == "written"
    assert (tmp_path / "movie.en.srt").read_bytes() == b"fresh"
    assert store.stages.complete_stage(fresh, {"done": True}) is True
    store.close()


def test_lease_lost_between_plan_and_replace_writes_no_file(store_location: Path | str, tmp_path: Path) -> None:
    """The fence is checked again right before the rename: a claim lost mid-write leaves no target and no temp."""
    (tmp_path / "lib").mkdir()
    media = tmp_path / "lib" / "movie.mp4"
    media.write_bytes(b"video")
    clock = Clock()
    store = _store_with_item(store_location, media, clock)
    claim = store.stages.claim_next_stage("w:0")
    assert claim is not None

    def expire_then_check() -> None:
        clock.t += 60
        store.stages.assert_held(claim)

    placement = Placement(store, claim, tmp_path / "ws", "skip", lambda: None)
    placement.verify_source = expire_then_check
    with pytest.raises(LeaseLost):
        placement.place([Output("movie.en.srt", b"late", "t")])
    assert sorted(p.name for p in media.parent.iterdir()) == ["movie.mp4"]
    store.close()
