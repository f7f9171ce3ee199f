"""Writes into the search index (tables in :mod:`app.store.search_schema`), keyed by content sha256.

The functions run inside the caller's transaction. :class:`SearchIndexWriter` is what a
stage gets as ``ctx.search_index`` (:class:`app.engine.stage.SearchIndex`): each call one
short write transaction opened by the engine, which checks the stage's claim inside it,
so a stage never holds a connection and a stale worker commits nothing.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Sequence

from sqlalchemy import Connection, bindparam, text

from app.store import search_postgres
from app.store.dialect import is_sqlite, take_search_lock
from app.store.search_schema import (CJK_TABLES, PASSAGE_TABLE, PASSAGE_VECTORS, TEXT_DIM, TRANSLATION_TABLE, cjk_characters,
                                     ensure_visual_table, table_exists, vector_blob, visual_table)

WriteTransaction = Callable[[], AbstractContextManager[Connection]]
Cue = tuple[float, float, str, str]
"""``(start_s, end_s, text, lang)`` of one dialogue cue."""
Passage = tuple[str, Sequence[float]]
"""``(text, e5 passage vector)`` of one passage of an image's OCR text (:data:`~app.store.search_schema.PASSAGE_SCHEMA`)."""


class TextTranslation(NamedTuple):
    """One machine-translated passage of an image's OCR text (:data:`~app.store.search_schema.TRANSLATION_SCHEMA`)."""

    source_lang: str
    lang: str
    source_text: str
    text: str


LOOKUP_CHUNK = 500
"""Contents looked up per ``IN (…)``: well under SQLite's and PostgreSQL's limits on bound values."""


class SearchIndexWriter:
    """Index writes, each in its own transaction from ``write`` (a fenced one inside a stage).

    ``library_path`` turns the path a stage read the file by into the library's name for
    it (a worker on another machine reads ``D:\\Media\\x.png``; search shows the library's path).
    """

    def __init__(self, write: WriteTransaction, library_path: Callable[[str], str] = str):
        self._write = write
        self._library_path = library_path

    def upsert_image(self, sha256: str, *, text_model: str, text_vector: Sequence[float] | None, document: str,
                     ocr_text: str = "", visual_model: str | None = None,
                     visual_vector: Sequence[float] | None = None, passages: Sequence[Passage] = (),
                     translations: Sequence[TextTranslation] = ()) -> None:
        """See :func:`upsert_image`."""
        with self._write() as conn:
            upsert_image(conn, sha256, text_model=text_model, text_vector=text_vector, document=document,
                         ocr_text=ocr_text, visual_model=visual_model, visual_vector=visual_vector, passages=passages,
                         translations=translations)

    def name_image(self, path: str, sha256: str, words: str) -> None:
        """See :func:`name_image`."""
        with self._write() as conn:
            name_image(conn, self._library_path(path), sha256, words)

    def upsert_dialogue(self, video_path: str, sha256: str, cues: Sequence[Cue], vectors: Sequence[Sequence[float]],
                        *, text_model: str) -> int:
        """See :func:`upsert_dialogue`."""
        with self._write() as conn:
            return upsert_dialogue(conn, self._library_path(video_path), sha256, cues, vectors, text_model=text_model)


def has_text(ocr_text: str) -> bool:
    """True when OCR read at least one letter or digit: only then does an image get an e5 text vector.

    The image pipeline's text-embedding and place stages and migration 0003 all ask this.

    e5 places the passage vector of an empty or punctuation-only document near every
    query (a black frame was the first answer to "Rechnung", "China" and "cheap price"),
    so an image without text is found by its name, EXIF and tag words and by CLIP, never
    by text meaning. Tags alone do not count: CLIP already answers for what a picture shows.
    """
    return any(ch.isalnum() for ch in ocr_text)


