"""Word-search latency (FTS5) at 100k stored images, common words and partial words.

The library is built as :mod:`bench.search` builds it (25 words, 8 per document, so
each word is in ~28 % of the documents and a two-word query matches about half the
library): the worst case for ranking, which only has to return the best 50.

``--db DIR`` keeps the built library in DIR and reuses it on the next run, so two
versions of the query code can be timed on the same database. ``--database-url`` builds
it on an empty PostgreSQL database instead (words and bm25 as app.store.search_postgres
makes them), or reuses the library built there before.

Usage: ``python -m bench.word_search [--size 100000] [--queries 30] [--db DIR | --database-url URL]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from sqlalchemy import text

from app.paths import database_path
from app.store import Store, search_queries
from bench.search import CURRENT, K, WORDS, build, p, timed

KINDS = {
    "one common word": lambda j: WORDS[j % len(WORDS)],
    "two common words": lambda j: f"{WORDS[j % len(WORDS)]} {WORDS[(j * 7 + 3) % len(WORDS)]}",
    "a word's start": lambda j: WORDS[j % len(WORDS)][:4],
    "a rare number": lambda j: f"{(j * 3331) % 100_000}",
    "no match": lambda j: f"zzq{j}",
}


def _has_images(store: Store) -> bool:
    with store.db.read() as conn:
        return conn.execute(text("SELECT 1 FROM search_image LIMIT 1")).first() is not None


def run(location: Path | str, size: int, queries: int) -> None:
    store = Store(location)
    if not _has_images(store):
        store.close()
        started = time.perf_counter()
        store, _, _ = build(location, size)
        print(f"built {size} images in {time.perf_counter() - started:.0f} s", flush=True)
    try:
        for name, make in KINDS.items():
            it = iter(range(10**9))

            def query() -> object:
                with store.db.read() as conn:
                    return search_queries.fts_images(conn, make(next(it) % queries), k=K, current=CURRENT)

            times = timed(query, queries)
            with store.db.read() as conn:
                found = np.mean([len(search_queries.fts_images(conn, make(j), k=K, current=CURRENT)) for j in range(3)])
            print(f"{name:<18} p50 {p(times, 50):8.2f} ms  p95 {p(times, 95):8.2f} ms  hits {found:.0f}", flush=True)
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--db", type=Path, help="keep the built library here and reuse it")
    parser.add_argument("--database-url", help="build it on this empty PostgreSQL database instead")
    args = parser.parse_args()
    if args.database_url:
        run(args.database_url, args.size, args.queries)
    elif args.db:
        args.db.mkdir(parents=True, exist_ok=True)
        run(database_path(args.db), args.size, args.queries)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            run(database_path(Path(tmp)), args.size, args.queries)


if __name__ == "__main__":
    main()
