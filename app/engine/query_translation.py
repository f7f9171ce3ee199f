"""A search query in the other languages the library holds, each translation made once (issue 38).

Where an installed OPUS-MT route leads from the query's language to a language the
library's texts are in (its transcripts and the translations it indexed), the query is
translated into it and searched there too (:func:`app.engine.search.search` fuses the
lists): "卢浮宫" also looks for "Louvre". A query whose language cannot be told
(a name in Latin letters: "Osaka") is not translated; the text side covers it, translated
at indexing (:mod:`app.media.text_translation`).

A person retypes and refines queries, and the GUI searches as they type: translations
are kept (least recently used out first), so a repeated query costs a dictionary
lookup. The library's languages are read at most once per :data:`LANGUAGES_TTL_S`.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Iterable

from app.engine.query_cache import CACHE_SIZE, LruCache
from app.media.text_translation import text_language

TranslateOne = Callable[[str, str, str], str]
"""``(from, to, text) → translation`` through an installed route."""
LANGUAGES_TTL_S = 60.0


class QueryTranslator:
    """``translator(query)`` → ``[(language, translated query), …]``, cached; thread-safe (the GUI searches off its thread)."""

    def __init__(self, translate: TranslateOne, has_route: Callable[[str, str], bool],
                 library_languages: Callable[[], Iterable[str]], *, cache_size: int = CACHE_SIZE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._translate = translate
        self._has_route = has_route
        self._library_languages = library_languages
        self._cache: LruCache[tuple[str, str], str] = LruCache(cache_size)
        self._clock = clock
        self._languages: tuple[float, frozenset[str]] | None = None
        self._lock = threading.Lock()
        self.translations_made = 0

    def languages(self) -> frozenset[str]:
        """The languages the library's texts are in, re-read after :data:`LANGUAGES_TTL_S`."""
        now = self._clock()
        with self._lock:
            if self._languages is not None and now - self._languages[0] < LANGUAGES_TTL_S:
                return self._languages[1]
        found = frozenset(self._library_languages())
        with self._lock:
            self._languages = (now, found)
        return found

    def __call__(self, query: str) -> list[tuple[str, str]]:
        source = text_language(query)
        if source is None:
            return []
        found = []
        for target in sorted(self.languages() - {source}):
            if not self._has_route(source, target):
                continue
            key = (query, target)
            line = self._cache.get(key)
            if line is None:
                line = " ".join(self._translate(source, target, query).split()).rstrip(".。")
                self.translations_made += 1
                self._cache.put(key, line)
            if line and line.casefold() != query.casefold():
                found.append((target, line))
        return found

    def clear(self) -> None:
        """Forget every translation (a package was installed or removed)."""
        self._cache.clear()
        with self._lock:
            self._languages = None
