"""The search index's tables: image documents and dialogue cues, in SQLite with sqlite-vec and FTS5.

Design
------
Everything a model computed is keyed by **content** (sha256), not by path: two files
with identical bytes share one set of rows (computed once), a rename or move keeps its
vectors, and an edited file gets new rows under its new sha256. Which paths currently
hold which content is the store's business (its items table); every query here can join
to it (:class:`~app.store.search_queries.CurrentContent`), so a row whose sha256 is no
item's *current* sha256 is never returned, even before
:func:`~app.store.search_writes.delete_for_sha256` removed it.

The one thing that belongs to a **path** is an image's name words (its file and folder
names: ``Photos/trip/cat on the sofa.png`` → ``cat on the sofa trip``). Folded into the
content's document they travelled to every identical file: the copy in ``Memes/`` was
found by "sofa" and the sofa photo was not. They live in ``search_image_name``, one row
per path, keyed by (path, sha256) and joined to the current items on *both*, so the
stale-content rule holds for them exactly as for content rows: a name row is returned
only while its path still holds the content it was written for. A separate small table
(rather than one FTS row per path holding the whole document) keeps OCR text and vectors
once per content and leaves the content rows as they were; word search fuses the two
rankings (:func:`~app.store.search_queries.fts_images`). A renamed file's name row moves
with it (like its sidecar JSON, its words stay those it was indexed under).

Tables (``SCHEMA``; the visual tables are created on first use):

``search_image``
    one row per image content: sha256 (unique), the document, the OCR text, the
    text/visual model ids and the visual dim. Its ``id`` is the rowid of the image's
    rows in the vector and FTS tables.
``search_cue``
    one row per dialogue cue Sidecar produced: video sha256, cue index, language,
    start/end seconds, text, and the video path at indexing time (for display only).
    Re-indexing a video's language replaces that language's cues.
``search_image_text_vec``, ``search_cue_text_vec`` (vec0, float[384], cosine)
    e5 vectors of image documents and of cues; each row carries ``sha256`` and
    ``model`` as vec0 metadata columns, and every KNN filters on ``model``, so
    vectors of two embedding models never meet in one ranking. Two tables rather
    than one with a "kind" column: each kind's rowids come from its own table, and a
    KNN over images never wades through (many more) cue vectors.
``search_visual_vec_<dim>`` (vec0, float[dim], cosine), created lazily
    CLIP image vectors. A vec0 column has a fixed dimension but CLIP models differ
    (512, 768, 1024…), so each dimension gets its own table; ``search_image.visual_dim``
    says where an image's vector lives. Same ``sha256``/``model`` metadata.
``search_image_translation`` (revision ``0008_translations``)
    the machine translations of an image's OCR text, one row per translated OCR line (or kanji compound):
    the source text and language, the translation and its language. Found by their words
    (``search_image_translation_fts``, whole words only) as the OCR text is, and marked as
    translations so a hit can say "matched the translation 'Osaka' of 大阪".
``search_image_name``
    one row per image path: path (unique), the sha256 it held when indexed, its name
    words. Its ``id`` is the rowid of the path's rows in the two name FTS tables.
``search_image_fts`` / ``search_cue_fts`` / ``search_image_name_fts`` (FTS5, ``unicode61 remove_diacritics 2``)
    word search with bm25 ranking for space-separated scripts ("invoice" matches the
    word, not "invoices2" or "concatenate"; those are partial matches, from the
    trigram table and ranked after every whole-word one).
``search_image_trigram`` / ``search_cue_trigram`` / ``search_image_name_trigram`` (FTS5, ``trigram``)
    substring search for scripts written without spaces. unicode61 makes a whole run
    of Chinese or Japanese one token ("发票号码一只猫"), so "猫" could never match;
    trigram indexes every 3-character window. It also finds partial words of any
    script ("invo" in "invoice", "4711" in "RE4711B"). A CJK query term of 3+
    characters is a trigram MATCH; a 1–2 character term (猫, 東京) goes to the ``*_cjk`` table.
``search_image_cjk`` / ``search_cue_cjk`` / ``search_image_name_cjk`` (FTS5, contentless; revision ``0009_cjk_characters``)
    every CJK character of the same texts as its own word (:func:`cjk_characters`), so a
    1–2 character term is a phrase MATCH ("东京" → ``"东 京"``) where trigram cannot
    express it: it was a ``LIKE`` scan of the trigram table, 45–50 ms of a search at 100k
    documents (``bench/search_translated.py``), for every 猫 or 大阪 typed.

Both FTS tables store their own copy of the text (documents and cues are short), so
there is no external-content bookkeeping.

Writes are in :mod:`app.store.search_writes`, queries in :mod:`app.store.search_queries`.
Every function of the three takes a ``sqlalchemy.Connection`` and runs inside the
caller's transaction (it neither begins nor commits): the store decides transaction
boundaries and keeps them short. The connection must have sqlite-vec loaded.

On PostgreSQL (revision 0002) the same tables exist as plain tables: the vector tables
keep these names and columns with ``bytea`` vectors, and each ``*_fts`` table holds the
tokens and folded text that stand in for both FTS5 tables (:mod:`app.store.search_postgres`);
there are no ``*_trigram`` tables.
"""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np
from sqlalchemy import Connection, text

