"""What a person needs to decide a review: Sidecar's version next to what is at the target now.

A review exists because someone else changed a file Sidecar was writing. Two sha256
strings say *that* it changed; a person deciding "keep theirs or write ours again"
needs to see *how*. Sidecar's version is the prepared content the step kept in the
workspace (``content_path``); the other side is read from the target. Both are read
here, in the engine, so the GUI never touches the disk; files too large to show are
described by size rather than read whole.
"""

from __future__ import annotations

import difflib
import logging
from dataclasses import dataclass
from pathlib import Path

from app.store.records import Review

log = logging.getLogger(__name__)

MAX_SHOWN_BYTES = 4 * 1024 * 1024  # a subtitle of a 3-hour film is ~200 kB; past this a diff helps nobody
CONTEXT_LINES = 3
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp", ".tif", ".tiff"})


@dataclass(frozen=True)
class DiffRow:
    """One row of a side-by-side diff; ``tag`` is difflib's (equal/replace/delete/insert) or ``folded``.

    A ``folded`` row stands for ``ours_no`` unchanged lines left out between two changes.
    """

    tag: str
    ours_no: int | None
    ours: str
    theirs_no: int | None
    theirs: str


@dataclass(frozen=True)
class Side:
    """One version: its bytes when small enough to show, else only its size; None bytes and size: no file."""

    data: bytes | None
    size: int | None

    @property
    def missing(self) -> bool:
        return self.size is None


@dataclass(frozen=True)
class ReviewEvidence:
    review_id: int
    kind: str  # "text" | "image" | "binary"
    ours: Side
    theirs: Side
    rows: tuple[DiffRow, ...] = ()

    @property
    def changed_rows(self) -> int:
        return sum(1 for row in self.rows if row.tag not in ("equal", "folded"))


def _read(path: Path) -> Side:
    try:
        size = path.stat().st_size
        return Side(path.read_bytes() if size <= MAX_SHOWN_BYTES else None, size)
    except FileNotFoundError:
        return Side(None, None)
    except OSError as exc:
        log.warning("cannot read %s for a review: %s", path, exc)
        return Side(None, None)


def _text(side: Side) -> list[str] | None:
    if side.missing:
        return []
    if side.data is None:
        return None
    try:
        return side.data.decode("utf-8-sig").splitlines()
    except UnicodeDecodeError:
        return None


def side_by_side(ours: list[str], theirs: list[str], context: int = CONTEXT_LINES) -> list[DiffRow]:
    """Rows for a two-column diff; unchanged runs longer than ``2 * context`` shrink to one ``folded`` row."""
    rows: list[DiffRow] = []
    for tag, a0, a1, b0, b1 in difflib.SequenceMatcher(None, ours, theirs, autojunk=False).get_opcodes():
        if tag == "equal":
            span = a1 - a0
            first = a0 == 0
            last = a1 == len(ours)
            keep_head = 0 if first else context
            keep_tail = 0 if last else context
            if span > keep_head + keep_tail + 1:
                rows += [DiffRow("equal", a0 + i + 1, ours[a0 + i], b0 + i + 1, theirs[b0 + i]) for i in range(keep_head)]
                rows.append(DiffRow("folded", span - keep_head - keep_tail, "", None, ""))
                rows += [DiffRow("equal", a1 - keep_tail + i + 1, ours[a1 - keep_tail + i],
                                 b1 - keep_tail + i + 1, theirs[b1 - keep_tail + i]) for i in range(keep_tail)]
            else:
                rows += [DiffRow("equal", a0 + i + 1, ours[a0 + i], b0 + i + 1, theirs[b0 + i]) for i in range(span)]
            continue
        for i in range(max(a1 - a0, b1 - b0)):
            a, b = a0 + i, b0 + i
            rows.append(DiffRow(tag, a + 1 if a < a1 else None, ours[a] if a < a1 else "",
                                b + 1 if b < b1 else None, theirs[b] if b < b1 else ""))
    return rows


def review_evidence(review: Review) -> ReviewEvidence:
    """Sidecar's version (from the workspace) against the file at the target, as a person compares them."""
    ours = _read(Path(review.content_path)) if review.content_path else Side(None, None)
    theirs = _read(Path(review.target))
    if Path(review.target).suffix.lower() in IMAGE_SUFFIXES:
        return ReviewEvidence(review.id, "image", ours, theirs)
    ours_lines, theirs_lines = _text(ours), _text(theirs)
    if ours_lines is None or theirs_lines is None:
        return ReviewEvidence(review.id, "binary", ours, theirs)
    return ReviewEvidence(review.id, "text", ours, theirs, tuple(side_by_side(ours_lines, theirs_lines)))


__all__ = ["DiffRow", "ReviewEvidence", "Side", "review_evidence", "side_by_side"]
