"""The audio → transcript pipeline: the video pipeline's stages, with files an audio player can use.

An audio file (a podcast, a voice memo, a lecture recording) goes through the same
``extract_audio`` → ``transcribe`` → ``translate`` stages as a video, so identical
speech is transcribed once whatever the container, and its dialogue is indexed for
search the same way (shown as dialogue, at the audio file, with start times).
What differs is what lands next to the file: ``Name.<lang>.srt`` and a plain-text
``Name.<lang>.txt`` of the transcript, and the translated ``Name.<target>.srt``; no
bilingual ASS, which only a video player shows.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

from app.engine.job_options import JobOptions
from app.engine.kinds import MediaKind
from app.engine.stage import Output, Pipeline, StageContext
from app.media.cues import Cue
from app.media.naming import SubtitleNames
from app.media.subtitles import render_transcript_text
from app.pipelines.outputs import RenderOutput, TranscriptOutput, TranslationOutput
from app.pipelines.subtitled import subtitled_beside
from app.pipelines.video import (
    IndexDialogueStage,
    RenderStage,
    VideoPlaceStage,
    translated_in_place,
    video_pipeline,
    vtt_outputs,
)
from app.settings import Settings

#: Bump when the plain-text transcript changes for the same cues.
TEXT_VERSION = 1
#: The video stages an audio file goes through unchanged (their cached results serve both kinds).
SPEECH_STAGES = ("extract_audio", "transcribe", "translate")


class AudioRenderStage(RenderStage):
    """The video's transcript and translated SRT, plus the transcript as plain text; no bilingual ASS."""

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {**super().fingerprint(options), "text_version": TEXT_VERSION, "bilingual": False}

    def run(self, ctx: StageContext) -> RenderOutput:
        output = super().run(ctx)
        if not output.files:
            return output
        files = {role: text for role, text in output.files.items() if role != "bilingual"}
        transcript, translation = ctx.input(TranscriptOutput), ctx.input(TranslationOutput)
        cues = transcript.cue_list()
        if translated_in_place(transcript, translation):  # the text reads as the SRT does
            cues = [Cue(cue.start_ms, cue.end_ms, text) for cue, text in zip(cues, translation.texts)]
        text = render_transcript_text(cues, transcript.speaker_names()).decode("utf-8")
        return replace(output, files={**files, "text": text})


class AudioPlaceStage(VideoPlaceStage):
    """Write the transcript (SRT and text) and the translation next to the audio file (the next stage indexes them)."""

    @staticmethod
    def outputs(files: Mapping[str, str], names: SubtitleNames) -> list[Output]:
        text_name = str(Path(names.transcript).with_suffix(".txt"))
        outputs = [Output(names.transcript, files["transcript"].encode("utf-8"), "transcript"),
                   Output(text_name, files["text"].encode("utf-8"), "transcript_text")]
        if "translation" in files and names.translation:
            outputs.append(Output(names.translation, files["translation"].encode("utf-8"), "translation"))
        return outputs + vtt_outputs(files, names)


def audio_pipeline(data_dir: Path, settings: Settings) -> Pipeline:
    """The video pipeline's speech stages, configured as for videos, then audio-shaped render and place, then indexing."""
    speech = [stage for stage in video_pipeline(data_dir, settings).stages if stage.name in SPEECH_STAGES]
    return Pipeline(KIND.name, [*speech, AudioRenderStage(), AudioPlaceStage(), IndexDialogueStage()])


KIND = MediaKind(
    name="audio",
    extensions=frozenset(".mp3 .m4a .aac .wav .flac .ogg .opus".split()),
    label="Audio",
    search_kind="dialogue",
    pipeline=audio_pipeline,
    skip=subtitled_beside,
)
