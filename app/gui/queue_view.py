"""The queue of the selected job: one row per item, fetched a page at a time.

A library folder can hold tens of thousands of files, so the model knows only the row
count up front and asks the facade for a page when the view first paints a row of it.
A few recently used pages are cached and re-fetched whenever the job changed; rows of
pages not loaded yet show a placeholder until their page arrives.
"""

from __future__ import annotations

import html
import logging
from collections import OrderedDict
from pathlib import Path
from typing import Any, Mapping

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QModelIndex, QPoint, QSize, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QIcon, QImage, QPixmap
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QMenu, QMessageBox, QPushButton,
                               QTableView, QVBoxLayout, QWidget)

from app.gui.state_words import state_word
from app.gui.table_model import ColumnsModel, Index
from app.gui.facade import EngineFacade
from app.gui.jobs_view import ProgressDelegate, ProgressRole
from app.gui.theme import ink
from app.gui.thumbnails import ThumbnailLoader
from app.media.audio_streams import AudioChoice
from app.store.records import ItemView, JobSummary
from app.store.states import ItemState
from app.status_words import item_words, problem

log = logging.getLogger(__name__)

SUBTITLED_KINDS = ("video", "audio")
QUEUE_THUMB = QSize(40, 30)
MAX_THUMBNAILS = 600  # a few screens of a photo job; older ones are decoded again when scrolled back to  # the kinds whose results the subtitle editor opens

PAGE_SIZE = 200
MAX_PAGES = 8


#: Why a stream was used, as the Audio column's tooltip says it (keys: ``audio_stream.reason``).
_AUDIO_REASONS = {"chosen": "chosen by you", "chosen_missing": "the chosen track is missing; chosen by rule",
                  "language": "in the source language", "default": "the file's default track",
                  "first": "the first dialogue track", "only": "the only track"}


def audio_text(facts: Mapping[str, Any]) -> str:
    """The Audio column: ``2/3 eng — Commentary`` (track of tracks, language tag, title), then the language heard."""
    stream = facts.get("audio_stream") or {}
    text = ""
    if stream:
        text = f"{stream['track']}/{stream['tracks']} {stream.get('language') or ''}".rstrip()
        text += f" — {stream['title']}" if stream.get("title") else ""
    if facts.get("language"):
        heard = QCoreApplication.translate("QueueModel", "heard: {language} ({percent} %)").format(
            language=facts["language"], percent=round(float(facts.get("language_probability") or 0) * 100))
        text += ("  · " if text else "") + heard
    return text


