"""Queries over the search index (tables in :mod:`app.store.search_schema`), and the one rank fusion.

Vector queries (KNN over sqlite-vec) and keyword queries (FTS5 words, trigram and
character tables for scripts written without spaces) return hits best first. Every query can join to the
store's current contents (:class:`CurrentContent`), so a row whose sha256 is no
item's *current* sha256 is never returned, even before it was deleted.

Rankings whose scores cannot be compared are combined by **reciprocal rank fusion**
(:func:`reciprocal_rank_fusion`): the keyword parts of one query here, and the
vector and keyword lists of a whole search in :mod:`app.engine.search`.

Keyword search ranks words within a bounded candidate set per term
(:data:`CANDIDATES_PER_TERM`), so a common word does not rank half a large library,
and finds partial words ("invo" → "invoice") through the trigram table, after the
whole-word matches.

The same queries run on SQLite and PostgreSQL: the only keyword SQL that differs is one
term's match and score (:func:`_term_sql`, PostgreSQL's in :mod:`app.store.search_postgres`),
and on PostgreSQL every KNN comes from the in-process index (no vec0, no pgvector).

Over 400 lines, kept whole: vector and keyword queries share the hit types, the
current-content join and the fusion, and callers use them as one query API.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any, Hashable, Iterable, Literal, Sequence, overload

import numpy as np
from sqlalchemy import Connection, text

from app.shown_names import unescape
from app.store import search_postgres, vector_index
from app.store.dialect import is_sqlite
from app.store.search_schema import (CJK, CJK_RUN, PASSAGE_TABLE, PASSAGE_VECTORS, TEXT_DIM, TRANSLATION_TABLE, cjk_phrase,
                                     table_exists, vector_blob, visual_table)

SNIPPET_OPEN, SNIPPET_CLOSE, SNIPPET_ELLIPSIS = "[", "]", "…"
SNIPPET_CONTEXT = 30
"""Characters of context on each side of the first match in a snippet."""
MAX_KNN_K = 4096  # sqlite-vec's limit on k
RRF_K = 60
"""The constant of Cormack et al. (2009); it damps the head of each list so one list cannot dominate."""

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_WORD = re.compile(rf"[^\W_{CJK}]+|[{CJK}]+")


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

    def join(self, alias: str, sha_expr: str, path_expr: str | None = None) -> str:
        """``JOIN <table> AS <alias> ON …`` (plus the store's condition); ``path_expr`` also pins the path."""
        condition = f" AND ({self.where})" if self.where else ""
        if path_expr is not None:
            condition = f" AND {alias}.{self.path_column} = {path_expr}" + condition
        return f"JOIN {self.table} AS {alias} ON {alias}.{self.sha256_column} = {sha_expr}{condition}"


@dataclass(frozen=True)
class ImageHit:
    """An image content that matched; ``path`` is set when a :class:`CurrentContent` was given.

    ``score``: cosine distance for KNN (0 = same direction, lower is better), the fused
    keyword rank score for FTS (higher is better). Lists are always best first.
    ``exact``: a keyword hit that holds a query word as a whole word (or a CJK run as
    written), not only inside a longer word; search ranks it above a semantic-only hit
    of the same fused score. ``translated_from``: the OCR text whose machine translation
    held the words (the snippet is cut from the translation); empty for a match in the
    image's own text or name.
    """

    sha256: str
    score: float
    path: str | None = None
    snippet: str = ""
    exact: bool = False
    translated_from: str = ""


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
    exact: bool = False  # as ImageHit.exact


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


def text_languages(conn: Connection) -> set[str]:
    """The languages of the library's searchable texts: its dialogue's, and both ends of its images' translations.

    What a query is translated into (:mod:`app.engine.query_translation`); a scan of the
    cue rows, so the caller keeps the answer a while.
    """
    sql = (f"SELECT lang FROM search_cue UNION SELECT lang FROM {TRANSLATION_TABLE} "
           f"UNION SELECT source_lang FROM {TRANSLATION_TABLE}")
    return {str(lang) for lang in conn.execute(text(sql)).scalars() if lang}


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
        ImageHit(sha256=row.sha256, score=float(row.distance), path=_path(row.path))
        for row in _knn(conn, table, vector, dim, model, k, current, exact=exact)
    ]


@overload
def knn_text(conn: Connection, vector: Sequence[float], *, model: str, kind: Literal["image"] = "image", k: int = 50,
             current: CurrentContent | None = None, exact: bool = False) -> list[ImageHit]: ...


