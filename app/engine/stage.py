"""What a stage plug-in sees and must provide.

The engine owns every state transition; a stage only turns inputs into a checkpoint
(a JSON-able dict). It receives a :class:`StageContext` and polls it at natural
boundaries (an ASR segment, an LLM batch, an image) so pause and lost leases take
effect quickly without the stage knowing about the store.

:class:`~app.ml.spec.ModelSpec` is defined in the model layer and named here because
``Stage.model_spec`` returns it: a stage module finds the whole protocol in this file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

from app.ml.spec import ModelSpec


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


class ModelClient(Protocol):
    """A loaded model in its host process."""

    def call(self, method: str, *args: Any, on_event: Callable[[Any], bool] | None = None, **kwargs: Any) -> Any:
        """Run ``method`` in the child; ``on_event`` gets streamed events and returns False to stop."""


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
                     passages: Sequence[tuple[str, Sequence[float]]] = ()) -> None:
        """Index one image content (replacing its earlier rows); a visual vector needs its model id, no text vector
        means an image without text; ``passages`` are a long OCR text's ``(text, e5 vector)``."""

    def name_image(self, path: str, sha256: str, words: str) -> None:
        """Index the name words of the image file at ``path`` (per path: identical files keep their own names)."""

    def upsert_dialogue(self, video_path: str, sha256: str, cues: Sequence[tuple[float, float, str, str]],
                        vectors: Sequence[Sequence[float]], *, text_model: str) -> int:
        """Index a video's cues ``(start_s, end_s, text, lang)`` with their e5 vectors; returns how many."""


class StageContext(Protocol):
    """The stage's window onto the engine."""

    item: ItemRef
    options: Mapping[str, Any]
    workspace: Path
    inputs: Mapping[str, Mapping[str, Any]]
    partial: Any
    search_index: SearchIndex

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

    def computed_output(self) -> dict[str, Any] | None:
        """This stage's output for the same content and fingerprint, if another item already computed it."""

    def verify_source_unchanged(self) -> None:
        """Raise TargetChanged when the source's size or mtime differ from the scan."""

    def place(self, outputs: Sequence[Output]) -> list[Placed]:
        """Write outputs next to the source through the step protocol."""


class Stage(Protocol):
    """A stage plug-in.

    ``durable`` says the output dict is self-contained (does not point into the
    workspace), so it can be reused by a later revision after the workspace is gone.
    """

    @property
    def name(self) -> str: ...

    @property
    def durable(self) -> bool: ...

    def fingerprint(self, options: Mapping[str, Any]) -> Mapping[str, Any]:
        """Everything besides the input content that changes this stage's output."""

    def model_spec(self, options: Mapping[str, Any]) -> ModelSpec | None:
        """The model this stage runs on the GPU gate, or None for a CPU stage."""

    def run(self, ctx: StageContext) -> dict[str, Any]:
        """Do the work and return the checkpoint."""


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

    def run_batch(self, contexts: Sequence[StageContext]) -> list[dict[str, Any] | Exception]:
        """Each context's checkpoint, or the exception it failed with, in the order given."""


@dataclass
class Pipeline:
    """The ordered stages for one item kind."""

    kind: str
    stages: Sequence[Stage] = field(default_factory=list)


__all__ = ["BatchStage", "ItemRef", "ModelClient", "ModelSpec", "Output", "Pipeline", "Placed", "Stage", "StageContext"]
