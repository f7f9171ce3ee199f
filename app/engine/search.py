"""One query box over images and dialogue: several rankings fused into one list.

Each retriever is good at something different: CLIP text→image finds what a picture
*shows* ("cat wearing sunglasses"), e5 finds documents and lines that *mean* the
query in any language, FTS5 finds exact words and numbers ("invoice 4471"). Their
scores are not comparable (cosine distances vs bm25), so they are fused by the
store's :func:`~app.store.search_queries.reciprocal_rank_fusion`. Where two results
fuse to the same score, one that holds a query word exactly (in its name, OCR text or
line) comes before one found only by meaning (:func:`fused_order`): "sofa" finds
``cat on the sofa.png`` before ``horse.png``, however near e5 puts a horse to a sofa.

This module takes callables for the query embedders and a connection factory, so it
imports neither Qt, the scheduler nor a model runtime; the library passes hosted
models' typed clients (:mod:`app.ml.clients`, or test doubles). Embedding happens before a connection is
opened: no transaction is held across model inference (the keyword lists, which need no
model, are read on helper threads meanwhile, each through its own short read).
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Callable, Hashable, Sequence, TypeVar

from sqlalchemy import Connection

from app.engine.function_words import content_words
from app.ml.text_embedding import MODEL_ID as E5_MODEL_ID
from app.store import search_queries
from app.store.search_queries import CueHit, CurrentContent, ImageHit, reciprocal_rank_fusion

log = logging.getLogger(__name__)

Embedder = Callable[[str], Sequence[float]]
ConnectionFactory = Callable[[], AbstractContextManager[Connection]]


MATCH_WORDS = "words"
MATCH_TRANSLATION = "translation"
MATCH_TRANSLATED_QUERY = "translated_query"
MATCH_MEANING = "meaning"
MATCH_PICTURE = "picture"
MATCHES = (MATCH_WORDS, MATCH_TRANSLATION, MATCH_TRANSLATED_QUERY, MATCH_MEANING, MATCH_PICTURE)
"""Why a result was found, strongest evidence first; a result found several ways says the first of them.

``words``: the query's words in its text, line or file name; ``translation``: in the machine
translation of its text (``match_text`` is the original that was translated); ``translated_query``:
the query translated into the library's other language found it (``match_text`` is that
translation); ``meaning``: e5 put it near the query; ``picture``: CLIP did.
"""

QueryTranslations = Callable[[str], Sequence[tuple[str, str]]]
"""``query → [(language, translated query), …]`` (:class:`app.engine.query_translation.QueryTranslator`)."""


@dataclass(frozen=True)
class SearchResult:
    """One row of the result list: an image file, or a line of dialogue in a video at ``start`` seconds.

    What the GUI shows; :meth:`to_dict` is what ``sidecar search --json`` prints. ``match``
    and ``match_text`` say why it was found (:data:`MATCHES`).
    """

    path: str
    kind: str  # "image" | "dialogue"
    score: float
    snippet: str
    start: float | None = None
    match: str = MATCH_WORDS
    match_text: str = ""

    def to_dict(self) -> dict[str, object]:
        return dict(vars(self))  # asdict() deep-copies every field: a tenth of a fused search at 100k


def _safe_embed(embedder: Embedder | None, query: str, what: str) -> list[float] | None:
    """A missing or failing model removes one list from the fusion; search still answers."""
    if embedder is None:
        return None
    try:
        return list(embedder(query))
    except Exception:  # any model failure degrades to keyword search
        log.warning("query embedding with %s failed; searching without it", what, exc_info=True)
        return None


HitT = TypeVar("HitT", ImageHit, CueHit)

# A semantic list returns every stored item in some order; only hits whose cosine distance is
# close to the best one are evidence of relevance. Keyword hits are never cut.
SEMANTIC_MARGIN = 0.06

E5_MIN_SIMILARITY = 0.838
"""Below this cosine similarity an e5 hit (image document or cue) is noise, however it ranks.

The margin above keeps whatever is nearest, so on a small library "coffee" returned
``horse.png``: e5 puts every query near every passage (cosines of 0.74–0.91), and the
best of a handful of unrelated documents is always there. Calibrated with
``python -m bench.similarity_floor`` on the bundled model (``query:``/``passage:``
prefixes as search uses them): 19 image documents built by ``build_document`` (OCR'd
test images, photos known by file and folder name only) and 8 dialogue cues, 71
queries a person would type to find one of them, 30 queries about none of them:

