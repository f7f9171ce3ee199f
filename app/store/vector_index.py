"""An in-process copy of the stored vectors for fast KNN, kept beside the library database.

Why it exists: sqlite-vec answers a KNN by scanning its chunks (87 ms at 100k e5 vectors
against 6 ms for a numpy product over the same vectors in memory; issue 13). This index
holds every vector of one ``(vec table, model)`` as a matrix in memory and answers with
one matrix-vector product and a partial sort; the store's SQL then keeps only
candidates that a current item holds (SPEC §10), so the database stays the truth.

Design choices (measured on the development machine, numpy 2 with OpenBLAS):

- **float32, exact.** numpy has BLAS kernels for float32 only: a float16 matrix-vector
  product ran ~9× slower than float32 over the same 100k × 384 matrix, and int8 either
  overflows its int8 accumulator or needs a widening copy (int8→float32 in chunks was
  1.5–5× slower; widened to int16/int32 inside the product, 3×). A quantised matrix would therefore be slower *and* need an exact
  re-scoring pass; float32 is exact (recall 1.0, the same ranking as sqlite-vec) and as
  fast as brute force can be. The cost is memory: 4 × dim bytes per vector, 1.5 GB for
  1M e5 vectors plus 2 GB for 1M 512-d CLIP vectors. The matrices are memory-mapped
  copy-on-write from their files, so the operating system can share and page them.
- **A graph above 20k vectors.** The exact scan reads every vector per query: fine
  at 100k (~15 ms), but 1M e5 plus 1M CLIP vectors are 3.5 GB to stream per fused
  search. Each matrix of more than :data:`~app.store.vector_graph.THRESHOLD` rows also
  gets an HNSW graph (:mod:`app.store.vector_graph`, usearch) keyed by the matrix's
  slots, kept in step with every slot change; its candidates are re-scored exactly
  against the float32 rows, so the graph decides only which rows are looked at, never
  what a row holds or how near it is. Graphs are built in a background thread (half an hour
  at 1M on two cores) and the matrix answers exactly until one is ready; a graph that does not find
  :data:`~app.store.vector_graph.MIN_RECALL` of the exact top 10 on sample queries is
  not used. The float32 matrix stays: it is the re-scoring source and the fallback.
- **Kept in sync by a change counter.** The store's triggers (:data:`CHANGES_SCHEMA`)
  give every write of an image or cue row a new, increasing ``seq`` in
  ``search_vector_changes``, in the same transaction as the vectors. The index
  remembers the ``seq`` it reflects; before answering inside a read transaction it
  re-reads only the rows changed since (a few point lookups), so a search after a write
  sees the write, and a write that rolled back (a crash) is never seen. An index newer
  than the reader's snapshot (another thread synced with a later one) does not answer:
  the caller uses the exact SQL path for that query.
- **Persisted, never trusted.** The matrices (``np.save``) and graphs (usearch's file)
  are saved with the database's ``epoch`` (a random id made with its schema) and
  ``seq`` in a folder beside the database, written to fresh file names and published
  by an atomic manifest replace. A
  missing, unreadable, inconsistent or foreign file (another database's epoch, a ``seq``
  ahead of the database) is rebuilt from the vec tables; a missing or damaged graph is
  built again from its matrix; the saved state only saves the start-up work. Saves
  keep slots where they are (the graph's keys) and rewrite only what changed.
- **Backend-neutral.** Everything here is numpy over rows read through SQLAlchemy. The
  SQLite specifics (the vec0 ``rowid`` column, finding the lazily created visual tables)
  are in :class:`VectorRows`; a PostgreSQL library reads through
  :class:`app.store.search_postgres.PostgresVectorRows`.

Every vector must be written through :mod:`app.store.search_writes`, whose base-row
writes fire the change triggers (vec0 virtual tables cannot carry triggers).

The module is about 550 lines because the matrix, its graph's upkeep, its sync protocol
and its files are one unit: each part is only correct together with the others.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import re
import threading
import uuid
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

import numpy as np
from sqlalchemy import Connection, Engine, text
from threadpoolctl import threadpool_limits

from app.store import vector_graph
from app.store.dialect import is_sqlite
from app.store.vector_graph import BuildStopped, VectorGraph

log = logging.getLogger(__name__)

CHANGES_TABLE = "search_vector_changes"
FORMAT = 2
MANIFEST = "manifest.json"
GRAPH_SUFFIX = ".usearch"
BUILD_CHUNK = 20_000
REBUILD_FRACTION = 0.25
"""Past this share of changed rows a full rebuild (one scan) beats point lookups."""
SAVE_EVERY = 1_000
"""Changes applied since the last save before the files are rewritten (a restart replays fewer)."""

def change_triggers(kind: str, table: str) -> list[str]:
    """SQLite triggers that give every write of a row of ``table`` a new ``seq`` of ``kind`` (its vectors changed)."""
    return [
        f"""CREATE TRIGGER search_{kind}_vectors_{event.lower()} AFTER {event} ON {table}
            BEGIN INSERT OR REPLACE INTO search_vector_changes (kind, row_id, seq)
                  VALUES ('{kind}', {row}.id, (SELECT coalesce(max(seq), 0) + 1 FROM search_vector_changes)); END"""
        for event, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD"))
    ]


CHANGES_SCHEMA: list[str] = [
    """CREATE TABLE search_vector_changes (
        kind TEXT NOT NULL, row_id INTEGER NOT NULL, seq INTEGER NOT NULL,
        PRIMARY KEY (kind, row_id))""",
    "CREATE INDEX search_vector_changes_seq ON search_vector_changes(seq)",
    "CREATE TABLE search_vector_epoch (id INTEGER PRIMARY KEY CHECK (id = 1), epoch TEXT NOT NULL)",
    "INSERT INTO search_vector_epoch (id, epoch) VALUES (1, lower(hex(randomblob(16))))",
    *change_triggers("image", "search_image"),
    *change_triggers("cue", "search_cue"),
]
"""Migration: one row per changed image or cue (its latest ``seq``), and the database's epoch (passages: revision 0006)."""

