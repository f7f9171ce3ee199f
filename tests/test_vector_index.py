"""The in-process vector index answers KNN exactly as sqlite-vec does, sees every write, and never serves stale content.

Real SQLite files with sqlite-vec; random unit vectors (the index does not care where
vectors come from; tests/test_search_index.py runs it with the real e5 model).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import threadpoolctl
from sqlalchemy import text

from app.store import search_queries, search_writes, vector_graph, vector_index
from tests.search_db import CURRENT, make_engine, open_engine, set_item

E5, CLIP = "e5-test", "clip-test"


def _units(rng, n, dim):
    m = rng.standard_normal((n, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def _fill(engine, n=300, seed=0, cues_per_video=5):
    """n images (e5 + CLIP vectors), two thirds held by a current item; videos with cues; a second e5 model."""
    rng = np.random.default_rng(seed)
    text_vecs, visual_vecs = _units(rng, n, 384), _units(rng, n, 16)
    with engine.begin() as conn:
        for i in range(n):
            sha = f"img-{i:04d}"
            if i % 3:
                set_item(conn, f"/photos/{i}.jpg", sha)
            search_writes.upsert_image(conn, sha, text_model=E5 if i % 7 else "other-e5", text_vector=text_vecs[i],
                                       document=f"photo {i}", visual_model=CLIP, visual_vector=visual_vecs[i])
        for v in range(20):
            sha = f"vid-{v:02d}"
            if v % 2:
                set_item(conn, f"/videos/{v}.mp4", sha)
            cues = [(c, c + 1.0, f"line {c} of {v}", "en") for c in range(cues_per_video)]
            search_writes.upsert_dialogue(conn, f"/videos/{v}.mp4", sha, cues, _units(rng, cues_per_video, 384),
                                          text_model=E5)
    return rng


def _answers(conn, queries_text, queries_visual, *, exact):
    """``(keys, distances)`` of many KNN calls: which hits, in which order, and how near."""
    keys, distances = [], []

    def add(hits, key):
        keys.append([key(h) for h in hits])
        distances.extend(h.score for h in hits)

    for q in queries_text:
        for k in (1, 10, 50):
            add(search_queries.knn_text(conn, q, model=E5, k=k, current=CURRENT, exact=exact), lambda h: (h.sha256, h.path))
            add(search_queries.knn_text(conn, q, model=E5, kind="cue", k=k, current=CURRENT, exact=exact),
                lambda h: (h.cue_id, h.path, h.start))
        add(search_queries.knn_text(conn, q, model=E5, k=10, exact=exact), lambda h: h.sha256)
    for q in queries_visual:
        add(search_queries.knn_visual(conn, q, model=CLIP, k=20, current=CURRENT, exact=exact), lambda h: (h.sha256, h.path))
    return keys, np.array(distances)


def test_fast_path_returns_what_sqlite_vec_returns(tmp_path):
    engine = make_engine(tmp_path / "library.db")
    rng = _fill(engine)
    queries_text, queries_visual = _units(rng, 8, 384), _units(rng, 8, 16)
    with engine.connect() as conn:
        fast = _answers(conn, queries_text, queries_visual, exact=False)
        exact = _answers(conn, queries_text, queries_visual, exact=True)
        assert vector_index.index_for(conn).nbytes > 0  # the fast path answered, not a fallback
    assert fast[0] == exact[0]
    np.testing.assert_allclose(fast[1], exact[1], atol=1e-5)
    assert all(fast[0]) and any(len(a) == 50 for a in fast[0])


def test_a_write_is_seen_by_the_next_search_and_old_content_never(tmp_path):
    engine = make_engine(tmp_path / "library.db")
    rng = _fill(engine, n=60)
    query = _units(rng, 1, 384)[0]
    with engine.connect() as conn:
        before = search_queries.knn_text(conn, query, model=E5, k=5, current=CURRENT)
    assert before and all(h.sha256 != "edited" for h in before)
    target = before[0]
    # The file is edited: its path now holds new content whose vector is the query itself.
    with engine.begin() as conn:
        set_item(conn, target.path, "edited")
        search_writes.upsert_image(conn, "edited", text_model=E5, text_vector=query, document="edited photo")
    with engine.connect() as conn:
        after = search_queries.knn_text(conn, query, model=E5, k=5, current=CURRENT)
        assert after[0].sha256 == "edited" and after[0].score == pytest.approx(0.0, abs=1e-6)
        assert target.sha256 not in [h.sha256 for h in after]
    # A write that rolls back (a crash mid-transaction) is never seen.
    with pytest.raises(RuntimeError), engine.begin() as conn:
        search_writes.upsert_image(conn, "edited", text_model=E5, text_vector=-query, document="never committed")
        raise RuntimeError("crash")
    with engine.connect() as conn:
        assert search_queries.knn_text(conn, query, model=E5, k=1, current=CURRENT)[0].sha256 == "edited"
    with engine.begin() as conn:
        search_writes.delete_for_sha256(conn, "edited")
        set_item(conn, target.path, "gone")  # an orphan cleanup plus a path whose content is no longer indexed
    with engine.connect() as conn:
        shas = [h.sha256 for h in search_queries.knn_text(conn, query, model=E5, k=50, current=CURRENT)]
        assert "edited" not in shas and target.sha256 not in shas
        assert shas == [h.sha256 for h in search_queries.knn_text(conn, query, model=E5, k=50, current=CURRENT, exact=True)]


def test_after_a_restart_the_saved_index_catches_up_with_writes_made_since(tmp_path):
    path = tmp_path / "library.db"
    engine = make_engine(path)
    rng = _fill(engine, n=60)
    query = _units(rng, 1, 384)[0]
    with engine.connect() as conn:
        target = search_queries.knn_text(conn, query, model=E5, k=1, current=CURRENT)[0]
    folder = vector_index.index_folder(str(path))
    saved = json.loads((folder / vector_index.MANIFEST).read_text())
    # Another process edits the library while this one is closed.
    engine.dispose()
    writer = open_engine(path)
    with writer.begin() as conn:
        set_item(conn, target.path, "edited")
        search_writes.upsert_image(conn, "edited", text_model=E5, text_vector=-query, document="edited photo")
    writer.dispose()
    restarted = open_engine(path)
    with restarted.connect() as conn:
        hits = search_queries.knn_text(conn, query, model=E5, k=200, current=CURRENT)
    shas = [h.sha256 for h in hits]
    assert target.sha256 not in shas and shas[-1] == "edited"
    # It loaded the saved state and applied the one change (a rebuild would have saved anew).
    assert json.loads((folder / vector_index.MANIFEST).read_text())["seq"] == saved["seq"]


@pytest.mark.parametrize("damage", ["delete", "truncate", "garbage_manifest", "foreign_epoch"])
def test_a_missing_or_damaged_index_file_is_rebuilt_from_the_database(tmp_path, damage):
    path = tmp_path / "library.db"
    engine = make_engine(path)
    rng = _fill(engine, n=80)
    queries = _units(rng, 3, 384)
    with engine.connect() as conn:
        expected = [[h.sha256 for h in search_queries.knn_text(conn, q, model=E5, k=10, current=CURRENT, exact=True)]
                    for q in queries]
        search_queries.knn_text(conn, queries[0], model=E5, current=CURRENT)
    engine.dispose()
    folder = vector_index.index_folder(str(path))
    manifest = json.loads((folder / vector_index.MANIFEST).read_text())
    if damage == "delete":
        for file in folder.iterdir():
            file.unlink()
        folder.rmdir()
    elif damage == "truncate":
        for entry in manifest["matrices"]:
            (folder / entry["vectors"]).write_bytes((folder / entry["vectors"]).read_bytes()[:200])
    elif damage == "garbage_manifest":
        (folder / vector_index.MANIFEST).write_text("{not json")
    else:
        # A library whose vectors file belongs to another database: same seq, wrong vectors.
        for entry in manifest["matrices"]:
            np.save(folder / entry["vectors"], _units(rng, len(np.load(folder / entry["ids"])), entry["dim"]))
        (folder / vector_index.MANIFEST).write_text(json.dumps({**manifest, "epoch": "0" * 32}))
    restarted = open_engine(path)
    with restarted.connect() as conn:
        got = [[h.sha256 for h in search_queries.knn_text(conn, q, model=E5, k=10, current=CURRENT)] for q in queries]
        epoch = conn.execute(text("SELECT epoch FROM search_vector_epoch")).scalar()
    assert got == expected
    rebuilt = json.loads((folder / vector_index.MANIFEST).read_text())
    assert rebuilt["epoch"] == epoch and rebuilt["matrices"]
    assert {e["vectors"] for e in rebuilt["matrices"]}.isdisjoint({e["vectors"] for e in manifest["matrices"]})


@pytest.fixture
def graph_everywhere(monkeypatch):
    """Every matrix gets a graph and every query walks it, exhaustively at this size: results must be the exact ones."""
    monkeypatch.setattr(vector_graph, "THRESHOLD", 10)
    monkeypatch.setattr(vector_graph, "EXACT_SHARE", 1.0)
    monkeypatch.setattr(vector_graph, "EXPANSION_SEARCH", 2_000)
    monkeypatch.setattr(vector_graph, "MIN_RECALL", 0.0)


def _warm_graphs(engine, query):
    """Start the graph builds (a first search), wait for them, and return the index."""
    with engine.connect() as conn:
        search_queries.knn_text(conn, query, model=E5, k=1, current=CURRENT)
        index = vector_index.index_for(conn)
    index.wait_for_graphs()
    return index


def test_graph_path_returns_what_the_exact_path_returns(tmp_path, graph_everywhere):
    engine = make_engine(tmp_path / "library.db")
    rng = _fill(engine)
    queries_text, queries_visual = _units(rng, 8, 384), _units(rng, 8, 16)
    index = _warm_graphs(engine, queries_text[0])
    assert set(index.graph_sizes()) >= {("search_image_text_vec", E5), ("search_cue_text_vec", E5),
                                        ("search_visual_vec_16", CLIP)}
    with engine.connect() as conn:
        fast = _answers(conn, queries_text, queries_visual, exact=False)
        exact = _answers(conn, queries_text, queries_visual, exact=True)
    assert fast[0] == exact[0]
    np.testing.assert_allclose(fast[1], exact[1], atol=1e-5)


def test_with_a_graph_an_edit_is_found_and_old_content_never_warm_and_after_a_restart(tmp_path, graph_everywhere):
    path = tmp_path / "library.db"
    engine = make_engine(path)
    rng = _fill(engine, n=120)
    query = _units(rng, 1, 384)[0]
    index = _warm_graphs(engine, query)
    with engine.connect() as conn:
        target = search_queries.knn_text(conn, query, model=E5, k=1, current=CURRENT)[0]
    with engine.begin() as conn:
        set_item(conn, target.path, "edited")
        search_writes.upsert_image(conn, "edited", text_model=E5, text_vector=-query, document="edited photo")
    with engine.connect() as conn:
        hits = search_queries.knn_text(conn, query, model=E5, k=200, current=CURRENT)
        assert index.graph_sizes()[("search_image_text_vec", E5)] == 103  # 120 images, 1 in 7 of another model, plus the edit: kept in step
    assert target.sha256 not in [h.sha256 for h in hits] and hits[-1].sha256 == "edited"
    with engine.begin() as conn:  # a second edit, not yet saved when the process ends
        search_writes.upsert_image(conn, "edited", text_model=E5, text_vector=query, document="edited again")
    engine.dispose()
    restarted = open_engine(path)
    with restarted.connect() as conn:
        hits = search_queries.knn_text(conn, query, model=E5, k=200, current=CURRENT)
        assert vector_index.index_for(conn).graph_sizes()  # the saved graph was loaded, not waited for
    assert hits[0].sha256 == "edited" and hits[0].score == pytest.approx(0.0, abs=1e-6)
    assert target.sha256 not in [h.sha256 for h in hits]


def test_a_write_made_while_the_graph_is_built_is_in_the_graph(tmp_path, graph_everywhere, monkeypatch):
    engine = make_engine(tmp_path / "library.db")
    rng = _fill(engine, n=60)
    query = _units(rng, 1, 384)[0]
    build = vector_graph.VectorGraph.build

    def build_then_write(dim, slots, vectors, stop=None):
        graph = build(dim, slots, vectors, stop)
        if dim == 384:
            with engine.begin() as conn:
                set_item(conn, "/photos/new.jpg", "new")
                search_writes.upsert_image(conn, "new", text_model=E5, text_vector=query, document="new photo")
            with engine.connect() as conn:  # the index catches up with the write while this graph is unfinished
                assert search_queries.knn_text(conn, query, model=E5, k=1, current=CURRENT)[0].sha256 == "new"
        return graph

    monkeypatch.setattr(vector_graph.VectorGraph, "build", staticmethod(build_then_write))
    index = _warm_graphs(engine, query)
    assert index.graph_sizes()[("search_image_text_vec", E5)] == 52  # 60 images, 1 in 7 of another model, plus the new one
    with engine.connect() as conn:
        assert search_queries.knn_text(conn, query, model=E5, k=1, current=CURRENT)[0].sha256 == "new"


@pytest.mark.parametrize("damage", ["delete", "garbage"])
def test_a_missing_or_damaged_graph_file_is_built_again(tmp_path, graph_everywhere, damage):
    path = tmp_path / "library.db"
    engine = make_engine(path)
    rng = _fill(engine, n=80)
    queries = _units(rng, 3, 384)
    _warm_graphs(engine, queries[0])
    with engine.connect() as conn:
        expected = [[h.sha256 for h in search_queries.knn_text(conn, q, model=E5, k=10, current=CURRENT, exact=True)]
                    for q in queries]
    engine.dispose()
    folder = vector_index.index_folder(str(path))
    manifest = json.loads((folder / vector_index.MANIFEST).read_text())
    graphs = {e["graph"] for e in manifest["matrices"]}
    assert len(graphs) == len(manifest["matrices"])
    for name in graphs:
        if damage == "delete":
            (folder / name).unlink()
        else:
            (folder / name).write_bytes(b"not a graph" * 50)
    restarted = open_engine(path)
    with restarted.connect() as conn:
        # Exact until the graphs are built again: the same answers either way.
        got = [[h.sha256 for h in search_queries.knn_text(conn, q, model=E5, k=10, current=CURRENT)] for q in queries]
        index = vector_index.index_for(conn)
    assert got == expected
    index.wait_for_graphs()
    rebuilt = json.loads((folder / vector_index.MANIFEST).read_text())
    assert all((folder / e["graph"]).exists() for e in rebuilt["matrices"])
    assert {e["graph"] for e in rebuilt["matrices"]}.isdisjoint(graphs)
    assert {e["vectors"] for e in rebuilt["matrices"]} == {e["vectors"] for e in manifest["matrices"]}  # only the graphs were written
    with restarted.connect() as conn:
        assert [[h.sha256 for h in search_queries.knn_text(conn, q, model=E5, k=10, current=CURRENT)]
                for q in queries] == expected


def test_a_graph_is_used_only_where_it_finds_the_exact_neighbours(monkeypatch):
    # A beam of just the candidates asked for: at 3000 vectors the walk misses as much as a wide one at 100k.
    monkeypatch.setattr(vector_graph, "EXPANSION_SEARCH", 1)
    rng = np.random.default_rng(3)
    slots = np.arange(3000)
    # Near a 16-d subspace, as embeddings are: the graph finds the exact top 10.
    structured = _units(rng, 3000, 16) @ rng.standard_normal((16, 384)).astype(np.float32)
    structured /= np.linalg.norm(structured, axis=1, keepdims=True)
    assert vector_graph.VectorGraph.build(384, slots, structured).recall(slots, structured) >= vector_graph.MIN_RECALL
    # Uniform on the sphere: every vector about as far as any other, and the walk misses.
    noise = _units(rng, 3000, 384)
    assert vector_graph.VectorGraph.build(384, slots, noise).recall(slots, noise) < vector_graph.MIN_RECALL


def test_a_graph_widens_its_beam_until_it_finds_the_exact_neighbours_and_keeps_it_after_a_restart(
        tmp_path, graph_everywhere, monkeypatch):
    # A beam of one asked for every one of the top 10: the first walk misses some, as a large library's would.
    monkeypatch.setattr(vector_graph, "EXPANSION_SEARCH", 1)
    monkeypatch.setattr(vector_graph, "MIN_RECALL", 1.0)
    path = tmp_path / "library.db"
    engine = make_engine(path)
    rng = _fill(engine)
    index = _warm_graphs(engine, _units(rng, 1, 384)[0])
    beams = index.graph_beams()
    assert 1 < beams[("search_image_text_vec", E5)] <= vector_graph.MAX_EXPANSION
    engine.dispose()
    restarted = open_engine(path)
    with restarted.connect() as conn:
        search_queries.knn_text(conn, _units(rng, 1, 384)[0], model=E5, k=1, current=CURRENT)
        assert vector_index.index_for(conn).graph_beams() == beams  # loaded with the graph, not tuned again


def test_a_graph_that_fails_its_recall_check_is_not_used(tmp_path, graph_everywhere, monkeypatch):
    monkeypatch.setattr(vector_graph, "MIN_RECALL", 1.01)
    engine = make_engine(tmp_path / "library.db")
    rng = _fill(engine, n=60)
    queries = _units(rng, 3, 384)
    index = _warm_graphs(engine, queries[0])
    assert index.graph_sizes() == {}
    with engine.connect() as conn:
        assert ([[h.sha256 for h in search_queries.knn_text(conn, q, model=E5, k=10, current=CURRENT)] for q in queries]
                == [[h.sha256 for h in search_queries.knn_text(conn, q, model=E5, k=10, current=CURRENT, exact=True)]
                    for q in queries])


def test_the_process_scans_vectors_on_one_blas_thread(tmp_path):
    """OpenBLAS's spinning workers took the CPU from the SQL after each KNN (a fused search ran 2× slower)."""
    threadpoolctl.threadpool_limits(2, user_api="blas")
    engine = make_engine(tmp_path / "library.db")
    rng = _fill(engine, n=20)
    with engine.connect() as conn:
        assert search_queries.knn_text(conn, _units(rng, 1, 384)[0], model=E5, k=3, current=CURRENT)
    assert {pool["num_threads"] for pool in threadpoolctl.threadpool_info() if pool["user_api"] == "blas"} == {1}


