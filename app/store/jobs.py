"""Jobs and their items: creation, pause/resume, cancel, retry and the views people see."""

from __future__ import annotations

import logging
from typing import Any, Collection, Mapping, Sequence

from sqlalchemy import Connection, and_, delete, func, select, update

from app.codes import REDONE_RESULTS
from app.errors import Code, ItemNotChangeable, NotFound
from app.store import change_counter, item_transitions, job_transitions, stage_transitions
from app.store.database import Database, dumps, loads
from app.store.dialect import json_field
from app.store.row_locks import lock_items, lock_jobs
from app.store.records import ITEM_FACTS, ItemFacts, ItemReport, ItemSource, ItemView, JobSummary, NewItem, NewStage
from app.store.states import SETTLED_ITEMS, UNFINISHED_ITEMS, ItemState, JobState, JobSummaryStatus, StageState, StepState
from app.store.tables import items, jobs, results, stages, steps
from app.store.shared_transitions import is_paused_all, set_paused_all, stop_unfinished_items_and_stages

log = logging.getLogger(__name__)

ROLLING_JOB_OWNER = "watch"
#: Placement steps whose outcome is known: an item with only these may be planned again.
SETTLED_STEPS = (StepState.SUCCEEDED, StepState.SKIPPED)


class JobRepo:
    """Jobs and their items as people see and steer them: add, pause, retry, re-plan, cancel.

    Status changes go through :mod:`app.store.job_transitions`,
    :mod:`app.store.item_transitions` and :mod:`app.store.stage_transitions` (each the only
    writer of its table's status); shared ones (stopping unfinished work, pause-all) are
    composed in :mod:`app.store.shared_transitions`.
    """

    def __init__(self, db: Database, group_size: int = 8):
        self.db = db
        self.group_size = group_size

    def create(self, folder: str, options: dict[str, Any], owner: str) -> int:
        """A new job in ``creating``: invisible to the scheduler until :meth:`finish_creating`."""
        with self.db.write() as conn:
            return self._insert(conn, folder, options, owner, JobState.CREATING, {})

    def create_rolling(self, conn: Connection, folder: str, options: dict[str, Any]) -> int:
        """A watched folder's rolling job, inside the caller's transaction (the watch row is written with it).

        It is ``ready`` from birth: the watcher appends items one at a time, so there is
        no ``creating`` phase to hide.
        """
        return self._insert(conn, folder, options, ROLLING_JOB_OWNER, JobState.READY, {"watched": True})

    @staticmethod
    def is_ready(conn: Connection, job_id: int) -> bool:
        """Whether the job exists and its items are scheduled (inside the caller's transaction)."""
        return conn.execute(select(jobs.c.state).where(jobs.c.id == job_id)).scalar() == JobState.READY

    def _insert(self, conn: Connection, folder: str, options: dict[str, Any], owner: str, state: JobState,
                scan_report: dict[str, Any]) -> int:
        return job_transitions.create(conn, folder, options, owner, state, scan_report, self.db.now())

    def add_items(self, job_id: int, new_items: Sequence[NewItem], first_ordinal: int = 0) -> None:
        """Insert a batch of items with their stage rows (reused stages already succeeded), in one transaction.

        Items go in as one multi-row insert and their stages as another: a 1,000-file
        batch is a handful of statements, not a thousand round trips.
        """
        now = self.db.now()
        with self.db.write() as conn:
            lock_jobs(conn, jobs.c.id == job_id)  # first in the lock order: a cancel waits for this batch
            if conn.execute(select(jobs.c.id).where(jobs.c.id == job_id)).first() is None:
                raise NotFound(f"job {job_id} was cancelled while its files were being added")
            revisions = dict(conn.execute(
                select(items.c.path, func.max(items.c.revision))
                .where(items.c.path.in_(list({item.path for item in new_items}))).group_by(items.c.path)
            ).all())
            rows: list[tuple[int, int, NewItem, int]] = []
            for offset, item in enumerate(new_items):
                ordinal = first_ordinal + offset
                revisions[item.path] = 1 + int(revisions.get(item.path) or 0)
                rows.append((ordinal, ordinal // max(1, self.group_size), item, revisions[item.path]))
            ids = item_transitions.add(conn, job_id, rows, now)
            plans = [(item_id, job_id, group, ordinal, item.stages)
                     for item_id, (ordinal, group, item, _) in zip(ids, rows) if not item.skip_reason]
            stage_transitions.add_planned(conn, plans, now)

    def finish_creating(self, job_id: int, scan_report: dict[str, Any]) -> None:
        """``creating`` → ``ready``: only now can the scheduler see the job's items."""
        with self.db.write() as conn:
            job_transitions.finish_creating(conn, job_id, scan_report, self.db.now())

    def fail_abandoned_creating(self, live_owners: Sequence[str]) -> list[int]:
        """Jobs left in ``creating`` by a process that died mid-scan become ``failed``."""
        with self.db.write() as conn:
            return job_transitions.fail_abandoned_creating(conn, live_owners, self.db.now())

    def fail(self, job_id: int, code: Code, message: str) -> None:
        """A job-level failure (its folder is gone): every unfinished item fails with it."""
        now = self.db.now()
        with self.db.write() as conn:
            lock_jobs(conn, jobs.c.id == job_id)
            job_transitions.fail(conn, job_id, code, message, now)
            stop_unfinished_items_and_stages(conn, items.c.job_id == job_id, ItemState.FAILED, code, message, now)

    def set_paused(self, job_id: int | None, paused: bool) -> None:
        """Pause or resume one job, or all (``job_id`` None); running stages stop at their next checkpoint."""
        with self.db.write() as conn:
            if job_id is None:
                set_paused_all(conn, paused, self.db.now())
                return
            if conn.execute(update(jobs).where(jobs.c.id == job_id).values(paused=int(paused), updated_at=self.db.now())).rowcount == 0:
                raise NotFound(f"no job {job_id}")

    def changes(self, since: Mapping[int, int] | None, all_paused_before: bool | None) -> tuple[bool, dict[int, int], list[JobSummary]]:
        """(all paused?, job id -> change counter, summaries of the jobs whose counter moved since ``since``).

        Counters and summaries come from one read snapshot: read apart, a write landing
        between them left a summary newer than its counter, and the next look re-read that job.
        """
        with self.db.read() as conn:
            all_paused = is_paused_all(conn)
            marks = {int(job_id): int(n) for job_id, n in conn.execute(change_counter.counters(conn))}
            if since is None or all_paused != all_paused_before:
                ids = list(marks)
            else:
                ids = [job_id for job_id, mark in marks.items() if since.get(job_id) != mark]
            changed = self._read_summaries(conn, None, ids) if ids else []
        return all_paused, marks, changed

    def paused_state(self) -> tuple[bool, set[int]]:
        """(all paused?, ids of paused jobs) — read by the heartbeat to stop stages at checkpoints."""
        with self.db.read() as conn:
            all_paused = is_paused_all(conn)
            paused = set(conn.execute(select(jobs.c.id).where(jobs.c.paused == 1)).scalars())
        return all_paused, paused

    def cancel(self, job_id: int) -> None:
        """Delete the job and its rows; the person's files are never touched (workspace removal is the caller's)."""
        with self.db.write() as conn:
            # The lock order (app.store.row_locks): the job, then its items; their stages and steps go with them.
            lock_jobs(conn, jobs.c.id == job_id, for_delete=True)
            lock_items(conn, items.c.job_id == job_id, for_delete=True)
            if conn.execute(delete(jobs).where(jobs.c.id == job_id)).rowcount == 0:
                raise NotFound(f"no job {job_id}")

    def retry(self, job_id: int | None = None, item_id: int | None = None) -> int:
        """Re-queue failed stages (finished stages are kept); idempotent. Returns items re-queued."""
        now = self.db.now()
        with self.db.write() as conn:
            cond = [items.c.status == ItemState.FAILED]
            if item_id is not None:
                cond.append(items.c.id == item_id)
            if job_id is not None:
                cond.append(items.c.job_id == job_id)
            lock_jobs(conn, jobs.c.id.in_(select(items.c.job_id).where(and_(*cond))))
            lock_items(conn, and_(*cond))
            ids = conn.execute(select(items.c.id).where(and_(*cond))).scalars().all()
            if not ids:
                return 0
            stage_transitions.requeue_failed(conn, ids, now)
            item_transitions.requeue_failed(conn, ids, now)
            job_transitions.reopen_failed(conn, ids, now)
            return len(ids)

    def finished_with(self, result: str) -> list[tuple[int, dict[str, Any]]]:
        """The completed items (not removed) whose result is ``result``, with its detail, oldest first."""
        with self.db.read() as conn:
            rows = conn.execute(
                select(items.c.id, items.c.result_detail)
                .where(items.c.result == result, items.c.status == ItemState.COMPLETED, items.c.removed == 0)
                .order_by(items.c.id)
            ).all()
        return [(int(r[0]), loads(r[1]) or {}) for r in rows]

    def items_to_redo(self, job_id: int | None = None, item_id: int | None = None) -> list[int]:
        """Completed items whose result a later run may do better (:data:`~app.codes.REDONE_RESULTS`): all jobs'
        unless ``job_id`` or ``item_id`` narrows them; the ids in job then file order."""
        cond = [items.c.status == ItemState.COMPLETED, items.c.result.in_(sorted(REDONE_RESULTS))]
        if job_id is not None:
            cond.append(items.c.job_id == job_id)
        if item_id is not None:
            cond.append(items.c.id == item_id)
        with self.db.read() as conn:
            return list(conn.execute(select(items.c.id).where(and_(*cond)).order_by(items.c.job_id, items.c.ordinal))
                        .scalars())

    def item_source(self, item_id: int) -> ItemSource:
        """The item's file and the options its stages run with (NotFound for an unknown id)."""
        with self.db.read() as conn:
            row = conn.execute(
                select(items, jobs.c.options.label("job_options")).join(jobs, jobs.c.id == items.c.job_id)
                .where(items.c.id == item_id)
            ).mappings().first()
        if row is None:
            raise NotFound(f"no item {item_id}")
        return ItemSource(id=row["id"], job_id=row["job_id"], path=row["path"], kind=row["kind"], size=row["size"],
                          mtime_ns=row["mtime_ns"], sha256=row["sha256"], status=ItemState(row["status"]),
                          job_options=loads(row["job_options"]) or {}, overrides=loads(row["options"]) or {})

    def replan_item(self, item_id: int, overrides: dict[str, Any], planned: Sequence[NewStage]) -> None:
        """Run the item again under new per-item options: its stages get the new plan's fingerprints and start over.

        Stages the plan could take from the cache stay succeeded; every other stage is
        reset (checkpoint, attempts and errors dropped) and a stage running now loses its
        claim (the generation moves on), so its worker writes nothing more. The item's
        settled placement steps are forgotten so ``place`` plans afresh (what Sidecar
        wrote stays known as its own, so it may be replaced). Refused for a skipped item
        (there is nothing planned to redo) and while a placement awaits a decision or is
        under way (its outcome must be settled first).
        """
        now = self.db.now()
        with self.db.write() as conn:
            lock_jobs(conn, jobs.c.id.in_(select(items.c.job_id).where(items.c.id == item_id)))
            lock_items(conn, items.c.id == item_id)
            status = conn.execute(select(items.c.status).where(items.c.id == item_id)).scalar()
            if status is None:
                raise NotFound(f"no item {item_id}")
            if status == ItemState.SKIPPED:
                raise ItemNotChangeable("this file was skipped, so there is nothing to redo; add it again to process it",
                                        code=Code.ITEM_SKIPPED)
            unsettled = conn.execute(
                select(steps.c.id).where(steps.c.item_id == item_id, steps.c.state.not_in(SETTLED_STEPS)).limit(1)
            ).first()
            if status == ItemState.REVIEW or unsettled is not None:
                raise ItemNotChangeable("a subtitle of this file is being placed or awaits your decision in Review; "
                                        "settle that first")
            conn.execute(delete(steps).where(steps.c.item_id == item_id))
            stage_transitions.replan(conn, item_id, planned, now)
            all_reused = all(s.reused_output is not None for s in planned)
            item_transitions.replan(conn, item_id, all_reused, overrides, now)
            job_transitions.reopen_failed(conn, [item_id], now)

    def summaries(self, job_id: int | None = None, *, ids: Collection[int] | None = None) -> list[JobSummary]:
        """Every job, one (``job_id``, NotFound if missing) or those of ``ids`` that still exist."""
        with self.db.read() as conn:
            return self._read_summaries(conn, job_id, ids)

    def _read_summaries(self, conn: Connection, job_id: int | None, ids: Collection[int] | None) -> list[JobSummary]:
        all_paused = is_paused_all(conn)
        q = select(jobs).order_by(jobs.c.id)
        cq = (select(items.c.job_id, items.c.status, items.c.result, func.count())
              .group_by(items.c.job_id, items.c.status, items.c.result))
        if job_id is not None:
            q, cq = q.where(jobs.c.id == job_id), cq.where(items.c.job_id == job_id)
        if ids is not None:
            q, cq = q.where(jobs.c.id.in_(list(ids))), cq.where(items.c.job_id.in_(list(ids)))
        rows = conn.execute(q).mappings().all()
        if job_id is not None and not rows:
            raise NotFound(f"no job {job_id}")
        counts: dict[int, dict[str, int]] = {}
        done_results: dict[int, dict[str, int]] = {}
        for jid, status, result, n in conn.execute(cq):
            per_status = counts.setdefault(jid, {})
            per_status[status] = per_status.get(status, 0) + n
            if status == ItemState.COMPLETED and result:
                done_results.setdefault(jid, {})[result] = n
        return [self._summary(row, counts.get(row["id"], {}), all_paused, done_results.get(row["id"], {}))
                for row in rows]

    @staticmethod
    def _summary(row: Any, c: dict[str, int], all_paused: bool, results: dict[str, int]) -> JobSummary:
        paused = bool(row["paused"]) or all_paused
        unfinished = sum(c.get(s, 0) for s in UNFINISHED_ITEMS)
        status: JobSummaryStatus
        if row["state"] == JobState.CREATING:
            status = JobSummaryStatus.CREATING
        elif row["state"] == JobState.FAILED:
            status = JobSummaryStatus.FAILED
        elif unfinished:
            status = JobSummaryStatus.PAUSED if paused else (JobSummaryStatus.RUNNING if c.get(ItemState.RUNNING) else JobSummaryStatus.QUEUED)
        elif c.get(ItemState.REVIEW):
            status = JobSummaryStatus.REVIEW
        else:
            status = JobSummaryStatus.COMPLETED
        total = sum(n for s, n in c.items() if s != ItemState.SKIPPED)
        return JobSummary(
            id=row["id"], folder=row["folder"], status=status, paused=paused, total=total,
            done=c.get(ItemState.COMPLETED, 0), failed=c.get(ItemState.FAILED, 0), skipped=c.get(ItemState.SKIPPED, 0),
            review=c.get(ItemState.REVIEW, 0), running=c.get(ItemState.RUNNING, 0), error_code=row["error_code"],
            error=row["error"], created_at=row["created_at"], options=loads(row["options"]) or {},
            scan_report=loads(row["scan_report"]) or {}, results=results,
        )

    def items(self, job_id: int, offset: int = 0, limit: int | None = None) -> list[ItemView]:
        """A page of a job's items with their current stage (the GUI's queue view pages through this)."""
        with self.db.read() as conn:
            all_paused = is_paused_all(conn)
            job_paused = conn.execute(select(jobs.c.paused).where(jobs.c.id == job_id)).scalar()
            if job_paused is None:
                raise NotFound(f"no job {job_id}")
            q = select(items).where(items.c.job_id == job_id).order_by(items.c.ordinal).offset(offset)
            if limit is not None:
                q = q.limit(limit)
            rows = conn.execute(q).mappings().all()
            current: dict[int, Any] = {}
            if rows:
                ids = [r["id"] for r in rows]
                sq = (
                    select(stages.c.item_id, stages.c.name, stages.c.status, stages.c.progress, stages.c.attempt,
                           stages.c.error_code, stages.c.error, stages.c.idx)
                    .where(stages.c.item_id.in_(ids), stages.c.status != StageState.SUCCEEDED)
                    .order_by(stages.c.item_id, stages.c.idx)
                )  # succeeded stages are never an item's current one: the GUI's page read skips them in SQL
                for stage_row in conn.execute(sq).mappings():
                    current.setdefault(stage_row["item_id"], stage_row)
                facts = self._facts(conn, ids)
        out = []
        for r in rows:
            s = current.get(r["id"])
            status = ItemState(r["status"])
            if status == ItemState.PENDING and (job_paused or all_paused):
                status = ItemState.PAUSED
            out.append(ItemView(
                id=r["id"], job_id=r["job_id"], path=r["path"], kind=r["kind"], status=status,
                stage=s["name"] if s else None, progress=float(s["progress"]) if s else (1.0 if status == ItemState.COMPLETED else 0.0),
                error_code=r["error_code"] or (s["error_code"] if s else None),
                error=r["error"] or (s["error"] if s else None) or r["skip_reason"],
                result=r["result"], attempts=int(s["attempt"]) if s else 0, detail=loads(r["result_detail"]) or {},
                facts=facts.get(r["id"], ItemFacts()),
                notes=tuple(loads(r["notes"]) or ()),
            ))
        return out

    def add_note(self, item_id: int, note: str) -> None:
        """Record ``note`` (a stable code of something that happened besides the result) on the item, once."""
        with self.db.write() as conn:
            lock_items(conn, items.c.id == item_id)
            notes = loads(conn.execute(select(items.c.notes).where(items.c.id == item_id)).scalar()) or []
            if note not in notes:
                conn.execute(update(items).where(items.c.id == item_id).values(notes=dumps([*notes, note])))

    @staticmethod
    def _facts(conn: Connection, item_ids: Sequence[int]) -> dict[int, ItemFacts]:
        """The items' facts from their finished stages (read by the database: no stage output is loaded whole)."""
        columns = [json_field(conn, stages.c.output, key).label(key) for key in ITEM_FACTS]
        q = (select(stages.c.item_id, *columns)
             .where(stages.c.item_id.in_(list(item_ids)), stages.c.status == StageState.SUCCEEDED,
                    stages.c.output.is_not(None))
             .order_by(stages.c.item_id, stages.c.idx))
        raw: dict[int, dict[str, Any]] = {}
        for row in conn.execute(q).mappings():
            for key in ITEM_FACTS:
                value = row[key]
                if value is not None:
                    raw.setdefault(row["item_id"], {})[key] = loads(value) if isinstance(value, str) and value[:1] in "{[" else value
        return {item_id: ItemFacts.read(found) for item_id, found in raw.items()}

    def known_sha256(self, path: str, size: int, mtime_ns: int) -> str | None:
        """The hash recorded for this exact file version before, so re-adding a library does not re-read it."""
        return self.known_sha256s([(path, size, mtime_ns)]).get((path, size, mtime_ns))

    def known_sha256s(self, versions: Sequence[tuple[str, int, int]]) -> dict[tuple[str, int, int], str]:
        """:meth:`known_sha256` of many ``(path, size, mtime_ns)`` at once (one read per batch of an add)."""
        wanted = set(versions)
        found: dict[tuple[str, int, int], str] = {}
        paths = sorted({path for path, _, _ in wanted})
        with self.db.read() as conn:
            for start in range(0, len(paths), 500):
                rows = conn.execute(
                    select(items.c.path, items.c.size, items.c.mtime_ns, items.c.sha256)
                    .where(items.c.path.in_(paths[start:start + 500]), items.c.sha256 != "").order_by(items.c.id)
                )
                found.update({key: r.sha256 for r in rows if (key := (r.path, r.size, r.mtime_ns)) in wanted})
        return found

    def cached_results(self, sha256: str, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], dict[str, Any]]:
        """Stored outputs for (stage, fingerprint) pairs of this content."""
        if not keys:
            return {}
        with self.db.read() as conn:
            rows = conn.execute(select(results).where(results.c.sha256 == sha256)).mappings().all()
        wanted = set(keys)
        found = {(r["stage"], r["fingerprint"]): loads(r["output"]) for r in rows if (r["stage"], r["fingerprint"]) in wanted}
        # Rows stored before redone results stayed out of the cache are passed over too.
        return {key: output for key, output in found.items() if not ItemReport.read(output).redone}

    def item_count(self, job_id: int) -> int:
        with self.db.read() as conn:
            return int(conn.execute(select(func.count()).select_from(items).where(items.c.job_id == job_id)).scalar_one())

    def unfinished_item_ids(self) -> set[int]:
        """Items whose workspace must be kept (anything not completed or skipped)."""
        with self.db.read() as conn:
            return set(conn.execute(select(items.c.id).where(items.c.status.not_in(SETTLED_ITEMS))).scalars())
