"""`sidecar doctor` on this machine: no GPU, sqlite-vec loads, every bundled model loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app import doctor


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return doctor.collect_report(tmp_path_factory.mktemp("doctor-data"))


def test_report_is_plain_json(report: dict) -> None:
    assert json.loads(json.dumps(report)) == report


def test_no_gpu_here_means_an_empty_device_list(report: dict) -> None:
    assert report["gpu"] == []
    assert report["gpu_status"]["ok"]
    assert "cuda" not in report["ctranslate2"]["compute_types"]
    assert "int8" in report["ctranslate2"]["compute_types"]["cpu"]


def test_sqlite_vec_loads_through_a_module_that_can_load_extensions(report: dict) -> None:
    sqlite = report["sqlite"]
    assert sqlite["ok"], sqlite
    assert sqlite["module"] in ("sqlite3", "sqlean")
    if not sqlite["builtin_can_load_extensions"]:
        assert sqlite["module"] == "sqlean"
    assert sqlite["sqlite_vec_version"].startswith("v")
    assert sqlite["fts5"]


def test_every_bundled_model_is_installed_and_loadable(report: dict) -> None:
    rows = {row["name"]: row for row in report["models"]}
    for name in ("whisper-base", "gemma3-270m", "multilingual-e5-small", "rapidocr-ppocr"):
        assert rows[name]["installed"], name
        assert rows[name]["loadable"] is True, rows[name].get("probe")
    assert rows["gemma3-270m"]["probe"]["info"]["architecture"] == "gemma3"
    assert rows["multilingual-e5-small"]["probe"]["check"]["dim"] == 384
    assert rows["whisper-base"]["probe"]["info"]["multilingual"] is True
    assert rows["whisper-small"]["loadable"] is None  # not installed, not probed
    assert report["ok"], report["problems"]


def test_runtimes_and_environment_are_described(report: dict) -> None:
    assert report["python"]["version"].startswith("3.")
    assert "CPUExecutionProvider" in report["onnxruntime"]["providers"]
    assert report["llama_cpp"]["version"]
    assert report["llama_cpp"]["gpu_offload"] in (True, False)
    assert report["data_dir"]["writable"] and report["data_dir"]["free_bytes"] > 0
    assert report["tray"]["ok"] and report["tray"]["tray_available"] is False  # offscreen: no tray
    assert report["ffmpeg"]["required"] is False


def test_format_report_names_each_check(report: dict) -> None:
    text = doctor.format_report(report)
    for label in ("Python", "SQLite", "GPU", "onnxruntime", "CTranslate2", "llama.cpp", "Settings", "Tray", "whisper-base"):
        assert label in text
    assert "Problems: none" in text


def test_a_failing_check_is_reported_not_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> dict:
        raise RuntimeError("sqlite exploded")

    monkeypatch.setattr(doctor, "check_sqlite", broken)
    monkeypatch.setattr(doctor, "check_llama_cpp", broken)
    report = doctor.collect_report(tmp_path, probe_models=False)
    assert report["sqlite"] == {"ok": False, "error": "RuntimeError: sqlite exploded"}
    assert not report["ok"] and any("sqlite exploded" in p for p in report["problems"])
    assert "FAILED: RuntimeError: sqlite exploded" in doctor.format_report(report)


def test_a_model_that_does_not_load_fails_its_line_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"GGUF" + b"\0" * 64)  # right magic, no model inside
    from app.ml import local_models, model_choice

    local_models.models_register(tmp_path, bad, "translation", "broken")
    model_choice.models_use(tmp_path, "broken")
    monkeypatch.setattr(doctor, "_BUNDLED_PROBES", {})  # probe only the chosen model, fast
    report = doctor.collect_report(tmp_path)
    rows = {row["name"]: row for row in report["models"]}
    assert rows["broken"]["loadable"] is False
    assert rows["broken"]["probe"]["error"]
    assert any("broken" in p for p in report["problems"])
    assert report["sqlite"]["ok"]


def test_nvidia_devices_are_listed_with_free_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """The NVML path, with a stand-in NVML (these machines have no NVIDIA GPU)."""
    import types

    fake = types.SimpleNamespace(
        nvmlInit=lambda: None,
        nvmlShutdown=lambda: None,
        nvmlSystemGetDriverVersion=lambda: "550.54",
        nvmlSystemGetCudaDriverVersion=lambda: 12040,
        nvmlDeviceGetCount=lambda: 1,
        nvmlDeviceGetHandleByIndex=lambda i: i,
        nvmlDeviceGetName=lambda h: b"NVIDIA H200",
        nvmlDeviceGetMemoryInfo=lambda h: types.SimpleNamespace(total=141 * 2**30, free=100 * 2**30, used=41 * 2**30),
    )
    monkeypatch.setitem(__import__("sys").modules, "pynvml", fake)
    gpu = doctor.check_gpu()
    assert gpu["devices"] == [
        {"index": 0, "name": "NVIDIA H200", "total_mb": 141 * 1024, "free_mb": 100 * 1024, "used_mb": 41 * 1024}
    ]
    assert gpu["cuda_driver_version"] == "12.4"
    text = doctor.format_report({"gpu": gpu["devices"], "gpu_status": {}})
    assert "NVIDIA H200, 102,400 MB free of 144,384 MB" in text


def test_cuda_compute_types_are_listed_when_ctranslate2_sees_a_device(monkeypatch: pytest.MonkeyPatch) -> None:
    import ctranslate2

    monkeypatch.setattr(ctranslate2, "get_cuda_device_count", lambda: 1)
    real = ctranslate2.get_supported_compute_types
    monkeypatch.setattr(
        ctranslate2, "get_supported_compute_types", lambda d: {"float16", "int8_float16"} if d == "cuda" else real(d)
    )
    assert doctor.check_ctranslate2()["compute_types"]["cuda"] == ["float16", "int8_float16"]


def test_whisper_stays_on_the_cpu_when_a_device_is_seen_but_cublas_cannot_be_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A driver alone makes CTranslate2 count a device; its first GPU call then needs cuBLAS for CUDA 12.

    Seen on a real H200 with CUDA 13 only: every transcription failed at its first encoder
    pass. The device is chosen only when the library loads, and doctor says why not.
    """
    import ctranslate2

    from app.ml import whisper_runtime

    monkeypatch.setattr(ctranslate2, "get_cuda_device_count", lambda: 1)
    real = ctranslate2.get_supported_compute_types
    monkeypatch.setattr(ctranslate2, "get_supported_compute_types",
                        lambda d: {"float16", "int8_float16"} if d == "cuda" else real(d))
    monkeypatch.setattr(whisper_runtime, "CUBLAS_LIBRARY", "libcublas-not-installed.so.12")
    assert whisper_runtime.choose_device() == ("cpu", "int8")
    check = doctor.check_ctranslate2()
    assert check["whisper_device"] == "cpu" and "libcublas-not-installed.so.12" in check["note"]

    monkeypatch.setattr(whisper_runtime, "CUBLAS_LIBRARY", "libm.so.6")  # any library that loads stands for cuBLAS
    assert whisper_runtime.choose_device() == ("cuda", "float16")
    check = doctor.check_ctranslate2()
    assert check["whisper_device"] == "cuda" and "note" not in check
