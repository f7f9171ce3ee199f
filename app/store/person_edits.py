"""Subtitle files a person saved in Sidecar's editor, and what the editor needs to find and guard them.

A saved edit is the person's revision of a file Sidecar once placed. It is recorded
by path and content hash *before* the file is replaced, so that whatever happens next
(a crash right after the rename included) a later run recognises the content as the
person's and sends its own version to review instead of overwriting it.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import Connection, insert, select

from app.codes import REDONE_RESULTS
from app.store.database import Database, loads
from app.store.states import StageState, StepState
from app.store.tables import items, person_revisions, stages, steps

log = logging.getLogger(__name__)


class PersonEditRepo:
    def __init__(self, db: Database):
        self.db = db

    def placed_files(self, media_path: str) -> tuple[int, dict[str, str]] | None:
        """The newest item of ``media_path`` that placed files, with role (transcript/translation/bilingual) → path.

        A re-add that skipped the video has no steps of its own; the files are the ones the
        item that made them placed.
        """
        with self.db.read() as conn:
            rows = conn.execute(
                select(steps.c.item_id, steps.c.role, steps.c.target)
                .join(items, items.c.id == steps.c.item_id)
                .where(items.c.path == media_path, steps.c.state == StepState.SUCCEEDED)
                .order_by(steps.c.id)
            ).all()
        if not rows:
            return None
        newest = max(item_id for item_id, _, _ in rows)
        return newest, {role: target for item_id, role, target in rows if item_id == newest}

    def doubtful_cues(self, item_id: int) -> dict[int, str]:
        """Cue numbers (from 1) the item's translation left untranslated, with the reason of each.

        The translate stage lists them in the item's result detail (``untranslated_cues`` and
        ``reasons``); the editor marks those lines so a person fixes exactly them.
        """
        with self.db.read() as conn:
            raw = conn.execute(select(items.c.result_detail).where(items.c.id == item_id)).scalar()
        detail = loads(raw) or {}
        reasons = detail.get("reasons") or {}
        return {int(n): str(reasons.get(str(n), "untranslated")) for n in detail.get("untranslated_cues") or []}

    def untranslated(self, item_id: int) -> tuple[str, dict[str, Any]] | None:
        """Why the item has no translation, when its result is one a later run may fix (``translation_failed``): the
        result and its detail (which server could not be reached, or the lines that kept their text); else None."""
        with self.db.read() as conn:
            row = conn.execute(select(items.c.result, items.c.result_detail).where(items.c.id == item_id)).first()
        if row is None or row.result not in REDONE_RESULTS:
            return None
        return str(row.result), loads(row.result_detail) or {}

    def media_busy(self, media_path: str) -> bool:
        """A stage of any item of ``media_path`` is running (a newer job's too): it may be about to write these files."""
        with self.db.read() as conn:
            return conn.execute(
                select(stages.c.id).join(items, items.c.id == stages.c.item_id)
                .where(items.c.path == media_path, stages.c.status == StageState.RUNNING).limit(1)
            ).first() is not None

    def record(self, item_id: int, path: str, sha256: str) -> None:
        with self.db.write() as conn:
            if not self._known(conn, path, sha256):
                conn.execute(insert(person_revisions).values(path=path, sha256=sha256, item_id=item_id,
                                                             saved_at=self.db.now()))

    def is_person_revision(self, path: str, sha256: str) -> bool:
        with self.db.read() as conn:
            return self._known(conn, path, sha256)

    @staticmethod
    def _known(conn: Connection, path: str, sha256: str) -> bool:
        q = select(person_revisions.c.path).where(person_revisions.c.path == path, person_revisions.c.sha256 == sha256)
        return conn.execute(q).first() is not None