from app.store import search_postgres
from app.store.dialect import is_sqlite

TEXT_DIM = 384

SCHEMA: list[str] = [
    """CREATE TABLE IF NOT EXISTS search_image (
        id INTEGER PRIMARY KEY,
        sha256 TEXT NOT NULL UNIQUE,
        text_model TEXT NOT NULL,
        visual_model TEXT,
        visual_dim INTEGER,
        document TEXT NOT NULL,
        ocr_text TEXT NOT NULL DEFAULT '',
        indexed_at REAL NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS search_cue (
        id INTEGER PRIMARY KEY,
        sha256 TEXT NOT NULL,
        video_path TEXT NOT NULL,
        lang TEXT NOT NULL,
        cue_index INTEGER NOT NULL,
        start_s REAL NOT NULL,
        end_s REAL NOT NULL,
        text TEXT NOT NULL,
        text_model TEXT NOT NULL,
        indexed_at REAL NOT NULL,
        UNIQUE (sha256, lang, cue_index)
    )""",
    f"""CREATE VIRTUAL TABLE IF NOT EXISTS search_image_text_vec USING vec0(
        embedding float[{TEXT_DIM}] distance_metric=cosine, sha256 text, model text)""",
    f"""CREATE VIRTUAL TABLE IF NOT EXISTS search_cue_text_vec USING vec0(
        embedding float[{TEXT_DIM}] distance_metric=cosine, sha256 text, model text)""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS search_image_fts USING fts5(
        document, ocr_text, tokenize='unicode61 remove_diacritics 2')""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS search_image_trigram USING fts5(
        document, ocr_text, tokenize='trigram')""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS search_cue_fts USING fts5(
        text, tokenize='unicode61 remove_diacritics 2')""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS search_cue_trigram USING fts5(
        text, tokenize='trigram')""",
]


