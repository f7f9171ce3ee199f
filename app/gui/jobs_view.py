"""The jobs list: folder, status in words ("finished — 3 failed"), a done/total bar, failed/skipped/review counts and an ETA."""

from __future__ import annotations

import logging
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Sequence

from PySide6.QtCore import QCoreApplication, QModelIndex, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QHeaderView, QStyle, QStyledItemDelegate,
                               QStyleOptionProgressBar, QStyleOptionViewItem, QTableView, QWidget)

from app.gui.facade.records import Hold, JobSummary, JobSummaryStatus
from app.gui.count_words import count_words
from app.gui.hold_words import hold_words
from app.gui.state_words import state_word
from app.gui.table_model import ALIGNMENT, CENTRED, DISPLAY, TOOLTIP, ColumnsModel, Index
from app.gui.translations import QT_TRANSLATE_NOOP, code_words
from app.shown_names import readable
from app.status_words import job_label_parts, problem

log = logging.getLogger(__name__)

ProgressRole = Qt.ItemDataRole.UserRole + 1

MIN_ETA_SECONDS = 5.0
"""Below this much observed work, a rate is noise: the ETA column stays empty."""


#: The words app.status_words.JobLabel uses where the stored status word is not what a person says.
_LABEL_WORDS = {JobSummaryStatus.CREATING: QT_TRANSLATE_NOOP("JobLabel", "adding files"),
                JobSummaryStatus.REVIEW: QT_TRANSLATE_NOOP("JobLabel", "needs review"),
                JobSummaryStatus.COMPLETED: QT_TRANSLATE_NOOP("JobLabel", "finished")}


