"""What a search query cost to compute, kept for the next time it is typed: the LRU behind query translations and vectors.

The GUI searches as a person types, and people retype and refine queries: the same text
comes back within seconds. Translating it (an OPUS-MT model) and embedding it (e5) are
most of a search's time at 100k items (``bench/search_translated.py``), and both give
the same answer for the same text, so each is made once and kept (least recently used
out first). Thread-safe: the GUI searches off its thread, and a query's translation is
made on a helper thread (:func:`app.engine.search.search`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, Sequence, TypeVar

import numpy as np

KeyT = TypeVar("KeyT", bound=Hashable)
ValueT = TypeVar("ValueT")
CACHE_SIZE = 1024


class LruCache(Generic[KeyT, ValueT]):
    """A bounded map that forgets its least recently used entry first; thread-safe."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._entries: OrderedDict[KeyT, ValueT] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: KeyT) -> ValueT | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: KeyT, value: ValueT) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


class QueryVectors:
    """``vectors(text)`` → the embedding of a query text, computed once through ``embed`` and kept.

    The query and each of its translations are embedded by the same e5 model; a query
    typed again (or a translation seen again) costs a dictionary lookup instead of an
    inference. Vectors are kept as float32 (1.5 kB for e5), handed out as fresh lists.
    """

    def __init__(self, embed: Callable[[str], Sequence[float]], *, cache_size: int = CACHE_SIZE) -> None:
        self._embed = embed
        self._cache: LruCache[str, np.ndarray] = LruCache(cache_size)
        self.vectors_made = 0

    def __call__(self, text: str) -> list[float]:
        vector = self._cache.get(text)
        if vector is None:
            vector = np.asarray(self._embed(text), dtype=np.float32)
            self.vectors_made += 1
            self._cache.put(text, vector)
        return vector.tolist()

    def clear(self) -> None:
        self._cache.clear()
