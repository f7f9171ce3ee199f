"""Liveness by heartbeat rows: remote instances are judged by their row's expiry on the database's clock."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from app.engine.config import EngineConfig
from app.engine.instances import worker_views
from app.engine.scheduler import Scheduler
from app.errors import LeaseLost
from app.paths import database_path
from app.store import Store
from app.store.database import Database
from app.store.instances import PRUNE_AFTER_SECONDS, InstanceInfo, InstanceRepo
from app.store.records import NewItem, NewStage
from app.store.stages import StageRepo
from app.store.tables import items, jobs, stages

REMOTE = InstanceInfo("far-box-1-aaaa", "far-box", 1, "worker", gpu="RTX 4090", version="0.1.0")


class FakeClock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def _store_with_stage(data_dir: Path, tmp_path: Path, clock: FakeClock) -> Store:
    media = tmp_path / "movie.mp4"
    media.write_bytes(b"video")
    # Stage leases far longer than the heartbeat grace: only the instance row can make it dead.
    store = Store(database_path(data_dir), clock=clock, lease_seconds=10_000)
    job = store.jobs.create(str(tmp_path), {}, owner="test")
    store.jobs.add_items(job, [NewItem(str(media), "video", 5, media.stat().st_mtime_ns,
                                       hashlib.sha256(b"video").hexdigest(), (NewStage(0, "place", "fp0"),))])
    store.jobs.finish_creating(job, {})
    return store


def _stage_owner(store: Store) -> str | None:
    with store.db.read() as conn:
        return conn.execute(select(stages.c.lease_owner)).scalar()


def test_remote_instance_keeps_its_stage_while_it_beats_and_loses_it_once_expired(data_dir: Path, tmp_path: Path) -> None:
    clock = FakeClock()
    store = _store_with_stage(data_dir, tmp_path, clock)
    scheduler = Scheduler(store, {}, data_dir, EngineConfig(workers=1, lease_seconds=10_000))
    try:
        store.instances.beat(REMOTE, grace=30)
        claim = store.stages.claim_next_stage(f"{REMOTE.id}:0", gpu=None)
        assert claim is not None

        for _ in range(5):  # a minute of heartbeats: always within its grace
            clock.t += 12
            store.instances.beat(REMOTE, grace=30, running={"place": 1})
            scheduler.recover()
        assert _stage_owner(store) == f"{REMOTE.id}:0"
        store.stages.assert_held(claim)
        view = {w.id: w for w in worker_views(store.instances.rows(), data_dir)}[REMOTE.id]
        assert (view.machine, view.alive, view.running, view.gpu, view.heartbeat_age) == (
            "far-box", True, {"place": 1}, "RTX 4090", 0.0)

        clock.t += 31  # its heartbeats stopped: the row expires
        scheduler.recover()
        assert _stage_owner(store) is None
        with pytest.raises(LeaseLost):
            store.stages.record_progress(claim, 0.5)
        view = {w.id: w for w in worker_views(store.instances.rows(), data_dir)}[REMOTE.id]
        assert (view.alive, view.heartbeat_age) == (False, 31.0)

        clock.t += PRUNE_AFTER_SECONDS  # listed as dead for a while, then pruned
        scheduler.recover()
        assert REMOTE.id not in [r.id for r in store.instances.rows()]
    finally:
        scheduler.stop()
        store.close()


def test_an_instance_of_this_machine_without_a_lock_here_lives_by_its_heartbeat(data_dir: Path, tmp_path: Path) -> None:
    """Another data folder on a shared database: its engines' locks are not in ours, so only the row tells."""
    clock = FakeClock()
    store = _store_with_stage(data_dir, tmp_path, clock)
    scheduler = Scheduler(store, {}, data_dir, EngineConfig(workers=1, lease_seconds=10_000))
    neighbour = InstanceInfo(f"{scheduler.instance.hostname}-2-cccc", scheduler.instance.hostname, 2, "engine")
    try:
        store.instances.beat(neighbour, grace=30)
        assert store.stages.claim_next_stage(f"{neighbour.id}:0", gpu=None) is not None
        scheduler.recover()
        assert _stage_owner(store) == f"{neighbour.id}:0"
        assert [w.alive for w in worker_views(store.instances.rows(), data_dir) if w.id == neighbour.id] == [True]
        clock.t += 31
        scheduler.recover()
        assert _stage_owner(store) is None
    finally:
        scheduler.stop()
        store.close()


def test_beat_after_being_pruned_registers_again(data_dir: Path, tmp_path: Path) -> None:
    clock = FakeClock()
    store = _store_with_stage(data_dir, tmp_path, clock)
    try:
        store.instances.beat(REMOTE, grace=30)
        clock.t += 31 + PRUNE_AFTER_SECONDS
        assert store.instances.prune() == 1
        store.instances.beat(REMOTE, grace=30, running={"place": 2})
        (row,) = store.instances.rows()
        assert (row.id, row.expired, row.running, row.started_at) == (REMOTE.id, False, {"place": 2}, clock.t)
    finally:
        store.close()


def test_a_machine_whose_clock_runs_an_hour_ahead_steals_no_live_work(postgres_url: str) -> None:
    honest = Database(postgres_url, time.time)
    ahead = Database(postgres_url, lambda: time.time() + 3600)
    engine = honest.engine
    try:
        assert abs(ahead.now() - time.time()) < 60, "on PostgreSQL the server's clock counts, not the local one"

        InstanceRepo(honest).beat(REMOTE, grace=30, running={"transcribe": 1})
        lease_until = honest.now() + 30
        with engine.begin() as conn:
            conn.execute(insert(jobs).values(id=1, folder="/lib", state="ready", created_at=0, updated_at=0))
            conn.execute(insert(items).values(id=1, job_id=1, ordinal=0, path="/lib/a.mp4", kind="video",
                                              status="running", updated_at=0))
            conn.execute(insert(stages).values(id=1, item_id=1, job_id=1, idx=0, name="transcribe", status="running",
                                               fingerprint="fp",
                                               lease_owner=f"{REMOTE.id}:0", lease_expires_at=lease_until,
                                               claim_generation=1, attempt=1, updated_at=0))

        skewed_instances, skewed_stages = InstanceRepo(ahead), StageRepo(ahead, lease_seconds=30)
        assert skewed_instances.reclaim_expired(exclude="skewed") == []
        assert skewed_stages.reclaim(expired=True) == 0
        (row,) = skewed_instances.rows()
        assert not row.expired and row.heartbeat_age < 60

        # The same machine does reclaim once the row expires on the server's clock.
        InstanceRepo(honest).beat(REMOTE, grace=-1)
        assert skewed_instances.reclaim_expired(exclude="skewed") == [REMOTE.id]
        with engine.connect() as conn:
            assert conn.execute(select(stages.c.status, stages.c.lease_owner)).one() == ("queued", None)
            assert conn.execute(select(items.c.status)).scalar() == "pending"
    finally:
        honest.close()
        ahead.close()
