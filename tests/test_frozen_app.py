"""What a frozen (PyInstaller) Sidecar relies on, tested from source.

The build itself is smoke-tested by ``packaging/smoke`` at the end of ``scripts/test``;
these tests pin the code paths that only a frozen or Windows build takes, simulated
here: the bundle folder (``sys._MEIPASS``), stdio set to None by a windowed launcher,
CA certificates missing, DLL folders on Windows, the tray probe that must not re-run the
interpreter, and the sign-in start into the tray.
"""

from __future__ import annotations

import os
import ssl
import subprocess
import sys
from pathlib import Path

import pytest

from app import resources, startup
from app.atomic_write import sha256_file
from app.cli import _gui_request, build_parser
from app.errors import SidecarError
from app.ml import bundled

REPO = Path(__file__).resolve().parent.parent


def test_resources_are_found_in_the_checkout() -> None:
    assert resources.resource_path("models.json") == REPO / "resources" / "models.json"
    assert resources.resource_path("sidecar.svg").read_text().startswith("<svg")


def test_a_frozen_bundle_serves_its_own_resources_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "resources").mkdir()
    (tmp_path / "resources" / "models.json").write_text("{}")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resources.resource_path("models.json") == tmp_path / "resources" / "models.json"
    # What the bundle lacks still comes from the next place (here: the checkout).
    assert resources.resource_path("sidecar.svg") == REPO / "resources" / "sidecar.svg"


def test_the_override_wins_and_a_missing_resource_names_where_it_looked(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sidecar.svg").write_text("<svg/>")
    monkeypatch.setenv("SIDECAR_RESOURCES", str(tmp_path))
    assert resources.resource_path("sidecar.svg") == tmp_path / "sidecar.svg"
    with pytest.raises(SidecarError) as caught:
        resources.resource_path("no-such-file.bin")
    assert caught.value.code == "resource_missing"
    assert str(tmp_path / "no-such-file.bin") in caught.value.message


def test_a_build_time_joined_gemma_is_used_without_writing_the_data_folder(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = tmp_path / "bundle" / "resources" / "models" / bundled.GEMMA_FILE
    shipped.parent.mkdir(parents=True)
    shipped.write_bytes(b"GGUF")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path / "bundle"), raising=False)
    data_dir = tmp_path / "data"
    assert bundled.gemma_gguf_path(data_dir) == shipped
    assert not (data_dir / "models").exists()