@dataclass(frozen=True)
class IndexedImage:
    """What the index holds for one image content: its words, its e5 vector when it has text, its CLIP vector when there is one."""

    sha256: str
    text_model: str
    text_vector: Sequence[float] | None
    document: str
    ocr_text: str = ""
    visual_model: str | None = None
    visual_vector: Sequence[float] | None = None
    passages: Sequence[Passage] = ()
    translations: Sequence[TextTranslation] = ()


def upsert_image(
    conn: Connection,
    sha256: str,
    *,
    text_model: str,
    text_vector: Sequence[float] | None,
    document: str,
    ocr_text: str = "",
    visual_model: str | None = None,
    visual_vector: Sequence[float] | None = None,
    passages: Sequence[Passage] = (),
    translations: Sequence[TextTranslation] = (),
) -> int:
    """Index one image content (replacing what was there for that sha256); returns its row id.

    Without a visual vector the image is still found through its document; a later
    call with one adds it. Without a text vector (an image without text) it is found
    by its words and CLIP only, never by text meaning; ``passages`` (a long OCR text's,
    with ``text_model`` vectors) are kept only beside a text vector; ``translations`` of its
    OCR text are found by their words. Identical content in two files is one call, one row.
    """
    take_search_lock(conn)
    image = IndexedImage(sha256, text_model, text_vector, document, ocr_text, visual_model, visual_vector, passages,
                         translations)
    return upsert_images(conn, [image])[0]


def upsert_images(conn: Connection, images: Sequence[IndexedImage]) -> list[int]:
    """Index image contents as :func:`upsert_image` does each, one statement per table for all; returns their row ids.

    The rows are exactly those of one call per image: the stage writes one image, a
    library written in bulk (``bench/search.py``: a million images, which took hours one
    statement at a time) writes thousands per call. A content listed twice keeps its
    last entry, as two calls would. Every vector is checked before anything is written.
    """
    take_search_lock(conn)
    latest = {image.sha256: image for image in images}
    now = time.time()
    params: list[dict[str, Any]] = []
    visual: dict[str, tuple[int, bytes]] = {}
    for image in latest.values():
        text_blob = None if image.text_vector is None else vector_blob(image.text_vector, TEXT_DIM)
        visual_dim = None
        if image.visual_vector is not None:
            if not image.visual_model:
                raise ValueError("a visual vector needs its model id")
            visual_dim = len(image.visual_vector)
            visual[image.sha256] = (visual_dim, vector_blob(image.visual_vector, visual_dim))
        params.append({
            "sha": image.sha256, "text_model": image.text_model,
            "visual_model": image.visual_model if visual_dim is not None else None, "visual_dim": visual_dim,
            "document": image.document, "ocr_text": image.ocr_text or "", "now": now, "v": text_blob,
        })
    existing = _image_rows(conn, list(latest))
    for row in existing.values():
        _delete_image_rows(conn, row.id, row.visual_dim, keep_base=True)
    fresh = [p for p in params if p["sha"] not in existing]
    if fresh:
        conn.execute(
            text(
                "INSERT INTO search_image (sha256, text_model, visual_model, visual_dim, document, ocr_text, indexed_at) "
                "VALUES (:sha, :text_model, :visual_model, :visual_dim, :document, :ocr_text, :now)"
            ),
            fresh,
        )
    replaced = [{**p, "id": existing[p["sha"]].id} for p in params if p["sha"] in existing]
    if replaced:
        conn.execute(
            text(
                "UPDATE search_image SET text_model = :text_model, visual_model = :visual_model, "
                "visual_dim = :visual_dim, document = :document, ocr_text = :ocr_text, indexed_at = :now "
                "WHERE id = :id"
            ),
            replaced,
        )
    ids = {sha: row.id for sha, row in existing.items()}
    ids.update((sha, row.id) for sha, row in _image_rows(conn, [p["sha"] for p in fresh]).items())
    for p in params:
        p["id"] = ids[p["sha"]]
    with_text = [p for p in params if p["v"] is not None]
    if with_text:
        conn.execute(
            text("INSERT INTO search_image_text_vec (rowid, embedding, sha256, model) VALUES (:id, :v, :sha, :text_model)"),
            with_text,
        )
    _insert_passages(conn, [(ids[image.sha256], image) for image in latest.values() if image.text_vector is not None])
    _insert_translations(conn, [(ids[image.sha256], image) for image in latest.values()])
    for dim in sorted({dim for dim, _ in visual.values()}):
        table = ensure_visual_table(conn, dim)
        conn.execute(
            text(f"INSERT INTO {table} (rowid, embedding, sha256, model) VALUES (:id, :v, :sha, :model)"),
            [{"id": p["id"], "v": visual[p["sha"]][1], "sha": p["sha"], "model": p["visual_model"]}
             for p in params if p["sha"] in visual and visual[p["sha"]][0] == dim],
        )
    _index_words(conn, "search_image", [(p["id"], {"document": p["document"], "ocr_text": p["ocr_text"]}) for p in params])
    return [int(ids[image.sha256]) for image in images]


