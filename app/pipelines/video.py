"""The video → subtitles pipeline (SPEC §2, §7): extract_audio → transcribe → translate → render → place → index_dialogue.

Each stage is a plug-in of the durable engine: it turns inputs into its output, and the store makes every state change.
The work is split where a crash or a pause should cost the least:

* ``extract_audio`` (CPU) decodes the speech track once into the item's workspace,
  so transcription (the expensive part) never waits on demuxing and can resume by
  memory-mapping from an offset.
* ``transcribe`` (model host, GPU gate) checkpoints every segment as it arrives and,
  on resume, asks Whisper only for the audio after the last finished segment. Its
  output (language, readable cues) is small and self-contained, so a later revision
  with another translation model reuses it after the workspace is gone.
* ``translate`` (model host, or an HTTP endpoint that needs no gate) checkpoints
  after every batch; the 1:1 mapping is :mod:`app.media.translation`'s promise, and
  every cue is judged by the quality estimate (e5 in the model host,
  :mod:`app.pipelines.translation_check`): failing twice, it keeps its original text.
* ``render`` (CPU) keeps the rendered files in its checkpoint (a few hundred KB at
  most), so ``place`` can be replayed byte for byte after a crash.
* ``place`` (CPU) writes through the engine's step protocol (atomic, fenced,
  existing-file policy) under the naming preset.
* ``index_dialogue`` (model host: e5, GPU gate) indexes the dialogue for search
  (:mod:`app.engine.dialogue_index`; idempotent, so a replayed stage indexes again
  harmlessly). Subtitles first, index after: it is its own stage, after ``place``, so
  a subtitle never waits for e5. As a GPU stage it is admitted after the transcriptions
  of its group, so a group's cues are embedded together and the e5 model loads once per
  group instead of holding the model slot between two transcriptions.

Model specs depend only on settings (model identity, device, compute type), never on
the item, so every item of a group maps to the same resident model process.

Over 400 lines on purpose: the six stages hand each other their outputs, and the
stage order, checkpoints and outputs are easiest to check side by side; the shared
logic lives in app.media (cues, translation, subtitles, naming).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from app.engine.dialogue_index import Cue as IndexedCue
from app.engine.dialogue_index import index_dialogue
from app.engine.job_options import JobOptions
from app.engine.kinds import MediaKind
from app.engine.stage import ModelSpec, Output, Pipeline, StageContext
from app.errors import Code, LeaseLost, SidecarError, StageStopped
from app.media import glossary
from app.media.audio import SAMPLE_RATE, audio_duration, extract_audio, load_audio
from app.media.audio_streams import RULE_VERSION as AUDIO_STREAM_RULE
from app.media.audio_streams import AudioChoice, audio_streams, choose_audio_stream
from app.media.craft import CUSTOM, NETFLIX
from app.media.cues import NETFLIX_CUES, CueOptions, craft_cues, cues_to_dicts, over_limits
from app.media.hallucination import filter_segments
from app.media.language_stretches import (PIECE_CHECK_BELOW_S, Stretch, find_stretches, language_at, left_unwritten,
                                          piece_switch, short_switch, speech_by_language, spliced, translation_runs)
from app.media.language_vote import WINDOW_S, heard_languages
from app.media.language_vote import detect_language as vote_language
from app.media.naming import SubtitleNames, normalise_language, subtitle_names
from app.media.subtitles import (
    DEFAULT_FONT,
    render_bilingual_ass,
    render_transcript_srt,
    render_translation_srt,
    render_translation_vtt,
    render_vtt,
)
from app.media.translation import (
    DEFAULT_BATCH_SIZE,
    CompleteFn,
    TranslationProgress,
    TextModel,
    chat_caller,
    completion_caller,
    marian_caller,
    translate_cues,
)
from app.media.translation_timing import flagged_sources, lay_out
from app.ml.clients import MARIAN_RUNTIME, WHISPER_RUNTIME, LlmClient, MarianClient, WhisperClient
from app.ml.index_models import TEXT_EMBEDDING_SPEC, TEXT_MODEL_ID
from app.ml.model_choice import BUNDLED_SOURCE, ChosenModel, chosen_model
from app.ml.opus_mt import OpusPackage, installed_translators, missing_hops, route, translators_identity
from app.pipelines import speaker_labels
from app.pipelines.dialogue import hosted_passage_embedder
from app.pipelines.outputs import (
    NO_SPEECH,
    TRANSLATION_FAILED,
    WAITING_FOR_TRANSLATOR,
    AudioOutput,
    DialogueIndexOutput,
    PlaceOutput,
    RenderOutput,
    TranscriptOutput,
    TranslationOutput,
)
from app.pipelines.translation_check import QUALITY_VERSION, hosted_quality_check
from app.pipelines.subtitled import subtitled_beside_or_inside
from app.settings import Settings
from app.store.records import ItemReport

log = logging.getLogger(__name__)

LLAMA_RUNTIME = "app.ml.llm_runtime:LlamaRuntime"
#: The default translator: the installed OPUS-MT packages, per language pair (app.ml.opus_mt).
OPUS_MT = "opus-mt"
AUDIO_FILE = "audio.f32"
#: Bump when segment filtering or cue building changes: stored transcripts are then redone.
#: 2: cues cut to the craft rules of their language (app.media.craft), repeats kept once.
TRANSCRIPT_VERSION = 2
#: How the language is found when the person set none. It is part of the transcription fingerprint, so a
#: change re-transcribes (once) every recording whose language was detected, and what follows from it;
#: recordings with a set language keep theirs. "window-vote+stretches": a recording whose vote heard two
#: languages is transcribed stretch by stretch (issue 23; transcripts made before kept one language).
#: "+short-check": a recording of one vote window whose transcription left speech unwritten or unsure is
#: heard again there and may be split too (before, a short English-then-German reading lost its English).
#: "+pieces": a recording of 30-90 s (one or two vote windows) has its speech heard piece by piece before it is
#: transcribed (before, the German half of a 60-s English-then-German reading was written as invented English).
LANGUAGE_DETECTION = "window-vote+stretches+pieces+short-check"
#: Bump when the translation prompt or its parsing changes: stored translations are then redone.
#: 2: context cues, glossary renderings, the per-cue quality estimate (app.media.translation_quality).
PROMPT_VERSION = 2
#: Bump when the rendered files change for the same cues (2: a mostly untranslated translation is left out;
#: 3: translations re-broken to the target's craft rules, cues over its reading speed flagged;
#: 4: a translation too long for two lines split in time, one too fast for its cue given the silence around it).
RENDER_VERSION = 4


def cue_options(options: JobOptions, frame_rate: float | None = None) -> CueOptions:
    """How a job's cues are cut (its frozen craft profile and clean-up) for a video of ``frame_rate`` (None: the default's)."""
    return CueOptions(profile=options.subtitle_profile, fps=frame_rate,
                      custom={"line_chars": options.custom_line_chars, "cps": options.custom_cps},
                      keep_sound_tags=options.keep_sound_tags)


def craft_fingerprint(options: JobOptions) -> dict[str, Any]:
    """The cue options a stage's output depends on: nothing while they are the defaults, so older jobs keep theirs."""
    made = cue_options(options)
    out: dict[str, Any] = {}
    if made.profile != NETFLIX:
        out["profile"] = made.profile
    if made.profile == CUSTOM:
        out["custom"] = dict(made.custom or {})
    if not made.keep_sound_tags:
        out["sound_tags"] = "removed"
    return out
