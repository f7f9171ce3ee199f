"""Each shared transition (app/store/shared_transitions.py) on real SQLite and PostgreSQL, through the repository methods that make it."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from sqlalchemy import select

from app.errors import LeaseLost
from app.store import Store
from app.store.records import NewItem, NewStage
from app.store.states import ItemState, JobState, JobSummaryStatus, StageState
from app.store.tables import jobs, placed_outputs, stages
from app.store.shared_transitions import is_paused_all, remember_placed_output
from tests.store_backends import open_store


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(store_location: Path | str, clock: Clock) -> Iterator[Store]:
    s = open_store(store_location, clock, lease_seconds=10)
    yield s
    s.close()


def _job(store: Store, *names: str, stage_count: int = 2) -> int:
    job = store.jobs.create("/lib", {}, owner="test")
    store.jobs.add_items(job, [
        NewItem(f"/lib/{name}", "video", 1, 1, f"sha-{name}", tuple(NewStage(i, f"s{i}", f"fp{i}") for i in range(stage_count)))
        for name in names
    ])
    store.jobs.finish_creating(job, {})
    return job


def _stage_rows(store: Store) -> list[tuple[str, str, int, str | None]]:
    """(item path's name, status, attempt, lease owner) of every stage, in id order."""
    with store.db.read() as conn:
        rows = conn.execute(select(stages.c.item_id, stages.c.status, stages.c.attempt, stages.c.lease_owner).order_by(stages.c.id)).all()
    return [(r.item_id, r.status, r.attempt, r.lease_owner) for r in rows]


def _item_states(store: Store, job: int) -> list[str]:
    return [i.status for i in store.jobs.items(job)]


# -- requeue a running stage ----------------------------------------------------------------


def test_reclaim_requeues_expired_stages_and_keeps_the_attempt_counted(store: Store, clock: Clock) -> None:
    job = _job(store, "a.mp4", "b.mp4")
    claim = store.stages.claim_next_stage("dead:0", gpu=None)
    assert claim is not None
    assert store.stages.reclaim(expired=True) == 0  # the lease still runs
    clock.t += 11
    assert store.stages.reclaim(expired=True) == 1
    row = next(r for r in _stage_rows(store) if r[0] == claim.item_id and r[1] != StageState.WAITING)
    assert row[1:] == (StageState.QUEUED, 1, None)
    assert _item_states(store, job) == [ItemState.PENDING, ItemState.PENDING]
    with pytest.raises(LeaseLost):
        store.stages.record_progress(claim, 0.5)


def test_reclaim_of_a_dead_instance_leaves_other_instances_alone(store: Store) -> None:
    _job(store, "a.mp4", "b.mp4")
    dead = store.stages.claim_next_stage("dead:0", gpu=None)
    alive = store.stages.claim_next_stage("alive:0", gpu=None)
    assert dead is not None and alive is not None
    assert store.stages.reclaim(instances_gone=["dead"], expired=False) == 1
    store.stages.record_progress(alive, 0.5)  # still held
    with pytest.raises(LeaseLost):
        store.stages.record_progress(dead, 0.5)


def test_release_stage_requeues_without_counting_the_attempt_and_only_once(store: Store) -> None:
    job = _job(store, "a.mp4")
    claim = store.stages.claim_next_stage("w:0", gpu=None)
    assert claim is not None
    store.stages.record_checkpoint(claim, {"segments": 2})
    store.stages.release_stage(claim)
    first = _stage_rows(store)[0]
    assert first[1:] == (StageState.QUEUED, 0, None)
    assert _item_states(store, job) == [ItemState.PENDING]
    with pytest.raises(LeaseLost):
        store.stages.release_stage(claim)
    again = store.stages.claim_next_stage("w:1", gpu=None)
    assert again is not None and again.attempt == 1 and again.partial == {"segments": 2}


def test_rename_requeues_the_running_stage_and_refunds_its_attempt(store: Store) -> None:
    job = _job(store, "a.mp4")
    claim = store.stages.claim_next_stage("w:0", gpu=None)
    assert claim is not None
    assert store.current.rename("/lib/a.mp4", "/lib/renamed.mp4")
    assert _stage_rows(store)[0][1:] == (StageState.QUEUED, 0, None)
    assert _item_states(store, job) == [ItemState.PENDING]
    assert store.jobs.items(job)[0].path == "/lib/renamed.mp4"
    with pytest.raises(LeaseLost):
        store.stages.complete_stage(claim, {"x": 1})


# -- stop unfinished work -------------------------------------------------------------------


def test_failing_a_job_fails_its_unfinished_items_and_stages_but_not_finished_ones(store: Store) -> None:
    job = _job(store, "a.mp4", "b.mp4", "c.mp4", stage_count=1)
    done = store.stages.claim_next_stage("w:0", gpu=None)
    running = store.stages.claim_next_stage("w:1", gpu=None)
    assert done is not None and running is not None
    assert store.stages.complete_stage(done, {"ok": True})
    store.jobs.fail(job, "folder_missing", "the folder is gone")
    views = {v.id: v for v in store.jobs.items(job)}
    assert views[done.item_id].status == ItemState.COMPLETED
    others = [v for v in views.values() if v.id != done.item_id]
    assert [(v.status, v.error_code) for v in others] == [(ItemState.FAILED, "folder_missing")] * 2
    assert sorted(r[1] for r in _stage_rows(store)) == [StageState.FAILED, StageState.FAILED, StageState.SUCCEEDED]
    assert all(r[3] is None for r in _stage_rows(store))
    assert store.jobs.summaries(job)[0].status == JobSummaryStatus.FAILED
    with pytest.raises(LeaseLost):
        store.stages.record_progress(running, 0.5)


def test_a_removed_file_skips_its_unfinished_work_with_the_reason(store: Store) -> None:
    job = _job(store, "a.mp4", "b.mp4")
    claim = store.stages.claim_next_stage("w:0", gpu=None)
    assert claim is not None
    path = next(v.path for v in store.jobs.items(job) if v.id == claim.item_id)
    assert store.current.mark_removed([path], "the file was deleted") == 1
    view = next(v for v in store.jobs.items(job) if v.id == claim.item_id)
    assert view.status == ItemState.SKIPPED and view.error == "the file was deleted"
    with store.db.read() as conn:
        statuses = conn.execute(select(stages.c.status, stages.c.error_code).where(stages.c.item_id == claim.item_id)).all()
    assert [tuple(r) for r in statuses] == [(StageState.SKIPPED, "file_removed")] * 2
    assert [v.status for v in store.jobs.items(job) if v.id != claim.item_id] == [ItemState.PENDING]
    with pytest.raises(LeaseLost):
        store.stages.record_progress(claim, 0.5)


def test_superseding_stops_only_unfinished_revisions(store: Store) -> None:
    job = _job(store, "a.mp4", stage_count=1)
    claim = store.stages.claim_next_stage("w:0", gpu=None)
    assert claim is not None
    assert store.current.supersede_unfinished(["/lib/a.mp4"]) == 1
    assert _item_states(store, job) == [ItemState.SKIPPED]
    assert store.current.supersede_unfinished(["/lib/a.mp4"]) == 0


# -- pause all ------------------------------------------------------------------------------


def test_pause_all_stops_claims_shows_paused_and_resume_all_clears_job_pauses(store: Store) -> None:
    job = _job(store, "a.mp4")
    other = _job(store, "b.mp4")
    store.jobs.set_paused(other, True)
    store.jobs.set_paused(None, True)
    with store.db.read() as conn:
        assert is_paused_all(conn)
    assert store.jobs.paused_state() == (True, {other})
    assert store.stages.claim_next_stage("w:0", gpu=None) is None
    assert store.stages.peek_gpu_candidate() is None
    assert store.stages.has_runnable_or_running()[0] is False
    assert [s.status for s in store.jobs.summaries()] == [JobSummaryStatus.PAUSED, JobSummaryStatus.PAUSED]
    assert _item_states(store, job) == [ItemState.PAUSED]

    store.jobs.set_paused(None, False)
    assert store.jobs.paused_state() == (False, set())
    assert [s.status for s in store.jobs.summaries()] == [JobSummaryStatus.QUEUED, JobSummaryStatus.QUEUED]
    assert store.stages.claim_next_stage("w:0", gpu=None) is not None


# -- remember placed output -----------------------------------------------------------------


def test_remembering_a_placed_output_twice_keeps_one_row(store: Store) -> None:
    with store.db.write() as conn:
        remember_placed_output(conn, "/lib/a.en.srt", "sha-1", store.db.now())
        remember_placed_output(conn, "/lib/a.en.srt", "sha-1", store.db.now())
        remember_placed_output(conn, "/lib/a.en.srt", "sha-2", store.db.now())
    with store.db.read() as conn:
        assert conn.execute(select(placed_outputs.c.sha256).order_by(placed_outputs.c.sha256)).scalars().all() == ["sha-1", "sha-2"]
    assert store.steps.is_our_output("/lib/a.en.srt", "sha-1")
    assert not store.steps.is_our_output("/lib/a.en.srt", "sha-3")


# -- rolling jobs ---------------------------------------------------------------------------


def test_a_watch_gets_a_ready_rolling_job_and_a_new_one_after_it_failed(store: Store) -> None:
    watch = store.watches.add("/lib", {"kind": "image"})
    assert watch.job_id is not None
    summary = store.jobs.summaries(watch.job_id)[0]
    assert summary.scan_report == {"watched": True} and summary.options == {"kind": "image"}
    with store.db.read() as conn:
        row = conn.execute(select(jobs.c.state, jobs.c.owner).where(jobs.c.id == watch.job_id)).one()
    assert (row.state, row.owner) == (JobState.READY, "watch")
    assert store.watches.rolling_job(watch.id) == watch.job_id

    store.jobs.fail(watch.job_id, "folder_missing", "gone")
    replacement = store.watches.rolling_job(watch.id)
    assert replacement != watch.job_id
    assert store.watches.get("/lib").job_id == replacement  # type: ignore[union-attr]
    store.jobs.cancel(replacement)
    assert store.watches.rolling_job(watch.id) not in (watch.job_id, replacement)