def _insert_passages(conn: Connection, images: Sequence[tuple[int, IndexedImage]]) -> None:
    """The passage rows and vectors of these images (whose ``search_image`` ids are given)."""
    rows = [{"image": image_id, "sha": image.sha256, "idx": n, "text": passage, "model": image.text_model,
             "v": vector_blob(vector, TEXT_DIM)}
            for image_id, image in images for n, (passage, vector) in enumerate(image.passages)]
    if not rows:
        return
    sql = (f"INSERT INTO {PASSAGE_TABLE} (image_id, sha256, passage_index, text) "
           "VALUES (:image, :sha, :idx, :text) RETURNING id")
    for row in rows:  # RETURNING of a multi-row insert is not in row order on every backend
        row["id"] = conn.execute(text(sql), row).scalar_one()
    conn.execute(text(f"INSERT INTO {PASSAGE_VECTORS} (rowid, embedding, sha256, model) VALUES (:id, :v, :sha, :model)"),
                 rows)


def _insert_translations(conn: Connection, images: Sequence[tuple[int, IndexedImage]]) -> None:
    """The translation rows of these images (whose ``search_image`` ids are given), findable by their words."""
    sql = text(f"INSERT INTO {TRANSLATION_TABLE} (image_id, sha256, source_lang, lang, source_text, text) "
               "VALUES (:image, :sha, :source_lang, :lang, :source_text, :text) RETURNING id")
    words = []
    for image_id, image in images:
        for row in image.translations:
            row_id = conn.execute(sql, {"image": image_id, "sha": image.sha256, **row._asdict()}).scalar_one()
            words.append((int(row_id), {"text": row.text}))
    _index_words(conn, TRANSLATION_TABLE, words, partial=False)


def _image_rows(conn: Connection, shas: Sequence[str]) -> dict[str, Any]:
    """``sha256 → (id, visual_dim)`` of the image rows these contents have (in chunks: a statement binds a few hundred)."""
    query = text("SELECT id, sha256, visual_dim FROM search_image WHERE sha256 IN :shas").bindparams(
        bindparam("shas", expanding=True))
    found: dict[str, Any] = {}
    for start in range(0, len(shas), LOOKUP_CHUNK):
        found.update((row.sha256, row) for row in conn.execute(query, {"shas": list(shas[start:start + LOOKUP_CHUNK])}))
    return found


def name_image(conn: Connection, path: str, sha256: str, words: str) -> int:
    """Index the name words of the image at ``path``, which holds ``sha256`` (replacing that path's earlier row).

    Per path, not per content: two identical files are each found by their own name
    (see :mod:`app.store.search_schema`). Returns the row id.
    """
    take_search_lock(conn)
    _delete_names(conn, "path = :path", {"path": path})
    row_id = conn.execute(
        text("INSERT INTO search_image_name (path, sha256, words, indexed_at) VALUES (:path, :sha, :words, :now) "
             "RETURNING id"),
        {"path": path, "sha": sha256, "words": words, "now": time.time()},
    ).scalar_one()
    _index_words(conn, "search_image_name", [(row_id, {"words": words})])
    return int(row_id)