_VISUAL = re.compile(r"^search_visual_vec_(\d+)$")


class VectorRows:
    """Where the vectors live in a SQLite library (vec0 tables keyed by ``rowid``)."""

    def state(self, conn: Connection) -> tuple[str, int] | None:
        """``(epoch, seq)`` of the database, or None where it has no change counter (then use SQL)."""
        names = {
            row[0]
            for row in conn.execute(
                text("SELECT name FROM sqlite_master WHERE name IN ('search_vector_changes', 'search_vector_epoch')")
            )
        }
        if len(names) < 2:
            return None
        epoch = conn.execute(text("SELECT epoch FROM search_vector_epoch WHERE id = 1")).scalar()
        seq = conn.execute(text(f"SELECT coalesce(max(seq), 0) FROM {CHANGES_TABLE}")).scalar()
        return (str(epoch), int(seq or 0)) if epoch else None

    def visual_names(self, conn: Connection) -> list[str]:
        """Names of the CLIP vector tables created so far (one per dimension)."""
        return list(conn.execute(text("SELECT name FROM sqlite_master WHERE name LIKE 'search_visual_vec_%'")).scalars())

    def tables(self, conn: Connection) -> dict[str, tuple[str, int]]:
        """``table → (kind, dim)`` of every vec table there is (the visual ones appear lazily)."""
        found = {"search_image_text_vec": ("image", 384), "search_cue_text_vec": ("cue", 384),
                 "search_image_passage_vec": ("passage", 384)}
        for name in self.visual_names(conn):
            match = _VISUAL.match(name)
            if match:
                found[name] = ("image", int(match.group(1)))
        return found

    def changed(self, conn: Connection, since: int) -> dict[str, list[int]]:
        """``kind → row ids`` written (inserted, replaced or deleted) after ``seq`` ``since``."""
        out: dict[str, list[int]] = {}
        for kind, row_id in conn.execute(
            text(f"SELECT kind, row_id FROM {CHANGES_TABLE} WHERE seq > :since"), {"since": since}
        ):
            out.setdefault(kind, []).append(int(row_id))
        return out

    def count(self, conn: Connection, table: str) -> int:
        return int(conn.execute(text(f"SELECT count(*) FROM {table}")).scalar() or 0)

    def scan(self, conn: Connection, table: str) -> Iterator[list[tuple[int, str, bytes]]]:
        """Every ``(id, model, float32 blob)`` of ``table``, in chunks."""
        result = conn.execute(text(f"SELECT rowid, model, embedding FROM {table}"))
        while chunk := result.fetchmany(BUILD_CHUNK):
            yield [(int(r[0]), r[1], r[2]) for r in chunk]

    def fetch(self, conn: Connection, table: str, ids: Iterable[int]) -> list[tuple[int, str, bytes]]:
        """The rows of these ids that exist (one point lookup each: vec0 scans for ``rowid IN``)."""
        query = text(f"SELECT rowid, model, embedding FROM {table} WHERE rowid = :id")
        rows = []
        for row_id in ids:
            row = conn.execute(query, {"id": row_id}).first()
            if row is not None:
                rows.append((int(row[0]), row[1], row[2]))
        return rows


