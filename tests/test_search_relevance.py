"""Two ranking promises of search, on real photos (tests/data/ocr_photos), real OCR and e5, on both store backends.

1. A result that holds a query word as written (here in its file name) ranks above a
   result found only by meaning when reciprocal rank fusion gives both the same score.
2. A photo without text has no e5 text vector, so it is never a text-semantic answer
   (the e5 vector of an empty document sits near every query: a black frame was the first
   answer to "Rechnung", "China" and "cheap price"); it is still found by its name. Vectors
   stored before this rule are removed by the store's migration.

``bench/search_relevance.py`` measures the whole ranking on ~80 labelled queries.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, Sequence

import pytest
from sqlalchemy import text

from app.engine.search import SearchResult, search
from app.ml.text_embedding import MODEL_ID as E5
from app.store import Store, search_queries
from app.store.search_queries import CurrentContent, ImageHit
from app.store.search_writes import SearchIndexWriter
from tests.ocr_photos import ReadPhoto, index_photos, read_photos
from tests.search_db import run_revision

CURRENT = CurrentContent("current_items")
LIBRARY = {
    "China 2019.jpg": "empty_black.jpg",  # a dark frame from a trip, named for it: no text in it
    "black_font_color_transparent.png": "black_font_color_transparent.png",  # 中国 我 是
    "img_exif_orientation.jpg": "img_exif_orientation.jpg",  # 我是中国人
    "test_without_det.jpg": "test_without_det.jpg",  # 在中国作家协会第三届儿童文学
    "japan.jpg": "japan.jpg",  # a Japanese news list (大阪, ダンスバトル)
    "ch_en_num.jpg": "ch_en_num.jpg",  # a Chinese product ad (日常价, 底价)
    "text_cls.jpg": "text_cls.jpg",  # no text OCR can read
    "white_font_color_transparent.png": "white_font_color_transparent.png",  # no text OCR can read
}
NO_TEXT = {"China 2019.jpg", "text_cls.jpg", "white_font_color_transparent.png"}
VAGUE_QUERIES = ["Rechnung", "China", "cheap price", "Osaka", "invoice", "sofa"]


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory, e5) -> list[ReadPhoto]:
    return read_photos(tmp_path_factory.mktemp("photos") / "trips", e5, LIBRARY)


@pytest.fixture
def store(store_location: Path | str, photos: list[ReadPhoto]) -> Iterator[Store]:
    store = Store(store_location)
    try:
        index_photos(store, photos)
        yield store
    finally:
        store.close()


def _search(store: Store, e5, query: str) -> list[SearchResult]:
    return search(query, connect=store.db.read, current=CURRENT, text_model=E5,
                  embed_text=lambda q: e5.embed_queries([q])[0], kinds=("image",))


def _names(results: Sequence[SearchResult | ImageHit]) -> list[str]:
    return [Path(str(r.path)).name for r in results]


def test_the_photos_read_as_expected(photos: list[ReadPhoto]) -> None:
    """The promises below rest on what OCR reads: text in these, none in the others."""
    by_name = {Path(p.path).name: p for p in photos}
    assert {name for name, p in by_name.items() if p.vector is None} == NO_TEXT
    assert "中国" in by_name["black_font_color_transparent.png"].ocr_text
    assert "大阪" in by_name["japan.jpg"].ocr_text


def test_an_exact_word_ranks_above_a_semantic_only_result_of_equal_rank(store: Store, e5) -> None:
    query = e5.embed_queries(["China"])[0]
    with store.db.read() as conn:  # e5 puts the photo saying 中国 first; no photo's text holds the word "China"
        nearest = search_queries.knn_text(conn, query, model=E5, k=1, current=CURRENT)
    assert _names(nearest) == ["black_font_color_transparent.png"]
    results = _search(store, e5, "China")
    assert _names(results)[:2] == ["China 2019.jpg", "black_font_color_transparent.png"]
    assert results[0].score == results[1].score, "first of the name list and first of the e5 list tie"


def test_a_photo_without_text_is_no_text_semantic_answer_but_is_found_by_its_name(store: Store, e5) -> None:
    shas = {Path(p.path).name: p.sha256 for p in _photos(store)}
    for query in VAGUE_QUERIES:
        vector = e5.embed_queries([query])[0]
        with store.db.read() as conn:
            for exact in (False, True):  # the in-process index; vec0 or the stored vectors' scan
                hits = search_queries.knn_text(conn, vector, model=E5, k=50, current=CURRENT, exact=exact)
                assert {h.sha256 for h in hits}.isdisjoint({shas[n] for n in NO_TEXT}), (query, exact)
                assert len({h.sha256 for h in hits}) == len(LIBRARY) - len(NO_TEXT)
        found = _names(_search(store, e5, query))
        assert NO_TEXT.isdisjoint(found) or (query == "China" and found[0] == "China 2019.jpg"), (query, found)
    assert _names(_search(store, e5, "2019")) == ["China 2019.jpg"]


def _photos(store: Store) -> list[ReadPhoto]:
    with store.db.read() as conn:
        rows = conn.execute(text("SELECT path, sha256 FROM current_items")).all()
    return [ReadPhoto(row.path, row.sha256, "", "", None) for row in rows]


def test_the_migration_removes_text_vectors_stored_for_photos_without_text(store_location, photos, e5) -> None:
    black = next(p for p in photos if Path(p.path).name == "China 2019.jpg")
    store = Store(store_location)
    try:
        index_photos(store, photos)
        stale = e5.embed_passages([black.document])[0]  # what an image without text was given before
        SearchIndexWriter(store.db.write).upsert_image(black.sha256, text_model=E5, text_vector=stale,
                                                       document=black.document, ocr_text=black.ocr_text)
        query = e5.embed_queries(["Rechnung"])[0]
        with store.db.read() as conn:
            assert black.sha256 in {h.sha256 for h in search_queries.knn_text(conn, query, model=E5, k=50)}
        with store.db.write() as conn:  # the library as an older Sidecar left it, given revision 0003 now
            run_revision(conn, "0003_no_text_no_vector.py")
    finally:
        store.close()
    store = Store(store_location)
    try:
        with store.db.read() as conn:
            for exact in (False, True):
                hits = search_queries.knn_text(conn, query, model=E5, k=50, exact=exact)
                assert black.sha256 not in {h.sha256 for h in hits} and len(hits) == len(LIBRARY) - len(NO_TEXT)
        assert _names(_search(store, e5, "2019")) == ["China 2019.jpg"], "the row, its words and its name stay"
    finally:
        store.close()