def test_after_a_restart_the_graph_is_a_view_and_edits_since_are_found_kept_and_worn_out(tmp_path, graph_everywhere,
                                                                                          monkeypatch):
    """A saved graph is memory-mapped, not read back; usearch cannot change a view, so edits wait beside it.

    Each edit after the restart must be found at once (the changed slots are re-scored
    exactly), old content never, the pending slots must survive another restart, and
    enough of them wear the view out: a graph in memory is built again.
    """
    path = tmp_path / "library.db"
    engine = make_engine(path)
    rng = _fill(engine, n=120)
    query = _units(rng, 1, 384)[0]
    _warm_graphs(engine, query)
    key = ("search_image_text_vec", E5)
    engine.dispose()
    restarted = open_engine(path)
    with restarted.connect() as conn:
        target = search_queries.knn_text(conn, query, model=E5, k=1, current=CURRENT)[0]
        index = vector_index.index_for(conn)
    assert index.graph_pending()[key] == 0, "the saved graph is opened as a view"
    with restarted.begin() as conn:
        set_item(conn, target.path, "edited")
        search_writes.upsert_image(conn, "edited", text_model=E5, text_vector=-query, document="edited photo")
        set_item(conn, "/photos/new.jpg", "new")
        search_writes.upsert_image(conn, "new", text_model=E5, text_vector=query, document="new photo")
    with restarted.connect() as conn:
        hits = search_queries.knn_text(conn, query, model=E5, k=200, current=CURRENT)
    assert hits[0].sha256 == "new" and hits[-1].sha256 == "edited" and target.sha256 not in {h.sha256 for h in hits}
    assert index.graph_pending()[key] == 2  # the rows of the edited content and of the new photo
    index._save()  # as the app saves after SAVE_EVERY changes
    restarted.dispose()
    again = open_engine(path)
    with again.connect() as conn:
        hits = search_queries.knn_text(conn, query, model=E5, k=200, current=CURRENT)
        index = vector_index.index_for(conn)
    assert index.graph_pending()[key] == 2
    assert hits[0].sha256 == "new" and hits[-1].sha256 == "edited" and target.sha256 not in {h.sha256 for h in hits}
    view = vector_graph.VectorGraph(384, pending=range(1_001))
    assert view.worn and not vector_graph.VectorGraph(384, pending=range(1_000)).worn  # the rule below 5,000 live nodes
    monkeypatch.setattr(vector_graph.VectorGraph, "worn", property(lambda graph: bool(graph.pending)))
    with again.connect() as conn:  # the next search starts a fresh graph of the worn view
        search_queries.knn_text(conn, query, model=E5, k=1, current=CURRENT)
    index.wait_for_graphs()
    assert index.graph_pending()[key] is None
    with again.connect() as conn:
        assert search_queries.knn_text(conn, query, model=E5, k=1, current=CURRENT)[0].sha256 == "new"


def test_a_process_that_exits_while_a_graph_is_built_exits_cleanly(tmp_path) -> None:
    """usearch's native add, still running when the interpreter ends, aborts the process (exit 134, "terminate called
    without an active exception"); the build is asked to stop at exit and the process waits for the chunk in hand."""
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "exit_mid_build.py"
    script.write_text(
        "import time\n"
        "import numpy as np\n"
        "from app.store import vector_index\n"
        "vectors = np.random.default_rng(0).standard_normal((40_000, 384)).astype(np.float32)\n"
        "index = vector_index.VectorIndex(None)\n"
        "index._add_rows('images', 384, [(i, 'e5', vectors[i].tobytes()) for i in range(len(vectors))])\n"
        "index._plan_graphs()\n"
        "time.sleep(1.0)\n"
        "assert index._growing[0].is_alive(), 'the build is still under way as the process exits'\n"
        "print('exiting while building', flush=True)\n"
    )
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, str(script)], cwd=root, capture_output=True, text=True, timeout=300)
    assert "exiting while building" in done.stdout, done.stderr
    assert done.returncode == 0 and "terminate called" not in done.stderr, done.stderr
