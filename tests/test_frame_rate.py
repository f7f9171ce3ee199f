"""Cue gaps are two frames at the video's own frame rate, read from real generated files (issue 37)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pysubs2
import pytest

from app.engine.job_options import JobOptions
from app.media.craft import DEFAULT_FPS, rules_for
from app.media.frame_rate import stream_frame_rate
from app.pipelines.outputs import AudioOutput, TranscriptOutput, TranslationOutput
from app.pipelines.video import RenderStage, TranscribeStage, cue_options, extract_chosen_audio
from app.store.records import ItemFacts
from tests.media import MediaFactory

#: Sentences 0.08 to 0.3 s apart: every gap under the bridge is closed to exactly two frames.
_STARTS = (0.0, 1.5, 3.2, 4.9, 6.5)
_TEXTS = ("Hello there my friend.", "How are you doing today?", "I am fine, thank you.", "Good to hear that.",
          "Yes indeed.")


def _segment(start: float, text: str) -> dict[str, Any]:
    words, t = [], start
    for word in text.split():
        words.append({"start": t, "end": t + 0.27, "word": " " + word, "probability": 0.9})
        t += 0.3
    return {"start": start, "end": t, "text": text, "words": words, "avg_logprob": -0.2, "no_speech_prob": 0.01,
            "compression_ratio": 1.2}


def _transcript(frame_rate: float | None) -> TranscriptOutput:
    segments = [_segment(start, text) for start, text in zip(_STARTS, _TEXTS)]
    return TranscribeStage._result(segments, [], "en", 0.99, [], 20.0, 20.0, [], [], cue_options(JobOptions(), frame_rate))


def _gaps(starts_ends: list[tuple[int, int]]) -> list[int]:
    return [b[0] - a[1] for a, b in zip(starts_ends, starts_ends[1:])]


def _extracted(path: Path, tmp_path: Path) -> AudioOutput:
    return extract_chosen_audio(path, tmp_path / (path.stem + ".f32"), JobOptions())


def test_a_constant_rate_is_read_and_a_variable_or_absent_one_is_unknown() -> None:
    ntsc = Fraction(30000, 1001)
    assert stream_frame_rate(Fraction(25), Fraction(25)) == 25.0
    assert stream_frame_rate(ntsc, ntsc) == pytest.approx(29.97, abs=1e-3)
    assert stream_frame_rate(None, Fraction(24000, 1001)) == pytest.approx(23.976, abs=1e-3)  # no average: r_frame_rate
    assert stream_frame_rate(Fraction(0, 1), Fraction(50)) == 50.0  # 0/0 average: the base rate
    assert stream_frame_rate(Fraction(2987, 100), Fraction(30)) is None  # a phone's variable rate
    assert stream_frame_rate(None, Fraction(90000)) is None  # a time base, not a picture rate
    assert stream_frame_rate(None, None) is None


@pytest.mark.parametrize(("rate", "fps", "gap_ms"), [("25", 25.0, 80), ("30000/1001", 30000 / 1001, 70)])
def test_cues_of_a_video_are_two_frames_apart_at_its_rate(media: MediaFactory, tmp_path: Path, rate: str, fps: float,
                                                          gap_ms: int) -> None:
    extracted = _extracted(media.english_short_at(rate), tmp_path)
    assert extracted.frame_rate == pytest.approx(fps, abs=1e-6)
    assert AudioOutput.read(extracted.written()).frame_rate == extracted.frame_rate  # the stored output keeps it
    transcript = _transcript(extracted.frame_rate)
    gaps = _gaps([(c["start_ms"], c["end_ms"]) for c in transcript.cues])
    # Two frames are 80 ms at 25 fps and 66.7 ms at 29.97 (70 once the cue times are whole centiseconds); the
    # default's 84 ms (90) is not used.
    assert min(gaps) == gap_ms and min(gaps) >= 2000 / fps, gaps
    assert transcript.frame_rate == extracted.frame_rate
    assert ItemFacts.read({"frame_rate": TranscriptOutput.read(transcript.written()).frame_rate}).to_json()[
        "frame_rate"] == round(fps, 3)  # status --items --json shows it


def test_audio_only_and_a_cover_picture_keep_the_default_rate(media: MediaFactory, tmp_path: Path) -> None:
    for path in (media.english_short_audio(".mp3"), media.english_short_with_cover()):
        extracted = _extracted(path, tmp_path)
        assert extracted.frame_rate is None, path.name
        assert "frame_rate" not in extracted.written()
    transcript = _transcript(None)
    assert transcript.frame_rate is None and "frame_rate" not in transcript.written()
    assert min(_gaps([(c["start_ms"], c["end_ms"]) for c in transcript.cues])) == 90 >= 2000 / DEFAULT_FPS


def test_render_lays_a_translation_out_at_the_transcripts_rate() -> None:
    transcript = _transcript(25.0)
    texts = ["Hallo mein Freund, schön dich hier zu sehen.", "Wie geht es dir heute an diesem Tag?",
             "Mir geht es gut, vielen Dank.", "Schön, das zu hören.", "Ja, wirklich."]
    translation = TranslationOutput("en", "de", "m", texts, skipped=False)
    inputs = {TranscriptOutput: transcript, TranslationOutput: translation}
    ctx = SimpleNamespace(input=inputs.__getitem__, options=JobOptions(), item=SimpleNamespace(path=Path("/m/Movie.mkv")))
    rendered = RenderStage().run(ctx)  # type: ignore[arg-type]
    events = pysubs2.SSAFile.from_string(rendered.files["translation"], format_="srt")
    gaps = _gaps([(e.start, e.end) for e in events])
    assert min(gaps) == 80, gaps  # the default's 84 ms would leave 90


def test_a_low_frame_rate_widens_the_gap_but_bridges_at_most_half_a_second() -> None:
    """Two frames of a 10 fps screen recording are 200 ms; its 12 frames (1.2 s) of silence are not bridged."""
    assert (rules_for("en", fps=10.0).gap_ms, rules_for("en", fps=10.0).bridge_ms) == (200, 500)
    assert (rules_for("en", fps=25.0).gap_ms, rules_for("en", fps=25.0).bridge_ms) == (80, 480)
    assert rules_for("en").bridge_ms == 500  # 12 frames at 23.976
