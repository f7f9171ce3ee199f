"""What each path holds now: the transitions a watched folder makes on items (SPEC §8).

``current_items`` (a view) is the newest item row per path unless that row is removed.
These transitions keep it true when files move, vanish or change outside Sidecar:

* :meth:`CurrentItemRepo.rename` moves a file's whole row history to its new path, so
  its identity (sha256), its finished stages and its search rows (its name row too) stay;
  nothing re-runs.
* :meth:`CurrentItemRepo.mark_removed` marks a vanished path's rows removed, stops its
  unfinished stages, and drops the search rows of content no current item holds —
  in the same transaction, so search never returns a deleted file.
* :meth:`CurrentItemRepo.supersede_unfinished` stops an older revision's work before
  a newer revision of the same path is appended (its result would describe old bytes).

Stopping a running stage here changes its row out from under the worker, whose next
fenced write then fails with LeaseLost: the worker's result is discarded, never placed.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any, Sequence

from sqlalchemy import Connection, Select, exists, func, select, update

from app.errors import Code
from app.shown_names import escape
from app.store.database import Database
from app.store.row_locks import lock_item_ids
from app.store.search_writes import delete_for_sha256, move_image_name
from app.store.states import UNFINISHED_ITEMS, ItemState, StepState
from app.store.tables import current_items, items, stages, steps
from app.store.shared_transitions import remember_placed_output, requeue_running_stages_and_items, stop_unfinished_items_and_stages

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CurrentItem:
    """The item a path currently holds, with the file facts recorded when it was identified."""

    item_id: int
    job_id: int
    path: str
    kind: str
    sha256: str
    size: int
    mtime_ns: int
    status: ItemState
    revision: int


@dataclass(frozen=True)
class PlacedFile:
    """A file an item's succeeded placement step wrote, and the content it wrote there."""

    target: str
    sha256: str


def _under(column: Any, folder: str) -> Any:
    """Paths strictly inside ``folder`` (a plain prefix compare: no LIKE wildcards to escape).

    The length is the stored form's: an undecodable byte of a name takes more characters there.
    """
    prefix = folder.rstrip(os.sep) + os.sep
    return func.substr(column, 1, len(escape(prefix))) == prefix