@dataclass
class _Matrix:
    """The unit vectors of one ``(table, model)``; ``ids[i] == -1`` marks a free slot.

    ``graph`` (large matrices only) is kept in step with every change of a slot;
    ``journal`` collects the slots changed while a new graph is built off the lock.
    ``files`` and ``graph_file`` name the saved copies while they still hold.
    """

    dim: int
    ids: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    vectors: np.ndarray = field(default_factory=lambda: np.empty((0, 0), dtype=np.float32))
    _slots: dict[int, int] | None = None
    graph: VectorGraph | None = None
    journal: set[int] | None = None
    graph_failed: bool = False
    files: dict[str, str] | None = None
    graph_file: str | None = None

    def __post_init__(self) -> None:
        if not len(self.vectors):
            self.vectors = np.empty((0, self.dim), dtype=np.float32)

    @property
    def size(self) -> int:
        """Rows held (free slots excluded)."""
        return int(np.count_nonzero(self.ids >= 0))

    @property
    def nbytes(self) -> int:
        return self.vectors.nbytes + self.ids.nbytes + (self.graph.nbytes if self.graph else 0)

    def slots(self) -> dict[int, int]:
        """id → row, built on the first change (a search alone never needs it)."""
        if self._slots is None:
            self._slots = {int(i): n for n, i in enumerate(self.ids.tolist()) if i >= 0}
        return self._slots

    def remove(self, ids: Iterable[int]) -> None:
        slots = self.slots()
        freed = [at for at in (slots.pop(row_id, None) for row_id in ids) if at is not None]
        if freed:
            self.ids[freed] = -1
            self._changed(np.asarray(freed, dtype=np.int64))
            if self.graph is not None:
                self.graph.drop(np.asarray(freed, dtype=np.int64))

    def add(self, ids: list[int], vectors: np.ndarray) -> None:
        """Put rows in free slots first, then append (growing the capacity by a quarter, so appends stay cheap)."""
        free = np.flatnonzero(self.ids < 0)[: len(ids)]
        needed = len(ids) - len(free)
        if needed > 0:
            old = len(self.ids)
            grown = old + max(needed, old // 4, 64)  # a quarter more: doubling a 1M matrix would take 1.5 GB more at once
            ids_grown = np.full(grown, -1, dtype=np.int64)
            ids_grown[:old] = self.ids
            vectors_grown = np.zeros((grown, self.dim), dtype=np.float32)
            vectors_grown[:old] = self.vectors
            self.ids, self.vectors = ids_grown, vectors_grown
            free = np.concatenate([free, np.arange(old, old + needed)])
        self.ids[free] = ids
        self.vectors[free] = vectors
        if self._slots is not None:
            self._slots.update(zip(ids, free.tolist()))
        self._changed(free)
        if self.graph is not None:
            self.graph.put(free, vectors)

    def _changed(self, slots: np.ndarray) -> None:
        self.files = None
        if self.graph is None or self.graph.pending is None:
            self.graph_file = None  # changed in place: saved again; a viewed graph's file stays, with its pending slots
        if self.journal is not None:
            self.journal.update(slots.tolist())

    def compact(self) -> None:
        """Drop free slots and spare capacity (after a build, whose appends over-allocate; before any graph)."""
        keep = self.ids >= 0
        self.ids, self.vectors, self._slots = self.ids[keep], self.vectors[keep], None

    def nearest(self, query: np.ndarray, fetch: int) -> list[tuple[int, float]]:
        """The ``fetch`` nearest rows as ``(id, cosine distance)``, nearest first, ties by id.

        With a graph, its candidates are re-scored exactly; without one (or when the
        query wants a large share of the rows) every row is scored.
        """
        live = self.size
        fetch = min(fetch, live)
        if fetch <= 0:
            return []
        wanted = fetch * vector_graph.OVERSAMPLE
        if self.graph is not None and wanted <= vector_graph.EXACT_SHARE * live:
            slots = self.graph.candidates(query, wanted)
            pending = self.graph.pending_slots()
            if len(pending):  # changed since a viewed graph was saved: the graph may not find them
                slots = np.union1d(slots, pending)
            slots = slots[slots < len(self.ids)]  # a viewed graph keeps nodes of trailing slots freed and not saved
            slots = slots[self.ids[slots] >= 0]
            scores = self.vectors[slots] @ query
        else:
            slots = None
            scores = self.vectors @ query
            if live < len(scores):
                scores[self.ids < 0] = -np.inf
        fetch = min(fetch, len(scores))
        if fetch <= 0:
            return []
        top = np.argpartition(-scores, fetch - 1)[:fetch] if fetch < len(scores) else np.arange(len(scores))
        rows = top if slots is None else slots[top]
        found = [(int(self.ids[r]), float(1.0 - scores[t])) for r, t in zip(rows, top) if self.ids[r] >= 0]
        found.sort(key=lambda pair: (pair[1], pair[0]))
        return found

    def end(self) -> int:
        """One past the last slot in use: what a save keeps (slots are the graph's keys, so they are not renumbered)."""
        used = np.flatnonzero(self.ids >= 0)
        return int(used[-1]) + 1 if len(used) else 0


def _unit_rows(blobs: list[bytes], dim: int) -> np.ndarray:
    matrix = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), dim)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)


