"""The main window: jobs on top; Queue, Review, Search and Log tabs below.

Folders and files dropped anywhere on the window become jobs. The window keeps no
engine state of its own: it shows what the facade's signals last said.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Sequence

from PySide6.QtCore import QItemSelectionModel, Qt, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDragMoveEvent, QDropEvent, QIcon
from PySide6.QtWidgets import (QFileDialog, QLabel, QMainWindow, QProgressBar, QSplitter, QTabWidget, QToolBar,
                               QVBoxLayout, QWidget)

from app.engine.kinds import MEDIA_KINDS
from app.gui.facade import EngineFacade
from app.gui.jobs_view import JobsModel, JobsView
from app.gui.log_panel import LogPanel, QtLogHandler
from app.gui.queue_view import QueueView
from app.gui.review_panel import ReviewPanel
from app.gui.search_panel import SearchPanel
from app.gui.settings_dialog import SettingsDialog
from app.store.records import JobSummary
from app.store.states import JobStatus

log = logging.getLogger(__name__)


def media_file_filters() -> str:
    """The Add files dialog's filters: all media, then each registered kind (both cases: some dialogs match case)."""
    def patterns(extensions: frozenset[str]) -> str:
        return " ".join(f"*{ext} *{ext.upper()}" for ext in sorted(extensions))

    kinds = list(MEDIA_KINDS)
    every = frozenset().union(*(kind.extensions for kind in kinds))
    return ";;".join([f"Media ({patterns(every)})", *(f"{kind.label} ({patterns(kind.extensions)})" for kind in kinds),
                      "All files (*)"])


def local_paths(event: QDragEnterEvent | QDragMoveEvent | QDropEvent) -> list[Path]:
    """The local files and folders a drag carries (remote URLs are not ours to process)."""
    mime = event.mimeData()
    if not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]


