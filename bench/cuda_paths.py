"""The CUDA paths on a real GPU: device choice, Whisper on CUDA, the VRAM gate on real NVML, a real
out-of-memory and the CPU fallback, each through the code the engine runs.

This machine has no GPU; the tests cover these paths with stand-ins. Run this on one that has
(the device machine a session is sometimes lent) with a CTranslate2 Whisper folder and an
extracted ``.f32`` recording (``app.media.audio.extract_audio``)::

    python bench/cuda_paths.py --model DIR --audio speech.f32

One row per check: ok / failed, seconds, what happened. The out-of-memory check fills the
device with a PyTorch allocation (skipped where torch is missing) and then asks the model
host to load Whisper there, as the engine would; the engine's answer to that error is a
retry on the CPU (``Scheduler._run_stage``), which the last check runs.
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.gpu_gate import GpuGate, NvmlProbe
from app.errors import SidecarError
from app.ml.clients import WHISPER_RUNTIME, WhisperClient
from app.ml.host import ModelHost, is_out_of_memory
from app.ml.spec import ModelSpec
from app.ml.whisper_runtime import CUBLAS_LIBRARY, choose_device, whisper_memory_mb

ROWS: list[tuple[str, str, float, str]] = []


def check(name: str, fn: Callable[[], str]) -> None:
    start = time.perf_counter()
    try:
        detail, verdict = fn(), "ok"
    except SidecarError as exc:
        detail, verdict = f"{exc.code}: {exc}", "failed"
    except Exception as exc:  # noqa: BLE001 - a probe reports whatever went wrong
        detail, verdict = f"{type(exc).__name__}: {exc}", "failed"
    ROWS.append((name, verdict, time.perf_counter() - start, detail.replace("\n", " ")[:300]))
    print(f"{name:<34} {verdict:<7} {ROWS[-1][2]:7.2f} s  {ROWS[-1][3]}", flush=True)


def transcribe(spec: ModelSpec, audio: str) -> str:
    host = ModelHost(spec)
    try:
        texts: list[str] = []

        def on_event(event: Any) -> bool:
            if event.get("type") == "segment":
                texts.append(event["text"])
            return True

        WhisperClient(host).transcribe(audio, 0.0, "en", None, None, on_event=on_event)
        return f"{host.info.get('device')}/{host.info.get('compute_type')}: {' '.join(texts)}"
    finally:
        host.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="a CTranslate2 Whisper folder")
    parser.add_argument("--audio", required=True, help="an extracted .f32 recording")
    args = parser.parse_args()
    model, audio = str(Path(args.model).resolve()), str(Path(args.audio).resolve())
    need = whisper_memory_mb("cuda", "tiny")

    probe = NvmlProbe()
    check("NVML device, free memory", lambda: f"{probe.device_name()}, {probe.free_mb()} MiB free")

    def ctranslate2_devices() -> str:
        import ctranslate2

        return (f"ctranslate2 {ctranslate2.__version__}: {ctranslate2.get_cuda_device_count()} device(s), "
                f"cuda types {sorted(ctranslate2.get_supported_compute_types('cuda'))}")

    check("CTranslate2 sees", ctranslate2_devices)

    def cublas() -> str:
        found = sorted({os.path.basename(p) for pattern in ("/usr/local/cuda*/lib64/libcublas.so*",
                                                             "/usr/lib/x86_64-linux-gnu/libcublas.so*",
                                                             f"{sys.prefix}/lib/python3*/site-packages/nvidia/*/lib/libcublas.so*")
                        for p in glob.glob(pattern)})
        try:
            ctypes.CDLL(CUBLAS_LIBRARY)
        except OSError as exc:
            raise RuntimeError(f"{exc}; cuBLAS files on this system: {found}") from exc
        return f"{CUBLAS_LIBRARY} loads"

    check(f"{CUBLAS_LIBRARY} loadable", cublas)
    check("choose_device('auto')", lambda: "/".join(choose_device()))

    def raw_cuda() -> str:
        import numpy as np
        from faster_whisper import WhisperModel

        whisper = WhisperModel(model, device="cuda", compute_type="float16")
        segments, _ = whisper.transcribe(np.fromfile(audio, dtype=np.float32), language="en", beam_size=5)
        return " ".join(s.text.strip() for s in segments)

    check("faster-whisper on CUDA (raw)", raw_cuda)
    cuda = ModelSpec.of(WHISPER_RUNTIME, memory_mb=need, model_path=model, device="cuda", compute_type="float16")
    check("Whisper host, device=cuda", lambda: transcribe(cuda, audio))
    check("Whisper host, device=auto", lambda: transcribe(ModelSpec.of(WHISPER_RUNTIME, model_path=model), audio))

    def onnx() -> str:
        import onnxruntime as ort

        return f"onnxruntime {ort.__version__}: {ort.get_available_providers()}"

    check("onnxruntime providers", onnx)

    try:
        import torch
    except ImportError:
        check("fill the device (torch)", lambda: "skipped: no torch here")
        torch = None
    if torch is not None:
        fill_and_fall_back(torch, probe, cuda, audio, model, need)
    print("\n| check | result | s | detail |\n|---|---|---:|---|")
    for name, verdict, seconds, detail in ROWS:
        print(f"| {name} | {verdict} | {seconds:.2f} | {detail[:160]} |")


def fill_and_fall_back(torch: Any, probe: NvmlProbe, cuda: ModelSpec, audio: str, model: str, need: int) -> None:
    """Fill the device, watch the gate see it, cause a real out-of-memory, then run on the CPU as the engine would."""
    gate = GpuGate(configured_budget_mb=0, max_concurrent=2, probe=probe)

    def admitted() -> str:
        assert gate.try_admit(1, need, "first", {}, lambda key: None)
        second = gate.try_admit(2, need, "second", {}, lambda key: None)
        gate.release(1)
        gate.release(2)
        return f"budget {gate.budget_mb(0)} MiB: a second {need}-MiB stage {'admitted' if second else 'waits'}"

    check("VRAM gate, device empty", admitted)
    block: list[Any] = []

    def fill() -> str:
        torch.zeros(1, device="cuda")  # torch's own context first: what is free after it is what gets taken
        taken = (probe.free_mb() or 0) - 64
        block.append(torch.empty(taken * 1024 * 1024, dtype=torch.uint8, device="cuda"))
        return f"{taken} MiB taken by torch, NVML free now {probe.free_mb()} MiB"

    check("fill the device (torch)", fill)
    check("VRAM gate, device full", admitted)

    def raw_oom() -> str:
        from faster_whisper import WhisperModel

        try:
            WhisperModel(model, device="cuda", compute_type="float32")
        except Exception as exc:  # noqa: BLE001 - the classification of this very error is what is checked
            return f"is_out_of_memory={is_out_of_memory(exc)}: {exc}"
        return "loaded: the device was not full enough"

    check("real OOM at load (raw)", raw_oom)
    check("Whisper host OOM, device=cuda", lambda: transcribe(cuda, audio))
    cpu = cuda.on_cpu()
    assert cpu is not None
    check("CPU fallback (spec.on_cpu())", lambda: transcribe(cpu, audio))
    block.clear()
    torch.cuda.empty_cache()
    check("device after release", lambda: f"NVML free {probe.free_mb()} MiB")


if __name__ == "__main__":
    main()
