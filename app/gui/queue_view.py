"""The queue of the selected job: one row per item, fetched a page at a time.

A library folder can hold tens of thousands of files, so the model knows only the row
count up front and asks the facade for a page when the view first paints a row of it.
A few recently used pages are cached; when the job changed, the pages on screen are
re-fetched at once and the others when painted again. Rows of pages not loaded yet show
a placeholder until their page arrives.
"""

from __future__ import annotations

import html
import logging
from collections import OrderedDict
from functools import partial
from pathlib import Path
from typing import Any, Callable, Sequence

from PySide6.QtCore import QModelIndex, QPoint, QSize, Qt, Signal, Slot
from PySide6.QtGui import QColor, QIcon, QImage, QPainter, QPixmap
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QMenu, QMessageBox, QPlainTextEdit,
                               QPushButton, QStyledItemDelegate, QStyleOptionViewItem, QTableView, QVBoxLayout, QWidget)

from app.codes import REDONE_RESULTS
from app.gui.table_model import ALIGNMENT, CENTRED, DECORATION, DISPLAY, TOOLTIP, ColumnsModel, Index
from app.gui.activity import UNFINISHED
from app.gui.facade import EngineFacade
from app.gui.open_file import open_with_desktop
from app.gui.queue_rows import AUDIO, ERROR, NOTE, PROGRESS, QueueRow, RowCache
from app.gui.theme import ACCENTS, ink
from app.gui.thumbnails import ThumbnailLoader
from app.gui.translations import QT_TRANSLATE_NOOP, code_words
from app.gui.facade.records import AudioChoice, ItemState, ItemView, JobSummary
from app.shown_names import readable
from app.status_words import problem

log = logging.getLogger(__name__)

SUBTITLED_KINDS = ("video", "audio")  # the kinds whose results the subtitle editor opens
QUEUE_THUMB = QSize(40, 30)
MAX_THUMBNAILS = 600  # a few screens of a photo job; older ones are decoded again when scrolled back to

# A page is a little more than a screen of rows: while a job runs, the pages on screen
# are re-read after every change, and a 200-row page cost the facade's thread ~8 ms of
# Python (holding the GIL the window waits for) to refresh the ~20 rows a person sees.
PAGE_SIZE = 50
MAX_PAGES = 32  # 1,600 rows kept
PROGRESS_ROLE = int(Qt.ItemDataRole.UserRole) + 1  # the Progress cell's percent, for its delegate's bar



def changed_runs(old: Sequence[QueueRow], new: Sequence[QueueRow]) -> list[tuple[int, int]]:
    """``(first, last)`` offsets of each run of rows that differ between two reads of a page."""
    runs: list[tuple[int, int]] = []
    for n in range(max(len(old), len(new))):
        if n < len(old) and n < len(new) and (old[n] is new[n] or old[n] == new[n]):
            continue
        if runs and runs[-1][1] == n - 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


