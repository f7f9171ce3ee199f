"""The pipelines of a request's job: the speech stages only, nothing placed beside a file, nothing indexed.

An upload is the client's, not the person's: its subtitle goes back in the reply, so
the job stops after ``translate`` (which skips itself without a target language). A
language question (``/detect-language``) runs the language vote alone, on the same
Whisper host the transcriptions use (same model spec, so the same resident process).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from app.engine.job_options import JobOptions
from app.engine.stage import Pipeline, StageContext
from app.media.language_vote import detect_language as vote_language
from app.ml.clients import WhisperClient
from app.pipelines.outputs import TranscriptOutput
from app.pipelines.video import ExtractAudioStage, TranscribeStage, TranslateStage

TRANSCRIBE_KIND = "request_transcribe"
"""Item kind of an upload to ``/asr``."""
DETECT_KIND = "request_detect"
"""Item kind of an upload to ``/detect-language``."""


class DetectLanguageStage(TranscribeStage):
    """The transcription's language vote and nothing else: windows spread over the file, heard by the Whisper host."""

    name = "detect_language"

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {**super().fingerprint(options), "detect_only": True}

    def run(self, ctx: StageContext) -> TranscriptOutput:
        audio, _ = self._audio(ctx)
        client = WhisperClient(ctx.model(self.model_spec(ctx.options)))
        result = vote_language(audio, lambda start, length: client.detect_language(str(audio), start, length))
        return TranscriptOutput(language=result.language, language_probability=result.probability,
                                language_votes=list(result.windows))


def request_pipelines(data_dir: Path) -> dict[str, Pipeline]:
    """Both request kinds' pipelines, of the video stages (a request's options, frozen from the settings, name its server)."""
    return {
        TRANSCRIBE_KIND: Pipeline(TRANSCRIBE_KIND, [ExtractAudioStage(), TranscribeStage(data_dir),
                                                    TranslateStage(data_dir)]),
        DETECT_KIND: Pipeline(DETECT_KIND, [ExtractAudioStage(), DetectLanguageStage(data_dir)]),
    }
