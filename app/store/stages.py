"""Stage rows: claims, heartbeats and every fenced write a worker makes.

A claim is one short write transaction (``BEGIN IMMEDIATE`` on SQLite; on PostgreSQL
``SELECT … FOR NO KEY UPDATE OF items SKIP LOCKED``, so claims of different items never
wait on each other) that picks the first runnable stage and stamps it with (owner, claim_generation + 1, lease expiry). Every later write
by that worker is an UPDATE conditioned on the same three facts with its row count
checked: zero rows means the claim is gone and the worker must stop. The claim query
is a plain "select one row, then update it" pair so it maps onto PostgreSQL's
``FOR UPDATE SKIP LOCKED``. Every write here locks the stage's item first
(:mod:`app.store.row_locks`: the one lock order). The status changes themselves (and the fence) are
:mod:`app.store.stage_transitions` and :mod:`app.store.item_transitions`.
"""

from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from functools import cache
from typing import Any, Iterator, Mapping, Sequence

from sqlalchemy import (BigInteger, ColumnElement, Connection, Float, Select, Text, bindparam, exists, literal_column,
                        or_, select, true, update)

from app.errors import Code, CrashLoop
from app.store import change_counter, item_transitions, stage_transitions
from app.store.claim_scope import EVERYTHING, WHOLE_JOBS, ClaimScope, Reach
from app.store.database import Database, dumps, loads
from app.store.dialect import common_condition, insert_missing, is_sqlite, lock_claim, upsert, walk_in_index_order
from app.store.row_locks import lock_item_ids
from app.store.records import Claim, ItemReport
from app.store.retry_policy import RetryPolicy
from app.store.stage_transitions import fence, fenced_update, lease_lost
from app.store.states import UNFINISHED_ITEMS, UNFINISHED_STAGES, ItemState, JobState, StageState
from app.store.tables import items, jobs, model_loads, results, stages
from app.store.shared_transitions import is_paused_all, owned_by, requeue_running_stages_and_items, stop_unfinished_items_and_stages

log = logging.getLogger(__name__)

#: The claim order, all on the stage row so one partial index over queued stages answers it (``0005_claim_index``).
CLAIM_ORDER = (stages.c.job_id, stages.c.grp, stages.c.idx, stages.c.ordinal)
CLAIM_ORDER_DEEPEST = (stages.c.job_id, stages.c.grp, stages.c.idx.desc(), stages.c.ordinal)

#: Written into the SQL, not bound: a planner uses a partial index only when the query's own text implies its WHERE.
QUEUED_LITERALLY = stages.c.status == literal_column(f"'{StageState.QUEUED.value}'")

#: Each lane's condition, written into the SQL: it names the lane's partial index (``0006_claim_lanes``). None: either lane.
LANES: dict[bool | None, ColumnElement[bool]] = {
    False: stages.c.gpu_mb == literal_column("0"),
    True: stages.c.gpu_mb > literal_column("0"),
    None: true(),
}

REQUEST_JOB_OWNER = "request"
"""The owner of a job ``sidecar serve`` made for a request: its stages are claimed before any folder's."""

CLAIM_JOBS = "claim_jobs"
"""The claim query's parameter: the jobs it walks, from :meth:`StageRepo._claim_walks`."""


@cache
def _claim_jobs(gpu: bool | None, sqlite: bool) -> Select[Any]:
    """Ready, unpaused jobs with a queued stage in the lane: one probe of the lane's index per job.

    The probe is a subquery with ``LIMIT 1``, not ``EXISTS``: PostgreSQL turned the
    ``EXISTS`` into a semi-join that, without statistics, read the lane's whole index
    once per job (60 ms at 100k stages); a limited subquery is run per job, as written.
    It is ordered as the lane's claim is: once autovacuum had analysed a 1M-stage
    library, PostgreSQL answered the unordered probe by a sequential scan of ``stages``
    (the statistics promised 125k matches, found at the table's end: 90 ms per job,
    600 ms per claim), and with sorting off (:func:`walk_in_index_order`) an order only
    the lane's partial index gives leaves its walk as the one plan.
    """
    first_queued = (select(stages.c.id)
                    .where(stages.c.job_id == jobs.c.id, common_condition(sqlite, QUEUED_LITERALLY), LANES[gpu])
                    .order_by(*(CLAIM_ORDER_DEEPEST if gpu is False else CLAIM_ORDER))
                    .limit(1).scalar_subquery())
    return select(jobs.c.id, jobs.c.folder, jobs.c.owner).where(jobs.c.state == JobState.READY, jobs.c.paused == 0,
                                                                first_queued.is_not(None))


