"""Search latency at 10k and 100k stored images vs numpy brute-force KNN over the same vectors.

Builds a real library database (the store's schema, sqlite-vec, FTS5) with N image
contents — unit vectors (384-d e5, 512-d CLIP) and short word documents — each held by
one current item, then times:

- ``knn_text`` / ``knn_visual``: KNN (k=50) through the in-process vector index
  (:mod:`app.store.vector_index`) joined to ``current_items``, and the same through
  sqlite-vec (``sqlite_vec_p50_ms``, the path the index replaced);
- ``numpy``: the same KNN by brute force (one matrix-vector product + argpartition)
  over vectors already in memory, the lower bound a KNN can reach;
- ``fused``: the whole text search (CLIP + e5 + FTS5, reciprocal rank fusion) with
  query vectors given, i.e. everything but the query embedding;
- ``recall_at_10``: the share of the exact top 10 returned (numpy for KNN, the
  sqlite-vec path for fused search);
- the index: its memory (matrices and graphs), the time to build it from the database
  (first search of a library without an index file), to build the graphs in the
  background (libraries over 20k, :mod:`app.store.vector_graph`) and to the first
  answer after a restart (loading it).

Vectors (``--vectors``): ``embedding`` (the default) draws them near a 32-dimensional
subspace (a random linear map of a 32-d Gaussian, plus 2 % noise in every dimension),
as real embeddings lie near a low-dimensional manifold; ``isotropic`` draws them
uniformly on the sphere, the adversarial case where every vector is about as far from
every other and no graph index can beat the scan (the graph then fails its recall check
and search stays exact).

``--keep DIR`` leaves each library in ``DIR/<size>/`` for ``bench/search_restart.py``, which
measures the first answer and the memory of a fresh process that opens it.

Usage: ``python -m bench.search [--sizes 10000 100000 1000000] [--queries 50] [--vectors embedding|isotropic]
[--keep DIR [--build-only]] [--json]``;
``--json`` prints ``{"results": [{"size", "kind", "p50_ms", "p95_ms", "numpy_p50_ms",
"recall_at_10", …}], "index": [{"size", "memory_bytes", …}]}``.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np
from sqlalchemy import text

from app.engine import search as fused_search
from app.paths import database_path
from app.store import Store
from app.store import search_queries, search_schema, search_writes, vector_index
from app.store.search_queries import CurrentContent
from app.store.search_writes import IndexedImage, TextTranslation

TEXT_MODEL, VISUAL_MODEL, VISUAL_DIM, K = "e5", "clip", 512, 50
WORDS = ("invoice receipt beach cat dog mountain sunset city street car train meeting budget report "
         "holiday birthday cake garden flower river lake snow forest museum ticket passport map").split()
CURRENT = CurrentContent("current_items")
EXACT_QUERIES = 10
"""Queries timed on sqlite-vec's exact path, which scans every vector (about a second per query at 1M)."""
BUILD_BATCH = 5_000
"""Images per write transaction (one statement per table each) while the library is written."""


LATENT_DIM, NOISE = 32, 0.02
VECTORS = "embedding"