class QueueModel(ColumnsModel):
    COLUMNS = (QT_TRANSLATE_NOOP("Columns", "Item"), QT_TRANSLATE_NOOP("Columns", "Stage"),
               QT_TRANSLATE_NOOP("Columns", "Status"), QT_TRANSLATE_NOOP("Columns", "Progress"),
               QT_TRANSLATE_NOOP("Columns", "Audio"), QT_TRANSLATE_NOOP("Columns", "Error"),
               QT_TRANSLATE_NOOP("Columns", "Note"))
    PROGRESS = 3
    AUDIO = 4
    ERROR = 5
    NOTE = 6

    def __init__(self, facade: EngineFacade, parent: Any = None):
        super().__init__(parent)
        self.facade = facade
        self.job: JobSummary | None = None
        self._rows = 0
        self._pages: OrderedDict[int, list[ItemView]] = OrderedDict()
        self._requested: set[int] = set()
        self._icons: OrderedDict[str, QIcon] = OrderedDict()  # image path → its thumbnail, newest last
        self._asked: set[str] = set()
        self.thumbnails = ThumbnailLoader(QUEUE_THUMB, self)
        self.thumbnails.ready.connect(self._thumbnail)
        facade.itemsPage.connect(self._on_page)

    # -- Qt model -------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else self._rows

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self.item_at(index.row())
        col = index.column()
        if item is None:
            return "…" if role == Qt.ItemDataRole.DisplayRole and col == 0 else None
        if role == Qt.ItemDataRole.DisplayRole:
            if col in (self.ERROR, self.NOTE):
                words = item_words(item)
                return words.note if col == self.NOTE else (words.problem.cell() if words.problem else "")
            return (Path(item.path).name, state_word(item.stage or ""), state_word(item.status),
                    f"{round(item.progress * 100)} %", audio_text(item.facts))[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == self.AUDIO:
                stream = item.facts.get("audio_stream")
                return f"audio track {stream['track']}: {_AUDIO_REASONS.get(stream['reason'], stream['reason'])}" if stream else None
            return self._tooltip(item, col)
        if role == ProgressRole and col == self.PROGRESS:
            return (round(item.progress * 100), 100)
        if role == Qt.ItemDataRole.DecorationRole and col == 0 and item.kind == "image":
            return self._icon(item.path)
        return None

    @staticmethod
    def _tooltip(item: ItemView, col: int) -> str | None:
        """The item's details: on its name everything (path, problem, note), on the Error and Note cells their part."""
        words = item_words(item)
        problem_details = words.problem.details() if words.problem else ""
        if col == QueueModel.ERROR:
            return problem_details or None
        if col == QueueModel.NOTE:
            return words.note_details or None
        return "\n\n".join(part for part in (item.path, problem_details, words.note_details) if part) if col == 0 else None

    def _icon(self, path: str) -> QIcon | None:
        """The image's thumbnail when decoded; the first ask starts decoding it off the GUI thread."""
        icon = self._icons.get(path)
        if icon is not None:
            self._icons.move_to_end(path)
            return icon
        if path not in self._asked:
            self._asked.add(path)
            self.thumbnails.load(path)
        return None

    @Slot(str, QImage)
    def _thumbnail(self, path: str, image: QImage) -> None:
        self._asked.discard(path)
        self._icons[path] = QIcon(QPixmap.fromImage(image))
        while len(self._icons) > MAX_THUMBNAILS:
            self._icons.popitem(last=False)
        for page, rows in self._pages.items():
            for n, item in enumerate(rows):
                if item.path == path:
                    index = self.index(page * PAGE_SIZE + n, 0)
                    self.dataChanged.emit(index, index, [Qt.ItemDataRole.DecorationRole])

    # -- paging ---------------------------------------------------------------------------

    def item_at(self, row: int) -> ItemView | None:
        """The item at ``row`` if its page is loaded; otherwise asks for the page and returns None."""
        page = row // PAGE_SIZE
        rows = self._pages.get(page)
        if rows is None:
            self._request(page)
            return None
        self._pages.move_to_end(page)
        offset = row - page * PAGE_SIZE
        return rows[offset] if offset < len(rows) else None

    def _request(self, page: int) -> None:
        if self.job is None or page in self._requested:
            return
        self._requested.add(page)
        self.facade.fetch_items(self.job.id, page * PAGE_SIZE, PAGE_SIZE)

    @Slot(int, int, list)
    def _on_page(self, job_id: int, offset: int, rows: list[ItemView]) -> None:
        if self.job is None or job_id != self.job.id:
            return  # an answer for a job that is no longer shown
        page = offset // PAGE_SIZE
        self._requested.discard(page)
        self._pages[page] = rows
        self._pages.move_to_end(page)
        while len(self._pages) > MAX_PAGES:
            self._pages.popitem(last=False)
        first, last = offset, min(self._rows, offset + PAGE_SIZE) - 1
        if last >= first:
            self.dataChanged.emit(self.index(first, 0), self.index(last, len(self.COLUMNS) - 1))

    def show_job(self, job: JobSummary | None) -> None:
        """Show another job (reset) or the same one re-read with fresh counts (pages are re-fetched)."""
        rows = 0 if job is None else job.total + job.skipped
        if job is None or self.job is None or job.id != self.job.id:
            self.beginResetModel()
            self.job, self._rows = job, rows
            self._pages.clear()
            self._requested.clear()
            self.endResetModel()
            return
        if job is self.job:
            return  # the facade did not re-read it: nothing shown for this job changed
        self.job = job
        if rows != self._rows:
            self.beginResetModel()
            self._rows = rows
            self.endResetModel()
        for page in list(self._pages):
            self._request(page)


class QueueView(QWidget):
    """The queue table with job and item actions."""

    openSubtitles = Signal(str)  # a finished video's path, for the subtitle editor

    def __init__(self, facade: EngineFacade, parent: QWidget | None = None):
        super().__init__(parent)
        self.facade = facade
        self.model = QueueModel(facade, self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(QueueModel.PROGRESS, ProgressDelegate(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(QUEUE_THUMB.height() + 4)
        self.table.setIconSize(QUEUE_THUMB)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(0, 260)
        header.resizeSection(1, 110)
        header.resizeSection(2, 90)
        header.resizeSection(QueueModel.PROGRESS, 120)
        header.resizeSection(QueueModel.ERROR, 260)
        header.setStretchLastSection(True)
        self.table.doubleClicked.connect(lambda _: self.open_file())
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self._tracks_menu: tuple[int, QMenu] | None = None  # item id, its "Audio track" menu awaiting the streams
        facade.audioTracks.connect(self._fill_tracks)

        self.title = QLabel(self.tr("Select a job to see its items."), self)
        self.pause_button = QPushButton(self.tr("Pause job"), self)
        self.resume_button = QPushButton(self.tr("Resume job"), self)
        self.retry_failed_button = QPushButton(self.tr("Retry failed"), self)
        self.cancel_button = QPushButton(self.tr("Cancel job"), self)
        self.retry_item_button = QPushButton(self.tr("Retry item"), self)
        self.open_button = QPushButton(self.tr("Open file"), self)
        self.subtitles_button = QPushButton(self.tr("Subtitles…"), self)
        self.subtitles_button.setToolTip(self.tr("Read and fix the subtitles beside the video, with playback"))
        self.folder_button = QPushButton(self.tr("Show in folder"), self)
        self.pause_button.clicked.connect(lambda: self._job_action(self.facade.pause))
        self.resume_button.clicked.connect(lambda: self._job_action(self.facade.resume))
        self.retry_failed_button.clicked.connect(lambda: self._job_action(self.facade.retry_job))
        self.cancel_button.clicked.connect(self.cancel_job)
        self.retry_item_button.clicked.connect(self.retry_item)
        self.open_button.clicked.connect(self.open_file)
        self.subtitles_button.clicked.connect(self._open_subtitles)
        self.folder_button.clicked.connect(self.show_in_folder)

        buttons = QHBoxLayout()
        for b in (self.pause_button, self.resume_button, self.retry_failed_button, self.cancel_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        for b in (self.retry_item_button, self.subtitles_button, self.open_button, self.folder_button):
            buttons.addWidget(b)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(self.title)
        layout.addLayout(buttons)
        layout.addWidget(self.table)
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self._update_buttons()

    def show_job(self, job: JobSummary | None) -> None:
        self.model.show_job(job)
        if job is None:
            self.title.setText(self.tr("Select a job to see its items."))
        else:
            failure = problem(job.error_code, job.error) if job.error else None
            self.title.setText(f"<b>{Path(job.folder).name or job.folder}</b> — {job.folder}"
                               + (f"  <span style='color:{ink('error')}'>{html.escape(failure.cell())}</span>" if failure else ""))
            self.title.setToolTip(failure.details() if failure else "")
        self._update_buttons()

    def _update_buttons(self) -> None:
        job = self.model.job
        item = self.selected_item()
        has_job = job is not None
        self.pause_button.setEnabled(has_job and not job.paused)  # type: ignore[union-attr]
        self.resume_button.setEnabled(has_job and job.paused)  # type: ignore[union-attr]
        self.retry_failed_button.setEnabled(has_job and job.failed > 0)  # type: ignore[union-attr]
        self.cancel_button.setEnabled(has_job)
        self.retry_item_button.setEnabled(item is not None and item.status == ItemState.FAILED)
        self.open_button.setEnabled(item is not None)
        self.subtitles_button.setEnabled(item is not None and item.kind in SUBTITLED_KINDS
                                         and item.status in (ItemState.COMPLETED, ItemState.SKIPPED, ItemState.REVIEW))
        self.folder_button.setEnabled(item is not None)

    def _job_action(self, action: Any) -> None:
        if self.model.job is not None:
            action(self.model.job.id)

    def selected_item(self) -> ItemView | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.item_at(rows[0].row()) if rows else None

    def _context_menu(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        item = self.model.item_at(index.row()) if index.isValid() else None
        if item is not None:
            self.item_menu(item).popup(self.table.viewport().mapToGlobal(pos))

    def item_menu(self, item: ItemView) -> QMenu:
        """The item's context menu; its "Audio track" list arrives from the file's header off the GUI thread."""
        menu = QMenu(self)
        menu.addAction("Retry item", lambda: self.facade.retry_item(item.id)).setEnabled(item.status == ItemState.FAILED)
        menu.addAction("Open file", lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(item.path)))
        menu.addAction("Show in folder", lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(Path(item.path).parent))))
        tracks = menu.addMenu("Audio track")
        if item.kind not in SUBTITLED_KINDS or item.status == ItemState.SKIPPED:
            tracks.setEnabled(False)
            return menu
        tracks.addAction("Reading the file's audio tracks…").setEnabled(False)
        self._tracks_menu = (item.id, tracks)
        self.facade.audio_tracks(item.id)
        return menu

    @Slot(int, object)
    def _fill_tracks(self, item_id: int, choice: AudioChoice | None) -> None:
        if self._tracks_menu is None or self._tracks_menu[0] != item_id:
            return  # the answer for a menu that is no longer open
        menu = self._tracks_menu[1]
        self._tracks_menu = None
        menu.clear()
        if choice is None:
            menu.addAction("No audio track").setEnabled(False)
            return
        chosen = choice.stream.track if choice.reason == "chosen" else 0
        rule = "" if chosen else f" (now {choice.stream.label()})"
        entries = [(0, f"Choose automatically{rule}")] + [(s.track, s.label()) for s in choice.streams]
        for track, label in entries:
            action = menu.addAction(label, lambda track=track: self.facade.set_audio_track(item_id, track))
            action.setCheckable(True)
            action.setChecked(track == chosen)

    def retry_item(self) -> None:
        item = self.selected_item()
        if item is not None:
            self.facade.retry_item(item.id)

    def cancel_job(self) -> None:
        job = self.model.job
        if job is None:
            return
        answer = QMessageBox.question(self, self.tr("Cancel job"),
                                      self.tr("Remove the job for {folder} and its work in progress?\n"
                                              "Files next to your media are not touched.").format(folder=job.folder))

        if answer == QMessageBox.StandardButton.Yes:
            self.facade.cancel(job.id)

    def _open_subtitles(self) -> None:
        item = self.selected_item()
        if item is not None:
            self.openSubtitles.emit(item.path)

    def open_file(self) -> None:
        item = self.selected_item()
        if item is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(item.path))

    def show_in_folder(self) -> None:
        item = self.selected_item()
        if item is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(Path(item.path).parent)))
