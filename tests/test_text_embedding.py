"""e5 embeddings: 384 dims, unit length, queries and passages embedded differently, served from a model host."""

from __future__ import annotations

import numpy as np

from app.ml.spec import ModelSpec
from app.ml.host import ModelHost
from app.ml.text_embedding import DIM, MODEL_ID


def test_hosted_e5_embeds_queries_and_passages_across_languages():
    host = ModelHost(ModelSpec.of("app.ml.text_embedding:TextEmbeddingRuntime", num_threads=1))
    try:
        assert host.info == {"model_id": MODEL_ID, "dim": DIM}
        passages = np.asarray(host.call("embed_passages", ["一只猫在睡觉", "quarterly budget spreadsheet", ""]))
        (query,) = np.asarray(host.call("embed_queries", ["a sleeping cat"]))
        (as_passage,) = np.asarray(host.call("embed_passages", ["a sleeping cat"]))
        assert host.call("embed_queries", []) == []
    finally:
        host.close()
    assert passages.shape == (3, DIM)
    assert np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-4)
    assert passages[0] @ query > passages[1] @ query, "cross-lingual: the Chinese cat sentence is nearer"
    assert not np.allclose(query, as_passage), "query and passage prefixes differ"