BEAM_SIZE = 5
BUNDLED_ASR = "bundled:whisper-base"
BUNDLED_LLM = "bundled:gemma3-270m"
#: Gate reservation for the bundled Gemma when llama.cpp offloads to a GPU (models.json says 500).
BUNDLED_LLM_MB = 500


@lru_cache(maxsize=1)
def asr_device() -> tuple[str, str]:
    """(device, compute type) Whisper runs with here: ``cuda``/``float16``, else ``cpu``/``int8``.

    Decided once in the engine's process (CTranslate2 only counts devices, it loads
    nothing) so the spec handed to the model host, the GPU gate's reservation and the
    stage fingerprint all name the same compute type.
    """
    from app.ml.whisper_runtime import choose_device

    return choose_device()


def _has_accelerator() -> bool:
    return asr_device()[0] == "cuda"


# ------------------------------------------------------------------ extract_audio


def audio_choice(src: Path, options: JobOptions) -> AudioChoice | None:
    """The audio stream of ``src`` the extract stage decodes under these options, with all its streams (None: no audio)."""
    return choose_audio_stream(audio_streams(src), options.source_lang, options.audio_track)


def extract_chosen_audio(src: Path, dest: Path, options: JobOptions,
                         progress: Callable[[float], None] | None = None) -> AudioOutput:
    """Decode the audio stream :func:`audio_choice` picks for these options.

    The output carries the choice (``audio_stream``: index, track, language tag, title,
    why) for ``status --items`` and the queue.
    """
    choice = audio_choice(src, options)
    info = extract_audio(src, dest, choice.stream.index if choice else None, progress)
    return AudioOutput(str(info.path), info.samples, info.duration_s, info.media_duration_s, info.stream_index,
                       info.sample_rate, choice.to_dict() if choice is not None else None, info.frame_rate)


class ExtractAudioStage:
    """Decode the chosen audio stream to 16 kHz mono float32 on the player's timeline, in the workspace (CPU).

    Not durable: its output points at a workspace file that is deleted with the item.
    """

    name = "extract_audio"
    durable = False
    output_type = AudioOutput

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        # "timeline": samples sit on the player's clock (delays and holes honoured), so cues
        # stored from the earlier stream-relative audio are redone. The stream is chosen from
        # the track option and the source language (with the file's content, which keys the cache).
        source = options.source_lang
        return {"sample_rate": SAMPLE_RATE, "format": "f32le-mono", "timeline": "player",
                "audio_track": options.audio_track or "auto",
                "source_lang": normalise_language(source) if source else "auto", "stream_rule": AUDIO_STREAM_RULE}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> AudioOutput:
        ctx.check()
        return extract_chosen_audio(ctx.item.path, ctx.workspace / AUDIO_FILE, ctx.options,
                                    lambda done: ctx.progress(done, "decoding"))


# --------------------------------------------------------------------- transcribe