class CurrentItemRepo:
    def __init__(self, db: Database):
        self.db = db

    # -- reads ------------------------------------------------------------------------------

    def _query(self) -> Select[Any]:
        return (
            select(items.c.id, items.c.job_id, items.c.path, items.c.kind, items.c.sha256, items.c.size,
                   items.c.mtime_ns, items.c.status, items.c.revision)
            .join(current_items, current_items.c.item_id == items.c.id)
        )

    @staticmethod
    def _item(r: Any) -> CurrentItem:
        return CurrentItem(item_id=r.id, job_id=r.job_id, path=r.path, kind=r.kind, sha256=r.sha256, size=r.size,
                           mtime_ns=r.mtime_ns, status=ItemState(r.status), revision=r.revision)

    def get(self, path: str) -> CurrentItem | None:
        with self.db.read() as conn:
            row = conn.execute(self._query().where(current_items.c.path == path)).first()
        return None if row is None else self._item(row)

    def get_many(self, paths: Sequence[str]) -> dict[str, CurrentItem]:
        """The current items of ``paths`` (those that have one), in one query: a watched folder identifies its
        stable files a batch at a time (see :data:`app.engine.plan.ITEM_BATCH`)."""
        with self.db.read() as conn:
            rows = conn.execute(self._query().where(current_items.c.path.in_(list(paths)))).all()
        return {r.path: self._item(r) for r in rows}

    def under(self, folder: str) -> list[CurrentItem]:
        """Every current item inside ``folder`` (any depth), for the catch-up scan to compare with the disk."""
        with self.db.read() as conn:
            rows = conn.execute(self._query().where(_under(current_items.c.path, folder)).order_by(items.c.path)).all()
        return [self._item(r) for r in rows]

    def has_rows(self, path: str) -> bool:
        """Whether any item row (current, removed or older) has this path: a rename onto it would merge histories."""
        with self.db.read() as conn:
            return conn.execute(select(items.c.id).where(items.c.path == path).limit(1)).first() is not None

    def had_content(self, path: str) -> bool:
        """Whether a row of ``path`` that is not removed recorded its content (current or hidden by a newer row)."""
        with self.db.read() as conn:
            return conn.execute(
                select(items.c.id).where(items.c.path == path, items.c.removed == 0, items.c.sha256 != "").limit(1)
            ).first() is not None

    def placed_files(self, path: str) -> list[PlacedFile]:
        """Files the items at ``path`` placed next to it (newest step per target), for moving them along on rename."""
        with self.db.read() as conn:
            rows = conn.execute(
                select(steps.c.target, steps.c.expected_sha256)
                .join(items, items.c.id == steps.c.item_id)
                .where(items.c.path == path, steps.c.state == StepState.SUCCEEDED, steps.c.action != "skip")
                .order_by(steps.c.id.desc())
            ).all()
        seen: dict[str, PlacedFile] = {}
        for r in rows:
            seen.setdefault(r.target, PlacedFile(r.target, r.expected_sha256))
        return list(seen.values())

    # -- transitions --------------------------------------------------------------------------

    def refresh_stat(self, item_id: int, size: int, mtime_ns: int) -> None:
        """The file was touched but its content (sha256) is the same: remember the new size/mtime, re-run nothing."""
        with self.db.write() as conn:
            conn.execute(update(items).where(items.c.id == item_id).values(size=size, mtime_ns=mtime_ns, updated_at=self.db.now()))

    def rename(self, old_path: str, new_path: str, moved: Sequence[tuple[str, str, str]] = ()) -> bool:
        """Move the item history of ``old_path`` to ``new_path``; ``moved`` lists (old target, new target, sha256)
        of placed files the caller already moved along.

        Returns False (and changes nothing) when ``old_path`` holds no current item or
        ``new_path`` already has rows of its own: the view takes the newest row per path,
        so merging two histories could make stale content current. The caller then
        treats the move as a removal plus a new file (cached stage results are reused).
        """
        now = self.db.now()
        with self.db.write() as conn:
            if conn.execute(select(current_items.c.item_id).where(current_items.c.path == old_path)).first() is None:
                return False
            if conn.execute(select(items.c.id).where(items.c.path == new_path).limit(1)).first() is not None:
                return False
            ids = list(conn.execute(select(items.c.id).where(items.c.path == old_path)).scalars())
            lock_item_ids(conn, ids)
            conn.execute(update(items).where(items.c.id.in_(ids)).values(path=new_path, updated_at=now))
            move_image_name(conn, old_path, new_path)
            # A stage running on the old path would fail (source gone) or place under the old
            # name: take the claim back so it runs again on the new path.
            requeue_running_stages_and_items(conn, stages.c.item_id.in_(ids), now, refund_attempt=True)
            for old_target, new_target, sha in moved:
                conn.execute(update(steps).where(steps.c.item_id.in_(ids), steps.c.target == old_target).values(target=new_target, updated_at=now))
                remember_placed_output(conn, new_target, sha, now)
        return True

    def mark_removed(self, paths: Sequence[str], reason: str) -> int:
        """The files at ``paths`` are gone: their rows stop being current, unfinished work stops and search
        rows of content nobody else holds are deleted. The person's files are never touched. Returns rows marked."""
        if not paths:
            return 0
        now = self.db.now()
        with self.db.write() as conn:
            shas = set(conn.execute(select(current_items.c.sha256).where(current_items.c.path.in_(list(paths)))).scalars())
            ids = list(conn.execute(select(items.c.id).where(items.c.path.in_(list(paths)), items.c.removed == 0)).scalars())
            if not ids:
                return 0
            lock_item_ids(conn, ids)
            conn.execute(update(items).where(items.c.id.in_(ids)).values(removed=1, updated_at=now))
            stop_unfinished_items_and_stages(conn, items.c.id.in_(ids), ItemState.SKIPPED, Code.FILE_REMOVED, reason, now)
            self._drop_orphans(conn, shas)
        return len(ids)

    def supersede_unfinished(self, paths: Sequence[str]) -> int:
        """Stop unfinished work of older revisions of ``paths`` before their newer revisions are appended."""
        now = self.db.now()
        with self.db.write() as conn:
            ids = list(conn.execute(select(items.c.id).where(items.c.path.in_(list(paths)),
                                                             items.c.status.in_(UNFINISHED_ITEMS))).scalars())
            if ids:
                stop_unfinished_items_and_stages(conn, items.c.id.in_(ids), ItemState.SKIPPED, Code.SUPERSEDED,
                                "the file changed; a newer version replaces this one", now)
        return len(ids)

    def drop_orphaned_content(self, sha256s: Sequence[str]) -> int:
        """Delete search rows of contents no current item holds any more (an edited file's old bytes)."""
        with self.db.write() as conn:
            return self._drop_orphans(conn, set(sha256s))

    # -- helpers (inside a caller's transaction) ------------------------------------------------

    @staticmethod
    def _drop_orphans(conn: Connection, sha256s: set[str]) -> int:
        removed = 0
        for sha in sorted(s for s in sha256s if s):
            if conn.execute(select(exists().where(current_items.c.sha256 == sha))).scalar():
                continue
            removed += delete_for_sha256(conn, sha)
        return removed
