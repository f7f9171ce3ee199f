"""Dialogue in the search index (SPEC §9): every cue Sidecar wrote or the person saved, with its video and start time.

Two writers share it: the video pipeline's ``index_dialogue`` stage, once per subtitle ``place`` wrote
(:mod:`app.pipelines.dialogue`), and the library when the person saves an edited
subtitle in the editor (:meth:`app.engine.library.Library.save_subtitles`), so dialogue
search finds the words the files hold now. Cues are embedded with the same e5 model as
image documents and search queries (:data:`app.ml.index_models.TEXT_EMBEDDING_SPEC`),
*before* the write transaction opens: no transaction is held across inference.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable, Sequence

from app.engine.stage import SearchIndex
from app.ml.index_models import TEXT_MODEL_ID

log = logging.getLogger(__name__)

Cue = tuple[float, float, str, str]
"""``(start_s, end_s, text, lang)``: plain text (no ASS tags), ISO 639-1 language."""
PassageEmbedder = Callable[[Sequence[str]], Sequence[Sequence[float]]]

EMBED_BATCH = 64
"""Cues per e5 call: big enough to amortise the pipe round trip, small enough to poll for pause."""


def index_dialogue(
    index: SearchIndex,
    video_path: str | Path,
    sha256: str,
    cues: Sequence[Cue],
    embed: PassageEmbedder,
    *,
    text_model: str = TEXT_MODEL_ID,
) -> int:
    """Embed ``cues`` and index them for the video content ``sha256``; returns how many were indexed.

    ``index`` is the stage's ``ctx.search_index`` (elsewhere the store's
    :class:`~app.store.search_writes.SearchIndexWriter`). ``embed`` turns cue texts into
    passage vectors of ``text_model``. Each language present in ``cues`` replaces that
    language's earlier cues of this content. Empty cues are left out (they cannot match anything).
    """
    kept = [(float(start), float(end), " ".join(text.split()), lang) for start, end, text, lang in cues if text.strip()]
    vectors: list[Sequence[float]] = []
    for first in range(0, len(kept), EMBED_BATCH):
        batch = [cue[2] for cue in kept[first : first + EMBED_BATCH]]
        vectors.extend(embed(batch))
    count = index.upsert_dialogue(str(video_path), sha256, kept, vectors, text_model=text_model)
    log.info("indexed %d dialogue cue(s) of %s", count, Path(video_path).name)
    return count