def test_a_windowed_launch_without_stdio_still_runs_commands() -> None:
    """A windowed Windows build starts with sys.stdout/stderr None; printing must not raise."""
    code = ("import sys; sys.stdout = None; sys.stderr = None\n"
            "from app.startup import prepare_process; prepare_process()\n"
            "import logging; logging.basicConfig(); logging.warning('visible nowhere')\n"
            "from app.cli import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit as done:\n    raise SystemExit(10 + (done.code or 0))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 10, done.stderr


def test_without_system_certificates_certifi_is_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import certifi

    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    missing = ssl.DefaultVerifyPaths(str(tmp_path / "cert.pem"), str(tmp_path / "certs"), "SSL_CERT_FILE",
                                     str(tmp_path / "cert.pem"), "SSL_CERT_DIR", str(tmp_path / "certs"))
    monkeypatch.setattr(ssl, "get_default_verify_paths", lambda: missing)
    startup.ensure_ca_certificates()
    assert os.environ["SSL_CERT_FILE"] == certifi.where()


def test_system_certificates_are_left_alone(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    (tmp_path / "cert.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    present = ssl.DefaultVerifyPaths(str(tmp_path / "cert.pem"), None, "SSL_CERT_FILE", str(tmp_path / "cert.pem"),
                                     "SSL_CERT_DIR", str(tmp_path / "certs"))
    monkeypatch.setattr(ssl, "get_default_verify_paths", lambda: present)
    startup.ensure_ca_certificates()
    assert "SSL_CERT_FILE" not in os.environ


def test_windows_runtime_folders_become_dll_directories(tmp_path: Path) -> None:
    for folder in ("ctranslate2", "onnxruntime/capi", "llama_cpp/lib"):
        (tmp_path / folder).mkdir(parents=True)
    added: list[str] = []
    result = startup.add_dll_directories(tmp_path, added.append)
    assert added == [str(tmp_path), str(tmp_path / "ctranslate2"), str(tmp_path / "onnxruntime" / "capi"),
                     str(tmp_path / "llama_cpp" / "lib")]
    assert result == [Path(p) for p in added]


def test_the_tray_probe_never_runs_the_executable_with_dash_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """Frozen, sys.executable is Sidecar itself, which takes no ``-c``: the probe must be a spawned child."""
    from app import doctor

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"the tray probe ran a subprocess: {args}")

    monkeypatch.setattr(subprocess, "run", refuse)
    monkeypatch.setattr(subprocess, "Popen", refuse)
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    result = doctor.check_tray()
    assert result["ok"] is True and result["platform"] == "offscreen" and result["tray_available"] is False


def test_sign_in_start_is_a_gui_request_that_stays_in_the_tray() -> None:
    parser = build_parser()
    request = _gui_request(parser, ["--tray"])
    assert request is not None and request.tray and request.paths == []
    request = _gui_request(parser, ["--data-dir", "/tmp/x", "Videos"])
    assert request is not None and not request.tray and request.paths == [Path("Videos")]
    assert _gui_request(parser, ["status"]) is None
    assert _gui_request(parser, ["--version"]) is None


def test_llama_cpp_writes_nothing_to_stderr(tmp_path: Path) -> None:
    """``sidecar doctor`` used to print ``llama_kv_cache_iswa: …`` from llama.cpp itself."""
    gguf = bundled.gemma_gguf_path(tmp_path)
    code = ("import sys; from app.ml.llama_loader import load_llama\n"
            f"model = load_llama({str(gguf)!r}, n_ctx=128, n_threads=1)\n"
            "print(model.n_ctx())\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and int(done.stdout) >= 128, done.stderr
    assert done.stderr == ""


def test_the_packaged_int8_whisper_transcribes_exactly_like_the_bundled_one(tmp_path: Path, media,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The build ships Whisper base re-saved with int8 weights; on the CPU nothing may change."""
    from faster_whisper import WhisperModel

    from app.ml.whisper_int8 import write_int8_model

    folder = write_int8_model(bundled.whisper_base_paths(), tmp_path / "whisper-base-int8")
    original_size = sum(p.stat().st_size for p in bundled.whisper_base_paths()["model.bin"])
    assert (folder / "model.bin").stat().st_size < 0.55 * original_size

    def transcript(model: WhisperModel) -> list[tuple[float, float, str]]:
        segments, _ = model.transcribe(str(media.english_long_wav()), beam_size=5, word_timestamps=True)
        return [(round(s.start, 2), round(s.end, 2), s.text) for s in segments]

    original = transcript(WhisperModel(str(bundled.whisper_base_dir(tmp_path / "data")), device="cpu",
                                       compute_type="int8", cpu_threads=2))
    packaged = transcript(WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=2))
    assert len(original) >= 5 and packaged == original


def test_a_packaged_app_loads_whisper_from_its_bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = tmp_path / "resources" / bundled.WHISPER_BASE_INT8
    shipped.mkdir(parents=True)
    for name in ("config.json", "tokenizer.json", "vocabulary.txt", "model.bin"):
        (shipped / name).write_bytes(b"x")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert bundled.whisper_base_paths()["model.bin"] == shipped / "model.bin"
    assert bundled.whisper_base_dir(tmp_path / "data") == shipped
    assert not (tmp_path / "data").exists()


def test_the_bundled_whisper_is_joined_once_into_the_data_folder(tmp_path: Path) -> None:
    """Loaded by path (not from bytes held in the host's memory); joined and verified once, then reused."""
    folder = bundled.whisper_base_dir(tmp_path)
    parts = bundled.whisper_base_paths()
    assert (folder / "model.bin").stat().st_size == sum(p.stat().st_size for p in parts["model.bin"])
    assert (folder / "config.json").read_bytes() == parts["config.json"].read_bytes()
    assert sha256_file(folder / "model.bin") == bundled.WHISPER_BASE_MODEL_SHA256
    first = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    assert bundled.whisper_base_dir(tmp_path) == folder
    assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} == first
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]


def test_the_cpu_loads_whisper_base_saved_as_int8_once(tmp_path: Path) -> None:
    """From source as in a build: on the CPU the host loads int8 weights (no quantizing at each load), written once."""
    from app.ml.whisper_runtime import WhisperRuntime

    runtime = WhisperRuntime(device="cpu", compute_type="int8", cpu_threads=1, data_dir=str(tmp_path))
    folder = tmp_path / "models" / "bundled" / "whisper-base-int8"
    float16 = sum(p.stat().st_size for p in bundled.whisper_base_paths()["model.bin"])
    assert runtime.info()["compute_type"] == "int8" and (folder / "model.bin").stat().st_size < 0.55 * float16
    written = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    assert bundled.whisper_base_int8_dir(tmp_path) == folder
    assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} == written
    assert not [p for p in folder.parent.iterdir() if p.name.startswith(".")], "no half-written folder is left"


def test_parts_that_do_not_join_to_the_expected_model_are_never_placed(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    part = tmp_path / "part"
    part.write_bytes(b"not whisper")
    monkeypatch.setattr(bundled, "whisper_base_paths", lambda: {"model.bin": (part, part)})
    with pytest.raises(SidecarError) as caught:
        bundled.whisper_base_dir(tmp_path / "data")
    assert caught.value.code == "checksum_mismatch"
    assert list((tmp_path / "data" / "models" / "bundled" / "whisper-base").iterdir()) == []
