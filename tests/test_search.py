"""Fusion: several rankings become one list; a failing model degrades search instead of breaking it."""

from __future__ import annotations

import threading

import pytest

from app.engine.search import near_best, search, similar_images
from app.store import search_queries, search_writes
from app.store.search_queries import reciprocal_rank_fusion
from tests.search_db import CURRENT, make_engine, set_item


def test_rrf_rewards_agreement_between_lists():
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["b", "c", "a"], ["b"]])
    assert [key for key, _ in fused] == ["b", "a", "c"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61 + 1 / 61)


def test_rrf_is_deterministic_counts_a_repeat_once_and_honours_weights():
    assert reciprocal_rank_fusion([["x", "y"], ["y", "x"]]) == [("x", 1 / 61 + 1 / 62), ("y", 1 / 61 + 1 / 62)]
    assert reciprocal_rank_fusion([["x", "x", "y"]]) == [("x", 1 / 61), ("y", 1 / 63)]
    assert reciprocal_rank_fusion([["x"], ["y"]], weights=[1.0, 2.0])[0][0] == "y"
    assert reciprocal_rank_fusion([]) == []


@pytest.fixture
def engine(tmp_path):
    engine = make_engine(tmp_path / "s.db")
    flat = [0.0] * 384
    flat[0] = 1.0
    with engine.begin() as conn:
        for sha, doc, visual in (("s1", "grey tabby kitten", [1.0, 0.0, 0.0]), ("s2", "invoice 4471", [0.0, 1.0, 0.0])):
            set_item(conn, f"/pics/{sha}.png", sha)
            search_writes.upsert_image(conn, sha, text_model="e5", text_vector=flat, document=doc,
                               visual_model="clip", visual_vector=visual)
    return engine


def test_clip_text_vector_ranks_images_by_what_they_show(engine):
    results = search("cat", connect=engine.connect, current=CURRENT, text_model="e5",
                     visual_model="clip", embed_clip_text=lambda q: [0.9, 0.1, 0.0])
    # s2 shows something else entirely: far from the best semantic hit, it is not a result at all.
    assert [r.path for r in results] == ["/pics/s1.png"]
    assert all(r.kind == "image" and r.start is None for r in results)


def test_semantic_hits_far_from_the_best_are_cut():
    hits = [search_queries.ImageHit("a", 0.10), search_queries.ImageHit("b", 0.15), search_queries.ImageHit("c", 0.30)]
    assert [h.sha256 for h in near_best(hits)] == ["a", "b"]
    assert near_best([]) == []


def test_semantic_hits_below_the_floor_are_cut_even_the_best():
    hits = [search_queries.ImageHit("a", 0.10), search_queries.ImageHit("b", 0.13), search_queries.ImageHit("c", 0.15)]
    assert [h.sha256 for h in near_best(hits, floor=0.86)] == ["a", "b"]
    assert near_best(hits, floor=0.95) == []


def test_a_failing_embedder_leaves_keyword_search_working(engine):
    def broken(_query):
        raise RuntimeError("model process crashed")

    results = search("invoice", connect=engine.connect, current=CURRENT, text_model="e5", embed_text=broken,
                     visual_model="clip", embed_clip_text=broken)
    assert [r.path for r in results] == ["/pics/s2.png"]
    assert results[0].snippet == "[invoice] 4471"


def test_empty_query_returns_nothing(engine):
    assert search("   ", connect=engine.connect, current=CURRENT, text_model="e5") == []


def test_similar_images_excludes_the_query_image(engine):
    with engine.connect() as conn:
        vector = search_queries.visual_vector(conn, "s1", "clip")
    results = similar_images(vector, connect=engine.connect, current=CURRENT, visual_model="clip", exclude_sha256="s1")
    assert [r.path for r in results] == ["/pics/s2.png"]
    assert results[0].score == pytest.approx(0.0, abs=1e-6)


def test_name_words_find_only_their_own_path_and_never_a_path_that_now_holds_other_content(engine):
    with engine.begin() as conn:
        set_item(conn, "/pics/trip/cat on the sofa.png", "s1")
        search_writes.name_image(conn, "/pics/trip/cat on the sofa.png", "s1", "cat on the sofa trip")
        search_writes.name_image(conn, "/pics/s1.png", "s1", "s1 pics")
    with engine.connect() as conn:
        assert [h.path for h in search_queries.fts_images(conn, "sofa", current=CURRENT)] == ["/pics/trip/cat on the sofa.png"]
        kitten = {h.path for h in search_queries.fts_images(conn, "kitten", current=CURRENT)}
        assert kitten == {"/pics/trip/cat on the sofa.png", "/pics/s1.png"}, "the content's words find every copy"
    with engine.begin() as conn:
        set_item(conn, "/pics/trip/cat on the sofa.png", "s2")  # the file was overwritten with other bytes
    with engine.connect() as conn:
        assert search_queries.fts_images(conn, "sofa", current=CURRENT) == []
    with engine.begin() as conn:
        assert search_writes.delete_for_sha256(conn, "s1") == 1
        assert conn.exec_driver_sql("SELECT count(*) FROM search_image_name").scalar_one() == 0
        assert conn.exec_driver_sql("SELECT count(*) FROM search_image_name_fts").scalar_one() == 0


def test_the_query_is_searched_while_it_is_translated(engine):
    """The translation runs beside the query's own embedding and lists: neither waits for the other to finish."""
    translating = threading.Event()
    embedded = threading.Event()
    threads: set[str] = set()

    def translate(query):
        threads.add(threading.current_thread().name)
        translating.set()
        assert embedded.wait(10), "the query's own embedding did not start while it was being translated"
        return [("en", "invoice")]

    def embed(query):
        if query == "发票":
            assert translating.wait(10), "the query was embedded only after its translation"
            embedded.set()
        return [1.0] + [0.0] * 383

    results = search("发票", connect=engine.connect, current=CURRENT, text_model="e5", embed_text=embed,
                     translate_query=translate)
    assert threading.current_thread().name not in threads
    assert [(r.path, r.match, r.match_text) for r in results][0] == ("/pics/s2.png", "translated_query", "invoice")


def test_a_failing_translator_leaves_the_query_searched_in_its_own_language(engine):
    def broken(_query):
        raise RuntimeError("translator process crashed")

    results = search("invoice", connect=engine.connect, current=CURRENT, text_model="e5", translate_query=broken)
    assert [(r.path, r.match) for r in results] == [("/pics/s2.png", "words")]
