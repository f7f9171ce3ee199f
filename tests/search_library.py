"""The small OCR'd library the search tests share: rendered text images and written documents, with e5 vectors.

A plugin (tests/conftest.py), so the SQLite index tests and the two-backend tests index the same library.
"""

from __future__ import annotations

import statistics
import time

import pytest

from app.media.describe import build_document
from app.ml.ocr_runtime import OcrRuntime
from app.ml.text_embedding import TextEmbeddingRuntime
from tests.rendered_images import render_text_image

RENDERED = {
    "invoice_scan.png": ["Invoice number 4471", "Total due 129.50 EUR"],
    "IMG_0042.png": ["我的猫"],
    "IMG_0043.png": ["東京タワーの写真"],
}
WRITTEN = {  # documents of images that need no OCR to make the point
    "meeting.png": "quarterly budget meeting notes whiteboard",
    "recipe.png": "chocolate cake recipe flour sugar eggs",
    "forecast.png": "weather forecast rain tomorrow umbrella",
    "car.png": "red sports car parked on the street",
}


@pytest.fixture(scope="module")
def e5():
    return TextEmbeddingRuntime(num_threads=1)


@pytest.fixture(scope="module")
def documents(tmp_path_factory, e5):
    """path → (sha, document, ocr_text, vector) for the small library."""
    folder = tmp_path_factory.mktemp("library")
    ocr = OcrRuntime(num_threads=2)
    docs = {}
    ocr_seconds = []
    for name, lines in RENDERED.items():
        path = render_text_image(folder / name, lines)
        started = time.perf_counter()
        read = ocr.read(path)
        ocr_seconds.append(time.perf_counter() - started)
        docs[str(path)] = build_document(ocr_text=read["text"])
    for name, words in WRITTEN.items():
        docs[str(folder / name)] = build_document(ocr_text=words)
    texts = [d["document"] for d in docs.values()]
    started = time.perf_counter()
    vectors = e5.embed_passages(texts)
    per_doc_ms = (time.perf_counter() - started) * 1000 / len(texts)
    print(f"\nOCR {statistics.mean(ocr_seconds):.2f} s/image; e5 {per_doc_ms:.1f} ms/document")
    return {
        path: (f"sha-{i:03d}", doc["document"], doc["ocr_text"], vector)
        for i, ((path, doc), vector) in enumerate(zip(docs.items(), vectors))
    }
