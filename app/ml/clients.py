"""Typed handles on hosted models: one small class per model kind, with the runtime's methods and signatures.

A model runs in a model-host child (:class:`app.ml.host.ModelHost`) and is reached by
sending a method name and its arguments over a pipe. Each method name is spelled here
once, next to the runtime method it calls (same parameters, same result type), so a
caller's arguments are checked by mypy and a renamed runtime method breaks in one place
instead of at every ``client.call("...")``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from app.ml.item_failures import ItemFailed


class ModelClient(Protocol):
    """A loaded model in its host process, reached by method name (what :class:`~app.ml.host.ModelHost` offers)."""

    def call(self, method: str, *args: Any, on_event: Callable[[Any], bool] | None = None, **kwargs: Any) -> Any:
        """Run ``method`` in the child; ``on_event`` gets streamed events and returns False to stop."""


#: The Whisper runtime's spec name, and what its host imports before the model is named (:func:`app.ml.host.start_spare`).
WHISPER_RUNTIME = "app.ml.whisper_runtime:WhisperRuntime"
MARIAN_RUNTIME = "app.ml.marian_runtime:MarianRuntime"
WHISPER_PRELOAD = ("app.ml.whisper_runtime", "faster_whisper")


class WhisperClient:
    """faster-whisper (:class:`app.ml.whisper_runtime.WhisperRuntime`)."""

    def __init__(self, host: ModelClient) -> None:
        self.host = host

    def detect_language(self, audio_path: str, offset_s: float = 0.0, duration_s: float | None = None,
                        opening: bool = False) -> dict[str, Any]:
        """The language heard in one window of the extracted audio, with its probability; ``opening``: the window
        the transcription decodes first, whose encoder pass the host keeps for it."""
        return dict(self.host.call("detect_language", audio_path, offset_s, duration_s, opening=opening))

    def speech_spans(self, audio_path: str) -> list[tuple[float, float]]:
        """Where the audio holds speech, as (start, end) seconds."""
        return [(float(a), float(b)) for a, b in self.host.call("speech_spans", audio_path)]

    def transcribe(self, audio_path: str, offset_s: float, language: str | None, end_s: float | None,
                   hotwords: str | None, on_event: Callable[[Mapping[str, Any]], bool]) -> dict[str, Any]:
        """Stream segments from ``offset_s`` to ``end_s`` into ``on_event`` (False stops); returns the language found."""
        return self.host.call("transcribe", audio_path, offset_s, language, end_s, hotwords, on_event=on_event)


class TextEmbeddingClient:
    """multilingual-e5 (:class:`app.ml.text_embedding.TextEmbeddingRuntime`): queries and passages embed differently."""

    def __init__(self, host: ModelClient) -> None:
        self.host = host

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return list(self.host.call("embed_queries", list(texts)))

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        return list(self.host.call("embed_passages", list(texts)))


class ClipClient:
    """A CLIP model (:class:`app.ml.clip.ClipRuntime`): images and texts in one vector space."""

    def __init__(self, host: ModelClient) -> None:
        self.host = host

    def embed_images(self, paths: Sequence[str]) -> list[list[float]]:
        return list(self.host.call("embed_images", list(paths)))

    def embed_texts(self, texts: Sequence[str]) -> list[list[float]]:
        return list(self.host.call("embed_texts", list(texts)))

    def embed_images_each(self, paths: Sequence[str]) -> list[list[float] | ItemFailed]:
        """One vector per image, or the :class:`ItemFailed` of an image that cannot be read (a batch fails per image)."""
        return list(self.host.call("embed_images_each", list(paths)))


class OcrClient:
    """RapidOCR (:class:`app.ml.ocr_runtime.OcrRuntime`)."""

    def __init__(self, host: ModelClient) -> None:
        self.host = host

    def read(self, path: str) -> dict[str, Any]:
        """``{"text": lines joined by newlines, "lines": [...]}`` in reading order."""
        return dict(self.host.call("read", path))

    def read_each(self, paths: Sequence[str]) -> list[dict[str, Any] | ItemFailed]:
        """:meth:`read` of every image in one round trip, an :class:`ItemFailed` for an image that cannot be read."""
        return list(self.host.call("read_each", list(paths)))


class LlmClient:
    """llama.cpp (:class:`app.ml.llm_runtime.LlamaRuntime`); an HTTP endpoint runtime has the same two methods."""

    def __init__(self, host: ModelClient) -> None:
        self.host = host

    def complete(self, prompt: str, max_tokens: int = 256, stop: Sequence[str] | None = None) -> str:
        return str(self.host.call("complete", prompt, max_tokens, list(stop) if stop is not None else None))

    def chat(self, messages: Sequence[dict[str, str]], max_tokens: int = 256, stop: Sequence[str] | None = None) -> str:
        return str(self.host.call("chat", [dict(m) for m in messages], max_tokens,
                                  list(stop) if stop is not None else None))


class MarianClient:
    """OPUS-MT (:class:`app.ml.marian_runtime.MarianRuntime`): one translation per text, an alternative on a later attempt."""

    def __init__(self, host: ModelClient) -> None:
        self.host = host

    def translate(self, texts: Sequence[str], attempt: int = 0) -> list[str]:
        return [str(t) for t in self.host.call("translate", list(texts), attempt)]

    def translate_query(self, query: str) -> str:
        return str(self.host.call("translate_query", query))


class ProbeClient:
    """A doctor probe runtime (:mod:`app.ml.probes`): one self-check of a freshly loaded model."""

    def __init__(self, host: ModelClient) -> None:
        self.host = host

    def check(self) -> dict[str, Any]:
        return dict(self.host.call("check"))
