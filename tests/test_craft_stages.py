"""The transcribe and render stages apply the craft rules and the job's options (issue 37): flags, repeats, WebVTT."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pysubs2

from app.engine.job_options import JobOptions
from app.media.naming import subtitle_names
from app.errors import Code
from app.pipelines.outputs import RenderOutput, TranscriptOutput, TranslationOutput
from app.store.records import ITEM_FACTS
from app.pipelines.video import RenderStage, TranscribeStage, VideoPlaceStage, cue_options, craft_fingerprint


def _words(start: float, text: str, step: float = 0.3) -> dict[str, Any]:
    words, t = [], start
    for w in text.split():
        words.append({"start": t, "end": t + step * 0.9, "word": " " + w, "probability": 0.9})
        t += step
    return {"start": start, "end": t, "text": text, "words": words, "avg_logprob": -0.2, "no_speech_prob": 0.01,
            "compression_ratio": 1.2}


def _transcript(segments: list[dict[str, Any]], options: dict[str, Any]) -> TranscriptOutput:
    return TranscribeStage._result(segments, [], "en", 0.99, [], 20.0, 20.0, [], [],
                                   cue_options(JobOptions.from_stored(options)))


def _render(transcript: TranscriptOutput, translation: TranslationOutput, options: dict[str, Any]) -> Any:
    inputs = {TranscriptOutput: transcript, TranslationOutput: translation}
    ctx = SimpleNamespace(input=inputs.__getitem__, options=JobOptions.from_stored(options),
                          item=SimpleNamespace(path=Path("/m/Movie.mkv")))
    return RenderStage().run(ctx)  # type: ignore[arg-type]


def test_transcript_notes_repeats_and_removes_sound_tags_when_asked() -> None:
    segments = [_words(0.0, "[Music]"), _words(3.0, "Hello there."), _words(6.0, "Thank you. Thank you. Thank you.")]
    kept = _transcript(segments, {})
    assert [c["text"] for c in kept.cues] == ["[Music]", "Hello there.", "Thank you."]
    assert kept.report.detail == {"repeats_kept_once": [3]}
    removed = _transcript(segments, {"keep_sound_tags": False})
    assert [c["text"] for c in removed.cues] == ["Hello there.", "Thank you."]
    assert removed.report.detail == {"repeats_kept_once": [2]}


def test_options_join_the_fingerprints_only_when_they_differ_from_the_default() -> None:
    assert craft_fingerprint(JobOptions()) == {}
    assert craft_fingerprint(JobOptions(subtitle_profile="relaxed", keep_sound_tags=False)) == {"profile": "relaxed",
                                                                                             "sound_tags": "removed"}
    assert RenderStage().fingerprint(JobOptions(webvtt=True)) != RenderStage().fingerprint(JobOptions())


def test_render_flags_a_translation_over_reading_speed_and_writes_webvtt_beside_srt(tmp_path: Path) -> None:
    transcript = _transcript([_words(0.0, "Hi."), _words(4.0, "How are you today, my friend?", 0.5)], {})
    long = "Hallo, das ist eine viel zu lange Übersetzung für einen kurzen Gruß auf dem Schirm."
    translation = TranslationOutput("en", "de", "m", [long, "Wie geht es dir heute, mein Freund?"], skipped=False)
    rendered = _render(transcript, translation, {"webvtt": True})
    # The item notes it (a stable code) and status --json lists the cue (an item fact of the stored output).
    assert rendered.report.note == Code.OVER_READING_SPEED and rendered.over_reading_speed == [1]
    assert rendered.written()["over_reading_speed"] == [1] and "over_reading_speed" in ITEM_FACTS
    assert RenderOutput.read(rendered.written()).over_reading_speed == [1]
    assert set(rendered.files) == {"transcript", "transcript_vtt", "translation", "translation_vtt", "bilingual"}
    vtt = pysubs2.SSAFile.from_string(rendered.files["translation_vtt"], format_="vtt")
    # Too long for two lines of 42: two cues on the greeting's time and the silence after it; flagged, never cut.
    assert " ".join(e.plaintext.replace("\n", " ") for e in vtt[:2]) == long and len(vtt) == 3
    assert all(len(line) <= 42 for e in vtt for line in e.plaintext.split("\n"))
    names = subtitle_names("Movie", "en", "de", "media-server")
    outputs = {o.role: o.name for o in VideoPlaceStage.outputs(rendered.files, names)}
    assert outputs["transcript_vtt"] == "Movie.en.vtt" and outputs["translation_vtt"] == "Movie.de.vtt"
    plain = _render(transcript, translation, {})
    assert "translation_vtt" not in plain.files and "transcript_vtt" not in plain.files