def _compact_segment(event: Mapping[str, Any], language: str | None) -> dict[str, Any]:
    """What the checkpoint keeps of a segment: enough for the hallucination guard and cue building.

    ``language``: the stretch's, in a mixed-language recording (None in one language).
    """
    kept = {
        "start": event["start"],
        "end": event["end"],
        "text": event["text"],
        "words": [{"start": w["start"], "end": w["end"], "word": w["word"]} for w in event.get("words", [])],
        "avg_logprob": event.get("avg_logprob", 0.0),
        "no_speech_prob": event.get("no_speech_prob", 0.0),
        "compression_ratio": event.get("compression_ratio", 0.0),
    }
    words = event.get("words") or []
    if words:  # how sure Whisper was of its words: a short recording's second language shows as unsure ones
        kept["word_probability"] = round(sum(float(w.get("probability", 1.0)) for w in words) / len(words), 3)
    return {**kept, "language": language} if language else kept


class TranscribeStage:
    """faster-whisper in a model host; segments are checkpointed as they arrive.

    Without a source language set, the language is voted over windows spread across
    the file (:mod:`app.media.language_vote`) before transcribing, not guessed from its
    first 30 s. The checkpoint (``ctx.partial``) holds the segments so far, the offset to resume
    from (the end of the last finished segment), the language once known, and every
    read the model host made (``reads``: offset and first sample mapped). A resumed run
    passes the offset to the host, which memory-maps the audio from there on: what
    was transcribed before is never decoded again, and the recorded reads prove it.

    When the vote heard two languages confidently, the recording is cut into stretches
    (:mod:`app.media.language_stretches`, kept in the checkpoint) and each is transcribed
    in its own language; the transcript is named for the language with the most speech,
    its ``languages`` list the seconds of each, and each cue carries its ``language`` so
    translation leaves the cues already in the target language as they are.

    A recording of 30-90 s has one or two vote windows, too few to place a switch (Whisper
    names one language for a window that holds two); when its vote heard one language, its
    speech is heard piece by piece before it is transcribed
    (:func:`app.media.language_stretches.piece_switch`, a few encoder passes), and a piece
    confidently in another language makes stretches. A stretch whose text Whisper ended early
    (:func:`~app.media.language_stretches.left_unwritten`) is transcribed once more from its last segment.

    A recording of one vote window cannot show a switch in its vote; its
    transcription is checked too (:func:`app.media.language_stretches.short_switch`),
    with the VAD spans of the opening (no VAD pass of its own). Only when a part looks like
    another language is it heard again; a split found there transcribes the recording again,
    stretch by stretch (the stretches are checkpointed, so a resume goes on with them).

    The job's glossary (:mod:`app.media.glossary`) is heard as Whisper's ``hotwords``; its
    terms join the fingerprint only when there are any, so a job without one reuses the
    transcripts made before glossaries existed.
    """

    name = "transcribe"
    durable = True
    output_type = TranscriptOutput

    def __init__(self, data_dir: Path):
        self.data_dir = Path(data_dir)

    def _model(self, options: JobOptions) -> ChosenModel | None:
        """The ASR model the job froze from the model manager, or None for the bundled Whisper base."""
        return chosen_model(self.data_dir, options.models, "asr")

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        model = self._model(options)
        source = options.source_lang
        return {
            "model": model.identity if model else BUNDLED_ASR,
            "compute_type": asr_device()[1],
            "source_lang": normalise_language(source) if source else "auto",
            "language_detection": LANGUAGE_DETECTION if not source else "set",
            "vad": True,
            "beam_size": BEAM_SIZE,
            "version": TRANSCRIPT_VERSION,
            **craft_fingerprint(options),
            **({"hotwords": hotwords} if (hotwords := glossary.hotwords(options.glossary)) else {}),
            **speaker_labels.fingerprint(self.data_dir, options),
        }

    def model_spec(self, options: JobOptions) -> ModelSpec:
        from app.ml.whisper_runtime import whisper_memory_mb

        device, compute_type = asr_device()
        model = self._model(options)
        memory = (model.memory_mb if device == "cuda" else 0) if model else whisper_memory_mb(device)
        return ModelSpec.of(WHISPER_RUNTIME, memory_mb=memory, model_path=model.path if model else None,
                            device=device, compute_type=compute_type, beam_size=BEAM_SIZE,
                            data_dir=str(self.data_dir))

    @staticmethod
    def _audio(ctx: StageContext) -> tuple[Path, float | None]:
        """The extracted audio, decoded again only if this workspace lacks it (same bytes: decoding is deterministic).

        Always this machine's own workspace, never the path the extract stage recorded: with
        ``sidecar worker`` that stage may have run on another machine, whose workspace this one
        cannot see. Decoding again (seconds of CPU) beats shipping the audio through the shared
        database (115 MB per hour of speech as float32) or asking for a shared workspace folder.
        """
        extracted = ctx.input(AudioOutput)
        path = ctx.workspace / AUDIO_FILE
        media_duration = extracted.media_duration_s
        if not path.is_file():
            log.info("audio of %s is missing from the workspace; extracting it again", ctx.item.path.name)
            info = extract_chosen_audio(ctx.item.path, ctx.workspace / AUDIO_FILE, ctx.options)
            path, media_duration = Path(info.path), info.media_duration_s
        return path, media_duration

    def run(self, ctx: StageContext) -> TranscriptOutput:
        if not ctx.partial and (same := ctx.computed_output(TranscriptOutput)) is not None:
            return same  # an identical file in this job was transcribed already
        audio, media_duration = self._audio(ctx)
        duration = audio_duration(audio)
        state: dict[str, Any] = dict(ctx.partial or {})
        segments: list[dict[str, Any]] = list(state.get("segments", []))
        reads: list[dict[str, Any]] = list(state.get("reads", []))
        forced = ctx.options.source_lang
        language = normalise_language(forced) if forced else state.get("language")
        probability = 1.0 if forced else float(state.get("language_probability", 0.0))
        offset = float(state.get("offset", 0.0))
        votes: list[dict[str, Any]] = list(state.get("language_votes", []))
        stretches = [Stretch.from_dict(d) for d in state.get("stretches") or []]
        hotwords = glossary.hotwords(ctx.options.glossary)
        heard: str | None = None  # the language of the stretch being transcribed, in a mixed recording
        lost: list[LeaseLost] = []

        def checkpoint() -> None:
            ctx.save_partial({"segments": segments, "reads": reads, "offset": offset, "language": language,
                              "language_probability": probability, "language_votes": votes,
                              **({"stretches": [st.to_dict() for st in stretches]} if stretches else {})})

        def on_event(event: Mapping[str, Any]) -> bool:
            # Runs while the host streams: an exception here would leave the pipe mid-call,
            # so a lost claim is remembered and the host is told to stop instead.
            nonlocal language, probability, offset
            try:
                if event["type"] == "info":
                    reads.append({"offset": float(event["offset"]), "first_sample": int(event["first_sample"])})
                    if language is None and event.get("language"):
                        language, probability = str(event["language"]), float(event["language_probability"])
                    checkpoint()
                    ctx.progress(min(1.0, offset / duration) if duration else 0.0, f"{len(segments)} segments")
                elif event["type"] == "segment":
                    segments.append(_compact_segment(event, heard))
                    offset = max(offset, float(event["end"]))
                    checkpoint()
                    ctx.progress(min(1.0, offset / duration) if duration else 1.0, f"{len(segments)} segments")
            except LeaseLost as exc:
                lost.append(exc)
                return False
            return not ctx.should_stop()

        client = WhisperClient(ctx.model(self.model_spec(ctx.options)))

        def detect(start: float, length: float) -> Mapping[str, Any]:
            return client.detect_language(str(audio), start, length)

        opened: list[tuple[float, float]] = []  # the opening's VAD spans (the whole of a short recording)
        spans: list[tuple[float, float]] = []  # the VAD's speech of the whole recording, once a mixed one needs it

        def opening(start: float, length: float) -> Mapping[str, Any]:
            # The first 30 s of speech the transcription below decodes first: the host keeps
            # this encoder pass for it, so the vote's first window costs no pass of its own.
            answer = client.detect_language(str(audio), start, None, opening=True)
            opened[:] = [(float(a), float(b)) for a, b in answer.get("spans") or []]
            return answer

        def transcribe_stretches() -> None:
            nonlocal heard, offset
            for stretch in stretches if len(stretches) > 1 else [None]:
                if stretch is not None and stretch.end_s <= offset:
                    continue  # transcribed before a pause or crash
                heard = stretch.language if stretch else None
                start = max(offset, stretch.start_s) if stretch else offset
                written = len(segments)
                client.transcribe(str(audio), start, heard or language, stretch.end_s if stretch else None,
                                  hotwords, on_event=on_event)
                if lost:
                    raise lost[0]
                if stretch is not None:
                    spans[:] = spans or client.speech_spans(str(audio))
                    if len(segments) > written and left_unwritten(spans, offset, stretch.end_s):
                        # Whisper stopped early in the stretch's last window: it goes on from its last segment.
                        client.transcribe(str(audio), offset, heard, stretch.end_s, hotwords, on_event=on_event)
                        if lost:
                            raise lost[0]
                    offset = max(offset, stretch.end_s)
                    checkpoint()
                    ctx.check()

        if language is None:
            # Voted over windows spread across the file, not the first 30 s; kept in the
            # checkpoint, so a resumed transcription keeps the language it started with.
            vote = vote_language(audio, detect, opening)
            language, probability, votes = vote.language, vote.probability, list(vote.windows)
            if len(languages := heard_languages(vote)) > 1:
                spans[:] = client.speech_spans(str(audio))
                stretches = find_stretches(spans, languages, duration, detect)
            elif language and WINDOW_S < duration < PIECE_CHECK_BELOW_S:
                # One or two vote windows cannot place a switch: the speech is heard piece by piece.
                spans[:] = opened or client.speech_spans(str(audio))
                stretches = piece_switch(spans, language, duration, detect)
            checkpoint()
            ctx.check()
        try:
            transcribe_stretches()
            if not forced and language and len(votes) == 1 and len(stretches) <= 1 and segments:
                # One vote window (a short recording) cannot show a switch; the transcription can.
                top = [normalise_language(str(code)) for code, _ in votes[0].get("top") or []]
                spans[:] = spans or opened or client.speech_spans(str(audio))
                found = short_switch(spans, segments, language, top, duration, detect)
                if found:  # transcribed again, stretch by stretch; kept in the checkpoint, so a resume goes on from there
                    stretches, segments[:], offset = found, [], 0.0
                    checkpoint()
                    ctx.check()
                    transcribe_stretches()
        except StageStopped:
            if lost:
                raise lost[0] from None
            raise
        if lost:
            raise lost[0]
        result = self._result(segments, reads, language, probability, votes, duration, media_duration, stretches,
                              ctx.options.glossary, cue_options(ctx.options, ctx.input(AudioOutput).frame_rate))
        return self._labelled(ctx, audio, segments, result) if result.cues else result

    def _labelled(self, ctx: StageContext, audio: Path, segments: list[dict[str, Any]],
                  result: TranscriptOutput) -> TranscriptOutput:
        """``result`` with speaker labels on its cues when the job asks for them (the item says so when it cannot)."""
        if speaker_labels.wanted(ctx.options) is None:
            return result
        kept = filter_segments(segments).kept
        ctx.progress(1.0, "speakers")
        pieces = speaker_labels.speaker_pieces(self.data_dir, ctx.options, load_audio(audio), kept)
        if pieces is None:  # asked for, and no speaker model installed: the item's notes say so
            return replace(result, report=replace(result.report, note=speaker_labels.unavailable_note()))
        cues = speaker_labels.label_cues(result.cues, kept, pieces, result.language,
                                         cue_options(ctx.options, result.frame_rate))
        return replace(result, cues=cues, speakers=len({p.speaker for p in pieces}))

    @staticmethod
    def _result(segments: list[dict[str, Any]], reads: list[dict[str, Any]], language: str | None, probability: float,
                votes: list[dict[str, Any]], duration: float, media_duration: float | None,
                stretches: list[Stretch], terms: Sequence[glossary.GlossaryEntry],
                cut: CueOptions = NETFLIX_CUES) -> TranscriptOutput:
        filtered = filter_segments(segments)
        # Terms heard as hotwords may still come split or cased otherwise ("Comfy UI"): written as given.
        kept = [glossary.respell_segment(segment, terms) for segment in filtered.kept]
        # Cues must lie inside what a player shows: the shorter of the container and its audio.
        limit = min(duration, media_duration) if media_duration else duration
        built = craft_cues(kept, duration_s=limit, language=language, options=cut) if not filtered.no_speech else None
        cues = built.cues if built else []
        # The item notes (1-based) the cues that said one phrase three times or more and keep one copy, and
        # those the speech makes faster than the reading speed (flagged, never cut).
        fast = over_limits(cues, [cue.flat_text for cue in cues], language, cut) if cues else []
        noted = {key: [i + 1 for i in found] for key, found in
                 (("repeats_kept_once", built.repeats if built else []), ("over_reading_speed", fast)) if found}
        languages = speech_by_language(kept, language)
        mixed = len(stretches) > 1
        return TranscriptOutput(
            # A mixed recording is named for the language with the most speech.
            language=languages[0]["language"] if mixed and languages else language,
            language_probability=round(probability, 4),
            language_votes=votes,
            languages=languages,
            duration_s=round(limit, 3),
            reads=reads,
            segments=[{"start": s["start"], "end": s["end"], "text": s["text"],
                       **({"language": s["language"]} if "language" in s else {})} for s in kept],
            dropped=[{"index": i, "reason": reason} for i, reason in filtered.dropped],
            cues=[{**cue, "language": language_at(stretches, cue["start_ms"] / 1000)} for cue in cues_to_dicts(cues)]
            if mixed else cues_to_dicts(cues),
            stretches=[stretch.to_dict() for stretch in stretches] if mixed else None,
            report=ItemReport(detail=noted or None) if cues else ItemReport(result=NO_SPEECH),
            frame_rate=cut.fps,
        )


