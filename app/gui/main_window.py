"""The main window: jobs on top; Queue, Review, Search, Workers and Log tabs below.

Folders and files dropped anywhere on the window become jobs. The window keeps no
engine state of its own: it shows what the facade's signals last said.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Sequence

from PySide6.QtCore import QCoreApplication, QItemSelectionModel, Qt, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDragMoveEvent, QDropEvent, QIcon, QKeySequence
from PySide6.QtWidgets import (QFileDialog, QFrame, QLabel, QMainWindow, QMessageBox, QProgressBar, QScrollArea,
                               QSplitter, QStackedWidget, QStyle, QSystemTrayIcon, QTabWidget, QToolBar, QVBoxLayout,
                               QWidget)

from app.gui.facade.records import MEDIA_KINDS, PAUSED, SCHEDULE, Hold, JobSummary, JobSummaryStatus
from app.gui.database_dialog import DatabaseDialog
from app.gui.facade import EngineFacade
from app.gui.hold_words import hold_words
from app.gui.jobs_view import JobsModel, JobsView
from app.gui.log_panel import LogPanel, QtLogHandler
from app.gui.queue_view import QueueView
from app.gui.review_panel import ReviewPanel
from app.gui.search_panel import SearchPanel
from app.gui.settings_dialog import SettingsDialog
from app.gui.theme import banner_style, muted
from app.gui.transcript_editor import TranscriptEditor
from app.gui.translations import code_words
from app.gui.welcome_page import WelcomePage
from app.gui.workers_view import WorkersView
from app.status_words import problem

log = logging.getLogger(__name__)


def media_file_filters() -> str:
    """The Add files dialog's filters: all media, then each registered kind (both cases: some dialogs match case)."""
    def patterns(extensions: frozenset[str]) -> str:
        return " ".join(f"*{ext} *{ext.upper()}" for ext in sorted(extensions))

    kinds = list(MEDIA_KINDS)
    every = frozenset().union(*(kind.extensions for kind in kinds))
    return ";;".join([QCoreApplication.translate("MainWindow", "Media ({patterns})").format(patterns=patterns(every)),
                      *(f"{kind.label} ({patterns(kind.extensions)})" for kind in kinds),
                      QCoreApplication.translate("MainWindow", "All files (*)")])


def local_paths(event: QDragEnterEvent | QDragMoveEvent | QDropEvent) -> list[Path]:
    """The local files and folders a drag carries (remote URLs are not ours to process)."""
    mime = event.mimeData()
    if not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]


