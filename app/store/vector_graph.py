"""An HNSW graph (usearch) over the rows of one vector matrix, for libraries too large to scan per query.

Why it exists: the exact matrix of :mod:`app.store.vector_index` reads every stored
vector for every query. That is as fast as brute force can be, but brute force is
bound by memory bandwidth: 1M e5 plus 1M CLIP vectors are 3.5 GB to stream per fused
search, several hundred milliseconds on the development machine (issue 13 asks for
150 ms for the whole search at 1M). A graph visits a few thousand vectors instead.

Design choices:

- **usearch.** Wheels for Linux, Windows and macOS (x86 and ARM): usearch's own is
  2.3 MB, the NumKong kernels it needs 10.6 MB (~58 MB unpacked together on Linux);
  one file to save and load, and removal of keys. faiss-cpu is ~30 MB and hnswlib
  ships no Windows wheels.
- **A candidate generator, never the answer.** The graph's keys are the matrix's
  *slots*; the caller re-scores every candidate exactly against the float32 row
  in that slot and reads the row id from the slot, so a candidate is always a row
  as it is now, with its exact distance (the stale-vector rule of SPEC §10 never
  depends on the graph). The graph only decides which rows are looked at: that is
  the recall it costs, bought back by asking for :data:`OVERSAMPLE` times the
  candidates wanted and re-ranking them.
- **int8 in the graph.** The graph keeps its own copy of the vectors for the walk;
  int8 makes it a quarter of float32 (~0.4 GB per 1M 384-d vectors plus the links)
  and built 3× faster than float16 (20k vectors: 19 s against 63 s on the loaded
  development machine), with the same recall after exact re-scoring (0.98 vs 0.99
  at a beam of 128, 1.0 for both at 256, on vectors near a 32-d subspace).
- **Recall is checked, not assumed.** On vectors uniform on the 384-d sphere no graph
  finds much (0.1–0.4 recall@10 at 100k, float16 as bad as int8): every vector is about
  as far from every other. Real embeddings are far from that, but a new graph must
  pass :meth:`VectorGraph.recall` before it answers, else the search stays exact. Its
  beam is widened until it passes (:meth:`VectorGraph.tune`) and saved with it.
- **Removal marks, rebuild when marked a lot.** usearch's ``remove`` leaves the node
  in the graph as a tombstone that the walk still crosses; past
  :data:`TOMBSTONE_FRACTION` of the live size the owner builds a new graph.
- **Measured** (``bench/search.py --sizes 10000 100000 1000000``, 2 cores with other
  work on them, vectors near a 32-d subspace): at 100k, KNN p50 4.8 ms e5 / 5.9 ms CLIP
  (0.3× numpy brute force, recall@10 0.96 / 0.96), fused search 41 ms p50 with recall@10
  0.998 against the exact path, beams 128; at 1M, KNN p50 48 / 41 ms (0.3× / 0.2×, recall
  0.99 / 0.96), fused 116 ms p50, beams 512 (e5) and 256 (CLIP); graphs built in 31 min on
  one thread each, 4.95 GB for matrices and graphs of both models, the first answer
  after a restart 23 s (the graphs are read back whole).
- **Built off the query path.** Building is ~1–3 min per 100k vectors on two cores;
  the owner builds in a background thread and answers exactly until the graph is
  ready (see :class:`app.store.vector_index.VectorIndex`).
- **Opened as a view, never read back whole.** A saved graph is memory-mapped
  (usearch's ``view``): opening it reads no node, so the first answer after a restart
  does not wait for the file (23 s at 1M when restored whole), and its pages are the
  operating system's to share and evict, not the process's memory. usearch cannot
  change a viewed graph (``remove`` on one crashed the process), so a viewed graph
  records the slots changed since it was saved (:attr:`VectorGraph.pending`) and the
  owner re-scores all of them exactly with every query; past
  :data:`TOMBSTONE_FRACTION` of the live size it is :attr:`~VectorGraph.worn` and a
  new graph is built, as for removals.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

import numpy as np

if TYPE_CHECKING:
    from usearch.index import Index

log = logging.getLogger(__name__)

THRESHOLD = 20_000
"""Rows of one ``(table, model)`` from which a graph is built; below it the exact scan is a few milliseconds."""
CONNECTIVITY = 16
EXPANSION_ADD = 128
EXPANSION_SEARCH = 128
"""The walk's first beam: doubled by :meth:`VectorGraph.tune` until the recall check passes, and raised to the
candidate count when more candidates are asked for."""
MAX_EXPANSION = 1024
"""The widest beam :meth:`VectorGraph.tune` tries; a graph that needs more is not used."""
OVERSAMPLE = 2
"""Candidates asked from the graph per row wanted; all are re-scored exactly.

