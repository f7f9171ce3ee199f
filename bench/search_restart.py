"""The first answer after opening a saved library, in a fresh process, and the memory its vector index then takes.

``bench/search.py --keep DIR`` leaves a library (with its saved vector index and graphs)
in ``DIR``; this script opens it as the app does after a restart and times the first
text KNN (what the first search waits for) and then ``--queries`` more KNNs of each
model, reading the process's resident memory from ``/proc/self/status`` (Linux) before,
after the first answer and after the queries: ``RssAnon`` is memory the process owns,
``RssFile`` pages of mapped files (the saved matrices and graphs) that the operating
system may share and evict. The queries are random unit vectors: the walk's and the
re-scoring's page touches are what is measured, not relevance.

Run it alternately with the code before and after a change (A/B/A/B) on the same
library; the file format is the same. Usage:
``python -m bench.search_restart DIR/library.sqlite3 [--queries 50] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from app.store import Store, search_queries, vector_index
from app.store.search_queries import CurrentContent

TEXT_MODEL, VISUAL_MODEL, VISUAL_DIM, K = "e5", "clip", 512, 50  # as bench/search.py writes them
CURRENT = CurrentContent("current_items")


def resident() -> dict[str, float]:
    """``RssAnon`` and ``RssFile`` of this process in MiB."""
    found = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("RssAnon", "RssFile"):
            found[name] = int(value.split()[0]) / 1024
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    queries = {dim: rng.standard_normal((args.queries + 1, dim)).astype(np.float32) for dim in (384, VISUAL_DIM)}
    before = resident()
    started = time.perf_counter()
    store = Store(args.database)
    try:
        with store.db.read() as conn:
            search_queries.knn_text(conn, queries[384][0], model=TEXT_MODEL, k=K, current=CURRENT)
        first_s = time.perf_counter() - started
        after_first = resident()
        started = time.perf_counter()
        for n in range(1, args.queries + 1):
            with store.db.read() as conn:
                search_queries.knn_text(conn, queries[384][n], model=TEXT_MODEL, k=K, current=CURRENT)
                search_queries.knn_visual(conn, queries[VISUAL_DIM][n], model=VISUAL_MODEL, k=K, current=CURRENT)
        per_query_ms = (time.perf_counter() - started) * 1000 / max(1, args.queries)
        after_queries = resident()
        with store.db.read() as conn:
            index = vector_index.index_for(conn)
        graphs = index.graph_sizes()
    finally:
        store.close()
    result = {
        "first_answer_s": first_s, "knn_pair_ms": per_query_ms, "graph_vectors": sum(graphs.values()),
        **{f"{name}_first_mib": after_first[name] - before[name] for name in before},
        **{f"{name}_queries_mib": after_queries[name] - before[name] for name in before},
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"first answer {first_s:.2f} s ({result['graph_vectors']} vectors in graphs); then {per_query_ms:.1f} ms per "
          f"e5 + CLIP KNN; resident after the first answer: +{result['RssAnon_first_mib']:.0f} MiB own, "
          f"+{result['RssFile_first_mib']:.0f} MiB of files; after {args.queries} queries: "
          f"+{result['RssAnon_queries_mib']:.0f} MiB own, +{result['RssFile_queries_mib']:.0f} MiB of files")


if __name__ == "__main__":
    main()