class MainWindow(QMainWindow):
    quitRequested = Signal()
    trayNotice = Signal(str, str)  # title, message: shown by the tray icon (the app connects it)

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

        toolbar = QToolBar(self.tr("Actions"), self)
        toolbar.setMovable(False)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.add_folder_action = QAction(self.tr("Add folder…"), self)
        self.add_files_action = QAction(self.tr("Add files…"), self)
        self.pause_all_action = QAction(self.tr("Pause all"), self)
        self.resume_all_action = QAction(self.tr("Resume all"), self)
        self.settings_action = QAction(self.tr("Settings…"), self)
        self.add_folder_action.triggered.connect(self.choose_folder)
        self.add_files_action.triggered.connect(self.choose_files)
        self.pause_all_action.triggered.connect(lambda: facade.jobs.pause(None))
        self.resume_all_action.triggered.connect(lambda: facade.jobs.resume(None))
        self.settings_action.triggered.connect(self.open_settings)
        self.find_action = QAction(self.tr("Search"), self)
        self.find_action.triggered.connect(self.focus_search)
        self.addAction(self.find_action)
        self._dress_actions()
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
        self.workers = WorkersView(facade, self)
        self.log_panel = LogPanel(log_handler, self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.queue, self.tr("Queue"))
        self.tabs.addTab(self.review, self.tr("Review"))
        self.tabs.addTab(self.search, self.tr("Search"))
        self.tabs.addTab(self.workers, self.tr("Workers"))
        self.tabs.addTab(self.log_panel, self.tr("Log"))
        self.hint = QLabel(self.tr("Drop folders or files here, or use “Add folder…”."), self)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setStyleSheet(f"color:{muted()}; padding:6px;")
        top = QWidget(self)
        tl = QVBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.jobs)
        tl.addWidget(self.hint)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(top)
        splitter.addWidget(self.tabs)
        splitter.setSizes([170, 530])
        self.main_page = splitter
        self.welcome = WelcomePage(facade, self)
        self.welcome_page = QScrollArea(self)
        self.welcome_page.setWidgetResizable(True)
        self.welcome_page.setFrameShape(QFrame.Shape.NoFrame)
        self.welcome_page.setWidget(self.welcome)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.main_page)
        self.pages.addWidget(self.welcome_page)
        self.setCentralWidget(self.pages)
        self._job_count: int | None = None  # unknown until the engine first reports its jobs
        self._welcome_done = False
        self.statusBar().showMessage(self.tr("Starting the engine…"))
        self.add_progress = QProgressBar(self)
        self.add_progress.setMaximumWidth(220)
        self.add_progress.setFormat(self.tr("Identifying files: %v / %m"))
        self.add_progress.hide()
        self.statusBar().addPermanentWidget(self.add_progress)
        self.job_counts = QLabel(self)  # under any passing message, which stays its full time
        self.statusBar().addWidget(self.job_counts, 1)
        self.pause_indicator = QLabel(self)
        self.pause_indicator.setText(self.tr("Everything is paused; new jobs wait too. <a href=\"resume\">Resume all</a>"))
        self.pause_indicator.setStyleSheet(f"QLabel {{ {banner_style('warning')} padding:1px 6px; border-radius:3px; }}")
        self.pause_indicator.linkActivated.connect(lambda _: facade.jobs.resume(None))
        self.pause_indicator.hide()
        self.statusBar().addPermanentWidget(self.pause_indicator)
        facade.jobs.pausedAllChanged.connect(self.show_paused_all)
        self.hold_indicator = QLabel(self)  # a timed pause, the schedule or the battery holds the engine
        self.hold_indicator.setStyleSheet(f"QLabel {{ {banner_style('warning')} padding:1px 6px; border-radius:3px; }}")
        self.hold_indicator.linkActivated.connect(lambda _: facade.workers.resume_work())
        self.hold_indicator.hide()
        self.statusBar().addPermanentWidget(self.hold_indicator)
        self._paused_all = False
        self._hold: Hold | None = None
        facade.workers.holdChanged.connect(self.show_hold)
        self._adding: set[str] = set()
        self._added: int | None = None  # the job just added, to select once the jobs list shows it

        self.jobs.selectionModel().selectionChanged.connect(lambda *_: self._show_selected_job())
        facade.jobs.jobsChanged.connect(self.show_jobs)
        facade.workers.holdChanged.connect(self.jobs_model.set_hold)
        facade.jobs.openJob.connect(self.open_job)
        facade.jobs.jobAdded.connect(self._job_added)
        facade.jobs.addProgress.connect(self._add_progress)
        facade.jobs.addEnded.connect(self._add_ended)
        facade.review.reviewsChanged.connect(lambda reviews: self.tabs.setTabText(
            1, self.tr("Review (%n)", "", len(reviews)) if reviews else self.tr("Review")))
        facade.error.connect(self._show_error)
        facade.started.connect(lambda: self.statusBar().showMessage(self.tr("Engine running."), 5000))
        facade.settings.settingsLoaded.connect(lambda _: self._show_welcome_if_new())
        facade.startFailed.connect(self.library_unavailable)
        self.database_dialog: DatabaseDialog | None = None
        self.queue.openSubtitles.connect(lambda path: self.open_editor(Path(path)))
        self.search.openCue.connect(lambda path, start: self.open_editor(Path(path), start))
        self.editors: dict[Path, TranscriptEditor] = {}
        self.welcome.addFolderRequested.connect(self.choose_folder)
        self.welcome.finished.connect(self._welcome_finished)

    def _dress_actions(self) -> None:
        """Icons from the desktop's theme (Qt's own where the theme has none) and the usual shortcuts."""
        style = self.style()
        dress = (
            (self.add_folder_action, QIcon.ThemeIcon.FolderOpen, QStyle.StandardPixmap.SP_DirOpenIcon,
             [QKeySequence(QKeySequence.StandardKey.Open)]),
            (self.add_files_action, QIcon.ThemeIcon.DocumentOpen, QStyle.StandardPixmap.SP_FileIcon,
             [QKeySequence("Ctrl+Shift+O")]),
            (self.pause_all_action, QIcon.ThemeIcon.MediaPlaybackPause, QStyle.StandardPixmap.SP_MediaPause,
             [QKeySequence("Ctrl+Shift+P")]),
            (self.resume_all_action, QIcon.ThemeIcon.MediaPlaybackStart, QStyle.StandardPixmap.SP_MediaPlay,
             [QKeySequence("Ctrl+Shift+R")]),
            (self.settings_action, QIcon.ThemeIcon.DocumentProperties, QStyle.StandardPixmap.SP_FileDialogDetailedView,
             [QKeySequence(QKeySequence.StandardKey.Preferences), QKeySequence("Ctrl+,")]),
            (self.find_action, QIcon.ThemeIcon.EditFind, QStyle.StandardPixmap.SP_FileDialogContentsView,
             [QKeySequence(QKeySequence.StandardKey.Find)]),
        )
        for action, themed, fallback, keys in dress:
            action.setIcon(QIcon.fromTheme(themed, style.standardIcon(fallback)))
            action.setShortcuts([k for k in dict.fromkeys(keys) if not k.isEmpty()])
            shortcut = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            if shortcut:
                action.setToolTip(self.tr("{action} ({shortcut})").format(action=action.text().rstrip("…"), shortcut=shortcut))

    def focus_search(self) -> None:
        self.tabs.setCurrentWidget(self.search)
        self.search.query.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.query.selectAll()

    def _show_error(self, code: str, message: str) -> None:
        """An engine error in the status bar: what happened, its code and what to do."""
        advice = problem(code, message, code_words).advice
        self.statusBar().showMessage(f"{message} ({code})" + (f" — {advice}" if advice else ""), 15000)

    @Slot(bool)
    def show_paused_all(self, paused: bool) -> None:
        """"Pause all" on: the status bar says so (with Resume all at hand), the window title too."""
        self.pause_indicator.setVisible(paused)
        self._paused_all = paused
        self._show_title()
        self.jobs_model.all_paused = paused

    @Slot(object)
    def show_hold(self, hold: Hold | None) -> None:
        """The engine waits (a timed pause such as "Pause for 1 hour", the schedule, the battery): the status bar and
        the title say until when, with "Resume now" at hand where a person's choice holds it."""
        self._hold = hold
        if hold is None:
            self.hold_indicator.hide()
        else:
            words = hold_words(hold)
            link = f' <a href="now">{self.tr("Resume now")}</a>' if hold.reason in (PAUSED, SCHEDULE) else ""
            self.hold_indicator.setText(words[:1].upper() + words[1:] + "." + link)
            self.hold_indicator.show()
        self._show_title()

    def _show_title(self) -> None:
        if self._paused_all:
            self.setWindowTitle(self.tr("Sidecar — Paused"))
        elif self._hold is not None:
            self.setWindowTitle(f"Sidecar — {hold_words(self._hold)}")
        else:
            self.setWindowTitle("Sidecar")

    @Slot(str, str)
    def library_unavailable(self, code: str, message: str) -> DatabaseDialog:
        """The library did not open: say so and offer the way back (one dialog, showing the latest reason)."""
        self.statusBar().showMessage(self.tr("The library could not be opened."))
        dialog = self.database_dialog
        if dialog is None:
            url = self.facade.settings.current.database_url if self.facade.settings.current is not None else ""
            dialog = self.database_dialog = DatabaseDialog(self.facade, code, message, url, self)
            dialog.finished.connect(self._database_dialog_closed)
        else:
            dialog.show_reason(code, message)
        dialog.show()
        dialog.raise_()
        return dialog

    def _database_dialog_closed(self) -> None:
        if self.database_dialog is not None:
            self.database_dialog.deleteLater()
            self.database_dialog = None

    # -- jobs -----------------------------------------------------------------------------

    def selected_job(self) -> JobSummary | None:
        rows = self.jobs.selectionModel().selectedRows()
        return self.jobs_model.job_at(rows[0].row()) if rows else None

    @Slot(list)
    def show_jobs(self, jobs: Sequence[JobSummary]) -> None:
        selected = self.selected_job()
        self.jobs_model.set_jobs(jobs)
        self.hint.setVisible(not jobs)
        self._job_count = len(jobs)
        self._show_welcome_if_new()
        added = self._added
        if added is not None and self.jobs_model.row_of(added) >= 0:  # a job just added is shown at once
            self._added = None
            self.select_job(added)
            self.jobs.scrollTo(self.jobs_model.index(self.jobs_model.row_of(added), 0))
        elif selected is not None and self.jobs_model.row_of(selected.id) >= 0:
            self.select_job(selected.id)
        elif jobs and self.selected_job() is None:
            self.select_job(jobs[-1].id)
        self._show_selected_job()
        running = sum(1 for j in jobs if j.status == JobSummaryStatus.RUNNING)
        self.job_counts.setText(self.tr("%n job(s), {running} running", "", len(jobs)).format(running=running))

    def select_job(self, job_id: int) -> None:
        row = self.jobs_model.row_of(job_id)
        if row < 0:
            return
        index = self.jobs_model.index(row, 0)
        selected = self.selected_job()
        if selected is None or selected.id != job_id:
            self.jobs.selectionModel().select(index, QItemSelectionModel.SelectionFlag.ClearAndSelect
                                              | QItemSelectionModel.SelectionFlag.Rows)

    @Slot(int)
    def open_job(self, job_id: int) -> None:
        """A notification of the job was clicked: bring the window up on that job."""
        self.showNormal()
        self.raise_()
        self.activateWindow()
        self.select_job(job_id)
        self.tabs.setCurrentWidget(self.queue)

    def _show_selected_job(self) -> None:
        self.queue.show_job(self.selected_job())

    @Slot(str, int, int)
    def _add_progress(self, folder: str, done: int, total: int) -> None:
        """A folder being added: media files found while it is walked (``total`` 0: not known yet), then recorded."""
        if total:
            self.add_progress.setFormat(self.tr("Recording files: %v / %m"))
            self.add_progress.setRange(0, total)
        else:
            self.add_progress.setFormat(self.tr("Finding files: %v found"))
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
        self._added = job.id  # selected (and scrolled to) when the jobs list next shows it
        self.facade.refresh()
        report = job.scan_report or {}
        note = ""
        if report.get("unsupported"):
            note = self.tr("; %n file(s) not added: {message}", "", report['unsupported']['count']).format(
                message=report['unsupported']['message'])

        if report.get("left_out", {}).get("count"):
            note += self.tr("; left out %n system/hidden file(s) or folder(s) (Settings → Scanning)", "", report['left_out']['count'])
        if not job.total and not job.skipped:
            note += self.tr(" — no videos, audio or images in it, so there is nothing to do")
        if self.facade.jobs.all_paused and job.total:
            note += self.tr(" — everything is paused: it starts after Resume all")
        self.statusBar().showMessage(self.tr("Added {folder}: {total} to do, {skipped} skipped{note}").format(
            folder=job.folder, total=job.total, skipped=job.skipped, note=note), 15000)
        if self.jobs_model.row_of(job.id) >= 0:
            self.select_job(job.id)

    # -- first run ------------------------------------------------------------------------

    def _show_welcome_if_new(self) -> None:
        """The first-run page, on an empty library only, until it was used or skipped once."""
        settings = self.facade.settings.current
        new = (settings is not None and not settings.welcome_dismissed and not self._welcome_done
               and self._job_count == 0)
        self.pages.setCurrentWidget(self.welcome_page if new else self.main_page)

    def _welcome_finished(self) -> None:
        self._welcome_done = True
        self._show_welcome_if_new()

    # -- adding ---------------------------------------------------------------------------

    def add_paths(self, paths: Sequence[Path]) -> None:
        if not paths:
            return
        chosen = None
        if self.pages.currentWidget() is self.welcome_page:
            chosen = self.welcome.apply()  # what the person chose on the page applies to this first job
        self.statusBar().showMessage(self.tr("Scanning {names}…").format(names=", ".join(p.name or str(p) for p in paths)))
        self.facade.jobs.add_paths(paths, settings=chosen)

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add a folder"))
        if folder:
            self.add_paths([Path(folder)])

    def choose_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, self.tr("Add files"), "", media_file_filters())
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

    # -- subtitles ------------------------------------------------------------------------

    def open_editor(self, video: Path, start_s: float | None = None) -> TranscriptEditor:
        """The subtitle editor of ``video`` (one window per video), at ``start_s`` when given."""
        editor = self.editors.get(video)
        if editor is None:
            kind = MEDIA_KINDS.of(video)
            editor = TranscriptEditor(self.facade, video, start_s, kind.name if kind else "video", self)
            editor.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            editor.destroyed.connect(lambda _=None, video=video: self.editors.pop(video, None))
            self.editors[video] = editor
        elif start_s is not None:
            editor.player.setPosition(int(start_s * 1000))
        editor.show()
        editor.raise_()
        editor.activateWindow()
        return editor

    # -- settings and closing -------------------------------------------------------------

    def open_settings(self) -> SettingsDialog | None:
        if self.facade.settings.current is None:
            self.statusBar().showMessage(self.tr("Settings are still loading."), 5000)

            return None
        dialog = SettingsDialog(self.facade, self.facade.settings.current, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def closeEvent(self, event: QCloseEvent) -> None:
        settings = self.facade.settings.current
        if self.has_tray and (settings is None or settings.close_to_tray):
            event.ignore()
            self.hide()
            if settings is not None and not settings.tray_notice_shown:
                title, text = self.tr("Sidecar keeps working"), self.tr(
                    "Sidecar goes on processing in the background. Click its tray icon to open the window; "
                    "Quit is in the icon's menu (Settings → Window to quit on close).")
                if QSystemTrayIcon.supportsMessages():
                    self.trayNotice.emit(title, text)
                else:  # a tray without balloons: say it once in a box of its own
                    box = QMessageBox(QMessageBox.Icon.Information, title, text, QMessageBox.StandardButton.Ok)
                    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
                    box.open()
                    self.close_notice = box
                self.facade.settings.save(dataclasses.replace(settings, tray_notice_shown=True))
            return
        event.accept()
        self.quitRequested.emit()
