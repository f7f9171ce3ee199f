"""Watched folders and the rolling job each one appends its new items to (SPEC §8).

A watch row is the source of truth for "this folder is watched" (the settings file only
mirrors it). Its rolling job is an ordinary job row, created by
:meth:`JobRepo.create_rolling` in the same transaction as the watch row that points to it.
If the rolling job was cancelled (the row is gone) or failed (its folder vanished once),
the next append gets a fresh one, so a watch never feeds a job the scheduler ignores.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from app.errors import Code, NotFound, SidecarError
from app.store.database import Database, dumps, loads
from app.store.jobs import JobRepo
from app.store.tables import watches

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Watch:
    """One watched folder as stored; ``polling`` is the person's "always poll" choice."""

    id: int
    folder: str
    job_id: int | None
    polling: bool
    options: dict[str, Any]
    created_at: float
    last_scan_at: float | None


def _watch(row: Any) -> Watch:
    return Watch(id=row["id"], folder=row["folder"], job_id=row["job_id"], polling=bool(row["polling"]),
                 options=loads(row["options"]) or {}, created_at=row["created_at"], last_scan_at=row["last_scan_at"])


class WatchRepo:
    """Every write to ``watches`` happens here; the rolling jobs they point to are :class:`JobRepo`'s."""

    def __init__(self, db: Database, jobs: JobRepo):
        self.db = db
        self.jobs = jobs

    def add(self, folder: str, options: dict[str, Any], polling: bool = False) -> Watch:
        """Start watching ``folder`` with the job options frozen now; its rolling job is created with it."""
        now = self.db.now()
        try:
            with self.db.write() as conn:
                job_id = self.jobs.create_rolling(conn, folder, options)
                conn.execute(insert(watches).values(folder=folder, job_id=job_id, polling=int(polling),
                                                    options=dumps(options), created_at=now, last_scan_at=None))
        except IntegrityError as exc:
            raise SidecarError(f"{folder} is already watched", code=Code.ALREADY_WATCHED) from exc
        watch = self.get(folder)
        assert watch is not None
        return watch

    def remove(self, folder: str) -> Watch:
        """Stop watching; the rolling job and its items stay (they are history and search content)."""
        with self.db.write() as conn:
            row = conn.execute(select(watches).where(watches.c.folder == folder)).mappings().first()
            if row is None:
                raise NotFound(f"{folder} is not watched")
            conn.execute(delete(watches).where(watches.c.id == row["id"]))
        return _watch(row)

    def get(self, folder: str) -> Watch | None:
        with self.db.read() as conn:
            row = conn.execute(select(watches).where(watches.c.folder == folder)).mappings().first()
        return None if row is None else _watch(row)

    def list(self) -> list[Watch]:
        with self.db.read() as conn:
            return [_watch(r) for r in conn.execute(select(watches).order_by(watches.c.folder)).mappings()]

    def rolling_job(self, watch_id: int) -> int:
        """The ``ready`` job new items of this watch go to, making a new one when the old one is gone or failed."""
        with self.db.write() as conn:
            # Locked: two engines finding the rolling job gone must not both make a new one.
            row = conn.execute(select(watches).where(watches.c.id == watch_id).with_for_update()).mappings().first()
            if row is None:
                raise NotFound(f"no watch {watch_id}", code=Code.WATCH_MISSING)
            if row["job_id"] is not None and self.jobs.is_ready(conn, row["job_id"]):
                return int(row["job_id"])
            job_id = self.jobs.create_rolling(conn, row["folder"], loads(row["options"]) or {})
            conn.execute(update(watches).where(watches.c.id == watch_id).values(job_id=job_id))
            log.info("watched folder %s gets a new rolling job %d", row["folder"], job_id)
            return job_id

    def mark_scanned(self, watch_id: int) -> None:
        """Record when the last catch-up scan finished (shown in Settings; a hint, not a correctness input)."""
        with self.db.write() as conn:
            conn.execute(update(watches).where(watches.c.id == watch_id).values(last_scan_at=self.db.now()))
