"""OCR reads English, Chinese and Japanese from images, offline, with the models in the wheel."""

from __future__ import annotations

import socket
import time

import pytest

from app.ml.spec import ModelSpec
from app.errors import MediaError
from app.ml.host import ModelHost
from app.ml.ocr_runtime import OcrRuntime
from tests.rendered_images import render_text_image

LINES = {
    "english": ["Invoice number 4471", "Total due 129.50 EUR"],
    "chinese": ["发票号码", "一只猫在桌子上"],
    "japanese": ["東京タワーの写真", "ありがとうございます"],
}


@pytest.fixture(scope="module")
def ocr(tmp_path_factory):
    return OcrRuntime(num_threads=2)


def _compact(text: str) -> str:
    return "".join(text.split()).lower()


def test_models_load_and_read_without_network(monkeypatch, tmp_path):
    def refuse(*args, **kwargs):
        raise AssertionError("OCR tried to use the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    runtime = OcrRuntime(num_threads=2)
    result = runtime.read(render_text_image(tmp_path / "offline.png", ["Offline works"]))
    assert "offline" in result["text"].lower()


@pytest.mark.parametrize("language", sorted(LINES))
def test_reads_each_language_exactly(ocr, tmp_path, language):
    path = render_text_image(tmp_path / f"{language}.png", LINES[language])
    started = time.perf_counter()
    result = ocr.read(path)
    elapsed = time.perf_counter() - started
    print(f"OCR {language}: {elapsed:.2f} s")
    for line in LINES[language]:
        assert _compact(line) in _compact(result["text"]), (line, result["text"])
    assert len(result["lines"]) == len(LINES[language])
    first = result["lines"][0]
    assert first["score"] > 0.8 and len(first["box"]) == 4
    assert first["box"][0][1] < result["lines"][1]["box"][0][1], "lines come in reading order"


def test_an_image_without_text_gives_empty_text(ocr, tmp_path):
    path = render_text_image(tmp_path / "blank.png", [" "])
    assert ocr.read(path) == {"text": "", "lines": []}


def test_a_corrupt_image_fails_with_its_code(ocr, tmp_path):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\x00" * 100)
    with pytest.raises(MediaError) as err:
        ocr.read(bad)
    assert err.value.code == "corrupt_media"


def test_runs_in_a_model_host(tmp_path):
    path = render_text_image(tmp_path / "mixed.png", ["Receipt 2024", "领收书 東京"])
    host = ModelHost(ModelSpec.of("app.ml.ocr_runtime:OcrRuntime", num_threads=2))
    try:
        assert host.info["model_id"].startswith("rapidocr-")
        result = host.call("read", str(path))
    finally:
        host.close()
    assert "receipt2024" in _compact(result["text"])
    assert "東京" in result["text"]
