"""The library database: the only code that writes jobs, items, stages and steps."""

from __future__ import annotations

import time
from pathlib import Path

from app.store.current_items import CurrentItemRepo
from app.store.database import Clock, Database
from app.store.dialect import integrity_check, require_search_index
from app.store.instances import InstanceRepo
from app.store.jobs import JobRepo
from app.store.person_edits import PersonEditRepo
from app.store.stages import StageRepo
from app.store.steps import StepRepo
from app.store.watches import WatchRepo


class Store:
    """One database, its repositories, one clock."""

    def __init__(self, location: Path | str, clock: Clock = time.time, lease_seconds: float = 30.0, group_size: int = 8):
        """``location``: a SQLite file or a PostgreSQL URL (app.store.location.database_location)."""
        self.db = Database(location, clock)
        self.jobs = JobRepo(self.db, group_size=group_size)
        self.stages = StageRepo(self.db, lease_seconds=lease_seconds)
        self.instances = InstanceRepo(self.db)
        self.steps = StepRepo(self.db, self.stages)
        self.watches = WatchRepo(self.db, self.jobs)
        self.current = CurrentItemRepo(self.db)
        self.edits = PersonEditRepo(self.db)

    def integrity_check(self) -> str:
        with self.db.read() as conn:
            return integrity_check(conn)

    def require_search(self) -> None:
        """Raise ``search_unavailable`` unless this database holds the search index (SQLite only, for now)."""
        require_search_index(self.db.engine)

    def close(self) -> None:
        self.db.close()


__all__ = ["Store"]