# ---------------------------------------------------------------------- translate


def _joined(before: TranslationProgress, run: TranslationProgress, first: int) -> TranslationProgress:
    """The runs translated ``before`` followed by one more run's progress, whose cues start at ``first`` of all sent."""
    return TranslationProgress(before.texts + run.texts, before.fallback + [first + i for i in run.fallback], before.total,
                               {**before.reasons, **{first + i: r for i, r in run.reasons.items()}})


@dataclass(frozen=True)
class TranslationBackend:
    """Where translations come from; ``identity`` changes whenever the answers could."""

    identity: str
    style: str  # "completion" (base model, few-shot) | "chat" (instruction model) | "opus-mt" (per-pair packages)
    endpoint: str = ""
    endpoint_model: str = ""
    model_path: str | None = None
    preset: str = "gemma3-270m"
    memory_mb: int = BUNDLED_LLM_MB


def _prompt_style(model_file: str) -> str:
    """Instruction models get the chat form; base models the few-shot completion form.

    GGUF names carry it by convention (``...-Instruct...``, ``...-chat...``); the
    engine cannot read the file's chat template without loading llama.cpp itself.
    """
    name = Path(model_file).name.lower()
    return "chat" if "instruct" in name or "chat" in name else "completion"


class TranslateStage:
    """Cue texts through the LLM in numbered batches, checkpointed after each batch."""

    name = "translate"
    durable = True
    output_type = TranslationOutput

    def __init__(self, data_dir: Path, batch_size: int = DEFAULT_BATCH_SIZE):
        self.data_dir = Path(data_dir)
        self.batch_size = batch_size

    def backend(self, options: JobOptions) -> TranslationBackend:
        """An endpoint wins; then an LLM the person chose in the model manager; else the installed OPUS-MT
        packages for the pair (the default: the bundled Gemma translates only when chosen).

        The job froze the server set when it was added (so one saved in Settings applies to
        the next job without a restart). The OPUS-MT identity names every installed
        package, so installing one changes the fingerprint of a translation made (or waited
        for) without it, and :meth:`Library.resume_waiting` redoes it.
        """
        endpoint = options.translation_endpoint.strip()
        endpoint_model = options.translation_endpoint_model.strip()
        if endpoint:
            return TranslationBackend(f"endpoint:{endpoint}|{endpoint_model}", "chat", endpoint, endpoint_model)
        model = chosen_model(self.data_dir, options.models, "translation")
        if model is None:
            return TranslationBackend(f"{OPUS_MT}:{translators_identity(installed_translators(self.data_dir))}", OPUS_MT)
        if model.source == BUNDLED_SOURCE:
            return TranslationBackend(BUNDLED_LLM, "completion")
        return TranslationBackend(model.identity, _prompt_style(model.path), model_path=model.path,
                                  memory_mb=model.memory_mb or BUNDLED_LLM_MB)

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        backend = self.backend(options)
        return {"model": backend.identity, "style": backend.style, "prompt_version": PROMPT_VERSION,
                "target_lang": normalise_language(options.target_lang), "batch_size": self.batch_size,
                "glossary": glossary.to_option(options.glossary), "quality": QUALITY_VERSION}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        if not options.target_lang:
            # Transcripts only: the stage skips itself without a model, so it must not queue
            # as a model stage behind its group's transcriptions, holding the subtitle back.
            return None
        backend = self.backend(options)
        if backend.endpoint or backend.style == OPUS_MT:
            # An HTTP server holds its own model; an OPUS-MT route is known only once the transcript names
            # the source language (and runs on the CPU in ~100 MB): nothing for the gate to admit ahead.
            return None
        # "device" only with a GPU: it is what lets the engine retry on the CPU when the GPU is full.
        gpu = {"device": "cuda"} if _has_accelerator() else {}
        return ModelSpec.of(LLAMA_RUNTIME, memory_mb=backend.memory_mb if gpu else 0, model_path=backend.model_path,
                            preset=backend.preset, data_dir=str(self.data_dir), **gpu)

    def _complete_fn(self, ctx: StageContext, backend: TranslationBackend, hops: Sequence[OpusPackage] = (),
                     terms: Sequence[glossary.GlossaryEntry] = ()) -> CompleteFn:
        if backend.style == OPUS_MT:
            route_spec = ModelSpec.of(MARIAN_RUNTIME, folders=tuple(str(p.folder) for p in hops))
            return marian_caller(MarianClient(ctx.model(route_spec)).translate, terms)
        model: TextModel
        if backend.endpoint:
            from app.ml.llm_runtime import OpenAIEndpointRuntime

            model = OpenAIEndpointRuntime(backend.endpoint, backend.endpoint_model)
        else:
            spec = self.model_spec(ctx.options)
            assert spec is not None
            model = LlmClient(ctx.model(spec))
        return chat_caller(model) if backend.style == "chat" else completion_caller(model)

    def run(self, ctx: StageContext) -> TranslationOutput:
        """:meth:`translate`; a translation server still out of reach when the engine's retries (with backoff)
        are spent gives every cue its original text, naming the server, so the transcript is placed all the
        same and "Translate again" finishes the item once the server answers."""
        try:
            return self.translate(ctx)
        except SidecarError as exc:
            if exc.code != Code.ENDPOINT_UNAVAILABLE or not ctx.last_try:
                raise
            log.warning("%s: %s; only the transcript is written", ctx.item.path.name, exc.message)
        backend = self.backend(ctx.options)
        transcript = ctx.input(TranscriptOutput)
        texts = [cue.flat_text for cue in transcript.cue_list()]
        kept = TranslationOutput(transcript.language, normalise_language(ctx.options.target_lang),
                                 backend.identity, texts, list(range(len(texts))), skipped=False,
                                 unreachable=backend.endpoint)
        return replace(kept, report=ItemReport(kept.result, kept.untranslated_detail()))

    def translate(self, ctx: StageContext) -> TranslationOutput:
        """Translate the cues not already in the target language, each stretch from its own language.

        A one-language transcript is one run (all its cues, from its language; nothing when
        that is the target). A mixed-language one sends each language's cues with that
        language named in the prompt and the checks, and keeps the target-language cues
        as they are, also when the target is the recording's main language. The checkpoint
        holds the translated cues of all runs in the order they are sent.
        """
        transcript = ctx.input(TranscriptOutput)
        cues = transcript.cue_list()
        source = transcript.language
        target = ctx.options.target_lang
        backend = self.backend(ctx.options)
        output = TranslationOutput(source_lang=source, target_lang=normalise_language(target), model=backend.identity)
        runs = translation_runs(transcript.cues, source, target) if cues and target else []
        if not runs:
            return output  # skipped: no translation
        if not ctx.partial and (same := ctx.computed_output(TranslationOutput)) is not None:
            return same  # an identical file in this job was translated already
        routes: dict[str, list[OpusPackage]] = {}
        if backend.style == OPUS_MT:
            packages = installed_translators(self.data_dir)
            for language, _ in runs:
                found = route(packages, language, target)
                if found is None:
                    return self._waiting(output, packages, language, target)
                routes[language] = found
        texts = [cue.flat_text for cue in cues]
        todo = [i for _, indexes in runs for i in indexes]  # the cues sent, in the order the checkpoint holds them
        saved = ctx.partial if (ctx.partial or {}).get("total") == len(todo) else {}
        sent = TranslationProgress(list(saved.get("texts", [])), list(saved.get("fallback", [])), len(todo),
                                   {int(k): r for k, r in (saved.get("reasons") or {}).items()})
        done = TranslationProgress([], [], len(todo))  # the runs finished in this call, in ``todo`` positions
        calls = retried_batches = retried_cues = 0
        terms = ctx.options.glossary
        for language, indexes in runs:
            first = len(done.texts)
            last = first + len(indexes)

            def on_batch_done(progress: TranslationProgress, first: int = first, before: TranslationProgress = done) -> None:
                both = _joined(before, progress, first)
                ctx.save_partial(both.to_dict())
                ctx.progress(len(both.texts) / len(todo), f"{len(both.texts)}/{len(todo)} cues")
                if len(both.texts) < len(todo):  # after the last batch the stage is done: nothing to pause
                    ctx.check()

            resumed = sent.texts[first:last]
            result = translate_cues(
                [texts[i] for i in indexes], language, target,
                self._complete_fn(ctx, backend, routes.get(language, ()), terms), self.batch_size,
                on_batch_done, done_so_far=resumed,
                fallback_so_far=[k - first for k in sent.fallback if first <= k < first + len(resumed)],
                check=hosted_quality_check(ctx, language, target, terms,
                                           [texts[i] for i in todo[:first + len(resumed)]], done.texts + resumed),
                glossary=terms,
                reasons_so_far={k - first: r for k, r in sent.reasons.items() if first <= k < first + len(resumed)},
            )
            done = _joined(done, TranslationProgress(result.texts, result.fallback, len(indexes), result.reasons), first)
            calls, retried_cues = calls + result.calls, retried_cues + result.retried_cues
            retried_batches += result.retried_batches
        translated, fallback = spliced(texts, todo, done.texts, done.fallback)
        kept = sorted(set(range(len(texts))) - set(todo))
        output = replace(output, skipped=False, texts=translated, fallback=fallback, calls=calls,
                         retried_batches=retried_batches, retried_cues=retried_cues,
                         reasons={str(todo[k]): r for k, r in sorted(done.reasons.items())},
                         kept_cues=kept or None,
                         source_langs=[language for language, _ in runs] if kept or len(runs) > 1 else None)
        if fallback:
            log.info("%s: %d of %d cues kept their original text", ctx.item.path.name, len(fallback), len(texts))
            output = replace(output, report=ItemReport(output.result, output.untranslated_detail()))
        return output


    @staticmethod
    def _waiting(output: TranslationOutput, packages: list[OpusPackage], source: str, target: str) -> TranslationOutput:
        """No translator for the pair: the transcript goes on to be placed, and the item waits, named, for the
        package (never ``translation_failed``: nothing was tried). Installing it redoes this stage."""
        source, target = normalise_language(source), normalise_language(target)
        hops = missing_hops(packages, source, target)
        log.info("no translator installed for %s→%s; the transcript is placed and the item waits", source, target)
        return replace(output, report=ItemReport(WAITING_FOR_TRANSLATOR, {
            "from": source, "to": target, "install": [f"{a}→{b}" for a, b in hops]}))


