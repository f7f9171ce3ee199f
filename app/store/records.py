"""Plain data objects that leave the store (never ORM rows or SQL results)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Mapping

from app.codes import REDONE_RESULTS, Code
from app.store.states import ItemState, JobSummaryStatus, StepState

@dataclass(frozen=True)
class NewStage:
    idx: int
    name: str
    fingerprint: str
    gpu_mb: int = 0
    model_key: str | None = None
    reused_output: dict[str, Any] | None = None


@dataclass(frozen=True)
class NewItem:
    path: str
    kind: str
    size: int
    mtime_ns: int
    sha256: str
    stages: tuple[NewStage, ...] = ()
    skip_reason: str | None = None
    skip_code: Code | None = None  # stable, shown as the skipped item's code (already_subtitled, embedded_subtitles)


@dataclass(frozen=True)
class Claim:
    """A held lease on one stage: every write the worker makes is fenced on these fields."""

    stage_id: int
    item_id: int
    job_id: int
    idx: int
    name: str
    owner: str
    generation: int
    attempt: int
    gpu_mb: int
    model_key: str | None
    partial: Any
    inputs: dict[str, dict[str, Any]]
    item_path: str
    item_kind: str
    item_sha256: str
    item_size: int
    item_mtime_ns: int
    item_revision: int
    job_folder: str
    options: dict[str, Any]
    failures: int = 0  # transient failures of this stage so far (the retry policy counts them)


@dataclass(frozen=True)
class AudioStreamFact:
    """The audio stream a video's speech came from (``extract_audio``'s choice): which track of how many, its
    language tag and title as the file gives them, and why it was chosen."""

    index: int
    track: int
    tracks: int
    language: str | None = None
    title: str | None = None
    reason: str = ""

    @classmethod
    def read(cls, raw: Mapping[str, Any]) -> AudioStreamFact:
        return cls(int(raw.get("index") or 0), int(raw.get("track") or 1), int(raw.get("tracks") or 1),
                   raw.get("language") or None, raw.get("title") or None, str(raw.get("reason") or ""))

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "track": self.track, "language": self.language, "title": self.title,
                "reason": self.reason, "tracks": self.tracks}


@dataclass(frozen=True)
class LanguageShare:
    """Seconds of transcribed speech in one language."""

    language: str
    seconds: float


@dataclass(frozen=True)
class ItemFacts:
    """What an item's stages found out about it, shown with the item (``status --items``, the queue).

    Each field is a field of the same name in a stage's output (``TranscriptOutput``,
    ``AudioOutput``, ``RenderOutput``), read from the stored outputs by the database
    (:meth:`app.store.jobs.JobRepo.items`): the audio stream a video's speech came from, the
    language heard and how sure that was, the seconds of speech in each language (two or
    more in a mixed-language recording), the cues whose translation reads faster than the
    target's reading speed (1-based), how many speakers the speaker labels found, and the
    video's frame rate its cues' gaps are counted in (None: audio only, or no constant rate).
    """

    audio_stream: AudioStreamFact | None = None
    language: str | None = None
    language_probability: float | None = None
    languages: tuple[LanguageShare, ...] = ()
    over_reading_speed: tuple[int, ...] = ()
    speakers: int | None = None
    frame_rate: float | None = None

    @classmethod
    def read(cls, raw: Mapping[str, Any]) -> ItemFacts:
        """The facts from their stored JSON values (keys :data:`ITEM_FACTS`; a missing one is unknown)."""
        stream = raw.get("audio_stream")
        probability = raw.get("language_probability")
        speakers = raw.get("speakers")
        rate = raw.get("frame_rate")
        return cls(AudioStreamFact.read(stream) if isinstance(stream, Mapping) else None,
                   raw.get("language") or None,
                   float(probability) if probability is not None else None,
                   tuple(LanguageShare(str(share["language"]), float(share["seconds"])) for share in raw.get("languages") or []),
                   tuple(int(n) for n in raw.get("over_reading_speed") or []),
                   int(speakers) if speakers is not None else None,
                   round(float(rate), 3) if rate is not None else None)

    def to_json(self) -> dict[str, Any]:
        """The facts as ``status --items --json`` prints them: every key, None (or an empty list) when unknown."""
        return {"audio_stream": self.audio_stream.to_json() if self.audio_stream else None,
                "language": self.language, "language_probability": self.language_probability,
                "languages": [{"language": share.language, "seconds": share.seconds} for share in self.languages] or None,
                "over_reading_speed": list(self.over_reading_speed) or None, "speakers": self.speakers,
                "frame_rate": self.frame_rate}

    def lines(self, code: str) -> tuple[int, ...]:
        """The cue numbers a note of ``code`` lists, where the facts hold them (``over_reading_speed``)."""
        return self.over_reading_speed if code == Code.OVER_READING_SPEED else ()


#: The stage-output keys the item's facts are read from: the fields of :class:`ItemFacts`.
ITEM_FACTS = tuple(f.name for f in fields(ItemFacts))


@dataclass(frozen=True)
class ItemView:
    id: int
    job_id: int
    path: str
    kind: str
    status: ItemState
    stage: str | None
    progress: float
    error_code: str | None
    error: str | None
    result: str | None
    attempts: int
    detail: dict[str, Any] = field(default_factory=dict)  # what ``result`` refers to (untranslated cue numbers)
    facts: ItemFacts = field(default_factory=ItemFacts)  # what its stages found out
    notes: tuple[str, ...] = ()  # stable codes of what happened besides the result (gpu_fallback_cpu)




@dataclass(frozen=True)
class ItemReport:
    """What a stage's output says about its whole item; the store records it on the item row.

    ``result`` is a code the item finished with (``no_speech``, ``translation_fallback``),
    ``detail`` what it refers to (the untranslated cue numbers), ``note`` a code added to
    the item's notes (``gpu_fallback_cpu``). :meth:`read` and :meth:`written` are the one
    codec of these keys of a stage's output.
    """

    result: str | None = None
    detail: dict[str, Any] | None = None
    note: str | None = None

    @classmethod
    def read(cls, output: Mapping[str, Any]) -> ItemReport:
        """The report ``output`` carries (fields it does not set are None)."""
        return cls(output.get("item_result") or None, output.get("item_detail") or None, output.get("item_note") or None)

    @property
    def redone(self) -> bool:
        """Whether a later run may do better (:data:`~app.codes.REDONE_RESULTS`): such an output is never reused."""
        return self.result in REDONE_RESULTS

    def written(self, output: Mapping[str, Any]) -> dict[str, Any]:
        """``output`` carrying this report's set fields."""
        fields = {"item_result": self.result, "item_detail": self.detail, "item_note": self.note}
        return {**output, **{key: value for key, value in fields.items() if value is not None}}


