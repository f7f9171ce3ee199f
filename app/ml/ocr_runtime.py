"""OCR for the image index: RapidOCR (PP-OCRv6 det/rec + angle classifier) on onnxruntime.

The default RapidOCR models ship inside the ``rapidocr`` wheel, and its multilingual
PP-OCRv6 recogniser reads English, Chinese (simplified and traditional) and Japanese
with one model, so nothing is downloaded and no language has to be chosen per image.
Runs in a model-host child (``app.ml.ocr_runtime:OcrRuntime``) like every native
runtime. Images are opened through :func:`app.media.images.open_image`, so the same
corrupt/bomb guards apply as for CLIP.
"""

from __future__ import annotations

import logging
from importlib import metadata
from pathlib import Path
from typing import Any, Sequence

from app.errors import Code, SidecarError
from app.media.images import open_image
from app.ml.cpu_share import capped_threads
from app.ml.item_failures import ItemFailed, each

log = logging.getLogger(__name__)

MODEL_ID_PREFIX = "rapidocr"


def rapidocr_model_id() -> str:
    """What the store records as the OCR model: changes when the rapidocr wheel (its models) does."""
    try:
        return f"{MODEL_ID_PREFIX}-{metadata.version('rapidocr')}"
    except metadata.PackageNotFoundError:
        return MODEL_ID_PREFIX


class OcrRuntime:
    """Read the text in an image.

    ``min_score`` drops lines the recogniser itself doubts (RapidOCR's own default is
    0.5). ``num_threads`` caps onnxruntime's threads (``None``: its default, all cores).
    ``use_cuda`` needs onnxruntime-gpu; without it RapidOCR falls back to the CPU.
    """

    def __init__(self, num_threads: int | None = None, use_cuda: bool = False, min_score: float = 0.5):
        from rapidocr import RapidOCR

        params: dict[str, Any] = {"Global.log_level": "warning", "Global.text_score": float(min_score)}
        num_threads = capped_threads(num_threads)
        if num_threads:
            params["EngineConfig.onnxruntime.intra_op_num_threads"] = int(num_threads)
            params["EngineConfig.onnxruntime.inter_op_num_threads"] = 1
        if use_cuda:
            params["EngineConfig.onnxruntime.use_cuda"] = True
        try:
            self._engine = RapidOCR(params=params)
        except Exception as exc:  # rapidocr raises plain exceptions
            raise SidecarError(f"RapidOCR cannot load its models ({exc})", code=Code.MODEL_LOAD_FAILED) from exc
        self.model_id = rapidocr_model_id()

    def info(self) -> dict[str, Any]:
        return {"model_id": self.model_id}

    def read_each(self, paths: Sequence[str | Path]) -> list[dict[str, Any] | ItemFailed]:
        """:meth:`read` of every path in one call (one pipe round trip for a batch of image stages).

        A file that cannot be read (corrupt, gone, too large) is answered with its
        :class:`~app.ml.item_failures.ItemFailed`; the others are still read.
        """
        return each(paths, self.read)

    def read(self, path: str | Path) -> dict[str, Any]:
        """``{"text": lines joined by newlines, "lines": [{"text", "score", "box"}]}`` in reading order.

        ``box`` is four ``[x, y]`` corners in the upright image's pixels. An image
        without text gives ``{"text": "", "lines": []}``.
        """
        image = open_image(path)
        result = self._engine(image)
        texts = getattr(result, "txts", None) or ()
        scores = getattr(result, "scores", None) or ()
        boxes = getattr(result, "boxes", None)
        lines: list[dict[str, Any]] = []
        for index, text in enumerate(texts):
            text = str(text).strip()
            if not text:
                continue
            box = boxes[index].tolist() if boxes is not None and index < len(boxes) else []
            score = float(scores[index]) if index < len(scores) else 0.0
            lines.append({"text": text, "score": round(score, 4), "box": [[float(x), float(y)] for x, y in box]})
        return {"text": "\n".join(line["text"] for line in lines), "lines": lines}