def unit(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:
    """``n`` unit vectors of the kind chosen by ``--vectors`` (the map to ``dim`` is fixed per ``dim``)."""
    if VECTORS == "isotropic":
        m = rng.standard_normal((n, dim)).astype(np.float32)
    else:
        basis = np.random.default_rng(dim).standard_normal((LATENT_DIM, dim)).astype(np.float32) / np.sqrt(LATENT_DIM)
        m = np.empty((n, dim), dtype=np.float32)
        for start in range(0, n, 100_000):  # in chunks: 1M × 512 float64 intermediates would not fit
            rows = min(n, start + 100_000) - start
            m[start:start + rows] = (rng.standard_normal((rows, LATENT_DIM)).astype(np.float32) @ basis
                                     + NOISE * rng.standard_normal((rows, dim)).astype(np.float32))
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def build(location: Path | str, n: int, seed: int = 0, translated_every: int = 0) -> tuple[Store, np.ndarray, np.ndarray]:
    """``n`` indexed images in the library at ``location`` (a SQLite file or a PostgreSQL URL).

    With ``translated_every`` k, every k-th image's text is also held as a zh→en translation
    row (a library with Chinese signs, indexed with a translator installed).
    """
    rng = np.random.default_rng(seed)
    text_vecs, visual_vecs = unit(rng, n, search_schema.TEXT_DIM), unit(rng, n, VISUAL_DIM)
    store = Store(location)
    now = time.time()
    with store.db.write() as conn:
        conn.execute(text("INSERT INTO jobs (id, folder, state, created_at, updated_at) VALUES (1, '/bench', 'ready', :t, :t)"),
                     {"t": now})
    for start in range(0, n, BUILD_BATCH):
        numbers = range(start, min(n, start + BUILD_BATCH))
        with store.db.write() as conn:
            conn.execute(text("INSERT INTO items (job_id, ordinal, path, kind, sha256, status, updated_at) "
                              "VALUES (1, :i, :p, 'image', :sha, 'completed', :t)"),
                         [{"i": i, "p": f"/bench/img_{i}.jpg", "sha": f"{i:064x}", "t": now} for i in numbers])
            images = []
            for i in numbers:
                doc = " ".join(rng.choice(WORDS, 8)) + f" number {i}"
                translations = ((TextTranslation("zh", "en", f"中文 {i}", doc),)
                                if translated_every and i % translated_every == 0 else ())
                images.append(IndexedImage(f"{i:064x}", TEXT_MODEL, text_vecs[i], doc, doc, VISUAL_MODEL, visual_vecs[i],
                                           translations=translations))
            search_writes.upsert_images(conn, images)
        if start and start % 100_000 == 0:
            print(f"  {start} images written", flush=True, file=sys.stderr)
    return store, text_vecs, visual_vecs


def timed(fn: Callable[[], object], repeats: int) -> list[float]:
    fn()  # warm caches
    out = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def p(values: list[float], q: float) -> float:
    return float(np.percentile(values, q))


def brute_force(matrix: np.ndarray, query: np.ndarray, k: int) -> np.ndarray:
    scores = matrix @ query
    top = np.argpartition(-scores, k)[:k]
    return top[np.argsort(-scores[top])]


def bench(n: int, queries: int, keep: Path | None = None, build_only: bool = False) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as scratch:
        tmp = scratch if keep is None else str(keep / str(n))
        Path(tmp).mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        store, text_vecs, visual_vecs = build(database_path(Path(tmp)), n)
        build_s = time.perf_counter() - started
        print(f"  built {n} images in {build_s:.0f} s", flush=True, file=sys.stderr)
        rng = np.random.default_rng(1)
        qt, qv = unit(rng, queries, search_schema.TEXT_DIM), unit(rng, queries, VISUAL_DIM)
        it = iter(range(10**9))
        try:
            index_build_s = first_answer(store, qt[0])  # no index file yet: built from the database and saved
            started = time.perf_counter()
            with store.db.read() as conn:
                index = vector_index.index_for(conn)
            index.wait_for_graphs()  # built in the background; the app answers exactly meanwhile
            graph_build_s = time.perf_counter() - started
            store.close()
            store = Store(database_path(Path(tmp)))
            startup_s = first_answer(store, qt[0])  # a new process's view: loads the saved file
            with store.db.read() as conn:
                index = vector_index.index_for(conn)
            index_bytes, graphs, beams = index.nbytes, index.graph_sizes(), index.graph_beams()
            print(f"  index: built in {index_build_s:.1f} s, graphs of {sorted(graphs.values())} vectors "
                  f"(beams {sorted(beams.values())}) in "
                  f"{graph_build_s:.1f} s, first answer after a restart {startup_s:.2f} s, {index_bytes / 2**20:.0f} MiB",
                  flush=True, file=sys.stderr)
            summary = {"size": n, "memory_bytes": index_bytes, "index_build_s": index_build_s,
                       "graph_build_s": graph_build_s, "graph_vectors": sum(graphs.values()),
                       "graph_beams": sorted(beams.values()), "startup_to_first_answer_s": startup_s,
                       "library_build_s": build_s}
            if build_only:
                return {"results": [], "index": summary}

            def knn(kind: str, exact: bool) -> Callable[[], object]:
                def run() -> object:
                    j = next(it) % queries
                    with store.db.read() as conn:
                        if kind == "knn_text":
                            return search_queries.knn_text(conn, qt[j], model=TEXT_MODEL, k=K, current=CURRENT, exact=exact)
                        return search_queries.knn_visual(conn, qv[j], model=VISUAL_MODEL, k=K, current=CURRENT, exact=exact)
                return run

            def fused(j: int) -> list[fused_search.SearchResult]:
                return fused_search.search(
                    f"{WORDS[j % len(WORDS)]} {WORDS[(j * 7) % len(WORDS)]}", connect=store.db.read, current=CURRENT,
                    text_model=TEXT_MODEL, embed_text=lambda q: qt[j], visual_model=VISUAL_MODEL,
                    embed_clip_text=lambda q: qv[j], kinds=("image",), limit=K)

            times = {
                "knn_text": timed(knn("knn_text", False), queries),
                "knn_visual": timed(knn("knn_visual", False), queries),
                "fused": timed(lambda: fused(next(it) % queries), queries),
                "numpy_text": timed(lambda: brute_force(text_vecs, qt[next(it) % queries], K), queries),
                "numpy_visual": timed(lambda: brute_force(visual_vecs, qv[next(it) % queries], K), queries),
                "sqlite_vec_text": timed(knn("knn_text", True), min(queries, EXACT_QUERIES)),
                "sqlite_vec_visual": timed(knn("knn_visual", True), min(queries, EXACT_QUERIES)),
            }
            recall = recalls(store, qt, qv, text_vecs, visual_vecs, fused)
        finally:
            store.close()
    results = []
    for kind, ref, exact in (("knn_text", "numpy_text", "sqlite_vec_text"), ("knn_visual", "numpy_visual", "sqlite_vec_visual"),
                             ("fused", "numpy_text", None)):
        results.append({
            "size": n, "kind": kind, "p50_ms": p(times[kind], 50), "p95_ms": p(times[kind], 95),
            "numpy_p50_ms": p(times[ref], 50), "recall_at_10": recall[kind],
            **({"sqlite_vec_p50_ms": p(times[exact], 50), "sqlite_vec_queries": len(times[exact])} if exact else {}),
        })
    return {"results": results, "index": summary}


def first_answer(store: Store, query: np.ndarray) -> float:
    started = time.perf_counter()
    with store.db.read() as conn:
        search_queries.knn_text(conn, query, model=TEXT_MODEL, k=K, current=CURRENT)
    return time.perf_counter() - started


def recalls(store: Store, qt: np.ndarray, qv: np.ndarray, text_vecs: np.ndarray, visual_vecs: np.ndarray,
            fused: Callable[[int], list[dict[str, object]]]) -> dict[str, float]:
    """Share of the exact top 10 that the fast path returns: numpy for KNN, the sqlite-vec path for fused search."""
    def share(got: list[list[object]], want: list[list[object]]) -> float:
        return float(np.mean([len(set(g[:10]) & set(w[:10])) / max(1, len(w[:10])) for g, w in zip(got, want)]))

    with store.db.read() as conn:
        got_text = [[int(h.sha256, 16) for h in search_queries.knn_text(conn, q, model=TEXT_MODEL, k=10, current=CURRENT)]
                    for q in qt]
        got_visual = [[int(h.sha256, 16) for h in search_queries.knn_visual(conn, q, model=VISUAL_MODEL, k=10, current=CURRENT)]
                      for q in qv]
    fast_fused = [[r.path for r in fused(j)] for j in range(len(qt))]
    text_knn, visual_knn = search_queries.knn_text, search_queries.knn_visual
    try:  # the reference: the same fused search with both KNNs answered by sqlite-vec
        search_queries.knn_text = functools.partial(text_knn, exact=True)  # type: ignore[assignment]
        search_queries.knn_visual = functools.partial(visual_knn, exact=True)  # type: ignore[assignment]
        exact_fused = [[r.path for r in fused(j)] for j in range(len(qt))]
    finally:
        search_queries.knn_text, search_queries.knn_visual = text_knn, visual_knn  # type: ignore[assignment]
    return {
        "knn_text": share(got_text, [brute_force(text_vecs, q, 10).tolist() for q in qt]),
        "knn_visual": share(got_visual, [brute_force(visual_vecs, q, 10).tolist() for q in qv]),
        "fused": share(fast_fused, exact_fused),
    }


def main() -> None:
    global VECTORS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--vectors", choices=("embedding", "isotropic"), default="embedding",
                        help="vectors near a 32-d subspace, as embeddings are, or uniform on the sphere (no index helps)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    parser.add_argument("--keep", type=Path, help="leave each library in KEEP/<size>/ (for bench/search_restart.py)")
    parser.add_argument("--build-only", action="store_true",
                        help="write each library and its index, time no queries (with --keep: a 1M library for "
                             "bench/search_restart.py without the hour its sqlite-vec and recall queries take)")
    args = parser.parse_args()
    VECTORS = args.vectors
    runs = []
    for n in args.sizes:
        print(f"n={n}", flush=True, file=sys.stderr)
        runs.append(bench(n, args.queries, args.keep, args.build_only))
    if args.json:
        print(json.dumps({"results": [r for run in runs for r in run["results"]], "index": [run["index"] for run in runs]},
                         indent=1))
        return
    if not args.build_only:
        print()
        print(f"{args.queries} queries per kind ({min(args.queries, EXACT_QUERIES)} on sqlite-vec's "
              "exact path); fused recall@10 against the same fused search with both KNNs from sqlite-vec")
        print(f"{'stored':>8} {'what':<11} {'p50 ms':>8} {'p95 ms':>8} {'numpy p50':>10} {'ratio p50':>10} "
              f"{'recall@10':>10} {'sqlite-vec p50':>15}")
        for run in runs:
            for r in run["results"]:
                exact = f"{r['sqlite_vec_p50_ms']:>15.2f}" if "sqlite_vec_p50_ms" in r else ""
                print(f"{r['size']:>8} {r['kind']:<11} {r['p50_ms']:>8.2f} {r['p95_ms']:>8.2f} {r['numpy_p50_ms']:>10.2f} "
                      f"{r['p50_ms'] / r['numpy_p50_ms']:>9.1f}x {r['recall_at_10']:>10.3f}{exact}")
    print()
    for run in runs:
        i = run["index"]
        print(f"{i['size']:>8} index {i['memory_bytes'] / 2**20:.0f} MiB ({i['graph_vectors']} vectors in graphs, "
              f"beams {i['graph_beams']}, built in "
              f"{i['graph_build_s']:.0f} s), built in {i['index_build_s']:.1f} s, "
              f"first answer after a restart {i['startup_to_first_answer_s']:.2f} s (library written in {i['library_build_s']:.0f} s)")


if __name__ == "__main__":
    main()
