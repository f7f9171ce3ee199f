"""What a claim costs as the library grows, per worker scope: p50 / p95 ms per claim.

Run by hand: `.venv/bin/python bench/worker_claims.py [--items N] [--claims C] [--rounds R]
[--library FILE | --database-url URL]`. Prints a table (with the load average: the numbers
are only as quiet as the machine).

The library is four added folders (jobs), written with bulk SQL (``add`` itself is
``bench/add.py``'s business; a million files through it would take the bench an hour):

* ``/nas/photos`` (added first, a quarter of the items): each photo's first stage is a
  GPU stage, queued — a CPU claim must not read past them;
* ``/nas/media/films``, ``/nas/media/series`` (in sub-folders ``a`` and ``b``) and
  ``/nas/other``: a queued CPU stage, then a waiting GPU stage.

Each row claims C stages one by one through ``StageRepo.claim_next_stage`` (one write
transaction each, SQLite in WAL or PostgreSQL) with the scope a worker builds from its
path map, then gives them back so every round sees the same queue. ``--library`` /
``--database-url``: a library built by an earlier run with the same ``--items`` is
reused (a million items take minutes to write); an empty one is built. The tables are
not ``ANALYZE``d here: a claim must not depend on fresh planner statistics.

The milliseconds are only as quiet as the machine. The ``work`` column is not: the
work of the claim's two queries (the job list with its probe per job, then the claim
itself), replayed once per row: on PostgreSQL the buffers it touched
(``EXPLAIN (ANALYZE, BUFFERS)``), on SQLite the virtual machine instructions it ran.
Flat work from 10k to 1M items is what "answered from an index" means.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sqlalchemy import event, func, select, text  # noqa: E402

from app.store import Store  # noqa: E402
from app.store.claim_scope import EVERYTHING, ClaimScope, ScopePrefix  # noqa: E402
from app.store.tables import items  # noqa: E402

#: (folder, share of the items, first stage's GPU MB): jobs in the order they are added.
FOLDERS = (("/nas/photos", 0.25, 500), ("/nas/media/films", 0.25, 0), ("/nas/media/series", 0.25, 0),
           ("/nas/other", 0.25, 0))

#: label -> (gpu lane, scope)
ROWS: dict[str, tuple[bool, ClaimScope]] = {
    "CPU, everything (sidecar run)": (False, EVERYTHING),
    "CPU, 1 mapping /nas/media": (False, ClaimScope(prefixes=(ScopePrefix("/nas/media"),))),
    "CPU, 3 mappings": (False, ClaimScope(prefixes=(ScopePrefix("/nas/media/films"), ScopePrefix("/nas/media/series"),
                                                    ScopePrefix("/nas/photos")))),
    "CPU, 1 mapping /nas/other": (False, ClaimScope(prefixes=(ScopePrefix("/nas/other"),))),
    "CPU, inside a job: films/b": (False, ClaimScope(prefixes=(ScopePrefix("/nas/media/films/b"),))),
    "GPU, everything": (True, EVERYTHING),
}

ITEMS_SQL = """
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < :count - 1)
INSERT INTO items (job_id, ordinal, grp, path, kind, size, mtime_ns, sha256, revision, status, updated_at)
SELECT :job, i, i / 8, :folder || CASE WHEN i % 2 = 0 THEN '/a/file' ELSE '/b/file' END || i || '.mkv',
       'video', 1, 1, 'sha' || :job || '-' || i, 1, 'pending', :now FROM n
"""

STAGES_SQL = """
INSERT INTO stages (item_id, job_id, idx, name, status, gpu_mb, model_key, fingerprint, updated_at, grp, ordinal)
SELECT id, job_id, :idx, :name, :status, :gpu_mb, :model_key, 'f', :now, grp, ordinal FROM items WHERE job_id = :job
"""


def build(store: Store, n: int) -> None:
    """The four jobs of the module's docstring with ``n`` items in all, in bulk SQL (one transaction per job)."""
    for folder, share, first_gpu in FOLDERS:
        job = store.jobs.create(folder, {}, owner="bench")
        now = store.db.now()
        with store.db.write() as conn:
            conn.execute(text(ITEMS_SQL), {"count": int(n * share), "job": job, "folder": folder, "now": now})
            for idx, name, status, gpu in ((0, "first", "queued", first_gpu), (1, "second", "waiting", 500 - first_gpu)):
                conn.execute(text(STAGES_SQL), {"idx": idx, "name": name, "status": status, "gpu_mb": gpu,
                                                "model_key": "m" if gpu else None, "now": now, "job": job})
        store.jobs.finish_creating(job, {})


