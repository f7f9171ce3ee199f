"""Real photos and scans with text (``tests/data/ocr_photos``, sources in its README), indexed as the image pipeline does.

Each photo is copied into a library folder, read by the real OCR, described by
:func:`~app.media.describe.build_document`, embedded by the real e5 when it has text
(:func:`~app.store.search_writes.has_text`, as :class:`~app.pipelines.image.TextEmbeddingStage`
decides: the document, and each passage of a long text) and written through the store's :class:`~app.store.search_writes.SearchIndexWriter`
with its name words, as :class:`~app.pipelines.image.ImagePlaceStage` writes it. No CLIP:
no real CLIP model installs offline here, so these photos are found by words and e5 only.
"""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import onnxruntime  # noqa: F401 - OCR's runtime: importing it after usearch (app.store) crashes the process

from app.media.describe import build_document, passages, path_tokens
from app.media.text_translation import Translate, translate_requests, translation_requests
from app.media.images import read_exif
from app.ml.ocr_runtime import OcrRuntime
from app.ml.text_embedding import MODEL_ID as E5
from app.ml.text_embedding import TextEmbeddingRuntime
from app.store import Store
from app.store.records import NewItem
from app.store.search_writes import SearchIndexWriter, TextTranslation, has_text

PHOTOS = Path(__file__).resolve().parent / "data" / "ocr_photos"


@dataclass(frozen=True)
class ReadPhoto:
    """One photo in the library as the pipeline leaves it: where it is, its content, document, OCR and e5 vectors."""

    path: str
    sha256: str
    document: str
    ocr_text: str
    vector: Sequence[float] | None
    passages: Sequence[tuple[str, Sequence[float]]] = ()
    translations: Sequence[TextTranslation] = ()


def photo_names() -> list[str]:
    return sorted(p.name for p in PHOTOS.iterdir() if p.suffix.lower() in {".jpg", ".jpeg", ".png"})


def read_photos(library: Path, e5: TextEmbeddingRuntime, names: Mapping[str, str] | None = None,
                translate: Translate | None = None, routes: Sequence[tuple[str, str]] = ()) -> list[ReadPhoto]:
    """Copy the photos (``names``: name in the library → photo; default all, as they are named) into ``library``
    and run OCR, the document and e5 on each (a minute on two cores for all); with ``translate``, its OCR
    lines are translated along ``routes`` ((from, to) pairs) into English as the text-embedding stage does."""
    library.mkdir(parents=True, exist_ok=True)
    ocr = OcrRuntime(num_threads=2)
    read = []
    for name, source in (names or {name: name for name in photo_names()}).items():
        path = library / name
        shutil.copyfile(PHOTOS / source, path)
        document = build_document(ocr_text=ocr.read(path)["text"], exif=read_exif(path))
        read.append((path, document))
    photos = []
    for path, doc in read:
        vector, parts = None, []
        if has_text(doc["ocr_text"]):
            texts = passages(doc["ocr_text"])
            vector, *vectors = e5.embed_passages([doc["document"], *texts])
            parts = list(zip(texts, vectors))
        translations = [] if translate is None or vector is None else translate_requests(
            translation_requests(doc["ocr_text"], ["en"], lambda a, b: (a, b) in routes), translate)
        photos.append(ReadPhoto(str(path), hashlib.sha256(path.read_bytes()).hexdigest(), doc["document"],
                                doc["ocr_text"], vector, parts, translations))
    return photos


def index_photos(store: Store, photos: Sequence[ReadPhoto]) -> None:
    """Record the photos as the library's current images and index them as ``place`` does."""
    job = store.jobs.create(str(Path(photos[0].path).parent), {}, owner="test")
    store.jobs.add_items(job, [NewItem(p.path, "image", 1, 1, p.sha256) for p in photos])
    store.jobs.finish_creating(job, {})
    writer = SearchIndexWriter(store.db.write)
    for p in photos:
        writer.upsert_image(p.sha256, text_model=E5, text_vector=p.vector, document=p.document, ocr_text=p.ocr_text,
                            passages=p.passages, translations=p.translations)
        writer.name_image(p.path, p.sha256, " ".join(path_tokens(p.path)))