@dataclass(frozen=True)
class ItemSource:
    """An item as a per-item change needs it: the file it was planned from and the options it runs with."""

    id: int
    job_id: int
    path: str
    kind: str
    size: int
    mtime_ns: int
    sha256: str
    status: ItemState
    job_options: dict[str, Any]
    overrides: dict[str, Any]  # the item's own choices, merged over the job's options

    @property
    def options(self) -> dict[str, Any]:
        return {**self.job_options, **self.overrides}


@dataclass(frozen=True)
class JobSummary:
    id: int
    folder: str
    status: JobSummaryStatus
    paused: bool
    total: int
    done: int
    failed: int
    skipped: int
    review: int
    running: int
    error_code: str | None
    error: str | None
    created_at: float
    options: dict[str, Any] = field(default_factory=dict)
    scan_report: dict[str, Any] = field(default_factory=dict)
    results: dict[str, int] = field(default_factory=dict)  # completed items per result (translation_failed: 2)


@dataclass(frozen=True)
class StepIntent:
    """One planned placement, frozen before any file is written."""

    op_id: str
    seq: int
    role: str
    target: str
    content_path: str
    expected_sha256: str
    prior_sha256: str | None
    action: str  # write | overwrite | skip


@dataclass(frozen=True)
class Step:
    id: int
    op_id: str
    item_id: int
    stage_id: int
    seq: int
    role: str
    target: str
    content_path: str
    expected_sha256: str
    prior_sha256: str | None
    action: str
    state: StepState
    attempts: int
    found_sha256: str | None
    error_code: str | None
    error: str | None
    decision: str | None = None


@dataclass(frozen=True)
class Review:
    id: int
    item: int
    job: int
    path: str
    target: str
    expected_sha256: str
    found_sha256: str | None
    error: str | None
    attempts: int
    state: StepState
    decision: str | None
    decision_actor: str | None
    decision_reason: str | None
    decided_at: float | None
    revision: int
    content_path: str  # Sidecar's version, kept in the workspace until the step settles