def move_image_name(conn: Connection, old_path: str, new_path: str) -> None:
    """A file was renamed without re-running anything: its name row follows it, as its sidecar JSON does."""
    take_search_lock(conn)
    _delete_names(conn, "path = :path", {"path": new_path})
    conn.execute(text("UPDATE search_image_name SET path = :new WHERE path = :old"), {"old": old_path, "new": new_path})


def upsert_dialogue(
    conn: Connection,
    video_path: str,
    sha256: str,
    cues: Sequence[Cue],
    vectors: Sequence[Sequence[float]],
    *,
    text_model: str,
) -> int:
    """Index a video's cues ``(start_s, end_s, text, lang)`` with their e5 passage vectors.

    Every language present in ``cues`` replaces that language's earlier cues for this
    content (re-translating replaces the translation and keeps the transcript).
    Returns the number of cues written.
    """
    take_search_lock(conn)
    if len(cues) != len(vectors):
        raise ValueError(f"{len(cues)} cues but {len(vectors)} vectors")
    langs = sorted({cue[3] for cue in cues})
    for lang in langs:
        _delete_cues(conn, "sha256 = :sha AND lang = :lang", {"sha": sha256, "lang": lang})
    now = time.time()
    counters: dict[str, int] = {}
    for (start, end, line, lang), vector in zip(cues, vectors):
        index = counters.get(lang, 0)
        counters[lang] = index + 1
        cue_id = conn.execute(
            text(
                "INSERT INTO search_cue (sha256, video_path, lang, cue_index, start_s, end_s, text, text_model, indexed_at) "
                "VALUES (:sha, :path, :lang, :idx, :start, :end, :text, :model, :now) RETURNING id"
            ),
            {
                "sha": sha256, "path": str(video_path), "lang": lang, "idx": index, "start": float(start),
                "end": float(end), "text": line, "model": text_model, "now": now,
            },
        ).scalar_one()
        conn.execute(
            text("INSERT INTO search_cue_text_vec (rowid, embedding, sha256, model) VALUES (:id, :v, :sha, :model)"),
            {"id": cue_id, "v": vector_blob(vector, TEXT_DIM), "sha": sha256, "model": text_model},
        )
        _index_words(conn, "search_cue", [(cue_id, {"text": line})])
    return len(cues)


def delete_for_sha256(conn: Connection, sha256: str) -> int:
    """Remove every image, image name and dialogue row of this content; returns how many base rows went.

    The store calls it when no item holds this content any more (deleted file, edited
    file whose old content nobody else has).
    """
    take_search_lock(conn)
    removed = 0
    for row in conn.execute(text("SELECT id, visual_dim FROM search_image WHERE sha256 = :sha"), {"sha": sha256}).all():
        _delete_image_rows(conn, row.id, row.visual_dim, keep_base=False)
        removed += 1
    _delete_names(conn, "sha256 = :sha", {"sha": sha256})
    removed += _delete_cues(conn, "sha256 = :sha", {"sha": sha256})
    return removed


def _delete_image_rows(conn: Connection, row_id: int, visual_dim: int | None, *, keep_base: bool) -> None:
    params = {"id": row_id}
    conn.execute(text("DELETE FROM search_image_text_vec WHERE rowid = :id"), params)
    passage_ids = list(conn.execute(text(f"SELECT id FROM {PASSAGE_TABLE} WHERE image_id = :id"), params).scalars())
    if passage_ids:  # one statement per row: vec0 scans for ``rowid IN``
        conn.execute(text(f"DELETE FROM {PASSAGE_VECTORS} WHERE rowid = :id"), [{"id": i} for i in passage_ids])
        conn.execute(text(f"DELETE FROM {PASSAGE_TABLE} WHERE image_id = :id"), params)
    if visual_dim and table_exists(conn, visual_table(visual_dim)):
        conn.execute(text(f"DELETE FROM {visual_table(visual_dim)} WHERE rowid = :id"), params)
    for translation_id in list(conn.execute(text(f"SELECT id FROM {TRANSLATION_TABLE} WHERE image_id = :id"), params).scalars()):
        _unindex_words(conn, TRANSLATION_TABLE, translation_id, partial=False)
    conn.execute(text(f"DELETE FROM {TRANSLATION_TABLE} WHERE image_id = :id"), params)
    _unindex_words(conn, "search_image", row_id)
    if not keep_base:
        conn.execute(text("DELETE FROM search_image WHERE id = :id"), params)


