"""Random sequences of queue operations never break the store's invariants (hypothesis state machine), on SQLite and PostgreSQL."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test
from sqlalchemy import select

from app.errors import Code, LeaseLost, NotFound
from app.store.records import Claim, NewItem, NewStage
from app.store.retry_policy import RetryPolicy
from app.store.tables import jobs
from tests.postgres_server import PostgresCluster
from tests.store_backends import open_store
from tests.store_invariants import assert_rows_consistent, assert_summaries_consistent

STAGES = 3
LEASE = 10.0


class QueueMachine(RuleBasedStateMachine):
    cluster: PostgresCluster | None = None
    """Set for the PostgreSQL run: each example gets a fresh database of this server."""

    def __init__(self) -> None:
        super().__init__()
        self.tmp = tempfile.TemporaryDirectory()
        self.t = 1000.0
        location = Path(self.tmp.name) / "lib.sqlite3" if self.cluster is None else self.cluster.create_database()
        self.store = open_store(location, lambda: self.t, lease_seconds=LEASE)
        self.claims: list[Claim] = []
        self.stale: list[Claim] = []
        self.generations: dict[int, int] = {}
        self.n_files = 0

    def teardown(self) -> None:
        self.store.close()
        self.tmp.cleanup()

    # -- operations -------------------------------------------------------------------

    @initialize()
    def first_job(self) -> None:
        self.add(3)

    @rule(n=st.integers(1, 4))
    def add(self, n: int) -> None:
        job = self.store.jobs.create("/lib", {}, owner="test")
        new = []
        for _ in range(n):
            self.n_files += 1
            new.append(NewItem(f"/lib/f{self.n_files}.mp4", "video", 1, 1, f"sha{self.n_files}",
                               tuple(NewStage(i, f"s{i}", f"fp{i}") for i in range(STAGES))))
        self.store.jobs.add_items(job, new)
        self.store.jobs.finish_creating(job, {})

    @rule(worker=st.integers(0, 2))
    def claim(self, worker: int) -> None:
        c = self.store.stages.claim_next_stage(f"inst:{worker}", gpu=None)
        if c is not None:
            assert c.generation > self.generations.get(c.stage_id, 0)
            self.generations[c.stage_id] = c.generation
            self.claims.append(c)

    @precondition(lambda self: self.claims)
    @rule(data=st.data())
    def heartbeat(self, data: st.DataObject) -> None:
        c = data.draw(st.sampled_from(self.claims))
        if self.store.stages.heartbeat([c]):
            self._lose(c)

    @precondition(lambda self: self.claims)
    @rule(data=st.data())
    def complete(self, data: st.DataObject) -> None:
        c = data.draw(st.sampled_from(self.claims))
        try:
            self.store.stages.complete_stage(c, {"by": c.owner})
        except LeaseLost:
            self._lose(c)
            return
        self.claims.remove(c)

    @precondition(lambda self: self.claims)
    @rule(data=st.data(), transient=st.booleans())
    def fail(self, data: st.DataObject, transient: bool) -> None:
        c = data.draw(st.sampled_from(self.claims))
        try:
            self.store.stages.fail_stage(c, Code.RUNTIME_ERROR, "failed on purpose", transient, RetryPolicy(3, 1.0, 4.0))
        except LeaseLost:
            self._lose(c)
            return
        self.claims.remove(c)

    @precondition(lambda self: self.claims)
    @rule(data=st.data())
    def pause_release(self, data: st.DataObject) -> None:
        c = data.draw(st.sampled_from(self.claims))
        try:
            self.store.stages.release_stage(c)
        except LeaseLost:
            self._lose(c)
            return
        self.claims.remove(c)

    @rule(data=st.data(), paused=st.booleans())
    def pause_or_resume(self, data: st.DataObject, paused: bool) -> None:
        ids = self._job_ids()
        job = data.draw(st.sampled_from(ids + [None]))
        self.store.jobs.set_paused(job, paused)

    @rule(data=st.data())
    def retry(self, data: st.DataObject) -> None:
        ids = self._job_ids()
        if ids:
            self.store.jobs.retry(job_id=data.draw(st.sampled_from(ids)))

    @rule(data=st.data())
    def cancel(self, data: st.DataObject) -> None:
        ids = self._job_ids()
        if not ids:
            return
        job = data.draw(st.sampled_from(ids))
        self.store.jobs.cancel(job)
        try:
            self.store.jobs.cancel(job)
            raise AssertionError("cancelling twice must say the job is gone")
        except NotFound:
            pass

    @rule(dt=st.floats(1, 30))
    def advance_clock(self, dt: float) -> None:
        self.t += dt

    @rule()
    def recover(self) -> None:
        self.store.stages.reclaim(expired=True)

    @rule()
    def recover_dead_instance(self) -> None:
        self.store.stages.reclaim(instances_gone=["inst"], expired=False)

    def _lose(self, c: Claim) -> None:
        self.claims.remove(c)
        self.stale.append(c)

    def _job_ids(self) -> list[int]:
        with self.store.db.read() as conn:
            return list(conn.execute(select(jobs.c.id)).scalars())

    # -- invariants -------------------------------------------------------------------

    @invariant()
    def stale_claims_cannot_write(self) -> None:
        for c in self.stale[-3:]:
            try:
                self.store.stages.record_checkpoint(c, {"stale": True})
            except LeaseLost:
                continue
            raise AssertionError(f"a stale claim wrote a checkpoint: {c}")

    @invariant()
    def rows_are_consistent(self) -> None:
        assert_rows_consistent(self.store)

    @invariant()
    def summaries_never_claim_completion_early(self) -> None:
        assert_summaries_consistent(self.store)


QueueMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=40, deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow])
test_queue_state_machine = QueueMachine.TestCase


class PostgresQueueMachine(QueueMachine):
    pass


def test_queue_state_machine_on_postgres(postgres_cluster: PostgresCluster) -> None:
    """Fewer examples than SQLite's: each one creates and migrates a database on the server."""
    PostgresQueueMachine.cluster = postgres_cluster
    run_state_machine_as_test(PostgresQueueMachine, settings=settings(
        QueueMachine.TestCase.settings, max_examples=20))
