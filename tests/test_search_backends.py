"""Search on the shared store: one small library indexed on SQLite and on PostgreSQL answers the same.

Real models (RapidOCR reads rendered images, e5 embeds), the real store on both
backends (Alembic's schema, the ``current_items`` view, the write lock), and the real
write path (:class:`~app.store.search_writes.SearchIndexWriter`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest
from sqlalchemy import text

from app.engine.search import search
from app.ml.text_embedding import MODEL_ID as E5
from app.store import Store, search_queries, search_writes
from app.store.dialect import is_sqlite
from app.store.records import NewItem
from app.store.search_queries import CurrentContent
from app.store.search_writes import IndexedImage, SearchIndexWriter

CURRENT = CurrentContent("current_items")
VIDEO = "/videos/Movie.mkv"
CUES = [(1.0, 3.5, "Don't forget your umbrella tonight.", "en"), (4.0, 6.0, "The train leaves at nine.", "en"),
        (1.0, 3.5, "今晚别忘了带伞。", "zh"), (4.0, 6.0, "火车九点出发。", "zh")]
WORD_QUERIES = ["invoice", "invo", "4471", "total due", "猫", "東京タワー", "京タワ", "chocolate cake", "rain umbrella"]
DIALOGUE_QUERIES = ["umbrella", "umbr", "火车", "九点出发", "train nine"]
FUSED_QUERIES = ["invoice", "cat", "weather tomorrow", "train"]


def _add(store: Store, files: dict[str, tuple[str, str]]) -> None:
    """Record that each path (``path → (kind, sha256)``) holds that content now."""
    job = store.jobs.create("/", {}, owner="test")
    store.jobs.add_items(job, [NewItem(path, kind, 1, 1, sha) for path, (kind, sha) in files.items()])
    store.jobs.finish_creating(job, {})


def _index(store: Store, documents, e5) -> None:
    _add(store, {path: ("image", sha) for path, (sha, *_rest) in documents.items()} | {VIDEO: ("video", "video-1")})
    writer = SearchIndexWriter(store.db.write)
    for path, (sha, document, ocr_text, vector) in documents.items():
        writer.upsert_image(sha, text_model=E5, text_vector=vector, document=document, ocr_text=ocr_text)
        writer.name_image(path, sha, Path(path).stem.replace("_", " "))
    assert writer.upsert_dialogue(VIDEO, "video-1", CUES, e5.embed_passages([c[2] for c in CUES]), text_model=E5) == 4


@pytest.fixture
def libraries(data_dir: Path, postgres_url: str, documents, e5) -> Iterator[dict[str, Store]]:
    stores = {"sqlite": Store(data_dir / "library.sqlite3"), "postgres": Store(postgres_url)}
    try:
        for store in stores.values():
            _index(store, documents, e5)
        yield stores
    finally:
        for store in stores.values():
            store.close()


def _answers(store: Store, e5) -> dict[str, list]:
    with store.db.read() as conn:
        answers: dict[str, list] = {
            f"words {q}": [(h.path, h.snippet) for h in search_queries.fts_images(conn, q, current=CURRENT)]
            for q in WORD_QUERIES
        }
        answers |= {f"dialogue {q}": [(h.path, h.lang, h.start, h.snippet) for h in
                                      search_queries.fts_dialogue(conn, q, current=CURRENT)]
                    for q in DIALOGUE_QUERIES}
        for kind in ("image", "cue"):
            for exact in (False, True):  # the in-process index; vec0 or a scan of the stored vectors
                hits = search_queries.knn_text(conn, e5.embed_queries(["umbrella"])[0], model=E5, kind=kind, k=3,
                                               current=CURRENT, exact=exact)
                answers[f"knn {kind} {exact}"] = [(h.path, round(h.score, 5)) for h in hits]
    for q in FUSED_QUERIES:
        results = search(q, connect=store.db.read, current=CURRENT, text_model=E5,
                         embed_text=lambda text: e5.embed_queries([text])[0])
        answers[f"fused {q}"] = [(r.path, r.kind, r.start, r.snippet) for r in results]
    return answers


def test_a_library_indexed_on_sqlite_and_on_postgres_gives_the_same_results(libraries, documents, e5):
    sqlite, postgres = _answers(libraries["sqlite"], e5), _answers(libraries["postgres"], e5)
    assert postgres == sqlite
    # and they are the right answers, not two equal wrong ones
    invoice = next(p for p in documents if p.endswith("invoice_scan.png"))
    assert sqlite["words invo"][0][0] == invoice and "[Invo]" in sqlite["words invo"][0][1]
    assert [p for p, _ in sqlite["words 猫"]] == [next(p for p in documents if p.endswith("IMG_0042.png"))]
    assert [p for p, _ in sqlite["words 京タワ"]] == [next(p for p in documents if p.endswith("IMG_0043.png"))]
    assert sqlite["dialogue 火车"] == [(VIDEO, "zh", 4.0, "[火车]九点出发。")]
    assert sqlite["dialogue umbr"][0][:3] == (VIDEO, "en", 1.0)
    assert sqlite["knn cue False"][0][0] == VIDEO and sqlite["fused invoice"][0][0] == invoice


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_an_edited_files_old_content_is_never_returned(libraries, documents, e5, backend):
    store = libraries[backend]
    invoice = next(p for p in documents if p.endswith("invoice_scan.png"))
    old_sha, *_ = documents[invoice]
    vector = e5.embed_passages(["a photo of a lighthouse"])[0]
    _add(store, {invoice: ("image", "sha-edited")})  # the file was overwritten with other bytes
    SearchIndexWriter(store.db.write).upsert_image("sha-edited", text_model=E5, text_vector=vector,
                                                   document="a photo of a lighthouse")
    query = e5.embed_queries(["invoice"])[0]
    with store.db.read() as conn:
        assert all(h.path != invoice for h in search_queries.fts_images(conn, "4471", current=CURRENT))
        assert all(h.sha256 != old_sha for h in search_queries.knn_text(conn, query, model=E5, k=10, current=CURRENT))
        assert [h.path for h in search_queries.fts_images(conn, "lighthouse", current=CURRENT)] == [invoice]
    assert store.current.drop_orphaned_content([old_sha]) == 1
    with store.db.read() as conn:
        assert search_queries.fts_images(conn, "4471", current=CURRENT) == []
        assert old_sha not in search_queries.indexed_sha256s(conn)
        if backend == "postgres":  # bm25's totals, kept by triggers, still count what is there
            for table in ("search_image_fts", "search_image_name_fts", "search_cue_fts"):
                kept = conn.execute(text("SELECT rows, tokens, ngrams FROM search_word_stats WHERE name = :t"),
                                    {"t": table}).one()
                counted = conn.execute(text(f"SELECT count(*), coalesce(sum(cardinality(tokens)), 0), "
                                            f"coalesce(sum(ngrams), 0) FROM {table}")).one()
                assert tuple(kept) == tuple(counted) and kept[0] > 0


def test_a_word_is_ranked_within_its_newest_candidates_alike_on_both(libraries, e5, monkeypatch):
    monkeypatch.setattr(search_queries, "CANDIDATES_PER_TERM", 1)
    sqlite, postgres = _answers(libraries["sqlite"], e5), _answers(libraries["postgres"], e5)
    assert postgres == sqlite


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_renamed_image_is_found_by_its_words_under_its_new_path_and_a_deleted_one_is_gone(
        libraries, documents, backend):
    store = libraries[backend]
    recipe = next(p for p in documents if p.endswith("recipe.png"))
    moved = recipe.replace("recipe.png", "cake.png")
    assert store.current.rename(recipe, moved)
    with store.db.read() as conn:
        assert [h.path for h in search_queries.fts_images(conn, "chocolate", current=CURRENT)] == [moved]
        assert [h.path for h in search_queries.fts_images(conn, "recipe", current=CURRENT)] == [moved]
    assert store.current.mark_removed([moved], "deleted") == 1
    with store.db.read() as conn:
        assert search_queries.fts_images(conn, "chocolate", current=CURRENT) == []
        assert documents[recipe][0] not in search_queries.indexed_sha256s(conn)


def _index_rows(store: Store) -> dict[str, list]:
    """Every row the image index holds (times left out), table by table."""
    words = ("search_image_fts", "search_image_trigram") if is_sqlite(store.db.engine) else ("search_image_fts",)
    queries = {
        "base": "SELECT id, sha256, text_model, visual_model, visual_dim, document, ocr_text FROM search_image ORDER BY id",
        "changes": "SELECT kind, row_id FROM search_vector_changes ORDER BY kind, row_id",
        **{table: f"SELECT rowid, sha256, model, embedding FROM {table} ORDER BY rowid"
           for table in ("search_image_text_vec", "search_visual_vec_512")},
        **{table: f"SELECT rowid, * FROM {table} ORDER BY rowid" for table in words},
    }
    with store.db.read() as conn:
        return {name: [tuple(row) for row in conn.execute(text(sql))] for name, sql in queries.items()}


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_batch_of_images_writes_what_one_call_per_image_writes(data_dir: Path, postgres_cluster, backend):
    rng = np.random.default_rng(7)
    images = [IndexedImage(f"sha-{i}", E5, rng.standard_normal(384).tolist(), f"photo {i} of a beach", f"ticket {i}",
                           "clip" if i % 2 else None, rng.standard_normal(512).tolist() if i % 2 else None)
              for i in range(6)]
    edited = replace(images[1], document="a lighthouse", visual_model=None, visual_vector=None)
    batch = [*images, edited]  # sha-1 twice: the last entry wins, as with two calls
    stores = [Store(data_dir / f"library-{n}.sqlite3") if backend == "sqlite" else Store(postgres_cluster.create_database())
              for n in range(2)]
    try:
        ids = []
        for store, batched in zip(stores, (False, True)):
            with store.db.write() as conn:
                search_writes.upsert_image(conn, "sha-1", text_model=E5, text_vector=images[3].text_vector,
                                           document="indexed before", visual_model="clip",
                                           visual_vector=images[3].visual_vector)
                if batched:
                    ids.append(search_writes.upsert_images(conn, batch))
                else:
                    ids.append([search_writes.upsert_image(conn, image.sha256, **{
                        name: getattr(image, name) for name in ("text_model", "text_vector", "document", "ocr_text",
                                                                "visual_model", "visual_vector")}) for image in batch])
        one_by_one, batched_rows = (_index_rows(store) for store in stores)
        assert ids[1] == ids[0] and batched_rows == one_by_one
        assert [row[1] for row in batched_rows["base"] if row[5] == "a lighthouse"] == ["sha-1"]
        assert [row[1] for row in batched_rows["search_visual_vec_512"]] == ["sha-3", "sha-5"]
    finally:
        for store in stores:
            store.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_an_images_passages_find_it_are_replaced_with_it_and_go_with_it(data_dir: Path, postgres_cluster, backend):
    """An image is as near a query as its document or its nearest passage, through the index and the exact path alike."""
    rng = np.random.default_rng(3)
    document, far, near = (v / np.linalg.norm(v) for v in rng.standard_normal((3, 384)))
    store = Store(data_dir / "library.sqlite3") if backend == "sqlite" else Store(postgres_cluster.create_database())

    def nearest() -> list[list[tuple[str | None, float]]]:
        with store.db.read() as conn:
            return [[(h.path, round(h.score, 4)) for h in search_queries.knn_text(conn, near, model=E5, k=5,
                                                                                    current=CURRENT, exact=exact)]
                    for exact in (False, True)]

    def passage_rows() -> int:
        with store.db.read() as conn:
            return sum(conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
                       for table in ("search_image_passage", "search_image_passage_vec"))

    try:
        _add(store, {"/scans/news.png": ("image", "sha-news")})
        writer = SearchIndexWriter(store.db.write)
        passages = [("春分 浙江省", far), ("三星堆の文化財レプリカが大阪・関西万博で展示へ", near)]
        writer.upsert_image("sha-news", text_model=E5, text_vector=document, document="news", ocr_text="…",
                            passages=passages)
        assert nearest() == [[("/scans/news.png", 0.0)]] * 2 and passage_rows() == 4
        writer.upsert_image("sha-news", text_model=E5, text_vector=document, document="news", ocr_text="…")
        by_document = round(1.0 - float(document @ near), 4)
        assert nearest() == [[("/scans/news.png", by_document)]] * 2 and passage_rows() == 0
        writer.upsert_image("sha-news", text_model=E5, text_vector=document, document="news", ocr_text="…",
                            passages=passages)
        with store.db.write() as conn:
            assert search_writes.delete_for_sha256(conn, "sha-news") == 1
        assert nearest() == [[], []] and passage_rows() == 0
    finally:
        store.close()


def test_translations_are_found_alike_and_replaced_alike_on_both_backends(data_dir: Path, postgres_url: str) -> None:
    """Revision 0008's tables on both backends: "taxi" finds the translation of 出租客运, "tax" does not (whole words)."""
    translation = search_writes.TextTranslation("zh", "en", "出租客运", "Taxi passengers")
    found = {}
    for name, store in {"sqlite": Store(data_dir / "library.sqlite3"), "postgres": Store(postgres_url)}.items():
        try:
            _add(store, {"/pics/permit.jpg": ("image", "permit")})
            writer = SearchIndexWriter(store.db.write)
            writer.upsert_image("permit", text_model=E5, text_vector=None, document="出租客运", ocr_text="出租客运",
                                translations=[translation])
            with store.db.read() as conn:
                languages = search_queries.text_languages(conn)
                hits = [(h.path, h.snippet, h.translated_from) for q in ("taxi", "tax")
                        for h in search_queries.fts_images(conn, q, current=CURRENT)]
            writer.upsert_image("permit", text_model=E5, text_vector=None, document="出租客运", ocr_text="出租客运")
            with store.db.read() as conn:
                found[name] = (languages, hits, search_queries.fts_images(conn, "taxi", current=CURRENT))
        finally:
            store.close()
    assert found["sqlite"] == found["postgres"] == (
        {"zh", "en"}, [("/pics/permit.jpg", "[Taxi] passengers", "出租客运")], [])
