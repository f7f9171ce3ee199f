"""Several engines writing one PostgreSQL library at once: no deadlock, no broken invariant, no lost or doubled outcome.

Why: PostgreSQL writers no longer queue behind one global lock (app/store/row_locks.py);
each transition locks its rows in one order. Here N engines — threads, each with its own
Store and so its own connections, whose waits on the server release the GIL — make M
random transitions each (claim, progress, checkpoint, heartbeat, complete, fail, pause,
release, cancel, retry, add, lease expiry and reclaim) on the same jobs, while a checker
reads the rows' invariants on snapshots. Any database error (a deadlock, a serialisation
failure, a unique violation) fails the test, and every completion an engine saw commit
must be the one output its stage holds.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any, Callable

from sqlalchemy import select

from app.errors import Code, LeaseLost, NotFound
from app.store import Store
from app.store.database import loads
from app.store.records import Claim, NewItem, NewStage
from app.store.retry_policy import RetryPolicy
from app.store.tables import jobs, stages
from tests.store_backends import open_store
from tests.store_invariants import assert_rows_consistent, assert_summaries_consistent

ENGINES = 6
STEPS = 80
STAGES = 3
LEASE = 20.0
TIME_LIMIT = 50.0  # seconds for the whole run on a loaded 2-core machine; the CI bound is 60


class SharedClock:
    """The engines' one fake clock: a ``expire`` step moves it past every lease."""

    def __init__(self) -> None:
        self.t = 1000.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        with self._lock:
            self.t += dt


class Ledger:
    """What the engines saw commit, and every error they met."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.completed: list[tuple[int, dict[str, Any]]] = []
        self.errors: list[str] = []
        self.files = 0

    def next_file(self) -> int:
        with self.lock:
            self.files += 1
            return self.files


def add_job(store: Store, ledger: Ledger, n: int) -> None:
    job = store.jobs.create("/lib", {}, owner="stress")
    new = []
    for _ in range(n):
        f = ledger.next_file()
        # Every third file shares its content with another: two items may complete the same cached result at once.
        new.append(NewItem(f"/lib/f{f}.mp4", "video", 1, 1, f"sha{f % 7 if f % 3 == 0 else f}",
                           tuple(NewStage(i, f"s{i}", f"fp{i}") for i in range(STAGES))))
    try:
        store.jobs.add_items(job, new)
    except NotFound:
        return  # another engine cancelled the job while it was being created: nothing of it may remain
    store.jobs.finish_creating(job, {})


def job_ids(store: Store) -> list[int]:
    with store.db.read() as conn:
        return list(conn.execute(select(jobs.c.id)).scalars())


def engine(number: int, url: str, clock: SharedClock, ledger: Ledger, seed: int) -> None:
    rng = random.Random(seed)
    store = open_store(url, clock, lease_seconds=LEASE)
    claims: list[Claim] = []
    owner = f"engine{number}:w"

    def held(op: Callable[[Claim], None]) -> None:
        if not claims:
            return
        c = rng.choice(claims)
        try:
            op(c)
        except LeaseLost:
            claims.remove(c)
            return

    def complete(c: Claim) -> None:
        output = {"by": owner, "generation": c.generation}
        store.stages.complete_stage(c, output)
        claims.remove(c)
        with ledger.lock:
            ledger.completed.append((c.stage_id, output))

    def fail(c: Claim) -> None:
        store.stages.fail_stage(c, Code.RUNTIME_ERROR, "failed on purpose", rng.random() < 0.6, RetryPolicy(3, 0.0, 0.0))
        claims.remove(c)

    def release(c: Claim) -> None:
        store.stages.release_stage(c)
        claims.remove(c)

    def claim() -> None:
        c = store.stages.claim_next_stage(owner, gpu=None)
        if c is not None:
            claims.append(c)

    def some_job(op: Callable[[int], Any]) -> None:
        ids = job_ids(store)
        if ids:
            try:
                op(rng.choice(ids))
            except NotFound:
                pass  # another engine cancelled it meanwhile

    steps: list[tuple[float, Callable[[], Any]]] = [
        (6, claim),
        (6, lambda: held(complete)),
        (2, lambda: held(lambda c: store.stages.record_progress(c, rng.random(), "working"))),
        (1, lambda: held(lambda c: store.stages.record_checkpoint(c, {"at": rng.random()}))),
        (1, lambda: [claims.remove(c) for c in store.stages.heartbeat(list(claims))]),
        (2, lambda: held(fail)),
        (1, lambda: held(release)),
        (1, lambda: some_job(lambda j: store.jobs.set_paused(j, rng.random() < 0.5))),
        (0.3, lambda: store.jobs.set_paused(None, False)),
        (1, lambda: some_job(lambda j: store.jobs.retry(job_id=j))),
        (0.4, lambda: some_job(store.jobs.cancel)),
        (1, lambda: add_job(store, ledger, rng.randint(1, 4))),
        (0.4, lambda: clock.advance(LEASE + 1)),
        (1, lambda: store.stages.reclaim(expired=True)),
        (0.3, lambda: store.stages.reclaim(instances_gone=[f"engine{rng.randrange(ENGINES)}"], expired=False)),
        (0.5, lambda: store.jobs.changes(None, None)),
    ]
    weights = [w for w, _ in steps]
    try:
        for _ in range(STEPS):
            _, step = rng.choices(steps, weights)[0]
            try:
                step()
            except Exception as exc:  # noqa: BLE001 — every database error is a finding, reported together below
                with ledger.lock:
                    ledger.errors.append(f"engine {number}: {type(exc).__name__}: {exc}")
    finally:
        store.close()


def test_engines_in_parallel_on_postgres(postgres_url: str) -> None:
    clock, ledger = SharedClock(), Ledger()
    store = open_store(postgres_url, clock, lease_seconds=LEASE)
    for _ in range(4):
        add_job(store, ledger, 6)
    stop = threading.Event()
    snapshots: list[str] = []

    def check_while_running() -> None:
        while not stop.is_set():
            try:
                assert_rows_consistent(store)
            except AssertionError as exc:
                snapshots.append(repr(exc))
            time.sleep(0.05)

    checker = threading.Thread(target=check_while_running, daemon=True)
    threads = [threading.Thread(target=engine, args=(n, postgres_url, clock, ledger, 25_000 + n), daemon=True)
               for n in range(ENGINES)]
    started = time.monotonic()
    checker.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join(max(0.1, TIME_LIMIT - (time.monotonic() - started)))
    stop.set()
    checker.join(5)
    assert not any(t.is_alive() for t in threads), f"engines still running after {TIME_LIMIT} s: a lock wait never ended"
    assert ledger.errors == [], "\n".join(ledger.errors[:10])
    assert snapshots == [], snapshots[:3]

    assert_rows_consistent(store)
    assert_summaries_consistent(store)
    done = [stage_id for stage_id, _ in ledger.completed]
    assert len(done) > ENGINES * 5, f"only {len(done)} completions: the engines did not really work"
    assert len(done) == len(set(done)), "a stage completed twice"
    with store.db.read() as conn:
        rows = {r.id: r for r in conn.execute(select(stages.c.id, stages.c.status, stages.c.output, stages.c.reused))}
    for stage_id, output in ledger.completed:
        if stage_id in rows:  # else its job was cancelled
            assert rows[stage_id].status == "succeeded" and loads(rows[stage_id].output) == output
    seen = {stage_id for stage_id, _ in ledger.completed}
    for stage_id, row in rows.items():
        if row.status == "succeeded" and not row.reused:
            assert stage_id in seen, f"stage {stage_id} succeeded with an output no engine saw commit"
    store.close()