def _delete_names(conn: Connection, where: str, params: dict[str, Any]) -> None:
    for row_id in list(conn.execute(text(f"SELECT id FROM search_image_name WHERE {where}"), params).scalars()):
        _unindex_words(conn, "search_image_name", row_id)
    conn.execute(text(f"DELETE FROM search_image_name WHERE {where}"), params)


def _delete_cues(conn: Connection, where: str, params: dict[str, Any]) -> int:
    ids = list(conn.execute(text(f"SELECT id FROM search_cue WHERE {where}"), params).scalars())
    for cue_id in ids:
        conn.execute(text("DELETE FROM search_cue_text_vec WHERE rowid = :id"), {"id": cue_id})
        _unindex_words(conn, "search_cue", cue_id)
    if ids:
        conn.execute(text(f"DELETE FROM search_cue WHERE {where}"), params)
    return len(ids)


def _index_words(conn: Connection, base: str, rows: Sequence[tuple[int, dict[str, str]]], *, partial: bool = True) -> None:
    """Make rows ``(id, {column: text})`` findable by their words: FTS5's word and trigram tables, or PostgreSQL's words rows.

    Every row names the same columns. Without ``partial`` there is no trigram table (SQLite).
    """
    if not rows:
        return
    if not is_sqlite(conn):
        conn.execute(
            text(f"INSERT INTO {base}_fts (rowid, tokens, folded, ngrams) VALUES (:id, :tokens, :folded, :ngrams)"),
            [{"id": row_id, **search_postgres.word_row(list(columns.values()))} for row_id, columns in rows],
        )
        return
    names = ", ".join(rows[0][1])
    values = ", ".join(f":{name}" for name in rows[0][1])
    params = [{"id": row_id, **columns} for row_id, columns in rows]
    for table in (f"{base}_fts", f"{base}_trigram") if partial else (f"{base}_fts",):
        conn.execute(text(f"INSERT INTO {table} (rowid, {names}) VALUES (:id, {values})"), params)
    if partial and base in CJK_TABLES:
        index_cjk_characters(conn, base, rows)


def index_cjk_characters(conn: Connection, base: str, rows: Sequence[tuple[int, dict[str, str]]]) -> None:
    """Write the rows that hold CJK text to ``base``'s character table (:data:`~app.store.search_schema.CJK_SCHEMA`)."""
    names = CJK_TABLES[base]
    params = [{"id": row_id, **{name: cjk_characters(columns.get(name)) for name in names}} for row_id, columns in rows]
    params = [row for row in params if any(row[name] for name in names)]
    if params:
        conn.execute(text(f"INSERT INTO {base}_cjk (rowid, {', '.join(names)}) VALUES (:id, {', '.join(':' + n for n in names)})"),
                     params)


def _unindex_words(conn: Connection, base: str, row_id: int, *, partial: bool = True) -> None:
    sqlite_partial = is_sqlite(conn) and partial
    for table in (f"{base}_fts", f"{base}_trigram") if sqlite_partial else (f"{base}_fts",):
        conn.execute(text(f"DELETE FROM {table} WHERE rowid = :id"), {"id": row_id})
    if sqlite_partial and base in CJK_TABLES:
        conn.execute(text(f"DELETE FROM {base}_cjk WHERE rowid = :id"), {"id": row_id})
