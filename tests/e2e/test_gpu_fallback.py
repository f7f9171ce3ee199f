"""A GPU that runs out of memory costs speed, not the file (issue 11.7).

The real video pipeline runs with its device choice injected as a CUDA machine's
(``asr_device``) and Whisper hosted by :class:`tests.runtimes.CudaOomWhisper`, which
raises CTranslate2's own "CUDA failed with error out of memory" on the GPU and
transcribes for real on the CPU. The engine releases every model and tries the GPU
again; when that fails too the stage runs once more on the CPU, from its checkpoint,
and the item notes ``gpu_fallback_cpu``. Out of memory on the CPU too, or another
error there, still fails the item with its own code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.engine.job_options import JobOptions
from app.media.audio import SAMPLE_RATE
from app.pipelines import video
from app.settings import Settings
from app.store.records import ItemView
from app.ml.model_choice import models_use
from tests.media import MediaFactory, media_duration
from tests.video_jobs import (
    assert_every_sentence_once_in_order,
    assert_monotonic,
    folder_of,
    library,
    run_folder,
    stage_rows,
)

CLIP = "english_long.mp4"


@pytest.fixture
def cuda_machine(monkeypatch: pytest.MonkeyPatch):
    """Make the video pipeline believe it runs on CUDA; returns a setter for the Whisper runtime to host."""
    monkeypatch.setattr(video, "asr_device", lambda: ("cuda", "float16"))
    return lambda runtime: monkeypatch.setattr(video, "WHISPER_RUNTIME", f"tests.runtimes:{runtime}")


def _run(media: MediaFactory, tmp_path: Path) -> tuple[Path, ItemView, dict, dict[str, int]]:
    folder = folder_of(tmp_path / "library", {CLIP: media.english_long(".mp4")})
    lib = library(tmp_path / "data")
    try:
        job = run_folder(lib, folder, "en")
        item = lib.items(job.id)[0]
        return folder, item, stage_rows(lib.store, "transcribe")[CLIP], lib.model_loads()
    finally:
        lib.close()


def test_out_of_gpu_memory_twice_runs_the_stage_on_the_cpu_from_its_checkpoint(
    media: MediaFactory, tmp_path: Path, cuda_machine
) -> None:
    cuda_machine("CudaOomWhisper")
    folder, item, transcribe, loads = _run(media, tmp_path)

    assert (item.status, item.error_code, item.notes) == ("completed", None, ("gpu_fallback_cpu",))
    output = transcribe["output"]
    assert output["item_note"] == "gpu_fallback_cpu"
    # One segment on the GPU, the release of every model, one more on the GPU, then the CPU
    # from the end of the second segment: three reads, each from the last checkpoint.
    reads = output["reads"]
    assert len(reads) == 3 and reads[0] == {"offset": 0.0, "first_sample": 0}
    assert reads[1]["offset"] == output["segments"][0]["end"] > 0
    assert reads[2]["offset"] == output["segments"][1]["end"] > reads[1]["offset"]
    assert all(r["first_sample"] == round(r["offset"] * SAMPLE_RATE) for r in reads)
    assert_monotonic(output["cues"], media_duration(folder / CLIP))
    assert_every_sentence_once_in_order(output["cues"])
    whisper = {key: n for key, n in loads.items() if key.startswith("tests.runtimes:CudaOomWhisper(")}
    assert {("device=cuda" in key, "compute_type=int8" in key, n) for key, n in whisper.items()} == {
        (True, False, 2), (False, True, 1)}, "GPU loaded twice (before and after the release), the CPU once"
    assert (folder / "english_long.en.srt").is_file()


def test_out_of_memory_on_the_cpu_too_fails_the_item_with_out_of_memory(
    media: MediaFactory, tmp_path: Path, cuda_machine
) -> None:
    cuda_machine("CudaOomWhisperOomOnCpuToo")
    folder, item, transcribe, _ = _run(media, tmp_path)

    assert (item.status, item.error_code, item.notes) == ("failed", "out_of_memory", ())
    assert "GPU and again on the CPU" in (item.error or "")
    assert transcribe["status"] == "failed"
    assert not [p for p in folder.iterdir() if p.name != CLIP], "nothing is placed for a failed item"


def test_another_error_on_the_cpu_fails_with_its_own_code(media: MediaFactory, tmp_path: Path, cuda_machine) -> None:
    cuda_machine("CudaOomWhisperBrokenOnCpu")
    folder, item, transcribe, _ = _run(media, tmp_path)

    assert (item.status, item.error_code, item.notes) == ("failed", "runtime_error", ())
    assert "unsupported model format" in (item.error or "")
    assert not [p for p in folder.iterdir() if p.name != CLIP]


def test_on_a_gpu_the_whisper_and_translator_specs_have_cpu_copies(data_dir: Path, monkeypatch: pytest.MonkeyPatch
                                                                     ) -> None:
    pipeline = video.video_pipeline(data_dir, Settings(target_lang="de"))
    transcribe, translate = pipeline.stages[1], pipeline.stages[2]
    opts = JobOptions(target_lang="de")
    assert translate.model_spec(opts) is None, "the default OPUS-MT route is known only at run time, on the CPU"
    models_use(data_dir, "gemma3-270m")  # the LLM tier: a gated model
    monkeypatch.setattr(video, "asr_device", lambda: ("cpu", "int8"))
    assert transcribe.model_spec(opts).on_cpu() is None and translate.model_spec(opts).on_cpu() is None
    monkeypatch.setattr(video, "asr_device", lambda: ("cuda", "float16"))
    whisper, llm = transcribe.model_spec(opts), translate.model_spec(opts)
    assert whisper.memory_mb > 0 and llm.memory_mb > 0
    assert (dict(whisper.on_cpu().params)["device"], dict(whisper.on_cpu().params)["compute_type"]) == ("cpu", "int8")
    assert dict(llm.on_cpu().params)["device"] == "cpu" and llm.on_cpu().memory_mb == 0