class EtaEstimator:
    """Remaining time from the completion rate seen since the job was first observed running.

    The first sample is where measuring starts, so items finished before the app
    started (or before a pause) do not inflate the rate.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._start: dict[int, tuple[float, int]] = {}

    def update(self, job: JobSummary) -> float | None:
        """Seconds left for ``job``, or None while it cannot be measured yet."""
        if job.status not in (JobSummaryStatus.RUNNING, JobSummaryStatus.QUEUED):  # between two stages a running job briefly reads "queued"
            self._start.pop(job.id, None)
            return None
        now = self._clock()
        first = self._start.setdefault(job.id, (now, job.done))
        elapsed, finished = now - first[0], job.done - first[1]
        if elapsed < MIN_ETA_SECONDS or finished <= 0:
            return None
        left = job.total - job.done - job.failed - job.review
        return max(0.0, left * elapsed / finished)


def format_eta(seconds: float | None) -> str:
    if seconds is None:
        return ""
    seconds = int(round(seconds))
    if seconds < 60:
        return QCoreApplication.translate("JobsModel", "{seconds} s").format(seconds=seconds)
    if seconds < 3600:
        return QCoreApplication.translate("JobsModel", "{minutes} min {seconds:02d} s").format(minutes=seconds // 60, seconds=seconds % 60)
    return QCoreApplication.translate("JobsModel", "{hours} h {minutes:02d} min").format(hours=seconds // 3600, minutes=seconds % 3600 // 60)


class JobsModel(ColumnsModel):
    COLUMNS = (QT_TRANSLATE_NOOP("Columns", "Folder"), QT_TRANSLATE_NOOP("Columns", "Status"),
               QT_TRANSLATE_NOOP("Columns", "Progress"), QT_TRANSLATE_NOOP("Columns", "Failed"),
               QT_TRANSLATE_NOOP("Columns", "Skipped"), QT_TRANSLATE_NOOP("Columns", "Review"),
               QT_TRANSLATE_NOOP("Columns", "ETA"))

    PROGRESS = 2

    count_words = staticmethod(count_words)

    def status_label(self, job: JobSummary) -> str:
        """The job's label in the window's language: job_label's word and counts, each translated.

        A job with work left says why the engine waits, while it does ("waiting for the schedule (starts 22:00)").
        """
        if self.hold is not None and job.status in (JobSummaryStatus.QUEUED, JobSummaryStatus.RUNNING):
            return hold_words(self.hold)
        if job.status == JobSummaryStatus.COMPLETED and job.total == 0:  # not "Finished 0/0" with no word
            return self.tr("Finished — no media files in this folder")
        label = job_label_parts(job)
        word = _LABEL_WORDS.get(label.status)
        shown = QCoreApplication.translate("JobLabel", word) if word else state_word(job.status)
        shown = shown[:1].upper() + shown[1:]  # capitalised like the queue's states ("Finished", "Paused")
        return f"{shown} — {', '.join(self.count_words(c) for c in label.counts)}" if label.counts else shown

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.jobs: list[JobSummary] = []
        self._eta: dict[int, float | None] = {}
        self._display: list[tuple[Any, ...]] = []  # per row, its cells' text
        self._estimator = EtaEstimator()
        self._folders: Counter[str] = Counter()  # jobs per folder
        self.all_paused = False  # "Pause all" is on: a paused job's tooltip says why
        self.hold: Hold | None = None

    def set_hold(self, hold: Hold | None) -> None:
        """The engine started or stopped waiting (schedule, battery…): the status of jobs with work left changes."""
        self.hold = hold
        for row, job in enumerate(self.jobs):
            self._display[row] = self._cells(job, self._eta.get(job.id))
        if self.jobs:
            self.dataChanged.emit(self.index(0, 1), self.index(len(self.jobs) - 1, 1))

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.jobs)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        job = self.jobs[index.row()]
        col = index.column()
        if role == DISPLAY:
            return self._display[index.row()][col]
        if role == TOOLTIP and col == 1 and job.paused and self.all_paused and job.status == JobSummaryStatus.PAUSED:
            return self.tr("Paused because everything is paused (Pause all); Resume all starts it.")
        if role == TOOLTIP:
            return problem(job.error_code, job.error, code_words).details() if col == 1 and job.error else readable(job.folder)
        if role == ProgressRole and col == self.PROGRESS:
            return (job.done, job.total)
        if role == ALIGNMENT and col >= 3:
            return CENTRED
        return None

    def _cells(self, job: JobSummary, eta: float | None) -> tuple[Any, ...]:
        """The row's text, worked out once per change: the header sizes its columns to it many times per refresh."""
        folder = readable(job.folder)
        name = Path(folder).name or folder
        if self._folders[job.folder] > 1:  # two jobs of one folder (added again) are told apart
            name = self.tr("{name} (job {id})").format(name=name, id=job.id)
        return (name, self.status_label(job), f"{job.done} / {job.total}", job.failed or "",
                job.skipped or "", job.review or "", self._eta_text(job, eta))

    def _eta_text(self, job: JobSummary, eta: float | None) -> str:
        """The time left; "estimating…" while a running job has not finished enough to measure a rate (an empty
        cell read as a broken column: a job of a few long videos shows no rate until its first one is done)."""
        if eta is None and job.status == JobSummaryStatus.RUNNING:
            return self.tr("estimating…")
        return format_eta(eta)

    def set_jobs(self, jobs: Sequence[JobSummary]) -> None:
        """Update in place when the same jobs are shown (keeps the selection); reset when the set changed.

        In place, only rows whose job was re-read (a new object: the facade keeps the
        same one for a job that did not change) or whose ETA moved are repainted.
        """
        eta = {j.id: self._estimator.update(j) for j in jobs}
        if [j.id for j in jobs] == [j.id for j in self.jobs]:
            changed = [n for n, (old, new) in enumerate(zip(self.jobs, jobs))
                       if old is not new or self._eta.get(new.id) != eta[new.id]]
            self.jobs, self._eta = list(jobs), eta
            for row in changed:
                self._display[row] = self._cells(jobs[row], eta[jobs[row].id])
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.COLUMNS) - 1))
            return
        self._eta = eta
        self.beginResetModel()
        self.jobs = list(jobs)
        self._folders = Counter(job.folder for job in jobs)
        self._display = [self._cells(job, eta[job.id]) for job in jobs]
        self.endResetModel()

    def job_at(self, row: int) -> JobSummary | None:
        return self.jobs[row] if 0 <= row < len(self.jobs) else None

    def row_of(self, job_id: int) -> int:
        return next((n for n, j in enumerate(self.jobs) if j.id == job_id), -1)


class ProgressDelegate(QStyledItemDelegate):
    """Paints ``(done, total)`` from ``ProgressRole`` as a progress bar in the cell."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        value = index.data(ProgressRole)
        if value is None:
            super().paint(painter, option, index)
            return
        done, total = value
        bar = QStyleOptionProgressBar()
        bar.rect = option.rect.adjusted(2, 3, -2, -3)
        bar.minimum = 0
        bar.maximum = max(1, int(total))
        bar.progress = int(done) if total else 1
        bar.text = index.data(Qt.ItemDataRole.DisplayRole) or ""
        bar.textVisible = True
        bar.state = option.state | QStyle.StateFlag.State_Enabled | QStyle.StateFlag.State_Horizontal
        style = option.widget.style() if option.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ProgressBar, bar, painter, option.widget)


class JobsView(QTableView):
    def __init__(self, model: JobsModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.setModel(model)
        self.setItemDelegateForColumn(JobsModel.PROGRESS, ProgressDelegate(self))
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.verticalHeader().hide()
        self.setShowGrid(False)
        self.setAlternatingRowColors(True)
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in range(1, len(JobsModel.COLUMNS)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(JobsModel.PROGRESS, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(JobsModel.PROGRESS, 180)
