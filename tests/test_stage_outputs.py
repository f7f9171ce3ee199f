"""Each stage output type's codec reads the rows databases hold today and writes them back unchanged.

The rows below are shaped exactly as the stages stored them before the types existed
(commit 25cd460), so an existing library keeps reading: reused results, inputs of later
stages and the item report decode to the same values.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.plan import HashOutput
from app.engine.stage import StageOutput
from app.pipelines.outputs import (
    NO_SPEECH,
    TRANSLATION_DOUBTFUL,
    AudioOutput,
    DescribeOutput,
    DialogueIndexOutput,
    ImagePlaceOutput,
    PlaceOutput,
    RenderOutput,
    TextEmbeddingOutput,
    TranscriptOutput,
    TranslationOutput,
    VisualOutput,
)
from app.store.records import ItemReport

CUES = [{"start_ms": 0, "end_ms": 1500, "text": "Hello there."}, {"start_ms": 2000, "end_ms": 3000, "text": "Bye."}]

TODAY: list[tuple[type[StageOutput], dict[str, Any]]] = [
    (HashOutput, {"sha256": "ab" * 32}),
    (AudioOutput, {"path": "/ws/audio.f32", "samples": 48000, "duration_s": 3.0, "media_duration_s": 3.2,
                   "stream_index": 1, "sample_rate": 16000,
                   "audio_stream": {"index": 1, "track": 1, "language": "eng", "title": None, "reason": "only",
                                    "tracks": 1}}),
    (AudioOutput, {"path": "/ws/audio.f32", "samples": 48000, "duration_s": 3.0, "media_duration_s": None,
                   "stream_index": 0, "sample_rate": 16000}),
    (TranscriptOutput, {"language": "en", "language_probability": 0.98, "language_votes": [{"start": 0.0}],
                        "languages": [{"language": "en", "seconds": 2.5}], "duration_s": 3.0,
                        "reads": [{"offset": 0.0, "first_sample": 0}],
                        "segments": [{"start": 0.0, "end": 1.5, "text": "Hello there."}],
                        "dropped": [{"index": 2, "reason": "repeated"}], "cues": CUES}),
    (TranscriptOutput, {"language": "en", "language_probability": 0.5, "language_votes": [], "languages": [],
                        "duration_s": 3.0, "reads": [], "segments": [], "dropped": [], "cues": [],
                        "item_result": NO_SPEECH}),
    (TranscriptOutput, {"language": "de", "language_probability": 0.9, "language_votes": [], "languages": [],
                        "duration_s": 3.0, "reads": [], "segments": [], "dropped": [],
                        "cues": [{**CUES[0], "language": "de"}], "stretches": [{"start_s": 0.0, "end_s": 3.0}]}),
    (TranslationOutput, {"source_lang": "en", "target_lang": "en", "model": "bundled:gemma3-270m", "texts": [],
                         "fallback": [], "skipped": True}),
    (TranslationOutput, {"source_lang": "en", "target_lang": "de", "model": "bundled:gemma3-270m",
                         "texts": ["Hallo.", "Bye."], "fallback": [1], "skipped": False, "calls": 2,
                         "retried_batches": 0, "retried_cues": 1, "reasons": {"1": "language"},
                         "kept_cues": [0], "item_result": TRANSLATION_DOUBTFUL,
                         "item_detail": {"untranslated_cues": [2], "cues": 2, "reasons": {"2": "language"}}}),
    (RenderOutput, {"files": {}}),
    (RenderOutput, {"source_lang": "en", "target_lang": "de",
                    "files": {"transcript": "1\n", "translation": "1\n", "bilingual": "[Script Info]\n"}}),
    (PlaceOutput, {"placed": [{"role": "transcript", "path": "/m/a.en.srt", "action": "written"}]}),
    (DialogueIndexOutput, {"indexed_cues": 4}),
    (VisualOutput, {"skipped": "no visual model installed"}),
    (VisualOutput, {"model": "clip-x", "dim": 2, "vector": "AACAPwAAAEA=", "tags": ["cat"]}),
    (DescribeOutput, {"document": "cat", "ocr_text": "", "tags": ["cat"], "exif": {"Model": "X"},
                      "ocr_model": "rapidocr-3", "analysed_at": "2026-01-01T00:00:00+00:00"}),
    (TextEmbeddingOutput, {"model": "e5", "skipped": "no text in the image"}),
    (TextEmbeddingOutput, {"model": "e5", "vector": "AACAPwAAAEA="}),
    (ImagePlaceOutput, {"indexed": "ab" * 32, "placed": [{"path": "/p/a.jpg.sidecar.json", "action": "written"}],
                        "item_result": "indexed"}),
]


@pytest.mark.parametrize(("kind", "row"), TODAY, ids=[f"{kind.__name__}-{i}" for i, (kind, _) in enumerate(TODAY)])
def test_todays_rows_decode_and_are_written_back_unchanged(kind: type[StageOutput], row: dict[str, Any]) -> None:
    decoded = kind.read(row)
    assert decoded.written() == row
    assert kind.read(decoded.written()) == decoded


def test_the_item_report_a_row_carries_is_decoded_with_it() -> None:
    translation = TranslationOutput.read(TODAY[7][1])
    assert translation.report == ItemReport(TRANSLATION_DOUBTFUL, {"untranslated_cues": [2], "cues": 2,
                                                                   "reasons": {"2": "language"}})
    assert translation.result == TRANSLATION_DOUBTFUL and translation.untranslated_detail() == translation.report.detail
    assert TranscriptOutput.read(TODAY[4][1]).report.result == NO_SPEECH


def test_rows_from_older_versions_decode_with_the_defaults_they_were_read_with() -> None:
    """Keys added over time are absent from older rows; the stages read them with these defaults."""
    translation = TranslationOutput.read({"texts": ["x"], "fallback": []})  # no "skipped": read as no translation
    assert not translation.translated and not translation.failed and translation.result is None
    assert TranscriptOutput.read({"language": "en", "cues": CUES}).cue_list()[1].flat_text == "Bye."
    text = TextEmbeddingOutput.read({"model": "e5"})  # an image without text, before "skipped" was written
    assert text.vector is None and text.written() == {"model": "e5"}
    assert VisualOutput.read({"skipped": "no visual model installed"}).vector_values() is None
    assert VisualOutput.read({"vector": "AACAPwAAAEA="}).vector_values() == [1.0, 2.0]
    assert RenderOutput.read({}) == RenderOutput()


def test_media_seconds_come_from_the_outputs_that_know_them() -> None:
    assert AudioOutput.read(TODAY[1][1]).media_seconds == 3.2  # the container outlasts its audio
    assert AudioOutput.read(TODAY[2][1]).media_seconds == 3.0
    assert TranscriptOutput.read(TODAY[3][1]).media_seconds == 3.0
    assert RenderOutput.read(TODAY[9][1]).media_seconds is None
