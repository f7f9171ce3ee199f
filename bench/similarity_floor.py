"""Calibrates the e5 similarity floor of :mod:`app.engine.search` on the bundled model.

A semantic list ranks every stored item, so without an absolute floor the best of
them comes back however unrelated ("coffee" → ``horse.png``). This script embeds a
small calibration set with the real e5 runtime, with the prefixes search uses
(``passage:`` for documents and cues, ``query:`` for queries):

- image documents as :func:`app.media.describe.build_document` writes them from the
  OCR text of the test images (only images with text: one without gets no e5 vector,
  see :func:`app.store.search_writes.has_text`, and file and folder names are
  indexed as words per path, not embedded);
- dialogue cues like the test videos';
- for each, queries a person would type to find it (its words, synonyms, other
  languages), and queries about things none of them show.

It prints the cosine similarity of each related query to its item (the floor must
stay below these) and of each unrelated query to every item (the floor must stay
above these), min / median / max per kind, and where each floor candidate would cut.

Usage: ``python -m bench.similarity_floor``.
"""

from __future__ import annotations

import statistics

import numpy as np

from app.media.describe import build_document
from app.ml.text_embedding import TextEmbeddingRuntime
from app.store.search_writes import has_text

IMAGES: list[tuple[str, list[str]]] = [  # (OCR text, related queries)
    ("INVOICE 4711 parking permit", ["invoice", "parking permit", "receipt 4711"]),
    ("Invoice number 4471 Total due 129.50 EUR", ["invoice", "invoice 4471", "bill total"]),
    ("我的猫", ["cat", "my cat", "猫"]),
    ("東京タワーの写真", ["tokyo tower", "東京", "photo of tokyo"]),
    ("quarterly budget meeting notes whiteboard", ["budget", "meeting notes", "whiteboard"]),
    ("chocolate cake recipe flour sugar eggs", ["cake", "baking recipe", "chocolate"]),
    ("weather forecast rain tomorrow umbrella", ["umbrella", "rain", "weather"]),
    ("red sports car parked on the street", ["car", "red car", "sports car"]),
    ("今天天气很好", ["天气", "nice weather today"]),
    ("猫", ["cat", "猫"]),
    ("Parking permit zone B", ["parking permit", "parking"]),
    ("Holiday photos from Lisbon", ["Lisbon", "holiday photos", "vacation in portugal"]),
    ("Cyan proof sheet", ["proof sheet", "cyan"]),
    ("Library card renewal", ["renewal", "library card"]),
    ("Warehouse shelf 12", ["warehouse shelf", "warehouse"]),
]

CUES: list[tuple[str, list[str]]] = [  # (cue text, related queries)
    ("Good morning, captain.", ["captain", "good morning"]),
    ("The treasure is buried under the old oak tree.", ["buried treasure oak tree", "treasure", "oak tree"]),
    ("宝藏埋在老橡树下。", ["oak tree", "buried treasure", "宝藏"]),
    ("我们黎明出发。", ["黎明", "we leave at dawn"]),
    ("Don't forget your umbrella tonight.", ["umbrella", "forget umbrella"]),
    ("The train to Berlin leaves at nine.", ["Zug nach Berlin", "train to berlin", "train"]),
    ("This subtitle machine works offline.", ["subtitle machine", "offline"]),
    ("The ship has sunk.", ["ship has sunk", "shipwreck"]),
]

UNRELATED = [
    "coffee", "sofa", "piano", "volcano", "football match", "wedding dress", "guitar", "elephant",
    "submarine", "knitting", "dentist appointment", "tractor", "castle", "jellyfish", "microscope",
    "lawn mower", "yoga class", "chess", "fireworks", "lighthouse", "kaffee", "咖啡", "ソファ", "basketball",
    "vacuum cleaner", "tiger", "violin", "pizza", "skateboard", "hospital",
]


def table(name: str, related: list[float], unrelated: list[float], best_unrelated: list[float]) -> None:
    print(f"{name}: related n={len(related)} min {min(related):.3f} median {statistics.median(related):.3f}; "
          f"unrelated pairs n={len(unrelated)} median {statistics.median(unrelated):.3f} max {max(unrelated):.3f}; "
          f"best item per unrelated query median {statistics.median(best_unrelated):.3f}")


def main() -> None:
    e5 = TextEmbeddingRuntime(num_threads=1)
    assert all(has_text(ocr) for ocr, _ in IMAGES), "an image without text has no e5 vector to calibrate"
    documents = [build_document(ocr_text=ocr)["document"] for ocr, _ in IMAGES]
    kinds = {
        "images": (documents, [queries for _, queries in IMAGES]),
        "cues": ([c for c, _ in CUES], [queries for _, queries in CUES]),
    }
    unrelated_vectors = np.asarray(e5.embed_queries(UNRELATED))
    measured: dict[str, tuple[list[float], list[float]]] = {}
    for name, (passages, queries) in kinds.items():
        passage_vectors = np.asarray(e5.embed_passages(passages))
        related, low = [], []
        for i, item_queries in enumerate(queries):
            sims = np.asarray(e5.embed_queries(item_queries)) @ passage_vectors[i]
            related.extend(float(s) for s in sims)
            low.extend((float(s), q, passages[i].replace("\n", " / ")) for q, s in zip(item_queries, sims))
        unrelated_matrix = unrelated_vectors @ passage_vectors.T
        unrelated = [float(s) for s in unrelated_matrix.ravel()]
        table(name, related, unrelated, [float(s) for s in unrelated_matrix.max(axis=1)])
        for s, q, p in sorted(low)[:4]:
            print(f"    lowest related  {s:.3f}  {q!r} → {p!r}")
        for qi, pi in zip(*np.unravel_index(np.argsort(-unrelated_matrix, axis=None)[:4], unrelated_matrix.shape)):
            print(f"    highest unrelated {unrelated_matrix[qi, pi]:.3f}  {UNRELATED[qi]!r} → {passages[pi]!r}")
        measured[name] = (related, unrelated)
    print()
    for floor in (0.80, 0.82, 0.83, 0.832, 0.834, 0.836, 0.838, 0.840, 0.845, 0.85):
        cells = [f"{name}: related cut {sum(s < floor for s in related):>2}/{len(related)}, "
                 f"unrelated kept {sum(s >= floor for s in unrelated):>3}/{len(unrelated)}"
                 for name, (related, unrelated) in measured.items()]
        print(f"floor {floor:.3f}  " + "   ".join(cells))


if __name__ == "__main__":
    main()
