"""The search index: image documents and dialogue cues, in SQLite with sqlite-vec and FTS5.

Design
------
Everything is keyed by **content** (sha256), not by path: two files with identical
bytes share one set of rows (computed once), a rename or move keeps its vectors, and
an edited file gets new rows under its new sha256. Which paths currently hold which
content is the store's business (its items table); every query here can join to it
(:class:`CurrentContent`), so a row whose sha256 is no item's *current* sha256 is
never returned, even before :func:`delete_for_sha256` removed it.

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
``search_image_fts`` / ``search_cue_fts`` (FTS5, ``unicode61 remove_diacritics 2``)
    word search with bm25 ranking for space-separated scripts ("invoice" matches the
    word, not "invoices2" or "concatenate").
``search_image_trigram`` / ``search_cue_trigram`` (FTS5, ``trigram``)
    substring search for scripts written without spaces. unicode61 makes a whole run
    of Chinese or Japanese one token ("发票号码一只猫"), so "猫" could never match;
    trigram indexes every 3-character window. A CJK query term of 3+ characters is a
    trigram MATCH; a 1–2 character term (猫, 東京) is a ``LIKE`` over the trigram
    table (a scan, fine at desktop scale: ~100k short documents).

Both FTS tables store their own copy of the text (documents and cues are short), so
``snippet()`` works without external-content bookkeeping.

Every function takes a ``sqlalchemy.Connection`` and runs inside the caller's
transaction (it neither begins nor commits): the store decides transaction
boundaries and keeps them short. The connection must have sqlite-vec loaded.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from sqlalchemy import Connection, text

TEXT_DIM = 384
SNIPPET_OPEN, SNIPPET_CLOSE, SNIPPET_ELLIPSIS = "[", "]", "…"
SNIPPET_TOKENS = 12
MAX_KNN_K = 4096  # sqlite-vec's limit on k
RRF_K = 60

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

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Scripts written without spaces between words: Han, kana, Hangul syllables, CJK punctuation excluded.
_CJK = r"\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(rf"[^\W_{_CJK}]+|[{_CJK}]+")


@dataclass(frozen=True)
class CurrentContent:
    """Which paths hold which content right now: a table (or view) of the store's.

    Queries join ``<table>.<sha256_column>`` to the index's sha256 and return
    ``<table>.<path_column>``. Names are checked to be plain identifiers (they are
    spliced into SQL). An optional ``where`` is the store's own SQL condition on that
    table (e.g. ``"kind = 'image'"``), written by the store, never from user input.
    """

    table: str
    path_column: str = "path"
    sha256_column: str = "sha256"
    where: str | None = None

    def __post_init__(self) -> None:
        for name in (self.table, self.path_column, self.sha256_column):
            if not _IDENTIFIER.match(name):
                raise ValueError(f"not a plain SQL identifier: {name!r}")

    def join(self, alias: str, sha_expr: str) -> str:
        """``JOIN <table> AS <alias> ON …`` (plus the store's condition)."""
        condition = f" AND ({self.where})" if self.where else ""
        return f"JOIN {self.table} AS {alias} ON {alias}.{self.sha256_column} = {sha_expr}{condition}"


@dataclass(frozen=True)
class ImageHit:
    """An image content that matched; ``path`` is set when a :class:`CurrentContent` was given.

    ``score``: cosine distance for KNN (0 = same direction, lower is better), the fused
    keyword rank score for FTS (higher is better). Lists are always best first.
    """

    sha256: str
    score: float
    path: str | None = None
    snippet: str = ""


@dataclass(frozen=True)
class CueHit:
    """A dialogue cue that matched; ``start``/``end`` in seconds into the video.

    ``video_path`` is where the video was when its cues were indexed (display only);
    ``path`` is where that content is now, when a :class:`CurrentContent` was given.
    """

    cue_id: int
    sha256: str
    lang: str
    start: float
    end: float
    text: str
    score: float
    path: str | None = None
    snippet: str = ""
    video_path: str = ""


# ----------------------------------------------------------------------------- writes


def visual_table(dim: int) -> str:
    """Name of the vec0 table that holds CLIP vectors of dimension ``dim``."""
    if not isinstance(dim, int) or not 1 <= dim <= 8192:
        raise ValueError(f"unusable vector dimension {dim!r}")
    return f"search_visual_vec_{dim}"


def ensure_visual_table(conn: Connection, dim: int) -> str:
    """Create the CLIP vector table for ``dim`` when missing; returns its name."""
    name = visual_table(dim)
    conn.exec_driver_sql(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {name} USING vec0("
        f"embedding float[{dim}] distance_metric=cosine, sha256 text, model text)"
    )
    return name


def has_image(conn: Connection, sha256: str, *, text_model: str, visual_model: str | None = None) -> bool:
    """True when this content is indexed with these models: the stage can skip all model work."""
    row = conn.execute(
        text("SELECT text_model, visual_model FROM search_image WHERE sha256 = :sha"), {"sha": sha256}
    ).first()
    if row is None or row.text_model != text_model:
        return False
    return visual_model is None or row.visual_model == visual_model


def upsert_image(
    conn: Connection,
    sha256: str,
    *,
    text_model: str,
    text_vector: Sequence[float],
    document: str,
    ocr_text: str = "",
    visual_model: str | None = None,
    visual_vector: Sequence[float] | None = None,
) -> int:
    """Index one image content (replacing what was there for that sha256); returns its row id.

    Without a visual vector the image is still found through its document; a later
    call with one adds it. Identical content in two files is one call, one row.
    """
    text_blob = _blob(text_vector, TEXT_DIM)
    visual_blob, visual_dim = None, None
    if visual_vector is not None:
        if not visual_model:
            raise ValueError("a visual vector needs its model id")
        visual_dim = len(visual_vector)
        visual_blob = _blob(visual_vector, visual_dim)
    now = time.time()
    existing = conn.execute(
        text("SELECT id, visual_dim FROM search_image WHERE sha256 = :sha"), {"sha": sha256}
    ).first()
    params = {
        "sha": sha256,
        "text_model": text_model,
        "visual_model": visual_model if visual_blob is not None else None,
        "visual_dim": visual_dim,
        "document": document,
        "ocr_text": ocr_text or "",
        "now": now,
    }
    if existing is None:
        row_id = conn.execute(
            text(
                "INSERT INTO search_image (sha256, text_model, visual_model, visual_dim, document, ocr_text, indexed_at) "
                "VALUES (:sha, :text_model, :visual_model, :visual_dim, :document, :ocr_text, :now) RETURNING id"
            ),
            params,
        ).scalar_one()
    else:
        row_id = existing.id
        _delete_image_rows(conn, row_id, existing.visual_dim, keep_base=True)
        conn.execute(
            text(
                "UPDATE search_image SET text_model = :text_model, visual_model = :visual_model, "
                "visual_dim = :visual_dim, document = :document, ocr_text = :ocr_text, indexed_at = :now "
                "WHERE id = :id"
            ),
            {**params, "id": row_id},
        )
    conn.execute(
        text("INSERT INTO search_image_text_vec (rowid, embedding, sha256, model) VALUES (:id, :v, :sha, :model)"),
        {"id": row_id, "v": text_blob, "sha": sha256, "model": text_model},
    )
    if visual_blob is not None:
        table = ensure_visual_table(conn, visual_dim)  # type: ignore[arg-type]
        conn.execute(
            text(f"INSERT INTO {table} (rowid, embedding, sha256, model) VALUES (:id, :v, :sha, :model)"),
            {"id": row_id, "v": visual_blob, "sha": sha256, "model": visual_model},
        )
    for table in ("search_image_fts", "search_image_trigram"):
        conn.execute(
            text(f"INSERT INTO {table} (rowid, document, ocr_text) VALUES (:id, :document, :ocr)"),
            {"id": row_id, "document": document, "ocr": ocr_text or ""},
        )
    return int(row_id)


def upsert_dialogue(
    conn: Connection,
    video_path: str,
    sha256: str,
    cues: Sequence[tuple[float, float, str, str]],
    vectors: Sequence[Sequence[float]],
    *,
    text_model: str,
) -> int:
    """Index a video's cues ``(start_s, end_s, text, lang)`` with their e5 passage vectors.

    Every language present in ``cues`` replaces that language's earlier cues for this
    content (re-translating replaces the translation and keeps the transcript).
    Returns the number of cues written.
    """
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
            {"id": cue_id, "v": _blob(vector, TEXT_DIM), "sha": sha256, "model": text_model},
        )
        for table in ("search_cue_fts", "search_cue_trigram"):
            conn.execute(text(f"INSERT INTO {table} (rowid, text) VALUES (:id, :text)"), {"id": cue_id, "text": line})
    return len(cues)


def delete_for_sha256(conn: Connection, sha256: str) -> int:
    """Remove every image and dialogue row of this content; returns how many base rows went.

    The store calls it when no item holds this content any more (deleted file, edited
    file whose old content nobody else has).
    """
    removed = 0
    for row in conn.execute(text("SELECT id, visual_dim FROM search_image WHERE sha256 = :sha"), {"sha": sha256}).all():
        _delete_image_rows(conn, row.id, row.visual_dim, keep_base=False)
        removed += 1
    removed += _delete_cues(conn, "sha256 = :sha", {"sha": sha256})
    return removed


def indexed_sha256s(conn: Connection) -> set[str]:
    """Every content the index holds (images and videos), for garbage collection by the store."""
    rows = conn.execute(text("SELECT sha256 FROM search_image UNION SELECT sha256 FROM search_cue")).scalars()
    return set(rows)


def orphan_sha256s(conn: Connection, current: CurrentContent) -> list[str]:
    """Indexed contents that no current item holds: candidates for :func:`delete_for_sha256`."""
    sql = (
        "SELECT s.sha256 FROM (SELECT sha256 FROM search_image UNION SELECT sha256 FROM search_cue) AS s "
        f"WHERE NOT EXISTS (SELECT 1 FROM {current.table} AS cur WHERE cur.{current.sha256_column} = s.sha256"
        + (f" AND ({current.where})" if current.where else "")
        + ")"
    )
    return list(conn.execute(text(sql)).scalars())


def visual_vector(conn: Connection, sha256: str, model: str) -> list[float] | None:
    """The stored CLIP vector of a content ("more like this" without re-running CLIP)."""
    row = conn.execute(
        text("SELECT id, visual_dim FROM search_image WHERE sha256 = :sha AND visual_model = :model"),
        {"sha": sha256, "model": model},
    ).first()
    if row is None or not row.visual_dim:
        return None
    blob = conn.execute(
        text(f"SELECT embedding FROM {visual_table(row.visual_dim)} WHERE rowid = :id"), {"id": row.id}
    ).scalar()
    return None if blob is None else np.frombuffer(blob, dtype=np.float32).tolist()


def _delete_image_rows(conn: Connection, row_id: int, visual_dim: int | None, *, keep_base: bool) -> None:
    params = {"id": row_id}
    conn.execute(text("DELETE FROM search_image_text_vec WHERE rowid = :id"), params)
    if visual_dim and _table_exists(conn, visual_table(visual_dim)):
        conn.execute(text(f"DELETE FROM {visual_table(visual_dim)} WHERE rowid = :id"), params)
    conn.execute(text("DELETE FROM search_image_fts WHERE rowid = :id"), params)
    conn.execute(text("DELETE FROM search_image_trigram WHERE rowid = :id"), params)
    if not keep_base:
        conn.execute(text("DELETE FROM search_image WHERE id = :id"), params)


def _delete_cues(conn: Connection, where: str, params: dict[str, Any]) -> int:
    ids = list(conn.execute(text(f"SELECT id FROM search_cue WHERE {where}"), params).scalars())
    for cue_id in ids:
        for table in ("search_cue_text_vec", "search_cue_fts", "search_cue_trigram"):
            conn.execute(text(f"DELETE FROM {table} WHERE rowid = :id"), {"id": cue_id})
    if ids:
        conn.execute(text(f"DELETE FROM search_cue WHERE {where}"), params)
    return len(ids)


def _table_exists(conn: Connection, name: str) -> bool:
    return (
        conn.execute(text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = :n"), {"n": name}).first()
        is not None
    )


def _blob(vector: Sequence[float], dim: int) -> bytes:
    array = np.asarray(vector, dtype=np.float32).reshape(-1)
    if array.shape[0] != dim:
        raise ValueError(f"vector has {array.shape[0]} dimensions, expected {dim}")
    if not np.all(np.isfinite(array)):
        raise ValueError("vector contains NaN or infinity")
    return array.tobytes()


# ----------------------------------------------------------------------------- vector queries


def knn_visual(
    conn: Connection, vector: Sequence[float], *, model: str, k: int = 50, current: CurrentContent | None = None
) -> list[ImageHit]:
    """Images whose CLIP vector is nearest ``vector`` (a CLIP text or image vector of ``model``)."""
    dim = len(vector)
    table = visual_table(dim)
    if not _table_exists(conn, table):
        return []
    return [
        ImageHit(sha256=row.sha256, score=float(row.distance), path=row.path)
        for row in _knn(conn, table, vector, dim, model, k, current)
    ]


def knn_text(
    conn: Connection,
    vector: Sequence[float],
    *,
    model: str,
    kind: str = "image",
    k: int = 50,
    current: CurrentContent | None = None,
) -> list[ImageHit] | list[CueHit]:
    """Image documents (``kind="image"``) or dialogue cues (``kind="cue"``) nearest an e5 query vector."""
    if kind == "image":
        return [
            ImageHit(sha256=row.sha256, score=float(row.distance), path=row.path)
            for row in _knn(conn, "search_image_text_vec", vector, TEXT_DIM, model, k, current)
        ]
    if kind != "cue":
        raise ValueError(f"unknown kind {kind!r}")
    rows = _knn(conn, "search_cue_text_vec", vector, TEXT_DIM, model, k, current, cues=True)
    return [_cue_hit(row, float(row.distance), row.text) for row in rows]


def _knn(
    conn: Connection,
    table: str,
    vector: Sequence[float],
    dim: int,
    model: str,
    k: int,
    current: CurrentContent | None,
    cues: bool = False,
) -> list[Any]:
    """KNN filtered on model, then joined to the current contents.

    vec0 finds the nearest rows first and the join drops stale ones afterwards, so
    when stale rows crowd the top we ask for more (doubling, up to sqlite-vec's
    4096) until ``k`` distinct contents survive or the table has no more.
    """
    if k <= 0:
        return []
    blob = _blob(vector, dim)
    fetch = min(MAX_KNN_K, max(k * 2, 16) if current is not None else k)
    while True:
        knn = (
            f"SELECT rowid AS id, distance, sha256 FROM {table} "
            "WHERE embedding MATCH :v AND k = :fetch AND model = :model"
        )
        select = "knn.id, knn.distance, knn.sha256"
        joins = ""
        if cues:
            select += ", c.lang, c.start_s, c.end_s, c.text, c.video_path"
            joins += " JOIN search_cue AS c ON c.id = knn.id"
        if current is not None:
            select += f", cur.{current.path_column} AS path"
            joins += " " + current.join("cur", "knn.sha256")
        else:
            select += ", NULL AS path"
        sql = f"WITH knn AS MATERIALIZED ({knn}) SELECT {select} FROM knn{joins} ORDER BY knn.distance, knn.id"
        rows = conn.execute(text(sql), {"v": blob, "fetch": fetch, "model": model}).all()
        kept = _first_k_units(rows, k, cues)
        units = len({(r.id if cues else r.sha256) for r in kept})
        if units >= k or fetch >= MAX_KNN_K or current is None or fetch >= _count(conn, table, model):
            return kept
        fetch = min(MAX_KNN_K, fetch * 4)


def _first_k_units(rows: Sequence[Any], k: int, cues: bool) -> list[Any]:
    """Rows of the first ``k`` distinct contents (images) or cues; all paths of each are kept."""
    seen: set[Any] = set()
    kept = []
    for row in rows:
        unit = row.id if cues else row.sha256
        if unit not in seen:
            if len(seen) == k:
                break
            seen.add(unit)
        kept.append(row)
    return kept


def _count(conn: Connection, table: str, model: str) -> int:
    return int(conn.execute(text(f"SELECT count(*) FROM {table} WHERE model = :m"), {"m": model}).scalar() or 0)


# ----------------------------------------------------------------------------- keyword queries


def split_query(query: str) -> tuple[list[str], list[str]]:
    """``(words, cjk_runs)``: space-separated words for unicode61, CJK runs for trigram/LIKE."""
    words: list[str] = []
    runs: list[str] = []
    for token in _WORD.findall(query.lower()):
        target = runs if _CJK_RUN.fullmatch(token) else words
        if token not in target:
            target.append(token)
    return words, runs


def fts_images(conn: Connection, query: str, *, k: int = 50, current: CurrentContent | None = None) -> list[ImageHit]:
    """Images whose document or OCR text contains the query's words (any of them; more is better)."""
    ranked = _fts(conn, "image", query, k, current)
    return [ImageHit(sha256=r.sha256, score=score, path=r.path, snippet=snip) for r, score, snip in ranked]


def fts_dialogue(conn: Connection, query: str, *, k: int = 50, current: CurrentContent | None = None) -> list[CueHit]:
    """Dialogue cues whose text contains the query's words."""
    return [_cue_hit(r, score, snip) for r, score, snip in _fts(conn, "cue", query, k, current)]


def _fts(conn: Connection, kind: str, query: str, k: int, current: CurrentContent | None) -> list[tuple[Any, float, str]]:
    """Run the word list and each CJK run as separate rankings and fuse them (reciprocal rank).

    A document matching more of the query's parts ranks higher; within one part
    FTS5's bm25 orders the word matches.
    """
    words, runs = split_query(query)
    if k <= 0 or not (words or runs):
        return []
    base, fts, tri = ("search_image", "search_image_fts", "search_image_trigram") if kind == "image" else (
        "search_cue", "search_cue_fts", "search_cue_trigram"
    )
    columns = ("document", "ocr_text") if kind == "image" else ("text",)
    select = "b.id, b.sha256" + (", b.lang, b.start_s, b.end_s, b.text, b.video_path" if kind == "cue" else "")
    select += f", cur.{current.path_column} AS path" if current is not None else ", NULL AS path"
    join = current.join("cur", "b.sha256") if current is not None else ""
    limit = min(MAX_KNN_K, k * 4)
    rankings: list[list[tuple[Any, str]]] = []
    if words:
        match = " OR ".join(_fts_phrase(w) for w in words)
        rankings.append(_fts_query(conn, fts, base, select, join, match, limit))
    for run in runs:
        if len(run) >= 3:
            rankings.append(_fts_query(conn, tri, base, select, join, _fts_phrase(run), limit))
        else:
            rankings.append(_like_query(conn, tri, base, select, join, run, limit, columns))
    fused: dict[Any, list[Any]] = {}
    for ranking in rankings:
        for rank, (row, snippet) in enumerate(ranking):
            key = (row.id, row.path)
            entry = fused.setdefault(key, [row, 0.0, snippet])
            entry[1] += 1.0 / (RRF_K + rank + 1)
    ordered = sorted(fused.values(), key=lambda e: (-e[1], e[0].id))
    units: set[Any] = set()
    result = []
    for row, score, snippet in ordered:
        unit = row.sha256 if kind == "image" else row.id
        if unit not in units:
            if len(units) == k:
                break
            units.add(unit)
        result.append((row, score, snippet))
    return result


def _fts_phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _fts_query(
    conn: Connection, fts: str, base: str, select: str, join: str, match: str, limit: int
) -> list[tuple[Any, str]]:
    snippet = f"snippet({fts}, -1, :open, :close, :ellipsis, {SNIPPET_TOKENS})"
    sql = (
        f"SELECT {select}, {snippet} AS snip FROM {fts} JOIN {base} AS b ON b.id = {fts}.rowid {join} "
        f"WHERE {fts} MATCH :match ORDER BY bm25({fts}), b.id LIMIT :limit"
    )
    rows = conn.execute(
        text(sql),
        {"match": match, "limit": limit, "open": SNIPPET_OPEN, "close": SNIPPET_CLOSE, "ellipsis": SNIPPET_ELLIPSIS},
    ).all()
    return [(row, row.snip or "") for row in rows]


def _like_query(
    conn: Connection, fts: str, base: str, select: str, join: str, term: str, limit: int, columns: Sequence[str]
) -> list[tuple[Any, str]]:
    """Substring match for 1–2 character CJK terms, which trigram MATCH cannot express."""
    pattern = "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    condition = " OR ".join(f"{fts}.{c} LIKE :pattern ESCAPE '\\'" for c in columns)
    sql = (
        f"SELECT {select}, {', '.join(f'{fts}.{c} AS col_{c}' for c in columns)} FROM {fts} "
        f"JOIN {base} AS b ON b.id = {fts}.rowid {join} WHERE {condition} ORDER BY b.id LIMIT :limit"
    )
    rows = conn.execute(text(sql), {"pattern": pattern, "limit": limit}).all()
    result = []
    for row in rows:
        found = next((getattr(row, f"col_{c}") for c in columns if term in (getattr(row, f"col_{c}") or "").lower()), "")
        result.append((row, _window(found, term)))
    return result


def _window(haystack: str, term: str, width: int = 30) -> str:
    at = haystack.lower().find(term)
    if at < 0:
        return haystack[: width * 2]
    start, end = max(0, at - width), min(len(haystack), at + len(term) + width)
    return (
        (SNIPPET_ELLIPSIS if start else "")
        + haystack[start:at]
        + SNIPPET_OPEN + haystack[at : at + len(term)] + SNIPPET_CLOSE
        + haystack[at + len(term) : end]
        + (SNIPPET_ELLIPSIS if end < len(haystack) else "")
    )


def _cue_hit(row: Any, score: float, snippet: str) -> CueHit:
    return CueHit(
        cue_id=int(row.id),
        sha256=row.sha256,
        lang=row.lang,
        start=float(row.start_s),
        end=float(row.end_s),
        text=row.text,
        score=score,
        path=row.path,
        snippet=snippet,
        video_path=row.video_path,
    )
