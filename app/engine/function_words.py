"""English function words, dropped from a machine-translated query before its word search.

A translated query is a sentence ("海滩日落" → "Sunset on the beach"), and FTS5 ranks
every term of it: a word like "the" or "on" is in most English documents, so each costs
a full candidate ranking (:data:`~app.store.search_queries.CANDIDATES_PER_TERM` rows) on the
translation's critical path, while its bm25 weight (its IDF) is near zero and a document
matching only it is not evidence of anything. The person's own query keeps every word
they typed: they may mean "The Who".
"""

from __future__ import annotations

import string

ENGLISH_FUNCTION_WORDS = frozenset(
    "a an the and or but nor of on in at to for from by with without into onto over under about "
    "as is are was were be been being am do does did has have had it its this that these those "
    "there here i me my we our you your he him his she her they them their".split())


def content_words(line: str) -> str:
    """``line`` without its English function words; the line as it was when nothing else would be left."""
    kept = [token for token in line.split()
            if token.lower().strip(string.punctuation) not in ENGLISH_FUNCTION_WORDS]
    return " ".join(kept) if kept else line