_QUERY_CACHE = 16  # built claim queries kept per repo: (gpu, scope) pairs; a scope changes rarely

class StageRepo:
    def __init__(self, db: Database, lease_seconds: float = 30.0):
        self.db = db
        self.lease_seconds = lease_seconds
        self._queries: dict[tuple[bool | None, ClaimScope, bool, bool], Any] = {}

    # -- claims ---------------------------------------------------------------------------

    def _runnable(self, gpu: bool | None, scope: ClaimScope, one_stage: bool = False, like: bool = False) -> Select[Any]:
        """The first runnable stage's id, within ``scope`` (with ``one_stage``: only if it is the ``stage_id`` parameter).

        With ``like``: up to the ``limit`` parameter of runnable stages named ``name`` on
        model ``model_key`` (the companions of a batch claim, :meth:`claim_companions`).

        Built once per (gpu, scope, one_stage) with the time as the ``now`` parameter: every
        claim ran this query twice, and building it (three aliased tables, a dozen
        conditions) cost a worker several milliseconds of Python holding the GIL per claim,
        ten times what SQLite took to run it; the window waited for that GIL.
        """
        key = (gpu, scope, one_stage, like)
        query = self._queries.get(key)
        if query is None:
            if len(self._queries) >= _QUERY_CACHE:
                self._queries.clear()  # scopes change only when a worker gives items back
            query = self._queries[key] = self._build_runnable(gpu, scope, one_stage, like, is_sqlite(self.db.engine))
        return query

    @staticmethod
    def _build_runnable(gpu: bool | None, scope: ClaimScope, one_stage: bool, like: bool, sqlite: bool) -> Select[Any]:
        now = bindparam("now", type_=Float)
        earlier = stages.alias()
        q = (
            select(stages.c.id)
            .join(items, items.c.id == stages.c.item_id)
            .where(
                common_condition(sqlite, QUEUED_LITERALLY),
                LANES[gpu],
                stages.c.job_id.in_(bindparam(CLAIM_JOBS, expanding=True)),
                (stages.c.retry_at.is_(None)) | (stages.c.retry_at <= now),
                ~exists().where(earlier.c.item_id == stages.c.item_id, earlier.c.idx < stages.c.idx,
                                earlier.c.status != StageState.SUCCEEDED),
                scope.claim_where(items, stages.c.job_id),
                scope.stages_where(stages),
            )
        )
        if gpu is True:
            # GPU stages: lowest stage index first within a group, so a group is transcribed
            # before it is translated and each model loads once per group. "First" includes
            # earlier GPU stages still waiting on a CPU stage: a translate is not admitted while
            # a live item of its group has yet to be transcribed, or whisper would load twice.
            # Only items in this engine's scope count: one it will never take must not hold it back.
            # The group's GPU stages are read through ``stages_gpu_group`` (a few rows), not
            # every unfinished stage of the job.
            other, other_item = stages.alias(), items.alias()
            q = q.where(
                ~exists().where(
                    other.c.job_id == stages.c.job_id, other.c.grp == stages.c.grp, other.c.gpu_mb > literal_column("0"),
                    other.c.idx < stages.c.idx, other.c.status.in_(UNFINISHED_STAGES),
                    other_item.c.id == other.c.item_id,
                    other_item.c.status.in_(UNFINISHED_ITEMS), scope.items_where(other_item),
                ),
            ).order_by(*CLAIM_ORDER)
        elif gpu is False:
            # CPU stages: deepest first, so items finish (and free their workspace) early.
            q = q.order_by(*CLAIM_ORDER_DEEPEST)
        else:
            q = q.order_by(*CLAIM_ORDER)
        if one_stage:
            q = q.where(stages.c.id == bindparam("stage_id", type_=BigInteger))
        if like:
            return q.where(stages.c.name == bindparam("name", type_=Text),
                           stages.c.model_key == bindparam("model_key", type_=Text)).limit(bindparam("limit"))
        return q.limit(1)

    @staticmethod
    def _claim_walks(conn: Connection, gpu: bool | None, scope: ClaimScope, now: float) -> list[dict[str, Any]]:
        """The claim's parameters, one set per pass: request jobs first when there are any, then every job.

        Each set holds the jobs a claim walks (ready, not paused, with a queued stage in its lane,
        in ``scope``'s reach). Why a list and not a join: the claim index leads with the job, so the walk skips
        a paused job, a finished one and one the worker's path map does not reach by
        whole index ranges; joined instead, each of their queued stages was read and
        refused (a paused million-file job before every claim). Also has the rest of the
        transaction walk the claim index rather than sort (:func:`walk_in_index_order`).

        Requests (``sidecar serve``: an upload a client waits on, a media server's new file) are
        jobs owned by :data:`REQUEST_JOB_OWNER`; the claim order leads with the job id, so without
        a pass of their own they would wait behind every folder added before them.
        """
        walk_in_index_order(conn)
        rows = conn.execute(_claim_jobs(gpu, is_sqlite(conn))).all()
        reach = {row.id: scope.reach(row.folder) for row in rows}
        walk = sorted(job for job, r in reach.items() if r is not Reach.NONE)
        if not walk:
            return []
        requests = {row.id for row in rows if row.owner == REQUEST_JOB_OWNER}
        first = [job for job in walk if job in requests]
        passes = [first, walk] if first and len(first) < len(walk) else [walk]
        return [{"now": now, CLAIM_JOBS: job_ids, WHOLE_JOBS: [job for job in job_ids if reach[job] is Reach.WHOLE]}
                for job_ids in passes]

    def peek_gpu_candidate(self, scope: ClaimScope = EVERYTHING) -> tuple[int, int, str | None] | None:
        """(stage id, gpu_mb, model_key) of the GPU stage in ``scope`` the gate should consider next."""
        with self.db.read() as conn:
            if is_paused_all(conn):
                return None
            sid = None
            for params in self._claim_walks(conn, True, scope, self.db.now()):
                sid = conn.execute(self._runnable(True, scope), params).scalar()
                if sid is not None:
                    break
            if sid is None:
                return None
            row = conn.execute(select(stages.c.gpu_mb, stages.c.model_key).where(stages.c.id == sid)).one()
            return int(sid), int(row.gpu_mb), row.model_key

    def claim_next_stage(self, owner: str, gpu: bool | None = False, stage_id: int | None = None,
                         scope: ClaimScope = EVERYTHING) -> Claim | None:
        """Claim the next runnable stage in ``scope`` (or exactly ``stage_id`` if still runnable)."""
        now = self.db.now()
        with self.db.write() as conn:
            if is_paused_all(conn):
                return None
            q = self._runnable(gpu, scope, one_stage=stage_id is not None)
            for params in self._claim_walks(conn, gpu, scope, now):
                if stage_id is not None:
                    params["stage_id"] = stage_id
                sid = conn.execute(lock_claim(conn, q, items), params).scalar()
                if sid is not None:
                    return self._take(conn, sid, owner, now)
            return None

    def claim_companions(self, lead: Claim, limit: int, scope: ClaimScope = EVERYTHING) -> list[Claim]:
        """Claim up to ``limit`` more runnable stages like ``lead`` (same stage, same model) for one batched model call.

        Each is an ordinary claim of its own (its own lease, generation and fence), taken
        in claim order in one short transaction; a stage another worker holds or takes
        meanwhile is skipped, so fewer (or none) may come back.
        """
        if limit <= 0 or lead.model_key is None:
            return []
        now = self.db.now()
        with self.db.write() as conn:
            if is_paused_all(conn):
                return []
            walks = self._claim_walks(conn, None, scope, now)
            if not walks:
                return []
            params = walks[-1]
            q = self._runnable(None, scope, like=True)
            sids = conn.execute(lock_claim(conn, q, items),
                                {**params, "name": lead.name, "model_key": lead.model_key, "limit": limit}).scalars().all()
            taken = [self._take(conn, sid, lead.owner, now) for sid in sids]
        return [claim for claim in taken if claim is not None]

    def _take(self, conn: Connection, sid: int, owner: str, now: float) -> Claim | None:
        """Claim the runnable stage ``sid`` inside the caller's transaction, with what its worker needs (None if taken)."""
        row = stage_transitions.claim(conn, sid, owner, self.lease_seconds, now)
        if row is None:
            return None
        item = item_transitions.start(conn, row["item_id"], now)
        job = conn.execute(select(jobs.c.options, jobs.c.folder).where(jobs.c.id == row["job_id"])).one()
        options = {**(loads(job.options) or {}), **(loads(item["options"]) or {})}  # the item's own choices win
        inputs = {
            r.name: loads(r.output) or {}
            for r in conn.execute(
                select(stages.c.name, stages.c.output).where(stages.c.item_id == item["id"], stages.c.idx < row["idx"])
            )
        }
        return Claim(
            stage_id=sid, item_id=item["id"], job_id=row["job_id"], idx=row["idx"], name=row["name"], owner=owner,
            generation=row["claim_generation"], attempt=row["attempt"], gpu_mb=row["gpu_mb"], model_key=row["model_key"],
            partial=loads(row["partial"]), inputs=inputs, item_path=item["path"], item_kind=item["kind"],
            item_sha256=item["sha256"], item_size=item["size"], item_mtime_ns=item["mtime_ns"],
            item_revision=item["revision"], job_folder=job.folder, options=options, failures=row["failures"] or 0,
        )

    # -- fenced writes ----------------------------------------------------------------------

    def touch(self, conn: Connection, claim: Claim) -> None:
        """Check the claim inside the caller's write transaction by touching its stage row (``LeaseLost`` if gone).

        Touching, not just reading, also serialises the caller's writes with any
        competing claim of the same stage.
        """
        lock_item_ids(conn, [claim.item_id])
        fenced_update(conn, claim, self.db.now())

    def assert_held(self, claim: Claim) -> None:
        """Raise LeaseLost unless the claim still holds (checked right before an external effect)."""
        with self.db.read() as conn:
            self._check_held(conn, claim)

    def _check_held(self, conn: Connection, claim: Claim) -> None:
        if conn.execute(select(stages.c.id).where(fence(claim, self.db.now()))).first() is None:
            raise lease_lost(claim)

    @contextmanager
    def fenced_write(self, claim: Claim) -> Iterator[Connection]:
        """A write transaction for data the stage derives into the library (the search index).

        The claim is checked inside it by touching its stage (:meth:`touch`), so check
        and write commit together, a reclaim of the stage waits for them, and a stale
        worker commits nothing.
        """
        with self.db.write() as conn:
            self.touch(conn, claim)
            yield conn

    def computed_output(self, claim: Claim) -> dict[str, Any] | None:
        """The output another item already produced for this content, stage and fingerprint.

        Two files with identical bytes in one job are planned before either ran, so
        the plan could not reuse anything; a stage asks here before doing model work.
        """
        if not claim.item_sha256:
            return None
        with self.db.read() as conn:
            fp = select(stages.c.fingerprint).where(stages.c.id == claim.stage_id).scalar_subquery()
            row = conn.execute(
                select(results.c.output).where(
                    results.c.sha256 == claim.item_sha256, results.c.stage == claim.name, results.c.fingerprint == fp
                )
            ).first()
        output = None if row is None else loads(row.output)
        return None if output is None or ItemReport.read(output).redone else output

    def succeeded_output(self, item_id: int, name: str) -> dict[str, Any] | None:
        """What the item's stage ``name`` returned when it succeeded (None: it has not, or the item has no such stage)."""
        with self.db.read() as conn:
            row = conn.execute(
                select(stages.c.output).where(stages.c.item_id == item_id, stages.c.name == name,
                                              stages.c.status == StageState.SUCCEEDED)
            ).first()
        return None if row is None else loads(row.output)

    def heartbeat(self, claims: Sequence[Claim]) -> list[Claim]:
        """Extend the leases still held; returns the claims that were lost."""
        lost = []
        now = self.db.now()
        with self.db.write() as conn:
            lock_item_ids(conn, [c.item_id for c in claims])
            for claim in claims:
                n = conn.execute(
                    update(stages).where(fence(claim, now)).values(lease_expires_at=now + self.lease_seconds)
                ).rowcount
                if n != 1:
                    lost.append(claim)
        return lost

    def record_progress(self, claim: Claim, fraction: float, note: str = "") -> None:
        with self.db.write() as conn:
            lock_item_ids(conn, [claim.item_id])
            fenced_update(conn, claim, self.db.now(), progress=max(0.0, min(1.0, fraction)), note=note or None)

    def record_checkpoint(self, claim: Claim, partial: Any) -> None:
        """Durably keep a long stage's progress so a resume continues from here."""
        with self.db.write() as conn:
            lock_item_ids(conn, [claim.item_id])
            fenced_update(conn, claim, self.db.now(), partial=dumps(partial))

    def fingerprints(self, item_id: int) -> list[str]:
        """The item's stage fingerprints in stage order, as planned (its results are stored under these)."""
        with self.db.read() as conn:
            return list(conn.execute(select(stages.c.fingerprint).where(stages.c.item_id == item_id).order_by(stages.c.idx)).scalars())

    def complete_stage(self, claim: Claim, output: dict[str, Any], fingerprint_cache: bool = True,
                       identified: str | None = None, reused: Mapping[int, dict[str, Any]] | None = None) -> bool:
        """Succeed the stage and open the next one; returns True when the item is now complete.

        A hash stage passes the content it ``identified`` (recorded on the item, which
        makes it current) and the later stages that content already has results for
        (``reused``, by stage index), all in the stage's own fenced transaction.
        """
        now = self.db.now()
        with self.db.write() as conn:
            lock_item_ids(conn, [claim.item_id])
            stage_transitions.succeed(conn, claim, output, now)
            if identified is not None:
                conn.execute(update(items).where(items.c.id == claim.item_id).values(sha256=identified, updated_at=now))
            stage_transitions.reuse(conn, claim.item_id, reused or {}, now)
            fp = conn.execute(select(stages.c.fingerprint).where(stages.c.id == claim.stage_id)).scalar_one()
            report = ItemReport.read(output)
            if fingerprint_cache and claim.item_sha256 and not report.redone:
                # One statement: two items of the same content may complete this stage at once.
                upsert(conn, results, dict(sha256=claim.item_sha256, stage=claim.name, fingerprint=fp,
                                           output=dumps(output), created_at=now), ("sha256", "stage", "fingerprint"))
            if report.result:
                conn.execute(update(items).where(items.c.id == claim.item_id).values(
                    result=str(report.result), result_detail=dumps(report.detail) if report.detail else None))
            if report.note:
                notes = loads(conn.execute(select(items.c.notes).where(items.c.id == claim.item_id)).scalar()) or []
                if report.note not in notes:
                    notes.append(str(report.note))
                    conn.execute(update(items).where(items.c.id == claim.item_id).values(notes=dumps(notes)))
            nxt = conn.execute(
                select(stages.c.id).where(stages.c.item_id == claim.item_id, stages.c.idx > claim.idx, stages.c.status != StageState.SUCCEEDED)
                .order_by(stages.c.idx).limit(1)
            ).scalar()
            if nxt is None:
                item_transitions.complete(conn, claim.item_id, now)
                return True
            stage_transitions.open_next(conn, nxt, now)
            item_transitions.back_to_pending(conn, claim.item_id, now)
            return False

    def fail_stage(self, claim: Claim, code: Code, message: str, transient: bool, policy: RetryPolicy) -> bool:
        """Record a failure; transient ones retry as ``policy`` says. Returns True if it will retry."""
        now = self.db.now()
        with self.db.write() as conn:
            lock_item_ids(conn, [claim.item_id])
            held = conn.execute(select(stages.c.failures).where(fence(claim, now))).scalar()
            if held is None:
                raise lease_lost(claim)
            failures = 1 + int(held)
            retry = transient and policy.retries(failures)
            if retry:
                stage_transitions.retry_later(conn, claim, failures, now + policy.delay(failures), code, message, now)
                item_transitions.back_to_pending(conn, claim.item_id, now)
            else:
                stage_transitions.fail(conn, claim, failures, code, message, now)
                item_transitions.fail(conn, claim.item_id, code, message, now)
            return retry

    def release_stage(self, claim: Claim) -> None:
        """Give a stage back after a pause: it keeps its checkpoint and the claim does not count as an attempt."""
        now = self.db.now()
        with self.db.write() as conn:
            lock_item_ids(conn, [claim.item_id])
            if requeue_running_stages_and_items(conn, fence(claim, now), now, refund_attempt=True) != 1:
                raise lease_lost(claim)

    def to_review(self, claim: Claim, message: str) -> None:
        """The stage waits for a person's decision on one of its steps."""
        now = self.db.now()
        with self.db.write() as conn:
            lock_item_ids(conn, [claim.item_id])
            stage_transitions.hold_for_review(conn, claim, message, now)
            item_transitions.hold_for_review(conn, claim.item_id, message, now)

    # -- recovery ---------------------------------------------------------------------------

    def reclaim(self, instances_gone: Sequence[str] = (), expired: bool = True) -> int:
        """Put running stages of dead instances (at once) or with expired leases back in the queue.

        Owners are ``<instance>:<worker>``. The attempt they used stays counted; their
        checkpoints are kept.
        """
        now = self.db.now()
        cond = [owned_by(instances_gone)] if instances_gone else []
        if expired:
            cond.append(stages.c.lease_expires_at <= now)
        if not cond:
            return 0
        with self.db.write() as conn:
            count = requeue_running_stages_and_items(conn, or_(*cond), now, refund_attempt=False)
            change_counter.compact(conn)  # a periodic write of every engine: where the deltas get folded
        if count:
            log.info("reclaimed %d stage(s)", count)
        return count

    def count_crash(self, owner: str, report: str, limit: int) -> bool:
        """The engine process of ``owner`` crashed while that worker ran its claimed stage: count it.

        Only crashes count, never kills (see :mod:`app.engine.crash_reports`), and only
        consecutive claims of the same stage: finishing or failing normally clears the
        count. At ``limit`` the item is failed with ``crash_loop`` and the evidence (the
        stage, its claim times, the crash) so a restarted engine stops claiming it and
        the rest of the queue goes on. Returns True when the item was set aside.
        """
        now = self.db.now()
        with self.db.write() as conn:
            row = conn.execute(
                select(stages.c.id, stages.c.item_id, stages.c.name, stages.c.started_at, stages.c.crash_claims)
                .where(stages.c.lease_owner == owner, stages.c.status == StageState.RUNNING)
            ).first()
            if row is None:
                return False
            lock_item_ids(conn, [row.item_id])
            claims = [*(loads(row.crash_claims) or []), row.started_at]
            conn.execute(update(stages).where(stages.c.id == row.id).values(crash_claims=dumps(claims), updated_at=now))
            if len(claims) < limit:
                return False
            when = ", ".join(time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) for t in claims)
            message = (f"Sidecar's engine crashed {len(claims)} times in a row while working on this file "
                       f"(step “{row.name}”, started {when}; the crash: {report}). It was set aside so the "
                       "other files could go on; retry it after updating Sidecar or its models.")
            stop_unfinished_items_and_stages(conn, items.c.id == row.item_id, ItemState.FAILED, CrashLoop.code, message, now)
        log.warning("item %s set aside after %d engine crashes in stage %s", row.item_id, len(claims), row.name)
        return True

    # -- counters -------------------------------------------------------------------------

    def count_model_load(self, model_key: str) -> None:
        now = self.db.now()
        with self.db.write() as conn:
            # Insert first: two engines loading a model for the first time must not both insert it.
            insert_missing(conn, model_loads, dict(model_key=model_key, loads=0, last_loaded_at=now))
            conn.execute(update(model_loads).where(model_loads.c.model_key == model_key)
                         .values(loads=model_loads.c.loads + 1, last_loaded_at=now))

    def model_load_counts(self) -> dict[str, int]:
        with self.db.read() as conn:
            return {r.model_key: int(r.loads) for r in conn.execute(select(model_loads))}

    def has_runnable_or_running(self, scope: ClaimScope = EVERYTHING) -> tuple[bool, bool, float | None]:
        """(something in ``scope`` runnable now, something running, earliest future retry time in ``scope``).

        "Running" counts any stage of an item in scope, whoever runs it and whatever
        ``gpu_only`` says: a CPU stage another machine runs queues the GPU stage after it.
        """
        now = self.db.now()
        items_scope = ClaimScope(scope.prefixes, scope.kinds, False, scope.exclude_items)
        with self.db.read() as conn:
            if is_paused_all(conn):
                runnable = False
            else:
                walks = self._claim_walks(conn, None, scope, now)
                runnable = bool(walks) and conn.execute(self._runnable(None, scope), walks[-1]).first() is not None
            running = conn.execute(
                select(stages.c.id).join(items, items.c.id == stages.c.item_id)
                .where(stages.c.status == StageState.RUNNING, items_scope.items_where(items)).limit(1)
            ).first() is not None
            next_retry = conn.execute(
                select(stages.c.retry_at).join(jobs, jobs.c.id == stages.c.job_id).join(items, items.c.id == stages.c.item_id)
                .where(stages.c.status == StageState.QUEUED, stages.c.retry_at > now, jobs.c.paused == 0,
                       jobs.c.state == JobState.READY, scope.items_where(items), scope.stages_where(stages))
                .order_by(stages.c.retry_at).limit(1)
            ).scalar()
        return runnable, running, next_retry
