"""The short per-image document that text search (FTS5 and e5) runs over, and the words of its name.

An image says little in words by itself, so its document gathers what its bytes tell:
CLIP zero-shot tags, the date and camera from EXIF (with the month spelled out, so
"july 2021" finds it) and the text OCR found. The most telling parts come first: e5
reads only the first 512 tokens.

The words hidden in its file and folder names (``IMG_20210704_beachTrip`` →
``img 20210704 beach trip``, :func:`path_tokens`) are not part of the document: the
document belongs to the content (identical files share it), the name to one path,
and the index keeps them apart (:mod:`app.store.search_schema`).

No field labels ("tags:", "text:") go into the document: they would be words every
document shares, matching every keyword query.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

OCR_IN_DOCUMENT = 2000
"""OCR characters copied into the document (the full text is stored separately)."""
OCR_STORED = 20000
"""OCR characters kept at all: a scanned book page is data, a 1 MB OCR dump is noise."""

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_LETTER_DIGIT = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")
_SEPARATORS = re.compile(r"[\W_]+")


def name_tokens(name: str) -> list[str]:
    """Words in a file or folder name: split on separators, camelCase and letter/digit edges; lower-cased, unique."""
    words: list[str] = []
    for chunk in _SEPARATORS.split(name):
        for camel in _CAMEL.split(chunk):
            words.extend(part for part in _LETTER_DIGIT.split(camel) if part)
    seen: set[str] = set()
    result = []
    for word in words:
        lowered = word.lower()
        if lowered not in seen:
            seen.add(lowered)
            result.append(lowered)
    return result


def path_tokens(path: str | Path, folder_levels: int = 1) -> list[str]:
    """Tokens of the file's stem and of its ``folder_levels`` nearest folder names."""
    p = Path(path)
    parts = [p.stem] + [parent.name for parent in list(p.parents)[:folder_levels] if parent.name]
    tokens: list[str] = []
    for part in parts:
        tokens.extend(t for t in name_tokens(part) if t not in tokens)
    return tokens


def exif_words(exif: Mapping[str, Any] | None) -> str:
    """``2021-07-04 July 2021 Apple iPhone 12`` from :func:`app.media.images.read_exif` output."""
    if not exif:
        return ""
    words = []
    date = str(exif.get("date_taken") or "")
    if date:
        try:
            parsed = datetime.fromisoformat(date)
            words.append(f"{parsed:%Y-%m-%d} {parsed:%B %Y}")
        except ValueError:
            words.append(date[:10])
    make, model = str(exif.get("camera_make") or ""), str(exif.get("camera_model") or "")
    if model.lower().startswith(make.lower()):
        make = ""  # "Canon" + "Canon EOS R5" reads better once
    camera = " ".join(part for part in (make, model) if part)
    if camera:
        words.append(camera)
    return " ".join(words)


def zero_shot_tags(
    image_vector: Sequence[float],
    labels: Sequence[str],
    label_vectors: Sequence[Sequence[float]],
    *,
    top_k: int = 5,
    min_probability: float = 0.1,
    logit_scale: float = 100.0,
) -> list[str]:
    """CLIP zero-shot labels for one image: softmax over ``logit_scale × cosine``, best first.

    ``label_vectors`` are the CLIP text vectors of prompts such as "a photo of a cat"
    (L2-normalised, the same model as ``image_vector``); ``labels`` are the words that
    go into the document. 100 is CLIP's learned logit scale.
    """
    if not labels:
        return []
    if len(labels) != len(label_vectors):
        raise ValueError("labels and label_vectors differ in length")
    image = np.asarray(image_vector, dtype=np.float64)
    matrix = np.asarray(label_vectors, dtype=np.float64)
    image = image / max(float(np.linalg.norm(image)), 1e-12)
    matrix = matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    logits = logit_scale * (matrix @ image)
    probabilities = np.exp(logits - logits.max())
    probabilities /= probabilities.sum()
    order = np.argsort(-probabilities)[:top_k]
    return [labels[i] for i in order if probabilities[i] >= min_probability]


def build_document(
    *,
    ocr_text: str = "",
    exif: Mapping[str, Any] | None = None,
    tags: Sequence[str] = (),
) -> dict[str, Any]:
    """``{"document", "ocr_text", "tags", "exif"}`` for one image content; pure, so it is cheap to test and to redo."""
    ocr = " ".join(ocr_text.split()) if ocr_text else ""
    kept_ocr = _clip_text(ocr_text.strip(), OCR_STORED) if ocr_text else ""
    sections = [
        " ".join(tags),
        exif_words(exif),
        _clip_text(ocr, OCR_IN_DOCUMENT),
    ]
    return {
        "document": "\n".join(section for section in sections if section),
        "ocr_text": kept_ocr,
        "tags": list(tags),
        "exif": dict(exif or {}),
    }


def _clip_text(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    return cut[:space] if space > limit * 0.8 else cut


PASSAGE_CHARS = 60
"""Most characters in one passage of OCR text (whole lines are joined up to it; a longer line is one passage).

On the real OCR test images (``bench/search_relevance.py``), cross-language one-word
queries found their image by e5 only in a short text: per OCR line, very short lines
("11", "穴") sat near every query; passages of up to 40–60 characters lifted the right
image above the unrelated queries' best without that noise.
"""
MAX_PASSAGES = 32
"""Passages embedded per image: about the OCR text the document holds (:data:`OCR_IN_DOCUMENT`)."""


def passages(ocr_text: str) -> list[str]:
    """The OCR text's lines joined into passages of up to :data:`PASSAGE_CHARS` characters, in reading order.

    Empty when the text fits in one passage: the document's own vector already says
    what one would (:data:`app.store.search_schema.PASSAGE_SCHEMA`).
    """
    found: list[str] = []
    current = ""
    for line in (" ".join(line.split()) for line in ocr_text.splitlines()):
        if not line:
            continue
        if current and len(current) + 1 + len(line) > PASSAGE_CHARS:
            found.append(current)
            current = line
        else:
            current = f"{current} {line}" if current else line
    if current:
        found.append(current)
    return found[:MAX_PASSAGES] if len(found) > 1 else []