class MainWindow(QMainWindow):
    quitRequested = Signal()

    def __init__(self, facade: EngineFacade, log_handler: QtLogHandler, icon: QIcon | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.facade = facade
        self.has_tray = False
        self.setWindowTitle("Sidecar")
        if icon is not None:
            self.setWindowIcon(icon)
        self.setAcceptDrops(True)
        self.resize(1100, 720)

        toolbar = QToolBar("Actions", self)
        toolbar.setMovable(False)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.add_folder_action = QAction("Add folder…", self)
        self.add_files_action = QAction("Add files…", self)
        self.pause_all_action = QAction("Pause all", self)
        self.resume_all_action = QAction("Resume all", self)
        self.settings_action = QAction("Settings…", self)
        self.add_folder_action.triggered.connect(self.choose_folder)
        self.add_files_action.triggered.connect(self.choose_files)
        self.pause_all_action.triggered.connect(lambda: facade.pause(None))
        self.resume_all_action.triggered.connect(lambda: facade.resume(None))
        self.settings_action.triggered.connect(self.open_settings)
        for action in (self.add_folder_action, self.add_files_action):
            toolbar.addAction(action)
        toolbar.addSeparator()
        for action in (self.pause_all_action, self.resume_all_action):
            toolbar.addAction(action)
        toolbar.addSeparator()
        toolbar.addAction(self.settings_action)
        self.addToolBar(toolbar)

        self.jobs_model = JobsModel(self)
        self.jobs = JobsView(self.jobs_model, self)
        self.queue = QueueView(facade, self)
        self.review = ReviewPanel(facade, self)
        self.search = SearchPanel(facade, self)
        self.log_panel = LogPanel(log_handler, self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.queue, "Queue")
        self.tabs.addTab(self.review, "Review")
        self.tabs.addTab(self.search, "Search")
        self.tabs.addTab(self.log_panel, "Log")
        self.hint = QLabel("Drop folders or files here, or use “Add folder…”.", self)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setStyleSheet("color:#666; padding:6px;")
        top = QWidget(self)
        tl = QVBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.jobs)
        tl.addWidget(self.hint)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(top)
        splitter.addWidget(self.tabs)
        splitter.setSizes([170, 530])
        self.setCentralWidget(splitter)
        self.statusBar().showMessage("Starting the engine…")
        self.add_progress = QProgressBar(self)
        self.add_progress.setMaximumWidth(220)
        self.add_progress.hide()
        self.statusBar().addPermanentWidget(self.add_progress)
        self._adding: set[str] = set()

        self.jobs.selectionModel().selectionChanged.connect(lambda *_: self._show_selected_job())
        facade.jobsChanged.connect(self.show_jobs)
        facade.jobAdded.connect(self._job_added)
        facade.addProgress.connect(self._add_progress)
        facade.addEnded.connect(self._add_ended)
        facade.reviewsChanged.connect(lambda reviews: self.tabs.setTabText(1, f"Review ({len(reviews)})" if reviews else "Review"))
        facade.error.connect(lambda code, message: self.statusBar().showMessage(f"{message} ({code})", 15000))
        facade.started.connect(lambda: self.statusBar().showMessage("Engine running.", 5000))

    # -- jobs -----------------------------------------------------------------------------

    def selected_job(self) -> JobSummary | None:
        rows = self.jobs.selectionModel().selectedRows()
        return self.jobs_model.job_at(rows[0].row()) if rows else None

    @Slot(list)
    def show_jobs(self, jobs: Sequence[JobSummary]) -> None:
        selected = self.selected_job()
        self.jobs_model.set_jobs(jobs)
        self.hint.setVisible(not jobs)
        if selected is not None and self.jobs_model.row_of(selected.id) >= 0:
            self.select_job(selected.id)
        elif jobs and self.selected_job() is None:
            self.select_job(jobs[-1].id)
        self._show_selected_job()
        running = sum(1 for j in jobs if j.status == JobStatus.RUNNING)
        self.statusBar().showMessage(f"{len(jobs)} job(s), {running} running")

    def select_job(self, job_id: int) -> None:
        row = self.jobs_model.row_of(job_id)
        if row < 0:
            return
        index = self.jobs_model.index(row, 0)
        if self.selected_job() is None or self.selected_job().id != job_id:  # type: ignore[union-attr]
            self.jobs.selectionModel().select(index, QItemSelectionModel.SelectionFlag.ClearAndSelect
                                              | QItemSelectionModel.SelectionFlag.Rows)

    def _show_selected_job(self) -> None:
        self.queue.show_job(self.selected_job())

    @Slot(str, int, int)
    def _add_progress(self, folder: str, done: int, total: int) -> None:
        """A folder being added: media files found while it is walked (``total`` 0: not known yet), then recorded."""
        if total:
            self.add_progress.setFormat("Recording files: %v / %m")
            self.add_progress.setRange(0, total)
        else:
            self.add_progress.setFormat("Finding files: %v found")
            self.add_progress.setRange(0, max(1, done))
        self.add_progress.setValue(done)
        self.add_progress.setToolTip(folder)
        self._adding.add(folder)
        self.add_progress.show()

    @Slot(str)
    def _add_ended(self, folder: str) -> None:
        self._adding.discard(folder)
        self.add_progress.setVisible(bool(self._adding))

    @Slot(object)
    def _job_added(self, job: JobSummary) -> None:
        report = job.scan_report or {}
        note = ""
        if report.get("unsupported"):
            note = f"; {report['unsupported']['count']} file(s) not added: {report['unsupported']['message']}"
        if report.get("left_out", {}).get("count"):
            note += f"; left out {report['left_out']['count']} system/hidden file(s) or folder(s) (Settings → Scanning)"
        self.statusBar().showMessage(f"Added {job.folder}: {job.total} to do, {job.skipped} skipped{note}", 15000)
        if self.jobs_model.row_of(job.id) >= 0:
            self.select_job(job.id)

    # -- adding ---------------------------------------------------------------------------

    def add_paths(self, paths: Sequence[Path]) -> None:
        if paths:
            self.statusBar().showMessage(f"Scanning {', '.join(p.name or str(p) for p in paths)}…")
            self.facade.add_paths(paths)

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Add a folder")
        if folder:
            self.add_paths([Path(folder)])

    def choose_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Add files", "", media_file_filters())
        self.add_paths([Path(f) for f in files])

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if local_paths(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if local_paths(event):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = local_paths(event)
        if paths:
            event.acceptProposedAction()
            self.add_paths(paths)

    # -- settings and closing -------------------------------------------------------------

    def open_settings(self) -> SettingsDialog | None:
        if self.facade.settings is None:
            self.statusBar().showMessage("Settings are still loading.", 5000)
            return None
        dialog = SettingsDialog(self.facade, self.facade.settings, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def closeEvent(self, event: QCloseEvent) -> None:
        settings = self.facade.settings
        if self.has_tray and (settings is None or settings.close_to_tray):
            event.ignore()
            self.hide()
            return
        event.accept()
        self.quitRequested.emit()
