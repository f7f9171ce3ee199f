"""Model runtimes live in child processes: a native crash fails one stage, which is retried."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.engine.library import Library
from app.ml.spec import ModelSpec
from app.errors import ModelCrashed, SidecarError
from app.ml.host import ModelHost, end_spare, is_out_of_memory, start_spare
from tests.engine_stages import fail_first_call, fake_pipeline, make_media, process

ECHO = ModelSpec.of("tests.runtimes:EchoRuntime", memory_mb=100, tag="a")


def test_host_streams_events_and_reports_a_crash() -> None:
    host = ModelHost(ECHO)
    try:
        seen: list[int] = []
        assert host.call("count", 5, on_event=lambda e: seen.append(e) is None) == 5
        assert seen == [0, 1, 2, 3, 4]
        with pytest.raises(ModelCrashed):
            host.call("abort")
        assert not host.alive
    finally:
        host.close()


def test_stage_whose_model_process_dies_is_retried_and_engine_lives_on(data_dir: Path, tmp_path: Path, fast_config) -> None:
    media = make_media(tmp_path / "lib", 3)
    pipeline, digests = fake_pipeline(gpu_spec=ECHO)
    digests[1].model_method = fail_first_call(media[1].name, "abort")
    out = process(Library(data_dir, {"video": pipeline}, fast_config), tmp_path / "lib")
    assert (out.summary.status, out.summary.done, out.summary.failed) == ("completed", 3, 0)
    assert out.items[media[1].name].status == "completed"
    assert out.loads[ECHO.key] == 2, "the crashed runtime is restarted once"
    assert [n for n, _ in digests[1].calls].count(media[1].name) == 2


def test_out_of_device_memory_releases_models_and_retries(data_dir: Path, tmp_path: Path, fast_config) -> None:
    media = make_media(tmp_path / "lib", 2)
    pipeline, digests = fake_pipeline(gpu_spec=ECHO)
    digests[1].model_method = fail_first_call(media[0].name, "oom")
    out = process(Library(data_dir, {"video": pipeline}, fast_config), tmp_path / "lib")
    assert (out.summary.done, out.summary.failed) == (2, 0)
    assert out.loads[ECHO.key] == 2, "the model was released after the out-of-memory error and loaded again"


@pytest.mark.parametrize("text", [
    "CUDA failed with error out of memory",  # CTranslate2
    "CUDA out of memory. Tried to allocate 20.00 MiB",  # CUDA allocators in PyTorch style
    "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Failed to allocate memory for requested buffer of size 1048576",
    "CUDA failure 2: out of memory ; GPU=0 ; CUDA_ERROR_OUT_OF_MEMORY",  # onnxruntime's CUDA provider
    "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 512.00 MiB on device 0: cudaMalloc failed: out of memory",
])
def test_every_runtime_s_wording_of_a_full_gpu_is_out_of_memory(text: str) -> None:
    assert is_out_of_memory(RuntimeError(text))


def test_other_runtime_errors_are_not_out_of_memory() -> None:
    assert not is_out_of_memory(RuntimeError("unsupported model format"))
    assert not is_out_of_memory(ValueError("CUDA driver version is insufficient for CUDA runtime version"))


def test_a_model_that_cannot_load_for_lack_of_gpu_memory_says_so() -> None:
    with pytest.raises(SidecarError) as failed:
        ModelHost(ModelSpec.of("tests.runtimes:OomAtLoad", memory_mb=100, device="cuda"))
    assert (failed.value.code, failed.value.transient) == ("gpu_out_of_memory", True)


def test_the_cpu_copy_of_a_spec_names_the_cpu_and_reserves_no_device_memory() -> None:
    gpu = ModelSpec.of("app.ml.whisper_runtime:WhisperRuntime", memory_mb=700, device="cuda", compute_type="float16")
    assert gpu.on_cpu() == ModelSpec.of("app.ml.whisper_runtime:WhisperRuntime", memory_mb=0, device="cpu",
                                        compute_type="int8")
    assert gpu.on_cpu().on_cpu() is None  # type: ignore[union-attr]
    assert ECHO.on_cpu() is None, "a runtime without a device runs where it runs: no fallback"


def test_a_spare_host_started_early_becomes_the_first_host_of_its_runtime() -> None:
    """``sidecar run`` starts its Whisper host before it knows the model; the first host of that runtime is that process."""
    spare = start_spare(ECHO.runtime, ("tests.runtimes",))
    assert start_spare(ECHO.runtime) == spare, "one spare at a time"
    host = ModelHost(ECHO)
    try:
        assert host.pid == spare and host.info == {"pid": spare, "tag": "a"}
        assert host.call("count", 3, on_event=lambda e: True) == 3
        second = ModelHost(ModelSpec.of("tests.runtimes:EchoRuntime", memory_mb=100, tag="b"))
        assert second.pid != spare, "a spare is used once"
        second.close()
    finally:
        host.close()


def test_a_spare_nobody_takes_ends_with_the_models() -> None:
    spare = start_spare("tests.runtimes:SomethingElse")
    host = ModelHost(ECHO)
    try:
        assert host.pid != spare, "another runtime's host is spawned as before"
    finally:
        host.close()
    assert os.path.exists(f"/proc/{spare}")
    end_spare()
    assert not os.path.exists(f"/proc/{spare}"), "its process ended"
