"""The caches behind a repeated query (issue 38): translations and e5 vectors made once, least recently used out first."""

from __future__ import annotations

import numpy as np

from app.engine.query_cache import LruCache, QueryVectors


def test_the_least_recently_used_entry_goes_first() -> None:
    cache: LruCache[str, int] = LruCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" is now the most recently used
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)
    cache.clear()
    assert cache.get("a") is None


def test_a_query_typed_again_is_not_embedded_again() -> None:
    embedded: list[str] = []

    def embed(text: str) -> list[float]:
        embedded.append(text)
        return [float(len(text)), 0.5]

    vectors = QueryVectors(embed, cache_size=2)
    first = vectors("Louvre")
    first.append(9.0)  # a caller's change to its list never reaches the cache
    assert vectors("Louvre") == [6.0, 0.5]
    assert vectors("卢浮宫") == [3.0, 0.5]
    assert embedded == ["Louvre", "卢浮宫"] and vectors.vectors_made == 2
    vectors("museum")  # the cache holds two: "Louvre" is the least recently used and goes
    vectors("Louvre")
    assert embedded == ["Louvre", "卢浮宫", "museum", "Louvre"]
    vectors.clear()
    vectors("museum")
    assert embedded[-1] == "museum" and vectors.vectors_made == 5


def test_vectors_are_kept_as_float32() -> None:
    vectors = QueryVectors(lambda text: np.full(384, 1 / 3, dtype=np.float64))
    assert vectors("x") == np.full(384, 1 / 3, dtype=np.float32).tolist()