IMAGE_NAME_SCHEMA: list[str] = [
    """CREATE TABLE IF NOT EXISTS search_image_name (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        sha256 TEXT NOT NULL,
        words TEXT NOT NULL,
        indexed_at REAL NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS search_image_name_sha256 ON search_image_name(sha256)",
    """CREATE VIRTUAL TABLE IF NOT EXISTS search_image_name_fts USING fts5(
        words, tokenize='unicode61 remove_diacritics 2')""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS search_image_name_trigram USING fts5(
        words, tokenize='trigram')""",
]
"""The per-path name words of images (added after :data:`SCHEMA`, which is migration 3 as it was)."""

PASSAGE_TABLE = "search_image_passage"
PASSAGE_VECTORS = "search_image_passage_vec"
PASSAGE_SCHEMA: list[str] = [
    f"""CREATE TABLE IF NOT EXISTS {PASSAGE_TABLE} (
        id INTEGER PRIMARY KEY,
        image_id INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        passage_index INTEGER NOT NULL,
        text TEXT NOT NULL
    )""",
    f"CREATE INDEX IF NOT EXISTS {PASSAGE_TABLE}_image ON {PASSAGE_TABLE}(image_id)",
    f"""CREATE VIRTUAL TABLE IF NOT EXISTS {PASSAGE_VECTORS} USING vec0(
        embedding float[{TEXT_DIM}] distance_metric=cosine, sha256 text, model text)""",
]
"""The short passages of a long OCR text, each with its own e5 vector (revision ``0007_passages``; SQLite's form).

Why: e5 finds a one-word query in another language ("Osaka") in a short text that says
it (大阪) but not in the vector of a long document that mentions it once among other
lines: there the right document scored 0.79–0.83, below unrelated queries (0.82–0.84).
An image whose OCR text is more than one passage (:func:`app.media.describe.passages`)
therefore also gets a vector per passage, and its text-semantic score is its best
passage's or its document's, whichever is nearer (:func:`~app.store.search_queries.knn_text`).
A text of one passage has only the document vector (the two would be about the same).
Rows belong to their ``search_image`` row (``image_id``) and are replaced with it.
"""


def visual_table(dim: int) -> str:
    """Name of the vec0 table that holds CLIP vectors of dimension ``dim``."""
    if not isinstance(dim, int) or not 1 <= dim <= 8192:
        raise ValueError(f"unusable vector dimension {dim!r}")
    return f"search_visual_vec_{dim}"


def ensure_visual_table(conn: Connection, dim: int) -> str:
    """Create the CLIP vector table for ``dim`` when missing; returns its name."""
    name = visual_table(dim)
    if not is_sqlite(conn):
        search_postgres.ensure_visual_table(conn, name)
        return name
    conn.exec_driver_sql(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {name} USING vec0("
        f"embedding float[{dim}] distance_metric=cosine, sha256 text, model text)"
    )
    return name


def table_exists(conn: Connection, name: str) -> bool:
    """Whether a (lazily created) table is there yet."""
    if not is_sqlite(conn):
        return search_postgres.table_exists(conn, name)
    return (
        conn.execute(text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = :n"), {"n": name}).first()
        is not None
    )


def vector_blob(vector: Sequence[float], dim: int) -> bytes:
    """A vector as vec0 stores it (little-endian float32), refusing a wrong dimension or NaN before SQLite sees it."""
    array = np.asarray(vector, dtype=np.float32).reshape(-1)
    if array.shape[0] != dim:
        raise ValueError(f"vector has {array.shape[0]} dimensions, expected {dim}")
    if not np.all(np.isfinite(array)):
        raise ValueError("vector contains NaN or infinity")
    return array.tobytes()


CJK = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
"""Scripts written without spaces between words: Han, kana, Hangul syllables (a regex class body; CJK punctuation excluded)."""
CJK_RUN = re.compile(f"[{CJK}]+")
CJK_BREAK = "0"
"""The word between two runs of CJK characters in :func:`cjk_characters`: a phrase of characters never spans it."""
CJK_TABLES = {"search_image": ("document", "ocr_text"), "search_image_name": ("words",), "search_cue": ("text",)}
"""Base table → its text columns, each base with a ``<base>_cjk`` character table."""
CJK_SCHEMA: list[str] = [
    f"""CREATE VIRTUAL TABLE IF NOT EXISTS {base}_cjk USING fts5(
        {", ".join(columns)}, content='', contentless_delete=1, tokenize='unicode61')"""
    for base, columns in CJK_TABLES.items()
]
"""The character tables (revision ``0009_cjk_characters``): contentless, the text is the base row's."""


def cjk_characters(text: str | None) -> str:
    """A text's CJK characters, each its own word for unicode61, runs kept apart by :data:`CJK_BREAK`.

    "发票号码 No.5 东京" → ``"发 票 号 码 0 东 京"``: the phrase ``"票 号"`` matches as the
    substring 票号 does, and ``"码 东"`` does not, as 码东 is not in the text.
    """
    return f" {CJK_BREAK} ".join(" ".join(run) for run in CJK_RUN.findall(text or ""))


def cjk_phrase(term: str) -> str:
    """The FTS5 phrase that finds a run of CJK characters in a character table."""
    return '"' + " ".join(term) + '"'


TRANSLATION_TABLE = "search_image_translation"
TRANSLATION_SCHEMA: list[str] = [
    f"""CREATE TABLE IF NOT EXISTS {TRANSLATION_TABLE} (
        id INTEGER PRIMARY KEY,
        image_id INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        source_lang TEXT NOT NULL,
        lang TEXT NOT NULL,
        source_text TEXT NOT NULL,
        text TEXT NOT NULL
    )""",
    f"CREATE INDEX IF NOT EXISTS {TRANSLATION_TABLE}_image ON {TRANSLATION_TABLE}(image_id)",
    f"""CREATE VIRTUAL TABLE IF NOT EXISTS {TRANSLATION_TABLE}_fts USING fts5(
        text, tokenize='unicode61 remove_diacritics 2')""",
]
"""Translations of an image's OCR text into the languages a person searches in (revision ``0008_translations``; SQLite's form).

Why: no query embedding finds "Osaka" in a text that says 大阪 among other lines, and no
installed translator goes from English to Chinese, so a query cannot be carried to the
text; the text is carried to the query instead, once, at indexing
(:mod:`app.media.text_translation`). Rows belong to their ``search_image`` row
(``image_id``) and are replaced with it.

Whole words only (no trigram table): a machine translation's words are the model's, not
the image's, and partial matches in them answered queries about nothing ("tax" in "taxi",
"car" in "card", a translated 猫 "cat" in "certificate"; ``bench/search_relevance.py``).
No e5 vectors either: embedded as passages, the short English lines ("Daily price",
"Registration Bar") sat near unrelated queries, and no-match silence fell from 100 % to 75 %
on the same bench (MRR@10 0.952 → 0.963 was not worth it).
"""
