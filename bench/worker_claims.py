"""What a worker's scope costs a claim: 0 (``sidecar run``), 1 and 3 path mappings.

Run by hand: `.venv/bin/python bench/worker_claims.py [--items N] [--claims C] [--database-url URL]`.
Prints a table (with the load average: the numbers are only as quiet as the machine).

A library of N items spread over 4 top folders (one of them, ``/nas/other``, never
mapped) is planned with two stages per item; each round claims C stages one by one
through ``StageRepo.claim_next_stage`` (one write transaction each, SQLite in WAL, or the
PostgreSQL database ``--database-url`` names, which must be empty) with
the scope a worker builds from its path map, and releases them again so every round
sees the same queue. The prefix test is part of the claim query, so its cost shows here.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.store import Store  # noqa: E402
from app.store.claim_scope import EVERYTHING, ClaimScope, ScopePrefix  # noqa: E402
from app.store.records import NewItem, NewStage  # noqa: E402

FOLDERS = ("/nas/media/films", "/nas/media/series", "/nas/photos", "/nas/other")
SCOPES = {
    "0 mappings (sidecar run)": EVERYTHING,
    "1 mapping": ClaimScope(prefixes=(ScopePrefix("/nas/media"),)),
    "3 mappings": ClaimScope(prefixes=(ScopePrefix("/nas/media/films"), ScopePrefix("/nas/media/series"),
                                       ScopePrefix("/nas/photos"))),
}


BUILD_BATCH = 50_000
"""Items per job: a big library is several added folders."""


def build(store: Store, n: int, first: int = 0) -> None:
    job = store.jobs.create("/nas", {}, owner="bench")
    for start in range(first, first + n, 5000):
        store.jobs.add_items(job, [
            NewItem(f"{FOLDERS[i % len(FOLDERS)]}/file{i:07d}.mkv", "video", 1, 1, f"sha{i}",
                    (NewStage(0, "extract", "f0"), NewStage(1, "transcribe", "f1")))
            for i in range(start, min(first + n, start + 5000))
        ], start - first)
    store.jobs.finish_creating(job, {})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=20000)
    parser.add_argument("--claims", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--database-url", default="", help="an empty PostgreSQL database (default: a SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.database_url or Path(tmp) / "library.sqlite3")
        try:
            t0 = time.perf_counter()
            for start in range(0, args.items, BUILD_BATCH):
                build(store, min(BUILD_BATCH, args.items - start), start)
            backend = "PostgreSQL" if args.database_url else "SQLite"
            print(f"{backend}: {args.items} items ({time.perf_counter() - t0:.0f} s to add), {args.claims} claims per round, "
                  f"{args.rounds} rounds; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")
            print(f"{'scope':<26} {'ms/claim (median round)':>24} {'min':>8} {'max':>8}")
            for label, scope in SCOPES.items():
                rounds = []
                for _ in range(args.rounds):
                    claims, t0 = [], time.perf_counter()
                    for _ in range(args.claims):
                        claim = store.stages.claim_next_stage("bench:0", gpu=False, scope=scope)
                        assert claim is not None
                        claims.append(claim)
                    rounds.append((time.perf_counter() - t0) * 1000 / args.claims)
                    for claim in claims:
                        store.stages.release_stage(claim)
                print(f"{label:<26} {statistics.median(rounds):>24.3f} {min(rounds):>8.3f} {max(rounds):>8.3f}")
        finally:
            store.close()


if __name__ == "__main__":
    main()