@overload
def knn_text(conn: Connection, vector: Sequence[float], *, model: str, kind: Literal["cue"], k: int = 50,
             current: CurrentContent | None = None, exact: bool = False) -> list[CueHit]: ...


@overload
def knn_text(conn: Connection, vector: Sequence[float], *, model: str, kind: str, k: int = 50,
             current: CurrentContent | None = None, exact: bool = False) -> list[ImageHit] | list[CueHit]: ...


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
    """Image documents (``kind="image"``) or dialogue cues (``kind="cue"``) nearest an e5 query vector.

    An image's distance is that of its document vector or of its nearest passage
    (:data:`~app.store.search_schema.PASSAGE_SCHEMA`), whichever is nearer: a long OCR text
    is found by the one line that means the query.
    """
    if kind == "image":
        rows = [*_knn(conn, "search_image_text_vec", vector, TEXT_DIM, model, k, current, exact=exact),
                *_knn(conn, PASSAGE_VECTORS, vector, TEXT_DIM, model, k, current, exact=exact, base=PASSAGE_TABLE)]
        nearest: dict[tuple[str, str | None], Any] = {}
        for row in sorted(rows, key=lambda r: (r.distance, r.sha256)):
            nearest.setdefault((row.sha256, row.path), row)
        return [ImageHit(sha256=row.sha256, score=float(row.distance), path=_path(row.path))
                for row in _first_k_units(list(nearest.values()), k, cues=False)]
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
    base: str | None = None,
) -> list[Any]:
    """KNN filtered on model, then joined to the current contents.

    ``base`` is the table whose ``id`` is the vector table's ``rowid`` and which holds the
    ``sha256`` (default: the image or cue rows).

    The nearest rows come from the in-process index (:mod:`app.store.vector_index`)
    or, with ``exact`` or when the index cannot answer for this snapshot, from vec0
    on SQLite and from a scan of the stored vectors on PostgreSQL (no pgvector).
    The join drops stale ones afterwards, so when stale rows crowd the top we ask for
    more (up to sqlite-vec's 4096 on the SQL path) until ``k`` distinct contents
    survive or the table has no more.
    """
    if k <= 0:
        return []
    blob = vector_blob(vector, dim)
    sqlite = is_sqlite(conn)
    if not exact or not sqlite:
        # Candidates cost nothing to rank here but each costs a join below: over-fetch by a quarter.
        fetch = k + max(16, k // 4) if current is not None else k
        index = vector_index.index_for(conn, None if sqlite else search_postgres.PostgresVectorRows())
        base = base or ("search_cue" if cues else "search_image")
        query = np.frombuffer(blob, dtype=np.float32)
        while True:
            found = None if exact else index.nearest(conn, table, model, query, fetch)
            if found is None:
                if sqlite:
                    break
                found = vector_index.scan_nearest(conn, index.rows, table, dim, model, query, fetch)
            candidates, available = found
            if sqlite:
                nearest = (
                    "SELECT CAST(json_extract(j.value, '$[0]') AS INTEGER) AS id, json_extract(j.value, '$[1]') AS distance, "
                    f"b.sha256 AS sha256 FROM json_each(:candidates) AS j "
                    f"JOIN {base} AS b ON b.id = CAST(json_extract(j.value, '$[0]') AS INTEGER)"
                )
                params: dict[str, Any] = {"candidates": json.dumps(candidates)}
            else:
                nearest = search_postgres.candidates_sql(base)
                params = {"ids": [c[0] for c in candidates], "distances": [c[1] for c in candidates]}
            kept, units = _current_rows(conn, nearest, params, k, current, cues)
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
    """``(words, cjk_runs)``: space-separated words for unicode61, CJK runs for trigram (3+ characters) or the character tables."""
    words: list[str] = []
    runs: list[str] = []
    for token in _WORD.findall(query.lower()):
        target = runs if CJK_RUN.fullmatch(token) else words
        if token not in target:
            target.append(token)
    return words, runs


def fts_images(conn: Connection, query: str, *, k: int = 50, current: CurrentContent | None = None,
               partial: bool = True) -> list[ImageHit]:
    """Images whose document, OCR text or own file/folder name contains the query's words (any of them; more is better).

    A content's document is shared by all its paths; a name only finds its own path. The
    machine translations of its OCR text are searched as its text is; a hit found only there
    says so (``translated_from``). Without ``partial``, whole words only (a machine-translated
    query: its words are complete, and their fragments match unrelated words).
    """
    ranked = _fts(conn, "image", query, k, current, partial)
    return [ImageHit(sha256=r.sha256, score=score, path=_path(r.path), snippet=snip, exact=exact,
                     translated_from=getattr(r, "source_text", "") or "")
            for r, score, snip, exact in ranked]


def fts_dialogue(conn: Connection, query: str, *, k: int = 50, current: CurrentContent | None = None,
                 partial: bool = True) -> list[CueHit]:
    """Dialogue cues whose text contains the query's words (``partial``: as :func:`fts_images`)."""
    return [_cue_hit(r, score, snip, exact) for r, score, snip, exact in _fts(conn, "cue", query, k, current, partial)]


@dataclass(frozen=True)
class _KeywordTables:
    base: str
    words: str  # FTS5 unicode61: whole words, bm25
    trigram: str  # FTS5 trigram: substrings
    columns: tuple[str, ...]
    per_path: bool = False  # rows belong to one path (its name words), not to a content
    shown: tuple[str, ...] = ()  # more base columns a hit carries (a translation's source text)
    partial: bool = True  # partial words and CJK runs through the trigram table; else whole words only


_KEYWORD_TABLES = {
    "image": (_KeywordTables("search_image", "search_image_fts", "search_image_trigram", ("document", "ocr_text")),
              _KeywordTables("search_image_name", "search_image_name_fts", "search_image_name_trigram", ("words",),
                             per_path=True),
              _KeywordTables(TRANSLATION_TABLE, f"{TRANSLATION_TABLE}_fts", "", ("text",), shown=("source_text",),
                             partial=False)),
    "cue": (_KeywordTables("search_cue", "search_cue_fts", "search_cue_trigram", ("text",)),),
}
PARTIAL_MIN_CHARS = 3
"""A word this long also matches inside longer words ("invo" → "invoice"); shorter ones match whole words only.

Three characters is the trigram index's unit; a one- or two-letter fragment would
match most of the vocabulary while someone is still typing.
"""


def _fts(conn: Connection, kind: str, query: str, k: int, current: CurrentContent | None, partial: bool = True
         ) -> list[tuple[Any, float, str, bool]]:
    """Run the words and each CJK run as separate rankings and fuse them (reciprocal rank).

    A document matching more of the query's parts ranks higher; within the words'
    ranking whole-word matches come before partial ones (:func:`_word_ranking`).
    Returns ``(row, score, snippet, exact)``: ``exact`` when any part matched whole.
    """
    words, runs = split_query(query)
    if k <= 0 or not (words or runs):
        return []
    limit = min(MAX_KNN_K, k * 4)
    rankings: list[list[_Match]] = []
    for tables in _KEYWORD_TABLES[kind]:
        select = "b.id, b.sha256" + (", b.lang, b.start_s, b.end_s, b.video_path" if kind == "cue" else "")
        select += "".join(f", b.{column}" for column in (*tables.columns, *tables.shown))
        select += f", cur.{current.path_column} AS path" if current is not None else ", NULL AS path"
        join = "" if current is None else current.join("cur", "b.sha256", "b.path" if tables.per_path else None)
        whole_only = not (partial and tables.partial)
        if words:
            rankings.append(_fts_query(conn, tables, False, select, join, words, limit) if whole_only
                            else _word_ranking(conn, tables, select, join, words, limit))
        for run in [] if whole_only else runs:
            if len(run) >= 3:
                rankings.append(_fts_query(conn, tables, True, select, join, [run], limit))
            else:
                rankings.append(_like_query(conn, tables, select, join, run, limit))

    def result_key(row: Any) -> Hashable:
        """An image result is a path of a content (its rows come from two tables), a cue result is the cue."""
        return (row.sha256 if kind == "image" else row.id, row.path)

    first_seen: dict[Hashable, _Match] = {}
    exact: set[Hashable] = set()
    for ranking in rankings:
        for match in ranking:
            first_seen.setdefault(result_key(match.row), match)
            if match.exact:
                exact.add(result_key(match.row))
    fused = reciprocal_rank_fusion([[result_key(match.row) for match in ranking] for ranking in rankings])
    # Equal scores (one part each) order by row id, not by which part found the row first.
    ordered = sorted(((first_seen[key], score) for key, score in fused), key=lambda e: (-e[1], e[0].row.id))
    units: set[Any] = set()
    result = []
    for match, score in ordered:
        unit = match.row.sha256 if kind == "image" else match.row.id
        if unit not in units:
            if len(units) == k:
                break
            units.add(unit)
        result.append((match.row, score, match.snippet(), result_key(match.row) in exact))
    return result


@dataclass(frozen=True)
class _Match:
    """A keyword hit and what its snippet is cut from: only hits that make the final list get one.

    Each part of a query ranks up to four times the rows the caller shows, and cutting a
    snippet (a regex over the row's texts) cost more than ranking them.
    """

    row: Any
    columns: tuple[str, ...]
    terms: tuple[str, ...]
    whole_words: bool
    exact: bool = True  # False for a word found only inside a longer one

    def snippet(self) -> str:
        return _snippet([getattr(self.row, c) for c in self.columns], self.terms, whole_words=self.whole_words)


def _word_ranking(
    conn: Connection, tables: _KeywordTables, select: str, join: str, words: Sequence[str], limit: int
) -> list[_Match]:
    """Whole-word matches of any word (bm25), then documents where a word is only part of a longer one.

    Partial matches ("invo" in "invoice", "4711" in "RE4711B") come from the trigram
    table, ranked by its own bm25 after every whole-word match, so typing a whole word
    never lets a near miss outrank it. When whole words already fill the list the
    partial query is not run: none of its hits could make the cut.
    """
    whole = _fts_query(conn, tables, False, select, join, words, limit)
    partial_words = [w for w in words if len(w) >= PARTIAL_MIN_CHARS]
    if len(whole) >= limit or not partial_words:
        return whole
    seen = {(m.row.id, m.row.path) for m in whole}
    partial = _fts_query(conn, tables, True, select, join, partial_words, limit)
    return whole + [replace(m, exact=False) for m in partial if (m.row.id, m.row.path) not in seen][: limit - len(whole)]


def _fts_phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _fts_query(
    conn: Connection, tables: _KeywordTables, trigram: bool, select: str, join: str, terms: Sequence[str], limit: int
) -> list[_Match]:
    """The best ``limit`` rows matching any of ``terms`` (words or trigram table) by bm25, joined to their current paths.

    Each term is ranked within its bounded candidates (:data:`CANDIDATES_PER_TERM`).
    FTS5's bm25 of an OR query is the sum of its phrases' own bm25 (each with its IDF
    over the whole table), so summing per-term scores ranks as the OR query would,
    restricted to those candidates. Only the best are joined to the base table and
    the current contents; rows whose content is no longer current are dropped by the
    join, and when they crowd the head of the ranking more of it is joined. Snippets
    are cut from the joined text (:meth:`_Match.snippet`): FTS5's ``snippet()`` needs its
    match cursor on each row, and looking rows of a common word up again cost more
    than ranking them.
    """
    parts: list[str] = []
    params: dict[str, Any] = {}
    for i, term in enumerate(terms):
        fts, source, match, score, term_params = _term_sql(conn, tables, trigram, term, f"m{i}")
        params.update(term_params)
        cutoff = conn.execute(
            text(f"SELECT {fts}.rowid FROM {fts} WHERE {match} ORDER BY {fts}.rowid DESC LIMIT 1 OFFSET :skip"),
            {**term_params, "skip": CANDIDATES_PER_TERM},
        ).scalar()
        newest = ""
        if cutoff is not None:
            params[f"c{i}"], newest = cutoff, f" AND {fts}.rowid > :c{i}"
        parts.append(f"SELECT {fts}.rowid AS id, {score} AS r FROM {source} WHERE {match}{newest}")
    ranked = (f"SELECT id, sum(r) AS score FROM ({' UNION ALL '.join(parts)}) AS parts "
              "GROUP BY id ORDER BY score, id LIMIT :fetch")
    sql = (
        f"WITH hits AS MATERIALIZED ({ranked}) SELECT {select}, (SELECT count(*) FROM hits) AS fetched "
        f"FROM hits JOIN {tables.base} AS b ON b.id = hits.id {join} ORDER BY hits.score, hits.id, path LIMIT :limit"
    )
    fetch = limit * 2 if join else limit
    while True:
        rows = conn.execute(text(sql), {**params, "fetch": fetch, "limit": limit}).all()
        if len(rows) < limit and join:
            fetched = rows[0].fetched if rows else conn.execute(
                text(f"SELECT count(*) FROM ({ranked}) AS ranked"), {**params, "fetch": fetch}).scalar_one()
            if fetched >= fetch:  # stale rows took places in the head of the ranking
                fetch *= 4
                continue
        return [_Match(row, tables.columns, tuple(terms), not trigram) for row in rows]


CANDIDATES_PER_TERM = 2000
"""How many of a term's matches bm25 ranks: all of them up to this many, else the newest this many.

A common word is in a large share of a big library ("receipt" in 26k of 100k
documents); ranking every match, then joining and sorting them, cost 90–330 ms for
one such word at 100k and 250–480 ms for two (``python -m bench.word_search``, the
range is the machine's load), while only the best few hundred are ever shown. Such a word says little about which
of its documents is meant (its IDF is small), so it is ranked among its most recently indexed matches, while a rare word
of the same query (an invoice number) is ranked over all of its matches.
"""


def _term_sql(
    conn: Connection, tables: _KeywordTables, trigram: bool, term: str, param: str
) -> tuple[str, str, str, str, dict[str, Any]]:
    """``(table, FROM, condition, score, params)`` of one query term: the only keyword SQL that differs by backend.

    ``table.rowid`` is the base row's id and a lower score is better, on both: FTS5's
    ``rank`` on SQLite, the same bm25 over the stored tokens on PostgreSQL
    (:mod:`app.store.search_postgres`).
    """
    if is_sqlite(conn):
        fts = tables.trigram if trigram else tables.words
        return fts, fts, f"{fts} MATCH :{param}", "rank", {param: _fts_phrase(term)}
    source, score = search_postgres.bm25(tables.words, trigram, param)
    match = search_postgres.term_match(tables.words, trigram, param)
    return tables.words, source, match, score, search_postgres.term_params(param, term, trigram)


def _like_query(
    conn: Connection, tables: _KeywordTables, select: str, join: str, term: str, limit: int
) -> list[_Match]:
    """Substring match for 1–2 character CJK terms, which trigram MATCH cannot express: the first ``limit`` rows by id.

    On SQLite a phrase of the term's characters in the base table's character table
    (:data:`~app.store.search_schema.CJK_SCHEMA`), the same rows a ``LIKE`` finds without
    scanning every text; on PostgreSQL its trigram ``LIKE``.
    """
    if is_sqlite(conn):
        fts, pattern = f"{tables.base}_cjk", cjk_phrase(term)
        condition = f"{fts} MATCH :pattern"
    else:
        fts, pattern = tables.words, search_postgres.like_pattern(term)
        condition = search_postgres.term_match(fts, True, "pattern")
    sql = (
        f"SELECT {select} FROM {fts} JOIN {tables.base} AS b ON b.id = {fts}.rowid {join} "
        f"WHERE {condition} ORDER BY b.id LIMIT :limit"
    )
    rows = conn.execute(text(sql), {"pattern": pattern, "limit": limit}).all()
    return [_Match(row, tables.columns, (term,), False) for row in rows]


def _snippet(texts: Sequence[str | None], terms: Sequence[str], *, whole_words: bool) -> str:
    """A window of the first text that contains a term, with every term in the window bracketed.

    ``whole_words`` matches as the unicode61 table does (a term between non-word
    characters); otherwise anywhere, as trigram and LIKE do. Case is ignored. Text
    where no term is found (a match through diacritics: "cafe" in "café") gives its
    start, unmarked.
    """
    alternatives = "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True))
    pattern = re.compile(rf"(?<![^\W_])(?:{alternatives})(?![^\W_])" if whole_words else alternatives, re.IGNORECASE)
    present = [t for t in texts if t]
    for haystack in present:
        found = pattern.search(haystack)
        if found:
            start, end = max(0, found.start() - SNIPPET_CONTEXT), min(len(haystack), found.end() + SNIPPET_CONTEXT)
            marked = pattern.sub(lambda m: SNIPPET_OPEN + m.group(0) + SNIPPET_CLOSE, haystack[start:end])
            return (SNIPPET_ELLIPSIS if start else "") + marked + (SNIPPET_ELLIPSIS if end < len(haystack) else "")
    return present[0][: SNIPPET_CONTEXT * 2] if present else ""


def _cue_hit(row: Any, score: float, snippet: str, exact: bool = False) -> CueHit:
    return CueHit(
        cue_id=int(row.id),
        sha256=row.sha256,
        lang=row.lang,
        start=float(row.start_s),
        end=float(row.end_s),
        text=row.text,
        score=score,
        path=_path(row.path),
        snippet=snippet,
        video_path=unescape(row.video_path),
        exact=exact,
    )


def _path(stored: str | None) -> str | None:
    """A path read by raw SQL, as it was bound (raw text columns skip :class:`~app.store.byte_text.StoredText`)."""
    return None if stored is None else unescape(stored)
