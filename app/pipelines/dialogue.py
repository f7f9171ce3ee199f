"""The video pipeline's half of dialogue search: e5 through the engine's model host.

The ``index_dialogue`` stage, after ``place``, indexes every subtitle it wrote (the transcript
and the translation) with :func:`app.engine.dialogue_index.index_dialogue`, so one query box
finds a line in either language and opens the video at that cue; the embedder here
runs e5 in the stage's hosted model and checks for pause between batches.
"""

from __future__ import annotations

import logging
from typing import Sequence

from app.engine.dialogue_index import PassageEmbedder
from app.engine.stage import StageContext
from app.ml.clients import TextEmbeddingClient
from app.ml.index_models import TEXT_EMBEDDING_SPEC

log = logging.getLogger(__name__)


def hosted_passage_embedder(ctx: StageContext) -> PassageEmbedder:
    """e5 passage embedding through the engine's model host, checking for pause between batches."""
    client = TextEmbeddingClient(ctx.model(TEXT_EMBEDDING_SPEC))

    def embed(texts: Sequence[str]) -> Sequence[Sequence[float]]:
        ctx.check()
        return client.embed_passages(texts)

    return embed