def scan_nearest(
    conn: Connection, rows: VectorRows, table: str, dim: int, model: str, vector: np.ndarray, fetch: int
) -> tuple[list[tuple[int, float]], int]:
    """What :meth:`VectorIndex.nearest` answers, from a fresh read of ``table`` in ``conn``'s snapshot.

    For a database without another exact KNN (PostgreSQL without pgvector) when the
    shared index cannot answer for this snapshot, and for ``exact`` queries there.
    """
    matrix = _Matrix(dim)
    for chunk in rows.scan(conn, table):
        found = [(row_id, blob) for row_id, row_model, blob in chunk if row_model == model]
        if found:
            matrix.add([row_id for row_id, _ in found], _unit_rows([blob for _, blob in found], dim))
    return matrix.nearest(_unit_query(vector), fetch), matrix.size


def _unit_query(vector: np.ndarray) -> np.ndarray:
    query = np.asarray(vector, dtype=np.float32).reshape(-1)
    norm = float(np.linalg.norm(query))
    return query / norm if norm > 0 else query


class VectorIndex:
    """The vectors of one database, synced to its change counter; thread-safe.

    ``folder`` is where the matrices are saved (None keeps them in memory only).
    """

    def __init__(self, folder: Path | None, rows: VectorRows | None = None):
        self.folder = folder
        self.rows = rows or VectorRows()
        self._lock = threading.Lock()
        self._matrices: dict[tuple[str, str], _Matrix] = {}
        self._epoch: str | None = None
        self._seq = -1
        self._loaded = False
        self._unsaved = 0
        self._growing: list[threading.Thread] = []

    @property
    def nbytes(self) -> int:
        """Memory the matrices (vectors and ids) and their graphs take, for the bench's report."""
        with self._lock:
            return sum(m.nbytes for m in self._matrices.values())

    def graph_sizes(self) -> dict[tuple[str, str], int]:
        """Vectors in the graph of each ``(table, model)`` that has one in use (the rest are scanned exactly)."""
        with self._lock:
            return {key: m.graph.size for key, m in self._matrices.items() if m.graph is not None}

    def graph_beams(self) -> dict[tuple[str, str], int]:
        """The beam each graph in use was tuned to (:meth:`~app.store.vector_graph.VectorGraph.tune`), for the bench's report."""
        with self._lock:
            return {key: m.graph.expansion for key, m in self._matrices.items() if m.graph is not None}

    def graph_pending(self) -> dict[tuple[str, str], int | None]:
        """Per graph in use: slots changed since its viewed file was saved (None: a graph in memory, changed in place)."""
        with self._lock:
            return {key: None if m.graph.pending is None else len(m.graph.pending)
                    for key, m in self._matrices.items() if m.graph is not None}

    def nearest(
        self, conn: Connection, table: str, model: str, vector: np.ndarray, fetch: int
    ) -> tuple[list[tuple[int, float]], int] | None:
        """``([(row id, cosine distance)], rows of this model)`` nearest first, as of ``conn``'s snapshot.

        None when the index cannot answer for this snapshot (no change counter, or
        the index already reflects a later one); the caller then asks SQL.
        """
        state = self.rows.state(conn)
        if state is None:
            return None
        query = _unit_query(vector)
        with self._lock:
            if not self._sync(conn, *state):
                return None
            self._plan_graphs()
            matrix = self._matrices.get((table, model))
            if matrix is None or matrix.dim != query.shape[0]:
                return [], 0
            return matrix.nearest(query, fetch), matrix.size

    # ------------------------------------------------------------------ sync

    def _sync(self, conn: Connection, epoch: str, seq: int) -> bool:
        if not self._loaded:
            self._loaded = True
            self._load(epoch, seq)
        if self._epoch != epoch:
            self._build(conn, epoch, seq)
        elif self._seq > seq:
            return False
        elif self._seq < seq:
            try:
                self._apply(conn, epoch, seq)
            except BaseException:
                self._forget()  # half-applied: never answer from it; the next call rebuilds
                raise
        return True

    def _forget(self) -> None:
        self._matrices, self._epoch, self._seq = {}, None, -1

    def _build(self, conn: Connection, epoch: str, seq: int) -> None:
        self._matrices = {}
        for table, (_kind, dim) in self.rows.tables(conn).items():
            for chunk in self.rows.scan(conn, table):
                self._add_rows(table, dim, chunk)
        for matrix in self._matrices.values():
            matrix.compact()
        self._epoch, self._seq = epoch, seq
        log.info("vector index built: %d vectors at change %d", sum(m.size for m in self._matrices.values()), seq)
        self._save()

    def _add_rows(self, table: str, dim: int, rows: list[tuple[int, str, bytes]]) -> None:
        by_model: dict[str, list[tuple[int, bytes]]] = {}
        for row_id, model, blob in rows:
            by_model.setdefault(model, []).append((row_id, blob))
        for model, found in by_model.items():
            matrix = self._matrices.setdefault((table, model), _Matrix(dim))
            matrix.add([row_id for row_id, _ in found], _unit_rows([blob for _, blob in found], dim))

    def _apply(self, conn: Connection, epoch: str, seq: int) -> None:
        changed = self.rows.changed(conn, self._seq)
        total = sum(m.size for m in self._matrices.values())
        if sum(len(ids) for ids in changed.values()) > max(BUILD_CHUNK, REBUILD_FRACTION * total):
            self._build(conn, epoch, seq)
            return
        for table, (kind, dim) in self.rows.tables(conn).items():
            ids = changed.get(kind)
            if not ids:
                continue
            for (name, _model), matrix in self._matrices.items():
                if name == table:
                    matrix.remove(ids)
            self._add_rows(table, dim, self.rows.fetch(conn, table, ids))
        self._seq = seq
        self._unsaved += sum(len(ids) for ids in changed.values())
        if self._unsaved >= SAVE_EVERY:
            self._save()

    # ------------------------------------------------------------------ graphs

    def _plan_graphs(self) -> None:
        """Start building a graph for each large matrix that has none (or a worn one) and is not building one."""
        for key, matrix in self._matrices.items():
            if matrix.journal is not None or matrix.graph_failed or matrix.size < vector_graph.THRESHOLD:
                continue
            if matrix.graph is None or matrix.graph.worn:
                matrix.journal = set()
                thread = threading.Thread(target=self._grow_graph, args=(key, matrix), name="vector-graph", daemon=True)
                self._growing.append(thread)
                with _BUILDERS_LOCK:
                    _BUILDERS.add(thread)
                thread.start()

    def _grow_graph(self, key: tuple[str, str], matrix: _Matrix) -> None:
        """Build a graph of ``matrix`` without the lock, then catch it up with the slots changed meanwhile.

        Rows are read while other threads may rewrite them; every slot written since the
        journal opened is in it and is set again from the matrix under the lock.
        """
        try:
            with self._lock:
                slots = np.flatnonzero(matrix.ids >= 0)
                vectors = matrix.vectors
            try:
                graph = VectorGraph.build(matrix.dim, slots, vectors, stop=_EXITING)
            except BuildStopped:
                with self._lock:
                    matrix.journal = None  # the process is exiting: the next one builds it
                return
            recall = graph.tune(slots, vectors)
            with self._lock:
                if self._matrices.get(key) is not matrix:
                    return  # rebuilt or forgotten meanwhile
                changed = np.fromiter(sorted(matrix.journal or ()), dtype=np.int64)
                matrix.journal = None
                if recall < vector_graph.MIN_RECALL:
                    log.warning("vector graph of %s/%s finds %.2f of the exact top 10; searching exactly", *key, recall)
                    matrix.graph_failed = True
                    return
                graph.drop(changed)
                live = changed[matrix.ids[changed] >= 0] if len(changed) else changed
                graph.put(live, matrix.vectors[live])
                graph.removed = 0
                matrix.graph, matrix.graph_file = graph, None
                log.info("vector graph of %s/%s built: %d vectors, recall@10 %.3f at a beam of %d", *key, graph.size,
                         recall, graph.expansion)
                self._save()
        except Exception:  # a failed graph costs speed, never answers: search stays exact
            log.warning("could not build the vector graph of %s/%s; searching exactly", *key, exc_info=True)
            with self._lock:
                matrix.journal, matrix.graph_failed = None, True

    def wait_for_graphs(self, timeout: float | None = None) -> None:
        """Block until the graphs being built are in use (tests and the bench; the app never waits)."""
        while self._growing:
            self._growing.pop().join(timeout)

    # ------------------------------------------------------------------ files

    def _save(self) -> None:
        """Write the matrices under fresh names, then publish them by replacing the manifest."""
        self._unsaved = 0
        folder = self.folder
        if folder is None:
            return
        try:
            folder.mkdir(parents=True, exist_ok=True)
            token = uuid.uuid4().hex[:12]
            entries: list[dict[str, Any]] = []
            for n, ((table, model), matrix) in enumerate(self._matrices.items()):
                if matrix.files is None:
                    end = matrix.end()
                    names = {part: f"{token}-{n}-{part}.npy" for part in ("ids", "vectors")}
                    self._write_array(folder, names["ids"], matrix.ids[:end])
                    self._write_array(folder, names["vectors"], matrix.vectors[:end])
                    matrix.files = names
                if matrix.graph is not None and matrix.graph_file is None:
                    name = f"{token}-{n}-graph{GRAPH_SUFFIX}"
                    matrix.graph.save(folder / name)
                    matrix.graph_file = name
                graph = ({"graph": matrix.graph_file, "removed": matrix.graph.removed, "expansion": matrix.graph.expansion,
                          "graph_size": matrix.graph.size, "pending": matrix.graph.pending_slots().tolist()}
                         if matrix.graph is not None else {})
                entries.append({"table": table, "model": model, "dim": matrix.dim, **matrix.files, **graph})
            manifest = {"format": FORMAT, "epoch": self._epoch, "seq": self._seq, "matrices": entries}
            temporary = folder / f"{MANIFEST}.{token}.tmp"
            with open(temporary, "w", encoding="utf-8") as handle:
                json.dump(manifest, handle)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, folder / MANIFEST)
            self._remove_unlisted(folder, {e[part] for e in entries for part in ("ids", "vectors", "graph") if part in e})
        except OSError:
            log.warning("could not save the vector index in %s; it is rebuilt at the next start", self.folder,
                        exc_info=True)

    @staticmethod
    def _write_array(folder: Path, name: str, array: np.ndarray) -> None:
        with open(folder / name, "wb") as handle:
            np.save(handle, np.ascontiguousarray(array), allow_pickle=False)
            handle.flush()
            os.fsync(handle.fileno())

    @staticmethod
    def _remove_unlisted(folder: Path, keep: set[str]) -> None:
        for path in folder.iterdir():
            if path.name != MANIFEST and path.name not in keep and path.suffix in (".npy", ".tmp", GRAPH_SUFFIX):
                try:
                    path.unlink()
                except OSError:  # mapped by another process (Windows): removed by a later save
                    pass

    def _load(self, epoch: str, seq: int) -> None:
        """Take the saved matrices when they belong to this database and are not ahead of it."""
        if self.folder is None or not (self.folder / MANIFEST).exists():
            return
        try:
            manifest = json.loads((self.folder / MANIFEST).read_text(encoding="utf-8"))
            if manifest.get("format") != FORMAT or manifest.get("epoch") != epoch or int(manifest["seq"]) > seq:
                log.info("vector index file is for another state of the library; rebuilding")
                return
            matrices = {}
            for entry in manifest["matrices"]:
                dim = int(entry["dim"])
                ids = np.load(self.folder / entry["ids"], mmap_mode="c", allow_pickle=False)
                vectors = np.load(self.folder / entry["vectors"], mmap_mode="c", allow_pickle=False)
                if ids.dtype != np.int64 or vectors.dtype != np.float32 or vectors.shape != (len(ids), dim):
                    raise ValueError(f"matrix {entry['table']}/{entry['model']} has the wrong shape")
                matrix = _Matrix(dim, ids, vectors, files={"ids": entry["ids"], "vectors": entry["vectors"]})
                if entry.get("graph"):
                    matrix.graph = self._load_graph(entry, matrix)
                    matrix.graph_file = entry["graph"] if matrix.graph is not None else None
                matrices[(str(entry["table"]), str(entry["model"]))] = matrix
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.warning("vector index file unreadable (%s); rebuilding from the database", error)
            return
        self._matrices, self._epoch, self._seq = matrices, epoch, int(manifest["seq"])

    def _load_graph(self, entry: dict, matrix: _Matrix) -> VectorGraph | None:
        """The saved graph of a matrix, or None (it is built again) when it is missing or does not match."""
        try:
            return VectorGraph.load(self.folder / entry["graph"], matrix.dim, int(entry.get("graph_size", matrix.size)),
                                    int(entry.get("removed", 0)), entry.get("expansion"),
                                    [int(slot) for slot in entry.get("pending", [])])
        except (OSError, ValueError, RuntimeError) as error:
            log.warning("vector graph file unreadable (%s); building it again", error)
            return None


