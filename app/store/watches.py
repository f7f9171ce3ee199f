"""Watched folders and the rolling job each one appends its new items to (SPEC §8).

A watch row is the source of truth for "this folder is watched" (the settings file only
mirrors it). Its rolling job is an ordinary job row that is ``ready`` from birth: the
watcher appends items to it one at a time, so there is no ``creating`` phase to hide.
If the rolling job was cancelled (the row is gone) or failed (its folder vanished once),
the next append gets a fresh one, so a watch never feeds a job the scheduler ignores.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from app.errors import NotFound, SidecarError
from app.store.database import Database, dumps, loads
from app.store.tables import jobs, watches

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
    """Every write to ``watches`` (and the creation of rolling jobs) happens here."""

    def __init__(self, db: Database):
        self.db = db

    def add(self, folder: str, options: dict[str, Any], polling: bool = False) -> Watch:
        """Start watching ``folder`` with the job options frozen now; its rolling job is created with it."""
        now = self.db.now()
        try:
            with self.db.write() as conn:
                job_id = self._new_rolling_job(conn, folder, options, now)
                conn.execute(insert(watches).values(folder=folder, job_id=job_id, polling=int(polling),
                                                    options=dumps(options), created_at=now, last_scan_at=None))
        except IntegrityError as exc:
            raise SidecarError(f"{folder} is already watched", code="already_watched") from exc
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
        now = self.db.now()
        with self.db.write() as conn:
            row = conn.execute(select(watches).where(watches.c.id == watch_id)).mappings().first()
            if row is None:
                raise NotFound(f"no watch {watch_id}", code="watch_missing")
            if row["job_id"] is not None:
                state = conn.execute(select(jobs.c.state).where(jobs.c.id == row["job_id"])).scalar()
                if state == "ready":
                    return int(row["job_id"])
            job_id = self._new_rolling_job(conn, row["folder"], loads(row["options"]) or {}, now)
            conn.execute(update(watches).where(watches.c.id == watch_id).values(job_id=job_id))
            log.info("watched folder %s gets a new rolling job %d", row["folder"], job_id)
            return job_id

    def mark_scanned(self, watch_id: int) -> None:
        """Record when the last catch-up scan finished (shown in Settings; a hint, not a correctness input)."""
        with self.db.write() as conn:
            conn.execute(update(watches).where(watches.c.id == watch_id).values(last_scan_at=self.db.now()))

    @staticmethod
    def _new_rolling_job(conn: Connection, folder: str, options: dict[str, Any], now: float) -> int:
        return int(
            conn.execute(
                insert(jobs).values(folder=folder, state="ready", owner="watch", paused=0, options=dumps(options),
                                    scan_report=dumps({"watched": True}), created_at=now, updated_at=now)
            ).inserted_primary_key[0]
        )
