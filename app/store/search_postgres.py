"""The search index's PostgreSQL side: what FTS5 and vec0 do on SQLite, in plain tables.

The rest of the search layer (app.store.search_writes, app.store.search_queries,
app.store.vector_index) is one code path for both backends; this module holds the few
pieces of SQL and text handling only PostgreSQL needs, so they stay in one place.

Words, made to answer as FTS5 does, not merely alike (tests compare the two backends):

- **Whole words**: :func:`tokens` splits and folds text as FTS5's ``unicode61
  remove_diacritics 2`` tokenizer does (runs of letters and digits, lower case, no
  diacritics; a run of CJK is one token). PostgreSQL's own parser would not: with the
  ``simple`` config it reads ``a/b/c`` as one file-path token and ``129.50`` as one
  number, so "4711" or "trip" would be missed where SQLite finds them.
- **Partial words and CJK substrings**: ``folded`` is the lower-cased text (columns
  joined by a newline, which no query term contains); ``LIKE '%term%'`` over it is what
  FTS5's trigram table answers, and a pg_trgm GIN index serves it.
- **Ranking**: :func:`bm25` is FTS5's bm25 (k1 = 1.2, b = 0.75, IDF over the whole
  table, floored at 1e-6, negated so lower is better) over the stored token or trigram
  counts, so both backends rank the same candidates in the same order.

Vectors are ``bytea`` in tables with vec0's column names (revision 0002), read by
:class:`PostgresVectorRows` into the in-process index; there is no pgvector here.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable, Sequence

from sqlalchemy import Connection, text

from app.store import vector_index

K1, B = 1.2, 0.75
"""FTS5's bm25 constants (fts5_aux.c)."""

_TOKEN = re.compile(r"[^\W_]+")


def fold(value: str) -> str:
    """Lower case without diacritics, as ``remove_diacritics 2`` reads a token ("Café" → "cafe")."""
    decomposed = unicodedata.normalize("NFD", value.lower())
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if unicodedata.category(c) != "Mn"))


def tokens(texts: Sequence[str]) -> list[str]:
    """The whole-word tokens of ``texts``, in order, as unicode61 makes them."""
    return [token for value in texts for token in _TOKEN.findall(fold(value or ""))]


def folded(texts: Sequence[str]) -> str:
    """The texts lower-cased and joined by a newline: what substring search looks in."""
    return "\n".join((value or "").lower() for value in texts)


def ngrams(texts: Sequence[str]) -> int:
    """How many tokens FTS5's trigram tokenizer makes of ``texts`` (a column's length minus two)."""
    return sum(max(len(value or "") - 2, 0) for value in texts)


def like_pattern(term: str) -> str:
    """``%term%`` with LIKE's wildcards escaped (``ESCAPE '\\'``)."""
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def word_row(texts: Sequence[str]) -> dict[str, object]:
    """The parameters of one ``*_fts`` row (``tokens``, ``folded``, ``ngrams``) for these column texts."""
    return {"tokens": tokens(texts), "folded": folded(texts), "ngrams": ngrams(texts)}


def term_match(table: str, partial: bool, param: str) -> str:
    """The condition that a row of ``table`` holds the term bound to ``:param``."""
    if partial:
        return f"{table}.folded LIKE :{param} ESCAPE '\\'"
    return f"{table}.tokens @> ARRAY[CAST(:{param} AS text)]"


def term_params(param: str, term: str, partial: bool) -> dict[str, str]:
    """What :func:`term_match` and :func:`bm25` bind for ``term`` under the name ``param``."""
    if partial:
        return {param: like_pattern(term), f"{param}_raw": term}
    return {param: fold(term)}


def bm25(table: str, partial: bool, param: str) -> tuple[str, str]:
    """``(FROM clause, score expression)``: FTS5's bm25 of the term in ``:param`` for each row of ``table``.

    Rows and total length come from ``search_word_stats`` (kept by triggers), the rows
    holding the term from the term's index, as FTS5 reads them from its own structures.
    """
    match = term_match(table, partial, param)
    length = f"{table}.ngrams::float8" if partial else f"cardinality({table}.tokens)::float8"
    total = "ngrams" if partial else "tokens"
    if partial:
        raw = f"{table}.folded"
        needle = f"CAST(:{param}_raw AS text)"
        frequency = f"((length({raw}) - length(replace({raw}, {needle}, ''))) / length({needle}))::float8"
    else:
        frequency = f"cardinality(array_positions({table}.tokens, CAST(:{param} AS text)))::float8"
    hits = f"(SELECT count(*) FROM {table} WHERE {match})::float8"
    stats = (
        f"(SELECT greatest(ln((s.rows - t.hits + 0.5) / (t.hits + 0.5)), 1e-6) AS idf, "
        f"greatest(s.{total}::float8 / greatest(s.rows, 1), 1e-9) AS avgdl "
        f"FROM search_word_stats AS s CROSS JOIN (SELECT {hits} AS hits) AS t WHERE s.name = '{table}') AS stats"
    )
    score = (f"-(stats.idf * ({frequency} * {K1 + 1}) / ({frequency} + {K1} * (1 - {B} + {B} * {length} / "
             f"stats.avgdl)))")
    return f"{table} CROSS JOIN {stats}", score


def candidates_sql(base: str) -> str:
    """The in-process index's ``(id, distance)`` candidates bound as two arrays, with their content."""
    return (
        "SELECT c.id AS id, c.distance AS distance, b.sha256 AS sha256 "
        "FROM unnest(CAST(:ids AS bigint[]), CAST(:distances AS float8[])) AS c(id, distance) "
        f"JOIN {base} AS b ON b.id = c.id"
    )


def ensure_visual_table(conn: Connection, name: str) -> None:
    """The CLIP table of one dimension, laid out like the text vector tables of revision 0002."""
    conn.exec_driver_sql(
        f"CREATE TABLE IF NOT EXISTS {name} "
        "(rowid BIGINT PRIMARY KEY, embedding BYTEA NOT NULL, sha256 TEXT NOT NULL, model TEXT NOT NULL)"
    )


def table_exists(conn: Connection, name: str) -> bool:
    return conn.execute(text("SELECT to_regclass(:n) IS NOT NULL"), {"n": name}).scalar_one()


class PostgresVectorRows(vector_index.VectorRows):
    """Where the vectors live in a PostgreSQL library: ``bytea`` tables keyed by ``rowid``, found by name."""

    def state(self, conn: Connection) -> tuple[str, int] | None:
        epoch = conn.execute(text("SELECT epoch FROM search_vector_epoch WHERE id = 1")).scalar()
        seq = conn.execute(text(f"SELECT coalesce(max(seq), 0) FROM {vector_index.CHANGES_TABLE}")).scalar()
        return (str(epoch), int(seq or 0)) if epoch else None

    def visual_names(self, conn: Connection) -> list[str]:
        return list(conn.execute(text(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'search\\_visual\\_vec\\_%'"
        )).scalars())

    def fetch(self, conn: Connection, table: str, ids: Iterable[int]) -> list[tuple[int, str, bytes]]:
        """The rows of these ids that exist, in one query (an index scan here, unlike vec0)."""
        rows = conn.execute(text(f"SELECT rowid, model, embedding FROM {table} WHERE rowid = ANY(:ids)"),
                            {"ids": list(ids)})
        return [(int(r[0]), r[1], bytes(r[2])) for r in rows]
