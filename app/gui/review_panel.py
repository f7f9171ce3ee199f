"""The Review tab: placements whose outcome is unknown, their evidence, and the person's decision.

The evidence is what changed: Sidecar's version beside the file on disk now (a diff for
text, two thumbnails for images), read off the GUI thread each time another review is
selected; the hashes are a details line.

A decision carries the review revision the person was looking at, so a review that
someone else decided (CLI, another window) in the meantime is reported as a
conflict in the panel's banner instead of being overwritten or silently dropped.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Sequence

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (QFormLayout, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QPushButton, QSplitter, QVBoxLayout, QWidget)

from app.gui.facade.records import Review, ReviewEvidence
from app.gui.facade import EngineFacade
from app.gui.review_evidence_view import EvidenceView
from app.gui.theme import banner_style, muted
from app.gui.translations import QT_TRANSLATE_NOOP
from app.shown_names import one_line

log = logging.getLogger(__name__)

DECISIONS = (("applied", QT_TRANSLATE_NOOP("ReviewPanel", "Applied"),
              QT_TRANSLATE_NOOP("ReviewPanel", "Keep the file as it is now; the step counts as done.")),
             ("not_applied", QT_TRANSLATE_NOOP("ReviewPanel", "Not applied"),
              QT_TRANSLATE_NOOP("ReviewPanel", "Write Sidecar's version again.")),
             ("skip", QT_TRANSLATE_NOOP("ReviewPanel", "Skip"),
              QT_TRANSLATE_NOOP("ReviewPanel", "Give up on this item (a reason is required).")))

_BANNER_ACCENTS = {"error": "error", "info": "ok"}


class ReviewPanel(QWidget):
    def __init__(self, facade: EngineFacade, parent: QWidget | None = None):
        super().__init__(parent)
        self.facade = facade
        self.reviews: dict[int, Review] = {}
        self._evidence_for: tuple[int, int] | None = None  # (review id, revision) whose evidence is shown or loading
        self.list = QListWidget(self)
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.banner = QLabel(self)
        self.banner.setWordWrap(True)
        self.banner.hide()
        self.fields = {name: QLabel(self) for name in ("source", "target", "error", "details")}
        form = QFormLayout()
        for name, label in (("source", self.tr("Source:")), ("target", self.tr("Target:")), ("error", self.tr("Why:")),
                            ("details", self.tr("Details:"))):
            field = self.fields[name]
            field.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            field.setWordWrap(True)
            form.addRow(label, field)
        self.evidence = EvidenceView(self)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(self.tr("Reason (recorded with the decision)"))
        form.addRow(self.tr("Reason:"), self.reason)
        self.buttons: dict[str, QPushButton] = {}
        row = QHBoxLayout()
        for decision, text, tip in DECISIONS:
            button = QPushButton(self.tr(text), self)
            button.setToolTip(self.tr(tip))
            button.clicked.connect(lambda _=False, d=decision: self.decide(d))
            self.buttons[decision] = button
            row.addWidget(button)
        row.addStretch(1)
        self.empty = QLabel(self.tr("Nothing awaits review.") + "\n\n" + self.tr(
            "When Sidecar cannot prove what happened to a file it wrote (the disk was unplugged, someone edited it), "
            "the file waits here for your decision."), self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setStyleSheet(f"color:{muted()}; padding:24px;")

        details = QWidget(self)
        dl = QVBoxLayout(details)
        dl.addLayout(form)
        dl.addWidget(self.evidence, 1)
        dl.addLayout(row)
        self.splitter = splitter = QSplitter(self)  # hidden while nothing awaits review: no empty form
        splitter.addWidget(self.list)
        splitter.addWidget(details)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([260, 560])
        splitter.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(self.banner)
        layout.addWidget(self.empty, 1)
        layout.addWidget(splitter, 1)

        self.list.currentItemChanged.connect(lambda *_: self._show_current())
        facade.review.reviewsChanged.connect(self.set_reviews)
        facade.review.reviewDecided.connect(self._decided)
        facade.review.decisionFailed.connect(self._failed)
        facade.review.reviewEvidence.connect(self._evidence_loaded)
        self._show_current()

    @Slot(list)
    def set_reviews(self, reviews: Sequence[Review]) -> None:
        current = self.current_review()
        self.reviews = {r.id: r for r in reviews}
        self.list.blockSignals(True)
        self.list.clear()
        for r in reviews:
            item = QListWidgetItem(self.tr("{name}\n    in {folder}").format(name=Path(r.target).name, folder=Path(r.target).parent.name))
            item.setToolTip(r.target)
            item.setData(Qt.ItemDataRole.UserRole, r.id)
            self.list.addItem(item)
            if current is not None and r.id == current.id:
                self.list.setCurrentItem(item)
        if self.list.currentItem() is None and self.list.count():
            self.list.setCurrentRow(0)
        self.list.blockSignals(False)
        self.empty.setVisible(not reviews)
        self.splitter.setVisible(bool(reviews))
        self._show_current()

    def current_review(self) -> Review | None:
        item = self.list.currentItem()
        return None if item is None else self.reviews.get(item.data(Qt.ItemDataRole.UserRole))

    def _show_current(self) -> None:
        r = self.current_review()
        values = {"source": "", "target": "", "error": "", "details": ""}
        if r is not None:
            values = {"source": one_line(r.path), "target": one_line(r.target), "error": one_line(r.error or ""),
                      "details": self.tr("sha256 written {written}, found {found}; attempts {attempts}; revision {revision}")
                      .format(written=r.expected_sha256, found=r.found_sha256 or self.tr("(file missing)"),
                              attempts=r.attempts, revision=r.revision)}
        for name, value in values.items():
            self.fields[name].setText(value)
        for button in self.buttons.values():
            button.setEnabled(r is not None)
        shown = self._evidence_for
        if r is None:
            self._evidence_for = None
            self.evidence.show_message("")
        elif shown != (r.id, r.revision):
            self._evidence_for = (r.id, r.revision)
            self.evidence.show_message("Reading both versions…")
            self.facade.review.load_review_evidence(r)

    @Slot(object, dict)
    def _evidence_loaded(self, evidence: ReviewEvidence, images: dict[str, Any]) -> None:
        current = self.current_review()
        if current is not None and current.id == evidence.review_id:
            self.evidence.show_evidence(evidence, images)

    def decide(self, decision: str) -> None:
        r = self.current_review()
        if r is None:
            return
        reason = self.reason.text().strip()
        if decision == "skip" and not reason:
            self.show_banner(self.tr("Give a reason to skip this item."), "error")
            return
        self.hide_banner()
        self.facade.review.decide(r.id, decision, reason or "decided in the review panel", r.revision)

    def show_banner(self, text: str, kind: str) -> None:
        self.banner.setText(text)
        self.banner.setStyleSheet(f"QLabel {{ {banner_style(_BANNER_ACCENTS[kind])} padding:6px; border-radius:3px; }}")
        self.banner.show()

    def hide_banner(self) -> None:
        self.banner.hide()
        self.banner.setText("")

    @Slot(object)
    def _decided(self, review: Review) -> None:
        self.reason.clear()
        decision = next((self.tr(text) for d, text, _ in DECISIONS if d == review.decision), review.decision)
        self.show_banner(self.tr("{name}: recorded “{decision}” (revision {revision}).").format(
            name=Path(review.target).name, decision=decision, revision=review.revision), "info")

    @Slot(int, str, str)
    def _failed(self, review_id: int, code: str, message: str) -> None:
        self.show_banner(self.tr("Your decision was not recorded: {message}.").format(message=message), "error")

