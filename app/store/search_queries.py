"""Queries over the search index (tables in :mod:`app.store.search_schema`), and the one rank fusion.

Vector queries (KNN over sqlite-vec) and keyword queries (FTS5 words, trigram/LIKE for
scripts written without spaces) return hits best first. Every query can join to the
store's current contents (:class:`CurrentContent`), so a row whose sha256 is no
item's *current* sha256 is never returned, even before it was deleted.

Rankings whose scores cannot be compared are combined by **reciprocal rank fusion**
(:func:`reciprocal_rank_fusion`): the keyword parts of one query here, and the
vector and keyword lists of a whole search in :mod:`app.engine.search`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Sequence

import numpy as np
from sqlalchemy import Connection, text

from app.store import vector_index
from app.store.search_schema import TEXT_DIM, table_exists, vector_blob, visual_table

SNIPPET_OPEN, SNIPPET_CLOSE, SNIPPET_ELLIPSIS = "[", "]", "…"
SNIPPET_TOKENS = 12
MAX_KNN_K = 4096  # sqlite-vec's limit on k
RRF_K = 60
"""The constant of Cormack et al. (2009); it damps the head of each list so one list cannot dominate."""

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


def reciprocal_rank_fusion(
    rankings: Iterable[Sequence[Hashable]], *, k: int = RRF_K, weights: Sequence[float] | None = None
) -> list[tuple[Hashable, float]]:
    """Fuse ranked lists of keys (best first) into one list of ``(key, score)``, best first.

    Each list contributes ``weight / (k + rank)`` to a key, which rewards agreement
    between lists without calibrating their scores. A key repeated inside one list
    counts at its best rank only. Ties keep the order in which keys were first seen,
    so the result is deterministic.
    """
    scores: dict[Hashable, float] = {}
    for index, ranking in enumerate(rankings):
        weight = 1.0 if weights is None else float(weights[index])
        seen: set[Hashable] = set()
        for rank, key in enumerate(ranking, start=1):
            if key in seen:
                continue
            seen.add(key)
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    order = {key: i for i, key in enumerate(scores)}
    return sorted(scores.items(), key=lambda item: (-item[1], order[item[0]]))


# ----------------------------------------------------------------------------- content


def has_image(conn: Connection, sha256: str, *, text_model: str, visual_model: str | None = None) -> bool:
    """True when this content is indexed with these models: the stage can skip all model work."""
    row = conn.execute(
        text("SELECT text_model, visual_model FROM search_image WHERE sha256 = :sha"), {"sha": sha256}
    ).first()
    if row is None or row.text_model != text_model:
        return False
    return visual_model is None or row.visual_model == visual_model


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


# ----------------------------------------------------------------------------- vector queries


def knn_visual(
    conn: Connection,
    vector: Sequence[float],
    *,
    model: str,
    k: int = 50,
    current: CurrentContent | None = None,
    exact: bool = False,
) -> list[ImageHit]:
    """Images whose CLIP vector is nearest ``vector`` (a CLIP text or image vector of ``model``).

    ``exact`` asks sqlite-vec instead of the in-process index (the same answer, slower;
    the bench and tests compare the two).
    """
    dim = len(vector)
    table = visual_table(dim)
    if not table_exists(conn, table):
        return []
    return [
        ImageHit(sha256=row.sha256, score=float(row.distance), path=row.path)
        for row in _knn(conn, table, vector, dim, model, k, current, exact=exact)
    ]


def knn_text(
    conn: Connection,
    vector: Sequence[float],
    *,
    model: str,
    kind: str = "image",
    k: int = 50,
    current: CurrentContent | None = None,
    exact: bool = False,
) -> list[ImageHit] | list[CueHit]:
    """Image documents (``kind="image"``) or dialogue cues (``kind="cue"``) nearest an e5 query vector."""
    if kind == "image":
        return [
            ImageHit(sha256=row.sha256, score=float(row.distance), path=row.path)
            for row in _knn(conn, "search_image_text_vec", vector, TEXT_DIM, model, k, current, exact=exact)
        ]
    if kind != "cue":
        raise ValueError(f"unknown kind {kind!r}")
    rows = _knn(conn, "search_cue_text_vec", vector, TEXT_DIM, model, k, current, cues=True, exact=exact)
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
    exact: bool = False,
) -> list[Any]:
    """KNN filtered on model, then joined to the current contents.

    The nearest rows come from the in-process index (:mod:`app.store.vector_index`)
    or, with ``exact`` or when the index cannot answer for this snapshot, from vec0.
    The join drops stale ones afterwards, so when stale rows crowd the top we ask for
    more (up to sqlite-vec's 4096 on the SQL path) until ``k`` distinct contents
    survive or the table has no more.
    """
    if k <= 0:
        return []
    blob = vector_blob(vector, dim)
    if not exact:
        # Candidates cost nothing to rank here but each costs a join below: over-fetch by a quarter.
        fetch = k + max(16, k // 4) if current is not None else k
        index = vector_index.index_for(conn)
        base = "search_cue" if cues else "search_image"
        while True:
            found = index.nearest(conn, table, model, np.frombuffer(blob, dtype=np.float32), fetch)
            if found is None:
                break
            candidates, available = found
            nearest = (
                "SELECT CAST(json_extract(j.value, '$[0]') AS INTEGER) AS id, json_extract(j.value, '$[1]') AS distance, "
                f"b.sha256 AS sha256 FROM json_each(:candidates) AS j "
                f"JOIN {base} AS b ON b.id = CAST(json_extract(j.value, '$[0]') AS INTEGER)"
            )
            kept, units = _current_rows(conn, nearest, {"candidates": json.dumps(candidates)}, k, current, cues)
            if units >= k or current is None or fetch >= available:
                return kept
            fetch *= 4
    fetch = min(MAX_KNN_K, max(k * 2, 16) if current is not None else k)
    while True:
        nearest = (
            f"SELECT rowid AS id, distance, sha256 FROM {table} "
            "WHERE embedding MATCH :v AND k = :fetch AND model = :model"
        )
        kept, units = _current_rows(conn, nearest, {"v": blob, "fetch": fetch, "model": model}, k, current, cues)
        if units >= k or fetch >= MAX_KNN_K or current is None or fetch >= _count(conn, table, model):
            return kept
        fetch = min(MAX_KNN_K, fetch * 4)


def _current_rows(
    conn: Connection, nearest: str, params: dict[str, Any], k: int, current: CurrentContent | None, cues: bool
) -> tuple[list[Any], int]:
    """Rows of the first ``k`` units among ``nearest`` (SQL yielding id, distance, sha256) that current items hold.

    Returns the rows and how many distinct units (contents or cues) they hold.
    """
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
    sql = f"WITH knn AS MATERIALIZED ({nearest}) SELECT {select} FROM knn{joins} ORDER BY knn.distance, knn.id"
    kept = _first_k_units(conn.execute(text(sql), params).all(), k, cues)
    return kept, len({(r.id if cues else r.sha256) for r in kept})


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
    first_seen: dict[Hashable, tuple[Any, str]] = {}
    for ranking in rankings:
        for row, snippet in ranking:
            first_seen.setdefault((row.id, row.path), (row, snippet))
    fused = reciprocal_rank_fusion([[(row.id, row.path) for row, _ in ranking] for ranking in rankings])
    # Equal scores (one part each) order by row id, not by which part found the row first.
    ordered = sorted(((*first_seen[key], score) for key, score in fused), key=lambda e: (-e[2], e[0].id))
    units: set[Any] = set()
    result = []
    for row, snippet, score in ordered:
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
