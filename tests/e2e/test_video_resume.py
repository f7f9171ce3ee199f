"""A paused or killed transcription continues from its last segment: no re-decoding, no gap, no repeat.

The evidence is data the model host recorded: every read of the extracted audio
(``reads``: the offset asked for and the first sample mapped), kept in the stage's
checkpoint and output. A resumed run must read from the end of the last checkpointed
segment, and the ten numbered sentences of the clip must each appear exactly once.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from app.media.audio import SAMPLE_RATE
from app.paths import database_path
from app.store import Store
from tests.media import MediaFactory, media_duration
from tests.video_jobs import (
    assert_every_sentence_once_in_order,
    assert_monotonic,
    folder_of,
    library,
    options,
    stage_rows,
    wait_for,
)

REPO = Path(__file__).resolve().parents[2]
CLIP = "english_long.mp4"
#: Whisper decodes 30 s windows and streams a window's segments in a burst; a stop is sent
#: when the next segment arrives, so it takes effect at a window boundary. The ~56 s clip
#: has two windows: pausing while the first is decoded leaves the second for the resume.


def _checkpoint(store: Store) -> dict[str, Any] | None:
    return stage_rows(store, "transcribe").get(CLIP)


def _decoding_first_window(row: dict[str, Any] | None) -> bool:
    """The model host has mapped the audio (its read is checkpointed) and no segment has come back yet."""
    return bool(row and row["partial"] and row["partial"]["reads"] and not row["partial"]["segments"])


def _has_segments(row: dict[str, Any] | None) -> bool:
    return bool(row and row["partial"] and row["partial"]["segments"])


def _assert_resumed_from(output: dict[str, Any], checkpoint: dict[str, Any], duration: float) -> None:
    """Two reads: the whole audio, then only what followed the checkpoint's last segment."""
    assert checkpoint["reads"] == [{"offset": 0.0, "first_sample": 0}]
    offset = checkpoint["offset"]
    assert offset == checkpoint["segments"][-1]["end"] > 0
    assert output["reads"] == [{"offset": 0.0, "first_sample": 0},
                               {"offset": offset, "first_sample": round(offset * SAMPLE_RATE)}]
    kept = output["segments"]
    before = len(checkpoint["segments"])
    assert output["dropped"] == [] and len(kept) > before  # work was left for the resumed run
    assert [s["text"] for s in kept[:before]] == [s["text"] for s in checkpoint["segments"]]
    assert all(s["start"] >= offset for s in kept[before:])  # nothing before the offset was heard again
    assert_monotonic(output["cues"], duration)
    assert_every_sentence_once_in_order(output["cues"])


def test_pausing_mid_transcribe_resumes_from_the_last_segment(
    media: MediaFactory, tmp_path: Path
) -> None:
    folder = folder_of(tmp_path / "library", {CLIP: media.english_long(".mp4")})
    lib = library(tmp_path / "data")
    try:
        job = lib.add(folder, options("en"))
        lib.start()
        wait_for(lambda: _decoding_first_window(_checkpoint(lib.store)), 180, "the first window to be decoded")
        lib.pause(job.id)
        paused = wait_for(lambda: (r := _checkpoint(lib.store)) and r["status"] == "queued" and r, 120,
                          "the transcription to stop at a segment")
        assert lib.items(job.id)[0].status == lib.status(job.id)[0].status == "paused"
        lib.resume(job.id)
        lib.run_until_idle()
        assert lib.status(job.id)[0].status == "completed"
        output = _checkpoint(lib.store)["output"]
        loads = lib.model_loads()
    finally:
        lib.close()
    _assert_resumed_from(output, paused["partial"], media_duration(folder / CLIP))
    # Pausing kept Whisper loaded for the resume.
    assert [n for key, n in loads.items() if key.startswith("app.ml.whisper_runtime:")] == [1]
    assert (folder / "english_long.en.srt").is_file()


def _cli(data_dir: Path, *args: str, **kw: Any) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SIDECAR_HOME": str(data_dir)}
    return subprocess.Popen([sys.executable, "-m", "app", *args], cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, **kw)


def test_a_killed_engine_resumes_transcription_from_its_checkpoint(
    media: MediaFactory, tmp_path: Path
) -> None:
    folder = folder_of(tmp_path / "library", {CLIP: media.english_long(".mp4")})
    data_dir = tmp_path / "data"
    assert _cli(data_dir, "add", str(folder), "--target-lang", "en").wait(60) == 0
    # Its own session, so the kill takes the engine and its model process down together, like a power cut.
    engine = _cli(data_dir, "run", "--until-idle", start_new_session=True)
    store = Store(database_path(data_dir))
    try:
        wait_for(lambda: _has_segments(_checkpoint(store)), 180, "checkpointed segments")
        os.killpg(engine.pid, signal.SIGKILL)
        engine.wait(30)
        at_kill = _checkpoint(store)
        assert at_kill["status"] == "running"  # killed mid-stage: nobody released it
    finally:
        store.close()
    assert _cli(data_dir, "run", "--until-idle").wait(300) == 0
    store = Store(database_path(data_dir))
    try:
        final = _checkpoint(store)
    finally:
        store.close()
    assert final["status"] == "succeeded"
    _assert_resumed_from(final["output"], at_kill["partial"], media_duration(folder / CLIP))
    assert (folder / "english_long.en.srt").is_file()