Two, not four: at 100k vectors the walk for a fused search's 125 rows took 1.5 ms
instead of 3 ms per model, and the fused result's recall@10 stayed at 0.998
(``bench/search.py``); the recall check below asks the same share, so a graph that
needs more gets a wider beam instead.
"""
EXACT_SHARE = 0.1
"""When a query wants more than this share of the rows, scanning them all is as cheap as the walk."""
TOMBSTONE_FRACTION = 0.2
"""Removed nodes, as a share of the live ones, past which the graph is rebuilt."""
MIN_RECALL = 0.95
"""A new graph must find this share of the exact top 10 (:meth:`VectorGraph.recall`), else search stays exact."""
RECALL_QUERIES = 32
BUILD_CHUNK = 10_000
"""Vectors added per call while building: a build asked to stop (the process is exiting) stops after one chunk."""


class BuildStopped(Exception):
    """A graph build was asked to stop between two chunks (:meth:`VectorGraph.build`)."""


class VectorGraph:
    """HNSW over cosine similarity of unit vectors; keys are matrix slots."""

    def __init__(self, dim: int, index: Index | None = None, removed: int = 0, expansion: int | None = None,
                 pending: Iterable[int] | None = None):
        self.dim = dim
        self.expansion = expansion or EXPANSION_SEARCH
        # Imported here, not with the module: usearch loaded before onnxruntime segfaults the process, and every
        # process that opens a store (sidecar doctor's onnxruntime check among them) would load it.
        from usearch.index import Index

        self.index = index if index is not None else Index(
            ndim=dim, metric="ip", dtype="i8", connectivity=CONNECTIVITY,
            expansion_add=EXPANSION_ADD, expansion_search=self.expansion,
        )
        self.removed = removed
        self.pending: set[int] | None = None if pending is None else set(pending)
        """Slots changed since a viewed (read-only) graph was saved; None for a graph in memory, which is changed in place."""
        self._pending_array: np.ndarray | None = None

    @classmethod
    def build(cls, dim: int, slots: np.ndarray, vectors: np.ndarray, stop: threading.Event | None = None) -> VectorGraph:
        """A graph of ``vectors`` keyed by ``slots`` (slow: run it off the query path).

        ``stop`` set: raises :class:`BuildStopped` before the next chunk. usearch's
        ``add`` runs native threads; a process that exits inside it aborts ("terminate
        called without an active exception"), so an exiting process stops the build
        and waits for the chunk in hand (:func:`app.store.vector_index.stop_builders`).
        """
        graph = cls(dim)
        for start in range(0, len(slots), BUILD_CHUNK):
            if stop is not None and stop.is_set():
                raise BuildStopped
            chunk = slots[start:start + BUILD_CHUNK]
            graph.index.add(chunk.astype(np.uint64), vectors[chunk], threads=_build_threads())
        return graph

    def recall(self, slots: np.ndarray, vectors: np.ndarray, k: int = 10) -> float:
        """Share of the exact top ``k`` that :meth:`candidates` plus exact re-scoring finds, over sample queries.

        The queries are midpoints of two stored vectors: near the data like a real
        query, but not a stored vector itself (which any graph finds trivially). A
        library whose vectors have no structure for a graph to use (isotropic noise in
        hundreds of dimensions) fails this, and is searched exactly.
        """
        if len(slots) <= k:
            return 1.0
        rng = np.random.default_rng(len(slots))
        pairs = slots[rng.integers(0, len(slots), size=(RECALL_QUERIES, 2))]
        queries = vectors[pairs[:, 0]] + vectors[pairs[:, 1]]
        queries /= np.maximum(np.linalg.norm(queries, axis=1, keepdims=True), 1e-12)
        live = np.zeros(len(vectors), dtype=bool)
        live[slots] = True
        found = 0
        for query in queries:
            scores = vectors @ query
            scores[~live] = -np.inf
            exact = set(np.argpartition(-scores, k - 1)[:k].tolist())
            candidates = self.candidates(query, k * OVERSAMPLE)
            best = candidates[np.argsort(-scores[candidates], kind="stable")[:k]]
            found += len(exact & set(best.tolist()))
        return found / (k * len(queries))

    def tune(self, slots: np.ndarray, vectors: np.ndarray) -> float:
        """Widen the beam (doubling it) until :meth:`recall` reaches :data:`MIN_RECALL`; returns the recall at the beam kept.

        The beam a graph needs grows with its size: over 100k e5-like vectors (near a
        32-d subspace) a beam of 128 found 0.950 of the exact top 10 and 256 found
        0.988, and a graph of a million needs more than one of a hundred thousand. One
        fixed beam either fails large libraries (searched exactly: slow) or walks small
        ones wider than they need. Stops at :data:`MAX_EXPANSION`, with the recall there.
        """
        while True:
            recall = self.recall(slots, vectors)
            if recall >= MIN_RECALL or self.expansion * 2 > MAX_EXPANSION:
                return recall
            self.expansion *= 2

    @property
    def size(self) -> int:
        return len(self.index)

    @property
    def nbytes(self) -> int:
        return int(self.index.memory_usage)

    @property
    def worn(self) -> bool:
        """True when removals (tombstones) or changes a view cannot take are enough that a fresh graph would search better."""
        return self.removed + len(self.pending or ()) > max(1_000, TOMBSTONE_FRACTION * self.size)

    def pending_slots(self) -> np.ndarray:
        """:attr:`pending` as a sorted array (empty for a graph in memory): the slots the owner must re-score itself."""
        if not self.pending:
            return np.empty(0, dtype=np.int64)
        if self._pending_array is None:
            self._pending_array = np.fromiter(sorted(self.pending), dtype=np.int64, count=len(self.pending))
        return self._pending_array

    def _defer(self, slots: np.ndarray) -> bool:
        """On a viewed graph, note the slots as pending instead of changing the graph (True when so)."""
        if self.pending is None:
            return False
        self.pending.update(np.asarray(slots, dtype=np.int64).tolist())
        self._pending_array = None
        return True

    def put(self, slots: np.ndarray, vectors: np.ndarray) -> None:
        """Set the vectors of these slots (replacing what a slot held)."""
        if not len(slots) or self._defer(slots):
            return
        self.drop(slots)
        self.index.add(np.asarray(slots, dtype=np.uint64), np.ascontiguousarray(vectors, dtype=np.float32), threads=1)

    def drop(self, slots: np.ndarray) -> None:
        if self._defer(slots):
            return
        keys = np.asarray(slots, dtype=np.uint64)
        present = keys[np.asarray(self.index.contains(keys), dtype=bool).reshape(-1)]
        if len(present):
            self.index.remove(present)
            self.removed += len(present)

    def candidates(self, query: np.ndarray, count: int) -> np.ndarray:
        """Slots of about the ``count`` nearest vectors (approximate, unordered for the caller's purpose)."""
        count = min(count, self.size)
        if count <= 0:
            return np.empty(0, dtype=np.int64)
        # usearch declares this setter apart from its getter, which mypy does not follow
        self.index.expansion_search = max(self.expansion, count)  # type: ignore[misc]
        return np.asarray(self.index.search(query, count, threads=1).keys, dtype=np.int64)

    def save(self, path: Path) -> None:
        self.index.save(str(path))
        with open(path, "rb+") as handle:
            os.fsync(handle.fileno())

    @classmethod
    def load(cls, path: Path, dim: int, size: int, removed: int, expansion: int | None,
             pending: Iterable[int] = ()) -> VectorGraph:
        """The saved graph as a memory-mapped view (with the beam it was tuned to and the slots changed since it was saved),
        checked to have this dimension and this many nodes (else ValueError).

        The file must stay in place while the graph is in use: the owner keeps it listed.
        """
        from usearch.index import Index  # see __init__

        index = Index.restore(str(path), view=True)
        if index is None or index.ndim != dim or len(index) != size:
            raise ValueError(f"graph {path.name} does not match its matrix")
        return cls(dim, index, removed, expansion, pending)


def _build_threads() -> int:
    """Leave one core to the app and the pipeline while a graph is built."""
    return max(1, (os.cpu_count() or 2) - 1)