def _one_blas_thread() -> None:
    """Run this process's BLAS on one thread: the matrix-vector product is bound by memory, not cores.

    OpenBLAS's worker threads spin for a while after each product, and on two cores
    they took the CPU from the SQL that follows: the keyword part of a fused search
    ran 2× slower after the KNN parts than alone (``bench/search.py`` at 10k, fused
    search ~200 → ~100 ms), while one thread scans the matrix as fast as two. Models
    run in spawned child processes, which start with their own BLAS threads.
    """
    threadpool_limits(1, user_api="blas")


_INDEXES: weakref.WeakKeyDictionary[Engine, VectorIndex] = weakref.WeakKeyDictionary()
_EXITING = threading.Event()
_BUILDERS: weakref.WeakSet[threading.Thread] = weakref.WeakSet()
_BUILDERS_LOCK = threading.Lock()


@atexit.register
def stop_builders(timeout: float = 120.0) -> None:
    """At exit: ask graph builds to stop and wait for the chunk each has in hand.

    Builders are daemon threads, so they never hold a process open; but one still inside
    usearch's native ``add`` when the interpreter ends aborts the process (SIGABRT, exit
    134: seen closing a 1M library mid-build, and a short ``sidecar search`` on a large
    library without saved graphs would do the same). atexit runs before daemon threads
    are stopped, so the build ends between two chunks and the process exits cleanly.
    """
    _EXITING.set()
    with _BUILDERS_LOCK:
        builders = list(_BUILDERS)
    for thread in builders:
        thread.join(timeout)
_INDEXES_LOCK = threading.Lock()


def index_folder(database: str | None) -> Path | None:
    """The folder beside a database file where its index is saved (None for an in-memory one)."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    path = Path(database)
    return path.with_name(path.name + "-vectors")


def index_for(conn: Connection, rows: VectorRows | None = None) -> VectorIndex:
    """The one index of ``conn``'s database in this process (made on first use, reading through ``rows``).

    Only a SQLite library's index is saved beside its file; a server's is rebuilt by
    each process from the server at its first search.
    """
    engine = conn.engine
    with _INDEXES_LOCK:
        index = _INDEXES.get(engine)
        if index is None:
            _one_blas_thread()
            index = VectorIndex(index_folder(engine.url.database) if is_sqlite(engine) else None, rows)
            _INDEXES[engine] = index
        return index