def statistics_note(store: Store) -> str:
    """Whether PostgreSQL's planner has statistics for the stages table yet (autovacuum's ANALYZE)."""
    if store.db.engine.dialect.name == "sqlite":
        return "SQLite, never ANALYZEd"
    with store.db.read() as conn:
        analyzed = conn.execute(text("SELECT coalesce(last_analyze, last_autoanalyze) FROM pg_stat_user_tables "
                                     "WHERE relname = 'stages'")).scalar()
    return f"stages table {'analyzed' if analyzed else 'never analyzed'}"


def measure(store: Store, gpu: bool, scope: ClaimScope, claims: int, rounds: int) -> list[float]:
    """Milliseconds of each claim of ``rounds`` rounds of ``claims`` claims (each round given back after)."""
    times = []
    for _ in range(rounds):
        held = []
        for _ in range(claims):
            t0 = time.perf_counter()
            claim = store.stages.claim_next_stage("bench:0", gpu=gpu, scope=scope)
            times.append((time.perf_counter() - t0) * 1000)
            assert claim is not None, "the queue ran dry: fewer items than claims"
            held.append(claim)
        for claim in held:
            store.stages.release_stage(claim)
    return times


def claim_work(store: Store, gpu: bool, scope: ClaimScope) -> int:
    """The work of the claim's two queries (see the module's docstring), replayed as the claim prepares them."""
    sent: dict[str, tuple[str, Any]] = {}

    def grab(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool) -> None:
        text_ = statement.lstrip()
        if text_.startswith("SELECT jobs.id, jobs.folder"):
            sent["jobs"] = (statement, parameters)
        elif text_.startswith("SELECT stages.id") and "ORDER BY" in statement:
            sent["claim"] = (statement, parameters)

    event.listen(store.db.engine, "before_cursor_execute", grab)
    try:
        claim = store.stages.claim_next_stage("bench:0", gpu=gpu, scope=scope)
    finally:
        event.remove(store.db.engine, "before_cursor_execute", grab)
    assert claim is not None
    store.stages.release_stage(claim)
    with store.db.write() as conn:
        store.stages._claim_params(conn, gpu, scope, store.db.now())
        return sum(_work(conn, statement, parameters) for statement, parameters in sent.values())


def _work(conn: Any, statement: str, parameters: Any) -> int:
    """Buffers PostgreSQL touched for ``statement`` (``EXPLAIN (ANALYZE, BUFFERS)``), or SQLite's VM instructions."""
    if conn.dialect.name != "sqlite":
        plan = conn.exec_driver_sql("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + statement, parameters).scalar_one()
        top = plan[0]["Plan"]
        return int(top["Shared Hit Blocks"] + top["Shared Read Blocks"])
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    raw = conn.connection.driver_connection
    raw.set_progress_handler(count, 1)
    try:
        conn.exec_driver_sql(statement, parameters).all()
    finally:
        raw.set_progress_handler(None, 1)
    return steps[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=20000)
    parser.add_argument("--claims", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--library", default="", help="a SQLite file to build once and reuse (default: a temporary one)")
    parser.add_argument("--database-url", default="", help="a PostgreSQL database to build once and reuse")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.database_url or Path(args.library or Path(tmp) / "library.sqlite3"), lease_seconds=3600)
        try:
            with store.db.read() as conn:
                have = conn.execute(select(func.count()).select_from(items)).scalar_one()
            t0 = time.perf_counter()
            if have == 0:
                build(store, args.items)
            elif have != args.items:
                sys.exit(f"the library holds {have} items, not {args.items}: start from an empty one")
            built = f"{time.perf_counter() - t0:.0f} s to build" if have == 0 else "reused"
            backend = "PostgreSQL" if args.database_url else "SQLite"
            print(f"{backend}: {args.items} items ({built}; {statistics_note(store)}), {args.claims} claims x "
                  f"{args.rounds} rounds per row; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
                  f"on {os.cpu_count()} cores\n")
            unit = "buffers" if args.database_url else "VM steps"
            print(f"{'lane, scope':<32} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'work (' + unit + ')':>18}")
            for label, (gpu, scope) in ROWS.items():
                times = sorted(measure(store, gpu, scope, args.claims, args.rounds))
                p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
                print(f"{label:<32} {statistics.median(times):>8.2f} {p95:>8.2f} {times[-1]:>8.2f} "
                      f"{claim_work(store, gpu, scope):>18}", flush=True)
        finally:
            store.close()


if __name__ == "__main__":
    main()