================  ========================  ===========================
kind              related: min / median     unrelated: median / max
================  ========================  ===========================
image documents   0.831 / 0.869  (n=52)     0.786 / 0.837  (n=570)
dialogue cues     0.781 / 0.861  (n=19)     0.764 / 0.833  (n=240)
================  ========================  ===========================

The two overlap, so the floor sits just above the highest unrelated pair ("tiger" →
"horse pictures", 0.837): no unrelated pair passes, and 2 of 52 related image pairs
("pony" → horse, "vacation in portugal" → Lisbon) and 6 of 19 cue pairs are lost,
mostly cross-lingual lines ("oak tree" → 宝藏埋在老橡树下, 0.781); a line that shares a
word with the query is still found by keyword. Recalibrate when the model changes.

Checked on real photos and scans (``python -m bench.search_relevance``: 21 public OCR
test images, 77 labelled queries, half to calibrate, half held out): every no-match
query is silent from 0.830 up on both halves (0.825: 90 %, 0.80: 40–50 %), and the
floor costs nothing else up to 0.840, so 0.838 stays. What no e5 floor can buy is
cross-language lookup of one word in a long OCR text ("Osaka" → a news list saying
大阪: 0.80, below unrelated pairs at 0.82–0.84): that comes from translation instead,
of the OCR lines at indexing and of the query at search time (issue 38; with the zh→en
package the bench's cross-language MRR@10 went from 0.333 to 0.778, and every no-match
query stays silent at this floor).
"""
MIN_SIMILARITY: dict[str, float] = {E5_MODEL_ID: E5_MIN_SIMILARITY}
"""Absolute floors by model id. A model without one (CLIP: none was at hand to calibrate) keeps the margin only."""


def near_best(hits: Sequence[HitT], margin: float = SEMANTIC_MARGIN, floor: float | None = None) -> list[HitT]:
    """KNN hits (best first, ``score`` = cosine distance) within ``margin`` of the best one.

    With a ``floor``, a hit must also reach that cosine similarity (``1 − score``),
    the best one included: a list may come back empty.
    """
    if floor is not None:
        hits = [h for h in hits if 1.0 - h.score >= floor]
    if not hits:
        return []
    best = hits[0].score
    return [h for h in hits if h.score <= best + margin]


def search(
    query: str,
    *,
    connect: ConnectionFactory,
    current: CurrentContent,
    text_model: str,
    embed_text: Embedder | None = None,
    visual_model: str | None = None,
    embed_clip_text: Embedder | None = None,
    kinds: Sequence[str] = ("image", "dialogue"),
    limit: int = 50,
    per_list: int = 100,
    translate_query: QueryTranslations | None = None,
) -> list[SearchResult]:
    """Search images and dialogue for ``query``.

    ``embed_text`` is the e5 *query* embedder of ``text_model``; ``embed_clip_text``
    the CLIP text embedder of ``visual_model`` (skipped when either is None).
    ``translate_query`` gives the query in the library's other languages; each is
    searched by its whole words and its e5 meaning, one more list of the fusion each. It
    runs on a helper thread while the query's own lists are searched (so it must be
    thread-safe, as the library's host clients are): translating costs as much as the
    rest of a search, and a second core can do it meanwhile. The query's own word lists
    run on another helper thread while the query is embedded; each helper reads through
    a connection of its own. Lists enter the fusion in one fixed order, so the answer is
    the same as if they had run one after the other.
    ``current`` names the store's path→sha256 table, so only current content is
    returned. Returns the results best first; ``start`` is the cue's start in seconds for
    dialogue, None for images.
    """
    query = query.strip()
    if not query or limit <= 0:
        return []
    # Word lists need no model: they are searched on helper threads while the models embed (and translate) the query.
    own_words = _pool().submit(_word_lists, connect, [query], kinds, per_list, current, True)
    translating: Future[list[tuple[str, str]]] = Future()
    translated_words = (_pool().submit(_translated_word_lists, translate_query, query, translating, connect, kinds,
                                       min(per_list, limit), current)
                        if translate_query is not None else None)
    if translated_words is None:
        translating.set_result([])
    text_vector = _safe_embed(embed_text, query, "the text embedding model")
    clip_vector = _safe_embed(embed_clip_text, query, "CLIP") if visual_model else None

    image_lists: dict[str, list[ImageHit]] = {}
    cue_lists: dict[str, list[CueHit]] = {}
    with connect() as conn:
        if "image" in kinds:
            if clip_vector is not None and visual_model:
                image_lists["picture"] = near_best(
                    search_queries.knn_visual(conn, clip_vector, model=visual_model, k=per_list, current=current),
                    floor=MIN_SIMILARITY.get(visual_model))
            if text_vector is not None:
                image_lists["meaning"] = near_best(
                    search_queries.knn_text(conn, text_vector, model=text_model, kind="image", k=per_list, current=current),
                    floor=MIN_SIMILARITY.get(text_model))
        if "dialogue" in kinds:
            if text_vector is not None:
                cue_lists["meaning"] = near_best(
                    search_queries.knn_text(conn, text_vector, model=text_model, kind="cue", k=per_list, current=current),
                    floor=MIN_SIMILARITY.get(text_model))

    translated = translating.result()
    translated_vectors = [(line, _safe_embed(embed_text, line, "the text embedding model")) for _, line in translated]
    translated_meaning: list[tuple[str, list[ImageHit]]] = []
    if "image" in kinds and any(vector is not None for _, vector in translated_vectors):
        with connect() as conn:
            translated_meaning = [
                (line, near_best(search_queries.knn_text(conn, vector, model=text_model, kind="image", k=per_list,
                                                         current=current), floor=MIN_SIMILARITY.get(text_model)))
                for line, vector in translated_vectors if vector is not None]
    own_image_words, own_cue_words = own_words.result()
    translated_image_words, translated_cue_words = (translated_words.result() if translated_words is not None
                                                    else ([], []))

    rankings: list[Sequence[Hashable]] = []
    details: dict[Hashable, tuple[str, str, str, float | None]] = {}  # key -> (path, kind, snippet, start)
    why: dict[Hashable, tuple[int, str]] = {}  # key -> (index in MATCHES, match_text) of its strongest evidence
    exact: set[Hashable] = set()

    def note(key: Hashable, match: str, match_text: str, snippet: str, path: str, kind: str, start: float | None) -> None:
        """Keep the strongest reason a result was found, and the snippet that shows it."""
        rank = MATCHES.index(match)
        known = why.get(key)
        if known is None or rank < known[0]:
            why[key] = (rank, match_text)
            before = details.get(key)
            details[key] = (path, kind, snippet or (before[2] if before else ""), start)
        elif snippet and not details[key][2]:
            details[key] = (path, kind, snippet, start)

    def add_images(hits: Sequence[ImageHit], match: str, match_text: str = "") -> None:
        ranking = []
        for hit in hits:
            if hit.path is None:
                continue
            key = ("image", hit.path)
            ranking.append(key)
            if hit.exact:
                exact.add(key)
            if hit.translated_from and match == MATCH_WORDS:
                note(key, MATCH_TRANSLATION, hit.translated_from, hit.snippet, hit.path, "image", None)
            else:
                note(key, match, match_text, hit.snippet, hit.path, "image", None)
        rankings.append(ranking)

    def add_cues(hits: Sequence[CueHit], match: str, match_text: str = "") -> None:
        ranking = []
        for hit in hits:
            if hit.path is None:
                continue
            key = ("dialogue", hit.path, hit.cue_id)
            ranking.append(key)
            if hit.exact:
                exact.add(key)
            highlighted = hit.snippet if search_queries.SNIPPET_OPEN in hit.snippet else ""  # prefer a highlighted FTS snippet
            note(key, match, match_text, highlighted, hit.path, "dialogue", hit.start)
            if not details[key][2]:
                details[key] = (hit.path, "dialogue", hit.snippet or hit.text, hit.start)
        rankings.append(ranking)

    # Lists enter the fusion in one fixed order (ties keep the order keys were first seen), however they were computed.
    if "image" in kinds:
        if "picture" in image_lists:
            add_images(image_lists["picture"], MATCH_PICTURE)
        if "meaning" in image_lists:
            add_images(image_lists["meaning"], MATCH_MEANING)
        add_images(own_image_words[0][1], MATCH_WORDS)
        for line, hits in translated_image_words:
            add_images(hits, MATCH_TRANSLATED_QUERY, line)
        for line, hits in translated_meaning:
            add_images(hits, MATCH_TRANSLATED_QUERY, line)
    if "dialogue" in kinds:
        if "meaning" in cue_lists:
            add_cues(cue_lists["meaning"], MATCH_MEANING)
        add_cues(own_cue_words[0][1], MATCH_WORDS)
        for line, cue_hits in translated_cue_words:
            add_cues(cue_hits, MATCH_TRANSLATED_QUERY, line)

    results = []
    for key, score in fused_order(reciprocal_rank_fusion(rankings), exact)[:limit]:
        path, kind, snippet, start = details[key]
        rank, match_text = why[key]
        results.append(SearchResult(path=path, kind=kind, score=round(score, 6), snippet=snippet, start=start,
                                    match=MATCHES[rank], match_text=match_text))
    return results


def _safe_translations(translate: QueryTranslations, query: str) -> list[tuple[str, str]]:
    """A failing translator leaves the query in its own language only; search still answers."""
    try:
        return list(translate(query))
    except Exception:  # any model failure: search without the translations
        log.warning("translating the query failed; searching in its own language only", exc_info=True)
        return []


WordLists = tuple[list[tuple[str, list[ImageHit]]], list[tuple[str, list[CueHit]]]]
"""``([(line, image hits)], [(line, cue hits)])``: the word lists of each line searched, per kind asked for."""


def _word_lists(connect: ConnectionFactory, lines: Sequence[str], kinds: Sequence[str], per_list: int,
                current: CurrentContent, partial: bool) -> WordLists:
    """Each line's keyword lists (FTS5), on a connection of their own: they run on a helper thread.

    Without ``partial`` (a machine translation) the line's function words are not searched
    (:func:`~app.engine.function_words.content_words`): each costs a ranking of thousands of
    rows and weighs nearly nothing in it.
    """
    images: list[tuple[str, list[ImageHit]]] = []
    cues: list[tuple[str, list[CueHit]]] = []
    if not lines:
        return images, cues
    with connect() as conn:
        for line in lines:
            searched = line if partial else content_words(line)
            if "image" in kinds:
                images.append((line, search_queries.fts_images(conn, searched, k=per_list, current=current,
                                                               partial=partial)))
            if "dialogue" in kinds:
                cues.append((line, search_queries.fts_dialogue(conn, searched, k=per_list, current=current,
                                                               partial=partial)))
    return images, cues


def _translated_word_lists(
    translate: QueryTranslations, query: str, translating: Future[list[tuple[str, str]]], connect: ConnectionFactory,
    kinds: Sequence[str], per_list: int, current: CurrentContent,
) -> WordLists:
    """Translate the query (handing the translations over at once through ``translating``), then search their words.

    Runs beside the query's own lists (:func:`search`): a translation costs as much as the
    rest of a search, and on two cores it need not wait for it. Its word lists follow here,
    while the caller embeds the translations and searches their meaning. Whole words only:
    a machine-translated query's words are complete, and their fragments match unrelated words.
    ``per_list`` is the page's ``limit`` (:func:`search`): this list is on the translation's
    critical path, and a hit it holds only below the page adds less than ``1/(RRF_K + limit)``;
    ranking half the rows cost 6 of 20 ms of CPU at 100k for common words (issue 38).
    """
    translated: list[tuple[str, str]] = []
    try:
        translated = _safe_translations(translate, query)
    finally:
        translating.set_result(translated)  # the caller waits on it, whatever happens here
    return _word_lists(connect, [line for _, line in translated], kinds, per_list, current, partial=False)


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()
SEARCH_THREADS = 2
"""Helper threads beside the searching thread: one searches the query's words, one translates it and searches the
translation's words, while the searching thread waits on the query's embedding and searches by meaning."""


def _pool() -> ThreadPoolExecutor:
    """The process's search helper threads, made on the first search."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=SEARCH_THREADS, thread_name_prefix="search")
        return _POOL