# ------------------------------------------------------------------------- render


def translated_in_place(transcript: TranscriptOutput, translation: TranslationOutput) -> bool:
    """Whether the translation went into the transcript's own language: a mixed-language recording mostly
    in the target language, whose one file, named for that language, reads its other stretches translated."""
    return (translation.translated and not translation.failed
            and normalise_language(transcript.language) == normalise_language(translation.target_lang))


class RenderStage:
    """Transcript SRT, translated SRT and bilingual ASS as text in the checkpoint (CPU).

    A translation that mostly failed (:attr:`TranslationOutput.failed`) renders nothing: the
    transcript alone is written, and the item says why (also when the translation was
    reused from a run before this rule, which never set that result). A mixed-language
    recording mostly in the target language gets one file, named for that language, with
    its other-language stretches translated.
    """

    name = "render"
    durable = True
    output_type = RenderOutput

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"version": RENDER_VERSION, "font": DEFAULT_FONT, **craft_fingerprint(options),
                **({"webvtt": True} if options.webvtt else {})}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> RenderOutput:
        transcript = ctx.input(TranscriptOutput)
        translation = ctx.input(TranslationOutput)
        cues = transcript.cue_list()
        if not cues:
            return RenderOutput()
        vtt = ctx.options.webvtt
        files = {"transcript": render_transcript_srt(cues).decode("utf-8")}
        if vtt:
            files["transcript_vtt"] = render_vtt(cues).decode("utf-8")
        if translation.failed:
            log.info("%s: most cues are untranslated; only the transcript is written", ctx.item.path.name)
            return RenderOutput(files, transcript.language,
                                report=ItemReport(TRANSLATION_FAILED, translation.untranslated_detail()))
        if not translation.translated:
            return RenderOutput(files, transcript.language)
        texts = list(translation.texts)
        target, cut = translation.target_lang, cue_options(ctx.options, transcript.frame_rate)
        limit = round(transcript.duration_s * 1000) if transcript.duration_s else None
        # A translation is never cut to fit: the source cues (1-based) whose translation still reads too fast
        # (or too long) once laid out on their time are flagged, and the item notes it.
        flagged = [i + 1 for i in flagged_sources(lay_out(cues, texts, target, cut, limit))]
        report = ItemReport(note=Code.OVER_READING_SPEED) if flagged else ItemReport()
        role = "transcript" if translated_in_place(transcript, translation) else "translation"
        files[role] = render_translation_srt(cues, texts, target, cut, limit).decode("utf-8")
        if vtt:
            files[f"{role}_vtt"] = render_translation_vtt(cues, texts, target, cut, limit).decode("utf-8")
        if role == "transcript":
            return RenderOutput(files, transcript.language, report=report, over_reading_speed=flagged)
        files["bilingual"] = render_bilingual_ass(cues, texts, language=target, options=cut, limit_ms=limit,
                                                  speakers=transcript.speaker_names()).decode("utf-8")
        return RenderOutput(files, transcript.language, target, report=report, over_reading_speed=flagged)


