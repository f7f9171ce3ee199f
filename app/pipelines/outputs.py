"""What each media stage returns: one frozen type per stage, with its one codec to and from the stored JSON.

A stage returns one of these; the scheduler stores :meth:`~app.engine.stage.StageOutput.written`
and a later stage gets it back through ``ctx.input(TheType)``, decoded by ``read``. Every
``read`` accepts the rows earlier versions stored (keys added since default, nothing
else required), so an existing database keeps working and a reused result decodes the
same as a fresh one. Nested JSON that only the media code walks (cues, segments, the
audio stream's description) stays JSON-shaped here; the fields a stage or the store
decides on are typed.

The audio pipeline reuses the video types: its render and place stages return
:class:`RenderOutput` and :class:`PlaceOutput` with other files in them.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any, Mapping, Self, Sequence

import numpy as np

from app.engine.stage import StageOutput
from app.errors import Code
from app.media.cues import Cue, cues_from_dicts
from app.media.subtitles import speaker_name
from app.store.records import ItemReport

#: Item results (``items.result``): stable strings the CLI's JSON and the GUI key on.
NO_SPEECH = Code.NO_SPEECH
TRANSLATION_FALLBACK = Code.TRANSLATION_FALLBACK
TRANSLATION_FAILED = Code.TRANSLATION_FAILED
WAITING_FOR_TRANSLATOR = Code.WAITING_FOR_TRANSLATOR
TRANSLATION_DOUBTFUL = Code.TRANSLATION_DOUBTFUL
#: A translation with more than this share of its cues untranslated is not written (see TranslationOutput.failed).
MAX_UNTRANSLATED_SHARE = 0.5
#: From this share of untranslated cues on, a written translation is doubtful (see TranslationOutput.result).
DOUBTFUL_SHARE = 0.1


def encode_vector(vector: Sequence[float]) -> str:
    """A vector as base64 float32 (little-endian): exact and compact in a JSON checkpoint."""
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def decode_vector(encoded: str) -> list[float]:
    return np.frombuffer(base64.b64decode(encoded), dtype="<f4").astype(np.float32).tolist()


# ------------------------------------------------------------------ video and audio


@dataclass(frozen=True)
class AudioOutput(StageOutput):
    """``extract_audio``: the decoded speech track in the workspace (not durable) and the stream chosen.

    ``audio_stream`` (index, track, language tag, title, why) is shown by ``status --items`` and the queue;
    ``frame_rate``, the picture's constant rate the cues' gaps are counted in (None: audio only or variable), too.
    """

    path: str
    samples: int = 0
    duration_s: float = 0.0
    media_duration_s: float | None = None
    stream_index: int = 0
    sample_rate: int = 0
    audio_stream: dict[str, Any] | None = None
    frame_rate: float | None = None

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        rate = output.get("frame_rate")
        return cls(str(output.get("path") or ""), int(output.get("samples") or 0), float(output.get("duration_s") or 0.0),
                   output.get("media_duration_s"), int(output.get("stream_index") or 0),
                   int(output.get("sample_rate") or 0), output.get("audio_stream"),
                   float(rate) if rate is not None else None)

    def written(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "samples": self.samples, "duration_s": self.duration_s,
                               "media_duration_s": self.media_duration_s, "stream_index": self.stream_index,
                               "sample_rate": self.sample_rate}
        if self.frame_rate is not None:
            out["frame_rate"] = self.frame_rate
        return {**out, "audio_stream": self.audio_stream} if self.audio_stream is not None else out

    @property
    def media_seconds(self) -> float | None:
        return max(self.duration_s, self.media_duration_s or 0.0)


@dataclass(frozen=True)
class TranscriptOutput(StageOutput):
    """``transcribe``: the language heard and the readable cues (self-contained, so reusable after the workspace).

    ``cues`` are :func:`~app.media.cues.cues_to_dicts` rows; in a mixed-language recording each
    carries its ``language`` and ``stretches`` lists the stretches (None in one language).
    """

    language: str | None = None
    language_probability: float = 0.0
    language_votes: list[dict[str, Any]] = field(default_factory=list)
    languages: list[dict[str, Any]] = field(default_factory=list)
    duration_s: float = 0.0
    reads: list[dict[str, Any]] = field(default_factory=list)
    segments: list[dict[str, Any]] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    cues: list[dict[str, Any]] = field(default_factory=list)
    stretches: list[dict[str, Any]] | None = None
    report: ItemReport = ItemReport()
    speakers: int | None = None
    """How many speakers the labels found (each cue's ``speakers`` lists its own); None without labels."""
    frame_rate: float | None = None
    """The video's frame rate the cues' 2-frame gaps were cut at (render lays translations out at it too);
    None: the craft default's (audio only, a variable rate, or a transcript made before it was read)."""

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        rate = output.get("frame_rate")
        return cls(output.get("language"), float(output.get("language_probability") or 0.0),
                   list(output.get("language_votes") or []), list(output.get("languages") or []),
                   float(output.get("duration_s") or 0.0), list(output.get("reads") or []),
                   list(output.get("segments") or []), list(output.get("dropped") or []),
                   list(output.get("cues") or []), output.get("stretches"), ItemReport.read(output),
                   output.get("speakers"), float(rate) if rate is not None else None)

    def written(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "language": self.language, "language_probability": self.language_probability,
            "language_votes": self.language_votes, "languages": self.languages, "duration_s": self.duration_s,
            "reads": self.reads, "segments": self.segments, "dropped": self.dropped, "cues": self.cues,
        }
        if self.stretches is not None:
            out["stretches"] = self.stretches
        if self.speakers is not None:
            out["speakers"] = self.speakers
        if self.frame_rate is not None:
            out["frame_rate"] = self.frame_rate
        return self.report.written(out)

    @property
    def media_seconds(self) -> float | None:
        return self.duration_s

    def cue_list(self) -> list[Cue]:
        return cues_from_dicts(self.cues)

    def speaker_names(self) -> list[str | None] | None:
        """Each cue's first speaker by name ("Speaker 2"), or None when the transcript has no speaker labels."""
        if not any(cue.get("speakers") for cue in self.cues):
            return None
        return [speaker_name(cue["speakers"][0]) if cue.get("speakers") else None for cue in self.cues]


@dataclass(frozen=True)
class TranslationOutput(StageOutput):
    """``translate``: one text per cue (1:1), the cues that kept their original text and why.

    ``skipped`` (same language, no target, no speech) means no translation exists: a row
    without the key is one, as it always was read. ``calls``, the retry counts, ``reasons``
    ``kept_cues`` and ``source_langs`` (a mixed recording's languages sent) are set only when the model was asked.
    """

    source_lang: str | None = None
    target_lang: str | None = None
    model: str = ""
    texts: list[str] = field(default_factory=list)
    fallback: list[int] = field(default_factory=list)
    skipped: bool = True
    calls: int | None = None
    retried_batches: int | None = None
    retried_cues: int | None = None
    reasons: dict[str, str] | None = None
    kept_cues: list[int] | None = None
    source_langs: list[str] | None = None
    report: ItemReport = ItemReport()
    unreachable: str | None = None  # the translation server that could not be reached (every cue kept its text)

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        return cls(output.get("source_lang"), output.get("target_lang"), str(output.get("model") or ""),
                   list(output.get("texts") or []), list(output.get("fallback") or []),
                   bool(output.get("skipped", True)), output.get("calls"), output.get("retried_batches"),
                   output.get("retried_cues"), output.get("reasons"), output.get("kept_cues"),
                   output.get("source_langs"), ItemReport.read(output), output.get("unreachable"))

    def written(self) -> dict[str, Any]:
        out: dict[str, Any] = {"source_lang": self.source_lang, "target_lang": self.target_lang, "model": self.model,
                               "texts": self.texts, "fallback": self.fallback, "skipped": self.skipped}
        optional = {"calls": self.calls, "retried_batches": self.retried_batches, "retried_cues": self.retried_cues,
                    "reasons": self.reasons, "kept_cues": self.kept_cues, "source_langs": self.source_langs,
                    "unreachable": self.unreachable}
        out.update({key: value for key, value in optional.items() if value is not None})
        return self.report.written(out)

    @property
    def translated(self) -> bool:
        """Whether a translation exists (the stage did not skip)."""
        return not self.skipped

    @property
    def failed(self) -> bool:
        """Whether most cues kept their original text, so no file may be named for the target language.

        Players and people take a subtitle's language from its name, and the already-subtitled
        rule counts a ``.zh.srt`` as Chinese subtitles. A file whose lines are mostly still in
        the source language is a source-language file under a wrong name: nothing is better.
        Up to half untranslated, the file is mostly in the target language and the few lines
        left are listed for the person to check (:meth:`untranslated_detail`).
        """
        if not self.translated:
            return False
        cues = len(self.texts)
        return cues > 0 and len(self.fallback) > cues * MAX_UNTRANSLATED_SHARE

    @property
    def result(self) -> str | None:
        """The item result a translation earns: failed (> half untranslated: no file), doubtful
        (from a tenth on: written, but a person should look at the listed cues), fallback (a
        few lines kept their text), or None."""
        if not self.translated or not self.fallback:
            return None
        if self.failed:
            return TRANSLATION_FAILED
        if len(self.fallback) >= len(self.texts) * DOUBTFUL_SHARE:
            return TRANSLATION_DOUBTFUL
        return TRANSLATION_FALLBACK

    def untranslated_detail(self) -> dict[str, Any]:
        """The item detail of a translation: which cues kept their original text, as SRT cue numbers (from 1),
        and why each one (``reasons``: cue number → a reason of :mod:`app.media.translation_quality`)."""
        detail: dict[str, Any] = {"untranslated_cues": [i + 1 for i in sorted(self.fallback)], "cues": len(self.texts)}
        if self.unreachable:
            detail["unreachable"] = self.unreachable
        if self.reasons:
            detail["reasons"] = {str(int(i) + 1): reason
                                 for i, reason in sorted(self.reasons.items(), key=lambda kv: int(kv[0]))}
        return detail


@dataclass(frozen=True)
class RenderOutput(StageOutput):
    """``render``: the subtitle files as text by role (``transcript``, ``translation``, ``bilingual``, ``text``).

    ``over_reading_speed`` lists the source cues (1-based) whose translation still reads
    faster than the target's reading speed (or needs more lines) once laid out: flagged,
    never cut. It is an item fact (``status --json``), and the item notes
    ``over_reading_speed`` while there are any.
    """

    files: dict[str, str] = field(default_factory=dict)
    source_lang: str | None = None
    target_lang: str | None = None
    report: ItemReport = ItemReport()
    over_reading_speed: list[int] = field(default_factory=list)

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        return cls(dict(output.get("files") or {}), output.get("source_lang"), output.get("target_lang"),
                   ItemReport.read(output), [int(n) for n in output.get("over_reading_speed") or []])

    def written(self) -> dict[str, Any]:
        if not self.files:
            return self.report.written({"files": {}})  # no speech: as stored before the type existed
        flagged = {"over_reading_speed": self.over_reading_speed} if self.over_reading_speed else {}
        return self.report.written({"source_lang": self.source_lang, "target_lang": self.target_lang,
                                    "files": self.files, **flagged})


@dataclass(frozen=True)
class PlaceOutput(StageOutput):
    """``place`` of a video or an audio file: what happened to each subtitle file (role, path, action)."""

    placed: list[dict[str, str]] = field(default_factory=list)

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        return cls(list(output.get("placed") or []))

    def written(self) -> dict[str, Any]:
        return {"placed": self.placed}


@dataclass(frozen=True)
class DialogueIndexOutput(StageOutput):
    """``index_dialogue``: how many lines went into the dialogue index."""

    indexed_cues: int = 0

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        return cls(int(output.get("indexed_cues") or 0))

    def written(self) -> dict[str, Any]:
        return {"indexed_cues": self.indexed_cues}


# --------------------------------------------------------------------------- image


@dataclass(frozen=True)
class VisualOutput(StageOutput):
    """``visual``: the CLIP vector (base64 float32) and zero-shot tags, or why there are none (``skipped``)."""

    model: str | None = None
    dim: int = 0
    vector: str | None = None
    tags: list[Any] = field(default_factory=list)
    skipped: str | None = None

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        return cls(output.get("model"), int(output.get("dim") or 0), output.get("vector"),
                   list(output.get("tags") or []), output.get("skipped"))

    def written(self) -> dict[str, Any]:
        if self.skipped is not None:
            return {"skipped": self.skipped}
        return {"model": self.model, "dim": self.dim, "vector": self.vector, "tags": self.tags}

    def vector_values(self) -> list[float] | None:
        return decode_vector(self.vector) if self.vector is not None else None


@dataclass(frozen=True)
class DescribeOutput(StageOutput):
    """``describe``: the image content's search document and what it was built from (OCR, EXIF, tags)."""

    document: str = ""
    ocr_text: str = ""
    tags: list[Any] = field(default_factory=list)
    exif: dict[str, Any] = field(default_factory=dict)
    ocr_model: str | None = None
    analysed_at: str | None = None

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        return cls(str(output.get("document") or ""), str(output.get("ocr_text") or ""), list(output.get("tags") or []),
                   dict(output.get("exif") or {}), output.get("ocr_model"), output.get("analysed_at"))

    def written(self) -> dict[str, Any]:
        return {"document": self.document, "ocr_text": self.ocr_text, "tags": self.tags, "exif": self.exif,
                "ocr_model": self.ocr_model, "analysed_at": self.analysed_at}


@dataclass(frozen=True)
class TextEmbeddingOutput(StageOutput):
    """``text_embedding``: the e5 passage vector of the document (and of a long OCR text's passages), or why there
    is none (``skipped``)."""

    model: str = ""
    vector: str | None = None
    skipped: str | None = None
    passages: list[dict[str, str]] = field(default_factory=list)  # a long OCR text's passages: text, vector
    # OCR lines machine-translated for search: source_lang, lang, source_text, text (app.store.search_writes.TextTranslation)
    translations: list[dict[str, str]] = field(default_factory=list)

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        return cls(str(output.get("model") or ""), output.get("vector"), output.get("skipped"),
                   list(output.get("passages") or []), list(output.get("translations") or []))

    def written(self) -> dict[str, Any]:
        out: dict[str, Any] = {"model": self.model}
        if self.vector is not None:
            out["vector"] = self.vector
        if self.passages:
            out["passages"] = self.passages
        if self.translations:
            out["translations"] = self.translations
        if self.skipped is not None:
            out["skipped"] = self.skipped
        return out


@dataclass(frozen=True)
class ImagePlaceOutput(StageOutput):
    """The image's ``place``: the content it indexed and the sidecar JSON it placed (path, action)."""

    indexed: str = ""
    placed: list[dict[str, str]] = field(default_factory=list)
    report: ItemReport = ItemReport()

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        return cls(str(output.get("indexed") or ""), list(output.get("placed") or []), ItemReport.read(output))

    def written(self) -> dict[str, Any]:
        return self.report.written({"indexed": self.indexed, "placed": self.placed})
