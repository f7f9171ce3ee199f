"""The translate stage's quality estimate: e5 through the engine's model host (SPEC §7).

:mod:`app.media.translation_quality` judges each translated cue from e5 vectors; here the
vectors come from the same hosted multilingual-e5 that indexes dialogue for search
(one ``embed_queries`` call per batch: its sources and its translations together, ~17 ms
a line on one CPU thread). The stage holds e5 beside its translation model for its whole
run (the context's ``models_in_use``), so the GPU gate never ends e5 in the middle of a check.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.engine.stage import StageContext
from app.media.glossary import GlossaryEntry
from app.media.translation import CheckFn
from app.media.translation_quality import RepeatMemory, check_batch
from app.ml.clients import TextEmbeddingClient
from app.ml.index_models import TEXT_EMBEDDING_SPEC

#: Bump when the estimate's rules or floors change: stored translations are then checked again.
#: 2: a cue just under its floor is scored again with its neighbour (clause fragments).
#: 3: a line looping on its own phrase, or keeping four source words as they were, is refused; German greetings
#: left untranslated are no names.
QUALITY_VERSION = 3


def hosted_quality_check(ctx: StageContext, source: str | None, target: str, glossary: Sequence[GlossaryEntry],
                         done_sources: Sequence[str] = (), done_translations: Sequence[str] = ()) -> CheckFn:
    """A :data:`~app.media.translation.CheckFn` for one file; ``done_*`` are cues a checkpoint already holds.

    The repeat check remembers every passing translation of the file; after a resume the
    checkpoint's cues are remembered by their text alone (their vectors are not kept).
    """
    client = TextEmbeddingClient(ctx.model(TEXT_EMBEDDING_SPEC))
    memory = RepeatMemory.empty()
    for src, out in zip(done_sources, done_translations):
        if src != out:
            memory.remember(src, out, None)

    def embed(texts: list[str]) -> Sequence[Sequence[float]]:
        ctx.check()
        return client.embed_queries(texts)

    def check(sources: list[str], translations: list[str]) -> list[str | None]:
        return check_batch(sources, translations, embed, source, target, glossary, memory)

    return check