# -------------------------------------------------------------------------- place


def dialogue_cues(transcript: TranscriptOutput, translation: TranslationOutput) -> list[IndexedCue]:
    """Every line Sidecar produced for search: the transcript, and the translation where it differs.

    Fallback cues (original text kept) and cues kept because they were already in the
    target language are left out of the translation: indexing them again would only
    duplicate the original line. A translation that mostly failed is not indexed at all:
    search would point into a file never written.
    """
    cues = transcript.cue_list()
    source = normalise_language(transcript.language)
    out: list[IndexedCue] = [(c.start_ms / 1000, c.end_ms / 1000, c.flat_text, source) for c in cues]
    if translation.translated and not translation.failed:
        target = normalise_language(translation.target_lang)
        same = set(translation.fallback) | set(translation.kept_cues or [])
        out += [(c.start_ms / 1000, c.end_ms / 1000, " ".join(text.split()), target)
                for i, (c, text) in enumerate(zip(cues, translation.texts)) if i not in same]
    return out


class VideoPlaceStage:
    """Write the rendered files next to the video under the naming preset (CPU: no model).

    The dialogue is indexed by the next stage (:class:`IndexDialogueStage`), so placing
    runs as soon as the file is rendered, beside the next file's transcription, instead
    of waiting for the model slot.
    """

    name = "place"
    durable = True
    per_path = True
    output_type = PlaceOutput

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"naming": options.naming}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> PlaceOutput:
        rendered = ctx.input(RenderOutput)
        files = rendered.files
        if not files:
            return PlaceOutput()  # no speech: no (empty) subtitle files
        names = subtitle_names(ctx.item.path.stem, rendered.source_lang, rendered.target_lang,
                               ctx.options.naming)
        placed = ctx.place(self.outputs(files, names))
        return PlaceOutput([{"role": p.role, "path": str(p.path), "action": p.action} for p in placed])

    @staticmethod
    def outputs(files: Mapping[str, str], names: SubtitleNames) -> list[Output]:
        """The transcript SRT; with a translation, its SRT and the bilingual ASS (other kinds place other files)."""
        outputs = [Output(names.transcript, files["transcript"].encode("utf-8"), "transcript")]
        if "translation" in files and names.translation and names.bilingual:
            outputs.append(Output(names.translation, files["translation"].encode("utf-8"), "translation"))
            outputs.append(Output(names.bilingual, files["bilingual"].encode("utf-8"), "bilingual"))
        return outputs + vtt_outputs(files, names)


