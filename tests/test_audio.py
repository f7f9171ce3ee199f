"""Audio is extracted once, atomically, as 16 kHz mono float32; bad files fail with stable codes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.errors import MediaError
from app.media import audio as audio_mod
from app.media.audio import SAMPLE_RATE, audio_duration, extract_audio, load_audio


@pytest.mark.parametrize("suffix", [".mp4", ".mkv", ".webm"])
def test_speech_is_extracted_from_common_containers(media, tmp_path: Path, suffix: str) -> None:
    src = media.english_long(suffix)
    info = extract_audio(src, tmp_path / "audio.f32")
    expected = media.wav_seconds(media.english_long_wav())
    assert info.sample_rate == SAMPLE_RATE
    assert abs(info.duration_s - expected) < 0.5
    assert info.media_duration_s is not None and info.media_duration_s >= info.duration_s - 0.5
    assert (tmp_path / "audio.f32").stat().st_size == info.samples * 4
    assert audio_duration(tmp_path / "audio.f32") == pytest.approx(info.duration_s)
    samples = load_audio(tmp_path / "audio.f32")
    assert samples.dtype == np.float32 and samples.ndim == 1
    assert 0.01 < float(np.abs(samples).max()) <= 1.0  # real speech, normalised floats
    assert list(tmp_path.iterdir()) == [tmp_path / "audio.f32"]  # no temp file left behind


def test_video_without_audio_stream_fails_with_no_audio_stream(media, tmp_path: Path) -> None:
    with pytest.raises(MediaError) as caught:
        extract_audio(media.no_audio(), tmp_path / "a.f32")
    assert caught.value.code == "no_audio_stream"
    assert not caught.value.transient
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("broken", ["truncated", "text_as_mkv"])
def test_unreadable_media_fails_with_corrupt_media(media, tmp_path: Path, broken: str) -> None:
    src = getattr(media, broken)()
    with pytest.raises(MediaError) as caught:
        extract_audio(src, tmp_path / "a.f32")
    assert caught.value.code == "corrupt_media"
    assert src.name in caught.value.message
    assert list(tmp_path.iterdir()) == []


def test_empty_file_is_corrupt_and_missing_file_is_file_missing(tmp_path: Path) -> None:
    empty = tmp_path / "empty.mp4"
    empty.write_bytes(b"")
    with pytest.raises(MediaError) as caught:
        extract_audio(empty, tmp_path / "out" / "a.f32")
    assert caught.value.code == "corrupt_media"
    with pytest.raises(MediaError) as caught:
        extract_audio(tmp_path / "gone.mp4", tmp_path / "out" / "a.f32")
    assert caught.value.code == "file_missing"


def test_extraction_replaces_a_stale_target_atomically(media, tmp_path: Path) -> None:
    dest = tmp_path / "a.f32"
    dest.write_bytes(b"stale half-written junk")
    info = extract_audio(media.german(".mkv"), dest)
    assert dest.stat().st_size == info.samples * 4


def test_loading_from_an_offset_never_reads_earlier_audio(media, tmp_path: Path) -> None:
    dest = tmp_path / "a.f32"
    info = extract_audio(media.english_long(".mp4"), dest)
    whole = np.array(load_audio(dest))
    before = len(audio_mod.READS)
    tail = load_audio(dest, offset_s=20.0)
    read = audio_mod.READS[before]
    assert read.first_sample == 20 * SAMPLE_RATE
    assert read.samples == info.samples - 20 * SAMPLE_RATE
    assert isinstance(tail, np.memmap) and tail.offset == 20 * SAMPLE_RATE * 4  # mapped from the offset on
    assert np.array_equal(np.asarray(tail), whole[20 * SAMPLE_RATE :])
    assert len(load_audio(dest, offset_s=info.duration_s + 5)) == 0


def test_silence_is_extracted_as_silence(media, tmp_path: Path) -> None:
    info = extract_audio(media.silence(), tmp_path / "s.f32")
    assert info.duration_s == pytest.approx(8.0, abs=0.1)
    assert float(np.abs(load_audio(tmp_path / "s.f32")).max()) < 1e-3


def _speech_starts(samples: np.ndarray, quiet_s: float = 0.6) -> list[float]:
    """Where speech starts again after at least ``quiet_s`` of silence (energy threshold)."""
    loud = np.flatnonzero(np.abs(samples) > 0.02)
    starts = [loud[0]] + [loud[i + 1] for i in np.flatnonzero(np.diff(loud) > quiet_s * SAMPLE_RATE)]
    return [float(s) / SAMPLE_RATE for s in starts]


#: AAC's 1024-sample priming that a demuxer does not always trim (46 ms at 22.05 kHz), plus rounding.
_ONSET_TOLERANCE_S = 0.06


@pytest.mark.parametrize("clip", ["delayed.mp4", "delayed.mkv", "delayed.ts", "audio_hole", "recorder_ts", "at_zero"])
def test_extracted_speech_sits_where_a_player_plays_it(media, tmp_path: Path, clip: str) -> None:
    timed = {"delayed.mp4": lambda: media.delayed(".mp4"), "delayed.mkv": lambda: media.delayed(".mkv"),
             "delayed.ts": lambda: media.delayed(".ts"), "audio_hole": media.audio_hole,
             "recorder_ts": media.recorder_ts, "at_zero": media.speech_at_zero}[clip]()
    info = extract_audio(timed.path, tmp_path / "a.f32")
    starts = _speech_starts(np.asarray(load_audio(info.path)))
    assert len(starts) == len(timed.onsets), (starts, timed.onsets)
    for found, expected in zip(starts, timed.onsets):
        assert expected - 0.005 <= found <= expected + _ONSET_TOLERANCE_S, (starts, timed.onsets)
    assert info.duration_s == pytest.approx(timed.onsets[-1] + 3.0, abs=3.0)  # the whole timeline, silence included


def test_a_hole_in_the_audio_stream_becomes_silence_of_its_length(media, tmp_path: Path) -> None:
    plain = extract_audio(media.delayed(".mkv", seconds=0.0).path, tmp_path / "plain.f32")
    holed = extract_audio(media.audio_hole(3.0).path, tmp_path / "holed.f32")
    assert holed.duration_s - plain.duration_s == pytest.approx(3.0, abs=0.05)


def _sequential_decode(src: Path) -> np.ndarray:
    """Every decoded sample in order, timestamps ignored: what extraction wrote before timelines mattered."""
    import av

    resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
    with av.open(str(src)) as container:
        frames = [out for frame in container.decode(audio=0) for out in resampler.resample(frame)]
    frames += resampler.resample(None)
    return np.concatenate([f.to_ndarray().reshape(-1) for f in frames])


@pytest.mark.parametrize("clip", ["timeline at zero.mp4", "german.webm", "german.mkv"])
def test_audio_already_at_zero_is_extracted_exactly_as_before(media, tmp_path: Path, clip: str) -> None:
    """Files that were right before (audio at 0:00, or a few ms of Opus/AAC priming off it, no holes)
    give the very same samples, so the very same cues."""
    src = {"timeline at zero.mp4": lambda: media.speech_at_zero().path, "german.webm": lambda: media.german(".webm"),
           "german.mkv": lambda: media.german(".mkv")}[clip]()
    info = extract_audio(src, tmp_path / "a.f32")
    assert np.array_equal(np.asarray(load_audio(info.path)), _sequential_decode(src))
