"""Which stages one engine may claim: its path prefixes, media kinds, GPU stages only.

A ``sidecar worker`` on another machine sees only the folders its path map covers. The
filter is part of the claim query itself, so a stage it cannot reach is never claimed
(and so never failed): it stays queued for a machine that can. Prefixes match whole
path components, exactly as :mod:`app.engine.path_map` does in Python; SQL's ``LIKE``
is avoided because SQLite's is case-insensitive and treats ``_`` and ``%`` as wildcards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, FromClause, and_, false, func, or_, select, true

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