def vtt_outputs(files: Mapping[str, str], names: SubtitleNames) -> list[Output]:
    """The WebVTT files rendered beside the SRTs (the ``webvtt`` setting), named as they are with ``.vtt``."""
    out = []
    for role, name in (("transcript", names.transcript), ("translation", names.translation)):
        if f"{role}_vtt" in files and name:
            out.append(Output(str(Path(name).with_suffix(".vtt")), files[f"{role}_vtt"].encode("utf-8"), f"{role}_vtt"))
    return out


class IndexDialogueStage:
    """Index every line the item's subtitles hold for dialogue search, after they are placed (e5 in a model host).

    Declares e5 as its model, so the GPU gate admits it like any model stage (after the
    transcriptions of its group) and never releases e5 while it embeds. Nothing is
    indexed when nothing was rendered (no speech): search would point into no file.
    Its fingerprint follows ``place``'s, which holds the path: the index rows belong to
    the file at that path, so another path with the same content is indexed on its own.
    """

    name = "index_dialogue"
    durable = True
    per_path = True
    output_type = DialogueIndexOutput

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"text_model": TEXT_MODEL_ID}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return TEXT_EMBEDDING_SPEC

    def run(self, ctx: StageContext) -> DialogueIndexOutput:
        if not ctx.input(RenderOutput).files:
            return DialogueIndexOutput(0)
        cues = dialogue_cues(ctx.input(TranscriptOutput), ctx.input(TranslationOutput))
        indexed = index_dialogue(ctx.search_index, ctx.item.path, ctx.item.sha256, cues, hosted_passage_embedder(ctx))
        return DialogueIndexOutput(indexed)


def video_pipeline(data_dir: Path, settings: Settings) -> Pipeline:
    """The six video stages; what a job chose (its server, its models) comes with its options, not from ``settings``."""
    return Pipeline(KIND.name, [
        ExtractAudioStage(),
        TranscribeStage(data_dir),
        TranslateStage(data_dir),
        RenderStage(),
        VideoPlaceStage(),
        IndexDialogueStage(),
    ])


KIND = MediaKind(
    name="video",
    extensions=frozenset(".mp4 .mkv .avi .mov .webm .flv .ts .m4v .wmv .mpg .mpeg .3gp".split()),
    label="Videos",
    search_kind="dialogue",
    pipeline=video_pipeline,
    skip=subtitled_beside_or_inside,
)
