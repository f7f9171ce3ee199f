"""Where a run's time went, per stage, from the times the store records on each stage row.

Every stage row keeps ``started_at`` (its last claim) and ``finished_at`` (its outcome),
on the database's clock, which for a SQLite library is this machine's wall clock. The
benchmarks read them after a run from the library file (read-only) and print, per stage
name, how many ran, their summed seconds and the longest one; and for one item, the
moment each stage began and ended relative to a starting instant (``sidecar add``).
Stages run side by side (a CPU stage of one file beside the transcription of another),
so the sums may exceed the wall time.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from app.store.sqlite_engine import sqlite_module


@dataclass(frozen=True)
class StageTime:
    item: str
    name: str
    idx: int
    started: float
    finished: float

    @property
    def seconds(self) -> float:
        return self.finished - self.started


def stage_times(data_dir: Path) -> list[StageTime]:
    """Every finished stage of the library in ``data_dir`` (its SQLite file), in item and stage order.

    Read through the SQLite library the engine uses (:func:`sqlite_module`): the app case of
    :mod:`bench.first_subtitle` reads while its engine runs in the same process, and two SQLite
    libraries in one process drop each other's POSIX locks, so the engine's WAL index could be
    reset under it (it died of SIGBUS).
    """
    conn = sqlite_module().connect(f"file:{data_dir / 'library.sqlite3'}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT i.path, s.name, s.idx, s.started_at, s.finished_at FROM stages s JOIN items i ON i.id = s.item_id "
            "WHERE s.started_at IS NOT NULL AND s.finished_at IS NOT NULL ORDER BY s.item_id, s.idx").fetchall()
    finally:
        conn.close()
    return [StageTime(Path(path).name, name, int(idx), float(start), float(end)) for path, name, idx, start, end in rows]


def split_table(times: list[StageTime], wall_s: float | None = None) -> str:
    """Per stage name: count, summed seconds, longest; stages in pipeline order."""
    by_name: dict[str, list[float]] = defaultdict(list)
    order: dict[str, int] = {}
    for t in times:
        by_name[t.name].append(t.seconds)
        order.setdefault(t.name, t.idx)
    lines = [f"{'stage':16}{'runs':>6}{'sum s':>9}{'max s':>8}"]
    for name in sorted(by_name, key=lambda n: order[n]):
        secs = by_name[name]
        lines.append(f"{name:16}{len(secs):6d}{sum(secs):9.2f}{max(secs):8.2f}")
    if wall_s is not None:
        lines.append(f"{'(wall)':16}{'':6}{wall_s:9.2f}")
    return "\n".join(lines)


def timeline(times: list[StageTime], since: float) -> str:
    """One item's stages as ``name start→end`` seconds after ``since``."""
    return "  ".join(f"{t.name} {t.started - since:.2f}→{t.finished - since:.2f}" for t in times)