TIE_DIGITS = 12
"""Fused scores equal to this many decimals are a tie (sums of the same terms in another order differ in the last bit)."""


def fused_order(fused: Sequence[tuple[Hashable, float]], exact: set[Hashable]) -> list[tuple[Hashable, float]]:
    """The fused list (best first) with each tie broken for the results that match a query word exactly.

    Reciprocal rank fusion gives the first of a keyword list and the first of a
    semantic list the same score, and kept whichever list came first: the semantic
    neighbour. A word the person typed, found as written, is the stronger evidence.
    """
    return sorted(fused, key=lambda entry: (-round(entry[1], TIE_DIGITS), entry[0] not in exact))


def similar_images(
    vector: Sequence[float],
    *,
    connect: ConnectionFactory,
    current: CurrentContent,
    visual_model: str,
    limit: int = 50,
    exclude_sha256: str | None = None,
) -> list[SearchResult]:
    """Image query → images whose CLIP vectors are nearest (score: 1 − cosine distance)."""
    with connect() as conn:
        hits = search_queries.knn_visual(conn, vector, model=visual_model, k=limit + 1, current=current)
    results = []
    for hit in hits:
        if hit.sha256 == exclude_sha256 or hit.path is None:
            continue
        results.append(SearchResult(path=hit.path, kind="image", score=round(1.0 - hit.score, 6), snippet=""))
    return results[:limit]
