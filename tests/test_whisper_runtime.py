"""Whisper base transcribes real speech in a spawned model host, offline, and resumes from an offset."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from app.ml.spec import ModelSpec
from app.errors import StageStopped
from app.media.audio import extract_audio
from app.media.cues import build_cues
from app.media.hallucination import filter_segments
from app.ml.host import ModelHost
from tests.media import ENGLISH_KEY_WORDS
from tests.video_jobs import assert_every_sentence_once_in_order


@pytest.fixture(scope="module")
def whisper() -> Any:
    started = time.perf_counter()
    host = ModelHost(ModelSpec.of("app.ml.whisper_runtime:WhisperRuntime", memory_mb=0, cpu_threads=2))
    host.info["spawn_and_load_seconds"] = round(time.perf_counter() - started, 3)
    print(f"\nwhisper host: {host.info}")
    yield host
    host.close()


def _transcribe(host: ModelHost, audio: Path, offset: float = 0.0, language: str | None = None):
    events: list[dict] = []
    result = host.call("transcribe", str(audio), offset, language, on_event=lambda e: events.append(e) is None)
    return events, result


def test_english_clip_is_transcribed_in_a_child_process(whisper, media, tmp_path: Path) -> None:
    info = extract_audio(media.english_long(".mp4"), tmp_path / "en.f32")
    started = time.perf_counter()
    events, result = _transcribe(whisper, info.path)
    seconds = time.perf_counter() - started
    print(f"\nwhisper base RTF on {info.duration_s:.1f} s English: {seconds / info.duration_s:.3f} ({seconds:.1f} s)")

    assert whisper.info["model"] == "base" and whisper.info["device"] in ("cpu", "cuda")
    assert events[0]["type"] == "info" and events[0]["language"] == "en"  # known before any segment
    assert result["language"] == "en" and result["offset"] == 0.0
    segments = [e for e in events[1:] if e["type"] == "segment"]
    assert len(segments) == result["segments"] >= 5
    text = " ".join(s["text"] for s in segments).lower()
    found = [w for w in ENGLISH_KEY_WORDS if w.lower() in text]
    assert len(found) >= 7, f"only {found} in {text!r}"
    previous = 0.0
    for seg in segments:  # absolute, ordered, inside the audio, JSON-plain numbers
        assert previous - 0.01 <= seg["start"] < seg["end"] <= info.duration_s + 0.5
        assert type(seg["start"]) is float and all(type(w["start"]) is float for w in seg["words"])
        assert seg["words"] and {"avg_logprob", "no_speech_prob", "compression_ratio"} <= seg.keys()
        previous = seg["start"]

    kept = filter_segments(segments)
    assert not kept.no_speech
    cues = build_cues(kept.kept, duration_s=info.media_duration_s)
    assert len(cues) >= 8  # ten spoken sentences become readable cues


def test_resuming_from_an_offset_reads_only_later_audio(whisper, media, tmp_path: Path) -> None:
    info = extract_audio(media.english_long(".mp4"), tmp_path / "en.f32")
    events, result = _transcribe(whisper, info.path, offset=30.0, language="en")
    assert result["first_sample"] == 30 * 16_000  # the child mapped the file from the checkpoint on
    segments = [e for e in events if e["type"] == "segment"]
    assert segments and all(s["start"] >= 30.0 for s in segments)
    text = " ".join(s["text"] for s in segments).lower()
    assert "snowman" in text and "submarine" not in text and "chocolate" not in text


def test_german_clip_is_detected_as_german(whisper, media, tmp_path: Path) -> None:
    info = extract_audio(media.german(".mkv"), tmp_path / "de.f32")
    events, result = _transcribe(whisper, info.path)
    assert events[0]["language"] == "de" and result["language"] == "de"
    assert "berlin" in " ".join(e.get("text", "") for e in events).lower()
    assert whisper.call("detect_language", str(info.path))["language"] == "de"


@pytest.mark.parametrize("clip", ["english_long", "german"])
def test_the_votes_opening_window_is_the_transcriptions_first_encoder_pass(whisper, media, tmp_path: Path,
                                                                           clip: str) -> None:
    """The vote hears the opening as the transcription will; the transcription then decodes from that very pass.

    Over 30 s of speech (english_long) and under (german): the kept pass is used even with
    another window heard in between, and the transcript is exactly the one a fresh pass gives.
    """
    info = extract_audio(getattr(media, clip)(".mkv"), tmp_path / "a.f32")
    heard = whisper.call("detect_language", str(info.path), 0.0, None, opening=True)
    assert heard["language"] == ("en" if clip == "english_long" else "de") and 2.0 < heard["speech_s"] <= 30.0
    # Another window heard in between (its answer is not the point: on 10 s of espeak German Whisper may say "la").
    between = whisper.call("detect_language", str(info.path), 5.0, 10.0)
    assert between["language"] in dict(between["top"])
    shared_events, shared = _transcribe(whisper, info.path, language=heard["language"])
    fresh_events, fresh = _transcribe(whisper, info.path, language=heard["language"])
    assert shared["opening_pass_reused"] and not fresh["opening_pass_reused"]
    segments = [e for e in shared_events if e["type"] == "segment"]
    assert segments and segments == [e for e in fresh_events if e["type"] == "segment"]


def test_silence_gives_no_speech(whisper, media, tmp_path: Path) -> None:
    info = extract_audio(media.silence(), tmp_path / "s.f32")
    events, _ = _transcribe(whisper, info.path)
    segments = [e for e in events if e["type"] == "segment"]
    assert filter_segments(segments).no_speech


def test_stopping_at_a_segment_keeps_the_host_usable(whisper, media, tmp_path: Path) -> None:
    info = extract_audio(media.english_long(".mp4"), tmp_path / "en.f32")
    seen: list[dict] = []

    def stop_after_first_segment(event: dict) -> bool:
        seen.append(event)
        return event["type"] != "segment"

    with pytest.raises(StageStopped):
        whisper.call("transcribe", str(info.path), 0.0, "en", on_event=stop_after_first_segment)
    assert sum(e["type"] == "segment" for e in seen) == 1  # nothing after the stop reaches the caller
    # The same process answers the next call: stopping did not cost a model load.
    pid = whisper.pid
    events, result = _transcribe(whisper, info.path, offset=50.0, language="en")
    assert whisper.pid == pid and result["first_sample"] == 50 * 16_000


def test_a_film_is_heard_in_windows_with_no_sentence_cut_lost_or_repeated(media, tmp_path: Path) -> None:
    """The ~56 s clip in 20 s windows: each window's possibly cut last segment is heard again in the next."""
    info = extract_audio(media.english_long(".mp4"), tmp_path / "en.f32")
    host = ModelHost(ModelSpec.of("app.ml.whisper_runtime:WhisperRuntime", memory_mb=0, cpu_threads=2, window_s=20.0))
    try:
        events, result = _transcribe(host, info.path)
    finally:
        host.close()
    reads = [e for e in events if e["type"] == "info"]
    segments = [e for e in events if e["type"] == "segment"]
    assert len(reads) >= 3 and result["segments"] == len(segments)
    assert all(r["duration"] <= 20.0 for r in reads) and reads[0]["offset"] == 0.0
    assert all(a["offset"] < b["offset"] for a, b in zip(reads, reads[1:]))
    for read in reads[1:]:  # a window starts where the segments before it ended, never later
        before = [s for s in segments if s["start"] < read["offset"]]
        assert not before or read["offset"] <= before[-1]["end"] + 2.0
    assert all(a["end"] <= b["start"] + 0.01 for a, b in zip(segments, segments[1:])), "no overlap, no repeat"
    assert_every_sentence_once_in_order(segments)
