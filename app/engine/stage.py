"""What a stage plug-in sees and must provide.

The store makes every state transition (app/store/*_transitions.py, on the engine's calls); a
stage only turns inputs into its output, a
:class:`StageOutput` of the type it declares (``output_type``), which the engine stores
through that type's one codec. It reads earlier stages' outputs by their type
(``ctx.input(TranscriptOutput)``), not by the other stage's name. It receives a :class:`StageContext` and polls it at natural
boundaries (an ASR segment, an LLM batch, an image) so pause and lost leases take
effect quickly without the stage knowing about the store.

:class:`~app.ml.spec.ModelSpec` and :class:`~app.ml.clients.ModelClient` are defined in the
model layer and named here because ``Stage.model_spec`` and ``StageContext.model`` use them:
a stage module finds the whole protocol in this file (and wraps the client in the typed
client of its model kind, :mod:`app.ml.clients`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Protocol, Self, Sequence, TypeVar, runtime_checkable

from app.ml.clients import ModelClient
from app.ml.spec import ModelSpec
from app.store.search_writes import TextTranslation

if TYPE_CHECKING:  # job_options imports the kinds registry, which imports this module
    from app.engine.job_options import JobOptions


class StageOutput(ABC):
    """What one stage returns: a frozen dataclass whose :meth:`written` and :meth:`read` are its one codec.

    The store keeps :meth:`written` as JSON; :meth:`read` decodes it again for a later stage,
    a reused result and the scheduler, and accepts every shape stored before (missing keys
    take their defaults), so existing databases keep reading.
    """

    @classmethod
    @abstractmethod
    def read(cls, output: Mapping[str, Any]) -> Self:
        """The output a stored (JSON-decoded) row holds."""

    @abstractmethod
    def written(self) -> dict[str, Any]:
        """The JSON-able dict the store keeps."""

    @property
    def media_seconds(self) -> float | None:
        """How long the item's media is, when this output knows it (the stall limit of later stages scales with it)."""
        return None


OutputT = TypeVar("OutputT", bound=StageOutput)


@dataclass(frozen=True)
class ItemRef:
    """The item a stage works on, as the scan saw it; ``sha256`` is ``""`` until its hash stage has read the content."""

    id: int
    job_id: int
    path: Path
    kind: str
    sha256: str
    size: int
    mtime_ns: int
    revision: int


@dataclass(frozen=True)
class Output:
    """One file a stage wants next to the source: bytes, a folder and the name it prefers.

    ``name`` is a bare file name (no separators); the placement plan decides the final
    name under the existing-file policy.
    """

    name: str
    data: bytes
    role: str = ""


@dataclass(frozen=True)
class Placed:
    """What happened to one :class:`Output`."""

    role: str
    path: Path
    action: str  # written | unchanged | skipped_existing


class SearchIndex(Protocol):
    """What a stage may write into the library's search index (the store implements it).

    Each call is one short write transaction in which the engine checks the stage's
    claim first, so a stale worker commits nothing. Call it after model inference and
    file I/O, never around them.
    """

    def upsert_image(self, sha256: str, *, text_model: str, text_vector: Sequence[float] | None, document: str,
                     ocr_text: str = "", visual_model: str | None = None,
                     visual_vector: Sequence[float] | None = None,
                     passages: Sequence[tuple[str, Sequence[float]]] = (),
                     translations: Sequence[TextTranslation] = ()) -> None:
        """Index one image content (replacing its earlier rows); a visual vector needs its model id, no text vector
        means an image without text; ``passages`` are a long OCR text's ``(text, e5 vector)``, ``translations``
        its lines machine-translated for search."""

    def name_image(self, path: str, sha256: str, words: str) -> None:
        """Index the name words of the image file at ``path`` (per path: identical files keep their own names)."""

    def upsert_dialogue(self, video_path: str, sha256: str, cues: Sequence[tuple[float, float, str, str]],
                        vectors: Sequence[Sequence[float]], *, text_model: str) -> int:
        """Index a video's cues ``(start_s, end_s, text, lang)`` with their e5 vectors; returns how many."""


class StageContext(Protocol):
    """The stage's window onto the engine."""

    item: ItemRef
    options: JobOptions
    workspace: Path
    partial: Any
    search_index: SearchIndex
    last_try: bool  # no retry follows if this run fails with a transient error (the engine's retries are spent)

    def save_partial(self, data: Any) -> None:
        """Durably keep progress inside a long stage (fenced: raises LeaseLost when the claim is gone)."""

    def progress(self, fraction: float, note: str = "") -> None:
        """Report progress in 0..1; throttled by the engine."""

    def should_stop(self) -> bool:
        """True when the stage should stop at this checkpoint (pause, shutdown, lost claim)."""

    def check(self) -> None:
        """Raise StageStopped or LeaseLost when the stage should stop now."""

    def model(self, spec: ModelSpec) -> ModelClient:
        """The hosted model for ``spec``, loading it in a child process when not resident."""

    def input(self, kind: type[OutputT]) -> OutputT:
        """The output of the earlier stage of this item that returns ``kind`` (LookupError: no such stage)."""

    def earlier_outputs(self) -> list[StageOutput]:
        """Every earlier stage's output, decoded, in stage order."""

    def computed_output(self, kind: type[OutputT]) -> OutputT | None:
        """This stage's output (of type ``kind``) for the same content and fingerprint, if another item already
        computed it."""

    def verify_source_unchanged(self) -> None:
        """Raise TargetChanged when the source's size or mtime differ from the scan."""

    def place(self, outputs: Sequence[Output]) -> list[Placed]:
        """Write outputs next to the source through the step protocol."""


class Stage(Protocol):
    """A stage plug-in.

    ``output_type`` is the :class:`StageOutput` its :meth:`run` returns. ``durable`` says the
    output is self-contained (does not point into the
    workspace), so it can be reused by a later revision after the workspace is gone.
    """

    @property
    def name(self) -> str: ...

    @property
    def durable(self) -> bool: ...

    @property
    def output_type(self) -> type[StageOutput]: ...

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        """Everything besides the input content that changes this stage's output."""

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        """The model this stage runs on the GPU gate, or None for a CPU stage."""

    def run(self, ctx: StageContext) -> StageOutput:
        """Do the work and return its output."""


@runtime_checkable
class BatchStage(Stage, Protocol):
    """A stage that can run many claims of itself as one model call (OCR, text embedding, CLIP).

    The scheduler claims up to ``batch_size`` runnable stages of this name on the same
    model (:meth:`~app.store.stages.StageRepo.claim_companions`) and hands their
    contexts over together. Each context is its own claim: it is fenced, completed and
    failed on its own, so ``run_batch`` returns one outcome per context, in order, and a
    member that fails (a corrupt image) is an exception in its place while the others
    succeed. An exception raised by ``run_batch`` itself makes the scheduler run each
    member alone with :meth:`Stage.run`.
    """

    @property
    def batch_size(self) -> int: ...

    def run_batch(self, contexts: Sequence[StageContext]) -> list[StageOutput | Exception]:
        """Each context's typed output, or the exception it failed with, in the order given."""


@dataclass
class Pipeline:
    """The ordered stages for one item kind."""

    kind: str
    stages: Sequence[Stage] = field(default_factory=list)


__all__ = ["BatchStage", "ItemRef", "ModelClient", "ModelSpec", "Output", "Pipeline", "Placed", "Stage", "StageContext",
           "StageOutput"]
