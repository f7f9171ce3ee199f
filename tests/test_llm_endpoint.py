"""An OpenAI-compatible endpoint is a working translation backend (llama_cpp.server on 127.0.0.1)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from app.errors import SidecarError, TransientError
from app.media.translation import chat_caller, completion_caller, translate_cues
from app.ml.llm_runtime import OpenAIEndpointRuntime, resolve_model_path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory: pytest.TempPathFactory):
    model = resolve_model_path(None, "gemma3-270m", str(tmp_path_factory.mktemp("endpoint-data")))
    port = _free_port()
    log = tmp_path_factory.mktemp("endpoint-log") / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
             "--port", str(port), "--n_ctx", "2048", "--n_threads", "2", "--model_alias", "gemma"],
            stdout=out, stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{base}/v1/models", timeout=2) as r:
                    json.load(r)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"llama_cpp.server did not start: {log.read_text()[-2000:]}")
                time.sleep(0.3)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_completion_endpoint_translates_with_the_1_to_1_guarantee(endpoint: str) -> None:
    runtime = OpenAIEndpointRuntime(endpoint + "/v1", model="gemma")
    texts = ["Good evening, everyone.", "The train leaves at nine.", "Thank you very much."]
    result = translate_cues(texts, "en", "de", completion_caller(runtime), batch_size=3)
    assert len(result.texts) == 3
    assert all(result.texts[i] == texts[i] for i in result.fallback)
    assert len(result.fallback) < 3


def test_chat_endpoint_answers(endpoint: str) -> None:
    runtime = OpenAIEndpointRuntime(endpoint, model="gemma")
    answer = runtime.chat([{"role": "user", "content": "Say hello."}], max_tokens=8)
    assert isinstance(answer, str)
    # The translation path over chat keeps the mapping whatever the model says.
    result = translate_cues(["One.", "Two."], "en", "fr", chat_caller(runtime), batch_size=2)
    assert len(result.texts) == 2


def test_unreachable_endpoint_is_a_transient_error() -> None:
    runtime = OpenAIEndpointRuntime(f"http://127.0.0.1:{_free_port()}", model="x", timeout_s=2)
    with pytest.raises(TransientError) as caught:
        runtime.complete("hello", 4)
    assert caught.value.code == "endpoint_unavailable" and caught.value.transient


def test_refused_request_is_a_permanent_error(endpoint: str) -> None:
    runtime = OpenAIEndpointRuntime(endpoint, model="gemma")
    with pytest.raises(SidecarError) as caught:
        runtime._post("/v1/no-such-route", {})
    assert caught.value.code == "endpoint_error" and not caught.value.transient
