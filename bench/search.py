"""Search latency at 10k and 100k stored images vs numpy brute-force KNN over the same vectors.

Builds a real library database (the store's schema, sqlite-vec, FTS5) with N image
contents — random unit vectors (384-d e5, 512-d CLIP) and short word documents — each
held by one current item, then times:

- ``knn_text`` / ``knn_visual``: sqlite-vec KNN (k=50) joined to ``current_items``;
- ``numpy``: the same KNN by brute force (one matrix-vector product + argpartition)
  over vectors already in memory, the lower bound a KNN can reach;
- ``fused``: the whole text search (CLIP + e5 + FTS5, reciprocal rank fusion) with
  query vectors given, i.e. everything but the query embedding.

Usage: ``python -m bench.search [--sizes 10000 100000] [--queries 50]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np
from sqlalchemy import text

from app.engine import search as fused_search
from app.paths import database_path
from app.store import Store
from app.store import search_queries, search_schema, search_writes
from app.store.search_queries import CurrentContent

TEXT_MODEL, VISUAL_MODEL, VISUAL_DIM, K = "e5", "clip", 512, 50
WORDS = ("invoice receipt beach cat dog mountain sunset city street car train meeting budget report "
         "holiday birthday cake garden flower river lake snow forest museum ticket passport map").split()
CURRENT = CurrentContent("current_items")


def unit(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:
    m = rng.standard_normal((n, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def build(data_dir: Path, n: int, seed: int = 0) -> tuple[Store, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    text_vecs, visual_vecs = unit(rng, n, search_schema.TEXT_DIM), unit(rng, n, VISUAL_DIM)
    store = Store(database_path(data_dir))
    now = time.time()
    with store.db.write() as conn:
        conn.execute(text("INSERT INTO jobs (id, folder, state, created_at, updated_at) VALUES (1, '/bench', 'ready', :t, :t)"),
                     {"t": now})
    for start in range(0, n, 2000):
        with store.db.write() as conn:
            for i in range(start, min(n, start + 2000)):
                sha = f"{i:064x}"
                conn.execute(text(
                    "INSERT INTO items (job_id, ordinal, path, kind, sha256, status, updated_at) "
                    "VALUES (1, :i, :p, 'image', :sha, 'completed', :t)"), {"i": i, "p": f"/bench/img_{i}.jpg", "sha": sha, "t": now})
                doc = " ".join(rng.choice(WORDS, 8)) + f" number {i}"
                search_writes.upsert_image(conn, sha, text_model=TEXT_MODEL, text_vector=text_vecs[i], document=doc,
                                   ocr_text=doc, visual_model=VISUAL_MODEL, visual_vector=visual_vecs[i])
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


def bench(n: int, queries: int) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        store, text_vecs, visual_vecs = build(Path(tmp), n)
        print(f"  built {n} images in {time.perf_counter() - started:.0f} s", flush=True)
        rng = np.random.default_rng(1)
        qt, qv = unit(rng, queries, search_schema.TEXT_DIM), unit(rng, queries, VISUAL_DIM)
        it = iter(range(10**9))
        try:
            def knn_text() -> object:
                with store.db.read() as conn:
                    return search_queries.knn_text(conn, qt[next(it) % queries], model=TEXT_MODEL, k=K, current=CURRENT)

            def knn_visual() -> object:
                with store.db.read() as conn:
                    return search_queries.knn_visual(conn, qv[next(it) % queries], model=VISUAL_MODEL, k=K, current=CURRENT)

            def fused() -> object:
                j = next(it) % queries
                return fused_search.search(
                    f"{WORDS[j % len(WORDS)]} {WORDS[(j * 7) % len(WORDS)]}", connect=store.db.read, current=CURRENT,
                    text_model=TEXT_MODEL, embed_text=lambda q: qt[j], visual_model=VISUAL_MODEL,
                    embed_clip_text=lambda q: qv[j], kinds=("image",), limit=K)

            # Recall check: sqlite-vec is exact, so its top 10 must be numpy's top 10.
            with store.db.read() as conn:
                got = [int(h.sha256, 16) for h in search_queries.knn_text(conn, qt[0], model=TEXT_MODEL, k=10, current=CURRENT)]
            assert got == brute_force(text_vecs, qt[0], 10).tolist(), "sqlite-vec KNN disagrees with brute force"
            return {
                "knn_text": timed(knn_text, queries),
                "numpy_text": timed(lambda: brute_force(text_vecs, qt[next(it) % queries], K), queries),
                "knn_visual": timed(knn_visual, queries),
                "numpy_visual": timed(lambda: brute_force(visual_vecs, qv[next(it) % queries], K), queries),
                "fused": timed(fused, queries),
            }
        finally:
            store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=50)
    args = parser.parse_args()
    rows = []
    for n in args.sizes:
        print(f"n={n}", flush=True)
        rows.append((n, bench(n, args.queries)))
    print()
    print(f"{'stored':>8} {'what':<11} {'p50 ms':>8} {'p95 ms':>8} {'numpy p50':>10} {'numpy p95':>10} {'ratio p50':>10}")
    for n, r in rows:
        for name, ref in (("knn_text", "numpy_text"), ("knn_visual", "numpy_visual"), ("fused", "numpy_text")):
            ratio = statistics.median(r[name]) / statistics.median(r[ref])
            print(f"{n:>8} {name:<11} {p(r[name], 50):>8.2f} {p(r[name], 95):>8.2f} "
                  f"{p(r[ref], 50):>10.2f} {p(r[ref], 95):>10.2f} {ratio:>9.1f}x")


if __name__ == "__main__":
    main()
