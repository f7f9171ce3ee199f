"""Review: the decisions waiting, both versions of a reviewed file, and the subtitle editor's open and save."""

from __future__ import annotations

import getpass
from pathlib import Path
from typing import Any, Sequence

from PySide6.QtCore import QObject, Signal

from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.review_evidence import ReviewEvidence, review_evidence
from app.engine.subtitle_edits import SubtitleDocument
from app.errors import SidecarError
from app.gui.facade.core import FacadeCore
from app.gui.facade.jobs import JobsFacade
from app.gui.operations import Op, Operation
from app.gui.thumbnails import thumbnail
from app.media.cue_edits import EditCue
from app.ml.model_choice import models_use
from app.settings import load_settings
from app.store.records import JobSummary, Review


class ReviewFacade(QObject):
    """Answers with the review and subtitle signals below; ``reviewsChanged`` only when the list changed."""

    reviewsChanged = Signal(list)  # list[Review]
    reviewDecided = Signal(object)  # Review
    decisionFailed = Signal(int, str, str)  # review id, code (review_conflict…), message
    subtitlesOpened = Signal(object)  # SubtitleDocument
    subtitlesSaved = Signal(object)  # SubtitleDocument as saved
    subtitlesFailed = Signal(str, str, str)  # video path, code (no_subtitles, item_busy, changed_on_disk…), message
    reviewEvidence = Signal(object, dict)  # ReviewEvidence of the review last asked for, {"ours"/"theirs": QImage}

    def __init__(self, core: FacadeCore, jobs: JobsFacade):
        super().__init__(core)
        self._core, self._jobs = core, jobs
        self._last: tuple[tuple[int, int, str], ...] | None = None

    def show(self, reviews: list[Review]) -> None:
        """The reviews a refresh read: ``reviewsChanged`` when one came, went or changed since the last."""
        key = tuple((r.id, r.revision, r.state) for r in reviews)
        if key != self._last:
            self._last = key
            self.reviewsChanged.emit(reviews)

    def decide(self, review_id: int, decision: str, reason: str, expected_revision: int | None) -> None:
        """Record a review decision; a conflict arrives as ``decisionFailed(id, "review_conflict", …)``."""
        actor = f"gui:{getpass.getuser()}"

        def failed(exc: BaseException) -> None:
            if isinstance(exc, SidecarError):
                self.decisionFailed.emit(review_id, exc.code, exc.message)
            else:
                self._core.report(exc)

        def decided(review: Review) -> None:
            self.reviewDecided.emit(review)

        self._core.command(lambda lib, _: lib.decide(review_id, decision, reason, actor, expected_revision), decided, failed)

    def load_review_evidence(self, review: Review) -> None:
        """Read both versions of a reviewed file, diff them or make thumbnails off the GUI thread.

        Only the latest ask answers: clicking through the list never shows an older file's evidence.
        """
        def load(_: Operation) -> tuple[ReviewEvidence, dict[str, Any]]:
            evidence = review_evidence(review)
            images: dict[str, Any] = {}
            if evidence.kind == "image":
                images = {"ours": thumbnail(evidence.ours.data), "theirs": thumbnail(evidence.theirs.data)}
            return evidence, images

        def loaded(result: tuple[ReviewEvidence, dict[str, Any]]) -> None:
            self.reviewEvidence.emit(*result)

        self._core.run(Op(load, loaded, lane="slow", key="review-evidence"))

    def open_subtitles(self, video: Path) -> None:
        """Read the subtitles beside ``video`` for the editor; ``subtitlesFailed`` says why when there are none."""
        self._core.command(lambda lib, _: lib.open_subtitles(video), self._opened,
                           lambda exc: self._subtitles_failed(video, exc), lane="slow")

    def _opened(self, document: SubtitleDocument) -> None:
        self.subtitlesOpened.emit(document)

    def save_subtitles(self, document: SubtitleDocument, cues: Sequence[EditCue]) -> None:
        """Save the person's edit of ``document``'s files (atomic; refused while Sidecar works on the video).

        On the slow lane: the save re-embeds the cues for dialogue search (e5), which must
        not hold up the store lane's status and queue reads.
        """
        self._core.command(lambda lib, _: lib.save_subtitles(document, cues), self._saved,
                           lambda exc: self._subtitles_failed(document.video, exc), lane="slow")

    def _saved(self, document: SubtitleDocument) -> None:
        self.subtitlesSaved.emit(document)

    def retranslate(self, video: Path, kind: str, model: str) -> None:
        """Translate ``video`` again from its stored transcript with ``model`` (made the translation model in use).

        A new job with ``redo`` (the video is subtitled already, so a plain add would skip
        it); the transcript is reused by fingerprint, and files the person edited go to Review.
        The job arrives as the jobs facade's ``jobAdded``.
        """
        data_dir = self._core.data_dir

        def add(library: Library, _: Operation) -> JobSummary:
            models_use(data_dir, model)
            return library.add(video, JobOptions.from_settings(load_settings(data_dir), kind, redo=True))

        self._core.command(add, self._jobs.added, lambda exc: self._subtitles_failed(video, exc), lane="slow")

    def _subtitles_failed(self, video: Path, exc: BaseException) -> None:
        if isinstance(exc, SidecarError):
            self.subtitlesFailed.emit(str(video), exc.code, exc.message)
        else:
            self._core.report(exc)


__all__ = ["ReviewFacade"]
