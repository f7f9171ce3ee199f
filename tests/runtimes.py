"""Tiny model runtimes for model-host tests: they load nothing heavy, but they run in a real child process."""

from __future__ import annotations

import os
import time
from typing import Any


class EchoRuntime:
    def __init__(self, tag: str = "") -> None:
        self.tag = tag

    def info(self) -> dict[str, object]:
        return {"pid": os.getpid(), "tag": self.tag}

    def echo(self, value: object) -> object:
        return value

    def pid(self) -> int:
        return os.getpid()

    def count(self, n: int):  # noqa: ANN201 - a streaming generator
        for i in range(n):
            yield i
        return n

    def abort(self, *_: object) -> None:
        os.abort()

    def hang(self, *_: object) -> None:
        """A call that never answers (a runtime stuck in native code): only ending the process ends it."""
        time.sleep(3600)

    def oom(self, *_: object) -> None:
        raise RuntimeError("CUDA failed with error out of memory")


class OutOfMemoryOn:
    """A model that runs out of memory on the devices ``oom_on`` names, in CTranslate2's words, and echoes elsewhere.

    Spec'd with ``device="cuda"`` it may fall back: its CPU copy (:meth:`ModelSpec.on_cpu`) keeps ``oom_on``.
    """

    def __init__(self, device: str = "cpu", oom_on: str = "cuda") -> None:
        self.device, self.oom_on = device, oom_on.split(",")

    def echo(self, value: object) -> object:
        if self.device in self.oom_on:
            raise RuntimeError("CUDA failed with error out of memory")
        return value


class OomAtLoad:
    """A model whose load fails the way CTranslate2 words a full GPU."""

    def __init__(self, **_: object) -> None:
        raise RuntimeError("CUDA failed with error out of memory")


class CudaOomWhisper:
    """Whisper as it behaves on a GPU that runs out of memory, with CTranslate2's own error text.

    Spec'd with ``device="cuda"`` it streams ``segments_before_oom`` real segments (the model
    itself runs on the CPU: there is no GPU here) and then raises "CUDA failed with error out
    of memory", as CTranslate2 does when a long beam search no longer fits. With any other
    device it is plain Whisper, unless ``cpu_error`` makes the CPU fail too.
    """

    segments_before_oom = 1
    cpu_error: BaseException | None = None

    def __init__(self, device: str = "auto", compute_type: str = "auto", **params: object) -> None:
        self.device, self.compute_type = device, compute_type
        self._params = params
        self._whisper = None

    def info(self) -> dict[str, object]:
        return {"device": self.device, "compute_type": self.compute_type, "pid": os.getpid()}

    def _loaded(self):  # noqa: ANN202 - a WhisperRuntime, loaded on first use
        from app.ml.whisper_runtime import WhisperRuntime

        if self._whisper is None:
            self._whisper = WhisperRuntime(device="cpu", compute_type="int8", **self._params)  # type: ignore[arg-type]
        return self._whisper

    def detect_language(self, *args: object, **kwargs: object) -> dict[str, object]:
        """The language vote before transcription: small windows fit on any GPU, so real Whisper answers."""
        return self._loaded().detect_language(*args, **kwargs)

    def speech_spans(self, *args: object, **kwargs: object) -> list[tuple[float, float]]:
        """The VAD's speech (a resumed short recording's switch check asks for it): no beam search, real Whisper answers."""
        return self._loaded().speech_spans(*args, **kwargs)

    def transcribe(self, audio_path: str, *args: Any, **kwargs: Any):  # noqa: ANN201
        """WhisperRuntime.transcribe's arguments, passed through (offset, language, end, hotwords)."""
        if self.device != "cuda":
            if self.cpu_error is not None:
                raise self.cpu_error
            return (yield from self._loaded().transcribe(audio_path, *args, **kwargs))
        segments = 0
        if self.segments_before_oom:
            for event in self._loaded().transcribe(audio_path, *args, **kwargs):
                if event["type"] == "segment":
                    if segments == self.segments_before_oom:
                        break
                    segments += 1
                yield event
        raise RuntimeError("CUDA failed with error out of memory")


class CudaOomWhisperOomOnCpuToo(CudaOomWhisper):
    """Out of memory on the GPU, and on the CPU as pybind11 turns CTranslate2's ``std::bad_alloc``."""

    segments_before_oom = 0
    cpu_error = MemoryError("std::bad_alloc")


class CudaOomWhisperBrokenOnCpu(CudaOomWhisper):
    """Out of memory on the GPU; on the CPU an error that has nothing to do with memory."""

    segments_before_oom = 0
    cpu_error = RuntimeError("unsupported model format")


class CoreCapRuntime:
    """Answers what a runtime in a model child would give its threads (app.ml.cpu_share)."""

    def threads(self, wanted: int | None) -> int | None:
        from app.ml.cpu_share import capped_threads

        return capped_threads(wanted)
