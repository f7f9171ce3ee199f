"""Which stages one engine may claim: its path prefixes, media kinds, GPU stages only.

A ``sidecar worker`` on another machine sees only the folders its path map covers. The
filter is part of the claim query itself, so a stage it cannot reach is never claimed
(and so never failed): it stays queued for a machine that can. Prefixes match whole
path components, exactly as :mod:`app.engine.path_map` does in Python; SQL's ``LIKE``
is avoided because SQLite's is case-insensitive and treats ``_`` and ``%`` as wildcards.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from sqlalchemy import ColumnElement, FromClause, and_, bindparam, false, func, or_, select, true

from app.shown_names import escape
from app.store.database import Database
from app.store.tables import items


@dataclass(frozen=True)
class ScopePrefix:
    """A library path prefix as the library spells it: no trailing separator unless it is a bare root."""

    text: str
    sep: str = "/"
    ignore_case: bool = False  # Windows paths

    def covers(self, path_column: Any) -> ColumnElement[bool]:
        head = self.text if self.text.endswith(self.sep) else self.text + self.sep

        def fold(x: Any) -> Any:
            return func.lower(x) if self.ignore_case else x

        def fold_text(x: str) -> str:
            return x.lower() if self.ignore_case else x

        return or_(
            fold(path_column) == fold_text(self.text),
            fold(func.substr(path_column, 1, len(escape(head)))) == fold_text(head),  # the stored form's length
        )

    def covers_text(self, path: str) -> bool:
        """:meth:`covers` for a path in hand (a job's folder), by the same whole-component rule."""
        head = self.text if self.text.endswith(self.sep) else self.text + self.sep
        if self.ignore_case:
            path, text, head = path.lower(), self.text.lower(), head.lower()
        else:
            text = self.text
        return path == text or path.startswith(head)


class Reach(Enum):
    """How much of a job a scope's prefixes reach, judged by the job's folder (the folder that was added)."""

    WHOLE = "whole"  # a prefix covers the folder: every item, no per-item test
    PART = "part"  # a prefix lies inside the folder: the items under it, tested per item
    NONE = "none"  # no prefix meets the folder: the job is not looked at


WHOLE_JOBS = "whole_jobs"
"""The claim query's parameter: jobs of :attr:`Reach.WHOLE`, whose items skip the per-item prefix test."""


@dataclass(frozen=True)
class ClaimScope:
    """What an engine takes. ``prefixes`` None: every path (a ``sidecar run`` on the library's own machine).

    ``exclude_items``: items this process gave back (its mount vanished, or a path the
    SQL filter let through that the Python mapping refuses) so it does not claim them again.
    """

    prefixes: tuple[ScopePrefix, ...] | None = None
    kinds: frozenset[str] | None = None
    gpu_only: bool = False
    exclude_items: frozenset[int] = frozenset()

    def reach(self, folder: str | None) -> Reach:
        """How much of the job added from ``folder`` this scope reaches.

        Why: the claim index leads with the job, so a claim walks only the jobs passed
        to it; a job no prefix meets is skipped as a whole instead of being read entry by
        entry (a worker mapping one folder of a million-file library). A job without a
        folder is tested per item. Items a rename moved out of their job's folder are
        judged by that folder (a worker may then give one back, as for any path its map refuses).
        """
        if self.prefixes is None:
            return Reach.WHOLE
        if folder is None:
            return Reach.PART
        if any(p.covers_text(folder) for p in self.prefixes):
            return Reach.WHOLE
        if any(ScopePrefix(folder, p.sep, p.ignore_case).covers_text(p.text) for p in self.prefixes):
            return Reach.PART
        return Reach.NONE

    def claim_where(self, item_table: FromClause, job_column: Any) -> ColumnElement[bool]:
        """:meth:`items_where` for a claim: items of a job in the :data:`WHOLE_JOBS` parameter pass the prefix test unasked."""
        if self.prefixes is None:
            return self.items_where(item_table)
        whole = job_column.in_(bindparam(WHOLE_JOBS, expanding=True))
        prefixes = or_(whole, *(p.covers(item_table.c.path) for p in self.prefixes))
        return and_(prefixes, replace(self, prefixes=None).items_where(item_table))

    def items_where(self, item_table: FromClause = items) -> ColumnElement[bool]:
        """The condition on an item row (path prefix, kind, excluded) for this scope."""
        cond: list[ColumnElement[bool]] = []
        if self.prefixes is not None:
            cond.append(or_(*(p.covers(item_table.c.path) for p in self.prefixes)) if self.prefixes else false())
        if self.kinds is not None:
            cond.append(item_table.c.kind.in_(sorted(self.kinds)))
        if self.exclude_items:
            cond.append(item_table.c.id.not_in(sorted(self.exclude_items)))
        return and_(true(), *cond)

    def stages_where(self, stage_table: FromClause) -> ColumnElement[bool]:
        """The condition on a stage row: only GPU-gated stages (``gpu_mb > 0``) with ``--gpu-only``."""
        return stage_table.c.gpu_mb > 0 if self.gpu_only else true()


EVERYTHING = ClaimScope()


def listed_under(db: Database, prefix: ScopePrefix, limit: int) -> list[str]:
    """Up to ``limit`` paths the library lists under ``prefix``, newest first (a worker's start-up check)."""
    with db.read() as conn:
        return list(conn.execute(
            select(items.c.path).where(prefix.covers(items.c.path)).order_by(items.c.id.desc()).limit(limit)
        ).scalars())