class QueueModel(ColumnsModel):
    """Rows of the shown job, a page at a time; cell words come ready-made from :mod:`app.gui.queue_rows`.

    While a job runs its pages are re-read often. Only the pages on screen are re-read
    at once (``visible_rows``); other cached pages are marked stale and re-read when
    painted again. A re-read emits ``dataChanged`` only for the rows that changed, and a
    job that grew gets rows inserted, not a model reset (which would drop the view's
    scroll position and repaint everything).
    """

    COLUMNS = (QT_TRANSLATE_NOOP("Columns", "Item"), QT_TRANSLATE_NOOP("Columns", "Stage"),
               QT_TRANSLATE_NOOP("Columns", "Status"), QT_TRANSLATE_NOOP("Columns", "Progress"),
               QT_TRANSLATE_NOOP("Columns", "Audio"), QT_TRANSLATE_NOOP("Columns", "Error"),
               QT_TRANSLATE_NOOP("Columns", "Note"))
    PROGRESS = PROGRESS
    AUDIO = AUDIO
    ERROR = ERROR
    NOTE = NOTE

    def __init__(self, facade: EngineFacade, parent: Any = None):
        super().__init__(parent)
        self.facade = facade
        self.job: JobSummary | None = None
        self.visible_rows: Callable[[], tuple[int, int]] | None = None  # first, last row on screen (the view sets it)
        self._rows = 0
        self._pages: OrderedDict[int, list[QueueRow]] = OrderedDict()
        self._stale: set[int] = set()
        self._requested: set[int] = set()
        self._format = RowCache()  # runs on the facade's worker thread
        self._icons: OrderedDict[str, QIcon] = OrderedDict()  # image path → its thumbnail, newest last
        self._asked: set[str] = set()
        self.thumbnails = ThumbnailLoader(QUEUE_THUMB, self)
        self.thumbnails.ready.connect(self._thumbnail)
        facade.jobs.itemsPage.connect(self._on_page)

    # -- Qt model -------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else self._rows

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid():
            return None
        return self._value(self.row_at(index.row()), index.column(), role)

    def multiData(self, index: Index, roleDataSpan: Any) -> None:
        """Every role the delegate asks of a cell in one call (Qt would call ``data`` once per role)."""
        if not index.isValid():
            return
        row, col = self.row_at(index.row()), index.column()
        for role_data in roleDataSpan:
            role_data.setData(self._value(row, col, role_data.role()))

    def _value(self, row: QueueRow | None, col: int, role: int) -> Any:
        if row is None:
            return "…" if role == DISPLAY and col == 0 else None
        if role == DISPLAY:
            return row.display[col]
        if role == TOOLTIP:
            return row.tooltips[col]
        if role == PROGRESS_ROLE and col == PROGRESS:
            return row.progress
        if role == ALIGNMENT and col == PROGRESS:
            return CENTRED
        if role == DECORATION and col == 0 and row.item.kind == "image":
            return self._icon(row.item.path)
        return None

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
            for n, row in enumerate(rows):
                if row.item.path == path:
                    index = self.index(page * PAGE_SIZE + n, 0)
                    self.dataChanged.emit(index, index, [DECORATION])

    # -- paging ---------------------------------------------------------------------------

    def item_at(self, row: int) -> ItemView | None:
        """The item at ``row`` if its page is loaded; otherwise asks for the page and returns None."""
        shown = self.row_at(row)
        return None if shown is None else shown.item

    def row_at(self, row: int) -> QueueRow | None:
        """The shown row at ``row`` if its page is loaded (a stale page is asked for again); else asks and returns None."""
        page = row // PAGE_SIZE
        rows = self._pages.get(page)
        if rows is None or page in self._stale:
            self._request(page)
            if rows is None:
                return None
        self._pages.move_to_end(page)
        offset = row - page * PAGE_SIZE
        return rows[offset] if offset < len(rows) else None

    def _request(self, page: int) -> None:
        if self.job is None or page in self._requested:
            return
        self._requested.add(page)
        self.facade.jobs.fetch_items(self.job.id, page * PAGE_SIZE, PAGE_SIZE, self._format)

    @Slot(int, int, list)
    def _on_page(self, job_id: int, offset: int, rows: list[QueueRow]) -> None:
        if self.job is None or job_id != self.job.id:
            return  # an answer for a job that is no longer shown
        page = offset // PAGE_SIZE
        self._requested.discard(page)
        self._stale.discard(page)
        old = self._pages.get(page)
        self._pages[page] = rows
        self._pages.move_to_end(page)
        while len(self._pages) > MAX_PAGES:
            self._stale.discard(self._pages.popitem(last=False)[0])
        runs = [(0, PAGE_SIZE - 1)] if old is None else changed_runs(old, rows)
        for first, last in runs:
            first, last = offset + first, min(self._rows - 1, offset + last)
            if last >= first:
                self.dataChanged.emit(self.index(first, 0), self.index(last, len(self.COLUMNS) - 1))

    def show_job(self, job: JobSummary | None) -> None:
        """Show another job (reset) or the same one re-read with fresh counts (pages on screen are re-read)."""
        rows = 0 if job is None else job.total + job.skipped
        if job is None or self.job is None or job.id != self.job.id:
            self.beginResetModel()
            self.job, self._rows = job, rows
            self._pages.clear()
            self._stale.clear()
            self._requested.clear()
            self.endResetModel()
            return
        if job is self.job:
            return  # the facade did not re-read it: nothing shown for this job changed
        self.job = job
        if rows > self._rows:
            self.beginInsertRows(QModelIndex(), self._rows, rows - 1)
            self._rows = rows
            self.endInsertRows()
        elif rows < self._rows:
            self.beginRemoveRows(QModelIndex(), rows, self._rows - 1)
            self._rows = rows
            self.endRemoveRows()
        self._stale.update(self._pages)
        for page in self._pages_on_screen():
            self._request(page)

    def _pages_on_screen(self) -> list[int]:
        """The cached pages the view shows now (every cached page when no view said what it shows)."""
        if self.visible_rows is None:
            return list(self._pages)
        first, last = self.visible_rows()
        return [page for page in self._pages if first // PAGE_SIZE <= page <= max(first, last) // PAGE_SIZE]


class ProgressCellDelegate(QStyledItemDelegate):
    """The Progress cell: its text, with a bar over ``percent`` of the cell's width.

    The bar is one ``fillRect`` after Qt's own painting of the cell (background,
    selection, text), translucent so the percentage under it stays readable. A gradient
    background brush looked cheaper but Qt's item views paint such a brush across the
    whole cell whatever its stops say (every bar looked full).
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.fill = QColor(ACCENTS["info"])
        self.fill.setAlpha(110)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        super().paint(painter, option, index)
        percent = index.data(PROGRESS_ROLE)
        if percent:
            bar = option.rect.adjusted(2, 3, -2, -3)
            bar.setWidth(round(bar.width() * min(100, int(percent)) / 100))
            painter.fillRect(bar, self.fill)


class QueueView(QWidget):
    """The queue table with job and item actions."""

    openSubtitles = Signal(object)  # a finished video's path (a str as Python has it: Qt would drop undecodable bytes)

    def __init__(self, facade: EngineFacade, parent: QWidget | None = None):
        super().__init__(parent)
        self.facade = facade
        self.model = QueueModel(facade, self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(QueueModel.PROGRESS, ProgressCellDelegate(self.table))
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
        header.resizeSection(2, 130)  # "Transcript only", "In der Warteschlange" unwrapped
        header.resizeSection(QueueModel.PROGRESS, 120)
        header.resizeSection(AUDIO, 170)  # "英语（自动识别）", "English (detected)" whole
        header.resizeSection(QueueModel.ERROR, 260)
        header.setStretchLastSection(True)
        self.model.visible_rows = self.visible_rows
        self.table.doubleClicked.connect(lambda _: self.open_file())
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self._tracks_menu: tuple[int, QMenu] | None = None  # item id, its "Audio track" menu awaiting the streams
        facade.jobs.audioTracks.connect(self._fill_tracks)

        self.title = QLabel(self.tr("Select a job to see its items."), self)
        self.pause_button = QPushButton(self.tr("Pause job"), self)
        self.resume_button = QPushButton(self.tr("Resume job"), self)
        self.retry_failed_button = QPushButton(self.tr("Retry failed"), self)
        self.cancel_button = QPushButton(self.tr("Cancel job"), self)
        self.translate_again_button = QPushButton(self.tr("Translate again"), self)
        self.translate_again_button.setToolTip(self.tr(
            "Translate the items that got no translation again, with the translator set now (Settings → Models)"))
        self.retry_item_button = QPushButton(self.tr("Retry item"), self)
        self.open_button = QPushButton(self.tr("Open file"), self)
        self.subtitles_button = QPushButton(self.tr("Subtitles…"), self)
        self.subtitles_button.setToolTip(self.tr("Read and fix the subtitles beside the video, with playback"))
        self.folder_button = QPushButton(self.tr("Show in folder"), self)
        self.pause_button.clicked.connect(lambda: self._job_action(self.facade.jobs.pause))
        self.resume_button.clicked.connect(lambda: self._job_action(self.facade.jobs.resume))
        self.retry_failed_button.clicked.connect(lambda: self._job_action(self.facade.jobs.retry_job))
        self.cancel_button.clicked.connect(self.cancel_job)
        self.translate_again_button.clicked.connect(lambda: self._job_action(self.facade.jobs.translate_again))
        self.retry_item_button.clicked.connect(self.retry_item)
        self.open_button.clicked.connect(self.open_file)
        self.subtitles_button.clicked.connect(self._open_subtitles)
        self.folder_button.clicked.connect(self.show_in_folder)

        buttons = QHBoxLayout()
        for b in (self.pause_button, self.resume_button, self.retry_failed_button, self.translate_again_button,
                  self.cancel_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        for b in (self.retry_item_button, self.subtitles_button, self.open_button, self.folder_button):
            buttons.addWidget(b)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        self.details = QPlainTextEdit(self)  # the selected item in full: path, problem (with its code), note, audio
        self.details.setReadOnly(True)
        self.details.setMaximumHeight(150)  # a problem's sentence, its message and what to do, unscrolled
        self.details.setPlaceholderText(self.tr("Select an item to read its details."))
        layout.addWidget(self.title)
        layout.addLayout(buttons)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.details)
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self.model.dataChanged.connect(lambda *_: self._show_details())
        facade.jobs.pausedAllChanged.connect(lambda _: self._update_buttons())
        self._update_buttons()

    def visible_rows(self) -> tuple[int, int]:
        """First and last row on screen; none (-1, -1) while the table is hidden behind another tab."""
        if not self.table.isVisible():
            return -1, -1
        top = self.table.rowAt(0)
        bottom = self.table.rowAt(self.table.viewport().height() - 1)
        return max(0, top), bottom if bottom >= 0 else self.model.rowCount() - 1

    def show_job(self, job: JobSummary | None) -> None:
        self.model.show_job(job)
        if job is None:
            self.title.setText(self.tr("Select a job to see its items."))
        else:
            failure = problem(job.error_code, job.error, code_words) if job.error else None
            folder = readable(job.folder)
            self.title.setText(f"<b>{html.escape(Path(folder).name or folder)}</b> — {html.escape(folder)}"
                               + (f"  <span style='color:{ink('error')}'>{html.escape(failure.cell())}</span>" if failure else ""))
            self.title.setToolTip(failure.details() if failure else "")
        self._update_buttons()

    def _show_details(self) -> None:
        """The selected row's words in full (a cell shows one line; its codes are here only)."""
        rows = self.table.selectionModel().selectedRows()
        row = self.model.row_at(rows[0].row()) if rows else None
        text = "" if row is None else "\n".join(tip for tip in (row.tooltips[0], row.tooltips[AUDIO]) if tip)
        if self.details.toPlainText() != text:
            self.details.setPlainText(text)

    def _update_buttons(self) -> None:
        self._show_details()
        job = self.model.job
        item = self.selected_item()
        has_job = job is not None
        unfinished = job is not None and job.status in UNFINISHED
        self.pause_button.setEnabled(job is not None and unfinished and not job.paused)
        # under "Pause all" a job's own Resume would change nothing: Resume all is the way
        self.resume_button.setEnabled(job is not None and unfinished and job.paused and not self.facade.jobs.all_paused)
        self.resume_button.setToolTip(self.tr("Everything is paused: use Resume all") if self.facade.jobs.all_paused else "")
        self.retry_failed_button.setEnabled(job is not None and job.failed > 0)
        self.translate_again_button.setEnabled(job is not None and any(job.results.get(r) for r in REDONE_RESULTS))
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
        menu.addAction(self.tr("Retry item"), lambda: self.facade.jobs.retry_item(item.id)).setEnabled(item.status == ItemState.FAILED)
        menu.addAction(self.tr("Translate again"), lambda: self.facade.jobs.translate_again(item_id=item.id)).setEnabled(
            item.status == ItemState.COMPLETED and item.result in REDONE_RESULTS)
        menu.addAction(self.tr("Open file"), lambda: self.open_path(item.path))
        menu.addAction(self.tr("Show in folder"), lambda: self.open_path(str(Path(item.path).parent)))
        tracks = menu.addMenu(self.tr("Audio track"))
        if item.kind not in SUBTITLED_KINDS or item.status == ItemState.SKIPPED:
            tracks.setEnabled(False)
            return menu
        tracks.addAction("Reading the file's audio tracks…").setEnabled(False)
        self._tracks_menu = (item.id, tracks)
        self.facade.jobs.audio_tracks(item.id)
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
            action = menu.addAction(label, partial(self.facade.jobs.set_audio_track, item_id, track))
            action.setCheckable(True)
            action.setChecked(track == chosen)

    def retry_item(self) -> None:
        item = self.selected_item()
        if item is not None:
            self.facade.jobs.retry_item(item.id)

    def cancel_job(self) -> None:
        job = self.model.job
        if job is None:
            return
        answer = QMessageBox.question(self, self.tr("Cancel job"),
                                      self.tr("Remove the job for {folder} and its work in progress?\n"
                                              "Files next to your media are not touched.").format(folder=readable(job.folder)))

        if answer == QMessageBox.StandardButton.Yes:
            self.facade.jobs.cancel(job.id)

    def _open_subtitles(self) -> None:
        item = self.selected_item()
        if item is not None:
            self.openSubtitles.emit(item.path)

    def open_file(self) -> None:
        item = self.selected_item()
        if item is not None:
            self.open_path(item.path)

    def show_in_folder(self) -> None:
        item = self.selected_item()
        if item is not None:
            self.open_path(str(Path(item.path).parent))

    def open_path(self, path: str) -> bool:
        """Hand ``path`` to the desktop's application for it; say so when there is none."""
        box = open_with_desktop(self, path)
        if box is not None:
            self.no_launcher = box
        return box is None
