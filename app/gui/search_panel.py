"""The Search tab: one query box over images and dialogue.

Results follow the query as it is typed (after a short pause in typing); the facade
shows only the newest query's answer, so a slow search for an older prefix never
replaces it. Images come back as a thumbnail grid. Thumbnails are decoded and scaled on a
thread pool with ``QImageReader`` (a ``QImage`` may be built off the GUI thread, a
``QPixmap`` may not), so a grid of large photos never stalls the window; what Qt has no
reader for (HEIC, AVIF, camera raw files) goes through the engine's own image loader
(:mod:`app.gui.thumbnails`). Dialogue hits are lines with their time; double-click opens
the video in the subtitle editor at that line (``openCue``).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from PySide6.QtCore import QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QIcon, QImage, QPixmap, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QLineEdit, QListView, QListWidget, QListWidgetItem, QMessageBox,
                               QPushButton, QSplitter, QVBoxLayout, QWidget)

from app.gui.facade.records import (MATCH_MEANING, MATCH_PICTURE, MATCH_TRANSLATED_QUERY, MATCH_TRANSLATION,
                                    SearchResult)
from app.gui.facade import EngineFacade
from app.gui.open_file import open_with_desktop
from app.gui.thumbnails import ThumbnailLoader
from app.shown_names import escape, one_line, unescape

if TYPE_CHECKING:  # the model list is read off the GUI thread, where model_choice is imported
    from app.gui.facade.records import ModelRow

log = logging.getLogger(__name__)

THUMB = QSize(160, 120)
TYPING_PAUSE_MS = 300
"""A query is sent once typing stops this long; Return sends it at once."""
PathRole = Qt.ItemDataRole.UserRole + 1
StartRole = Qt.ItemDataRole.UserRole + 2


def format_time(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


class SearchPanel(QWidget):
    openCue = Signal(object, float)  # video path (a Python str: Qt would drop undecodable bytes), seconds

    def __init__(self, facade: EngineFacade, parent: QWidget | None = None):
        super().__init__(parent)
        self.facade = facade
        self.query = QLineEdit(self)
        self._hint([])
        facade.models.modelsListed.connect(self._hint)
        facade.started.connect(facade.models.list_models)
        self.query.setClearButtonEnabled(True)
        self.search_button = QPushButton(self.tr("Search"), self)
        self.similar_button = QPushButton(self.tr("Find similar"), self)
        self.similar_button.setToolTip(self.tr("Images that look like the selected one"))
        self.status = QLabel(self)
        self.images_label = QLabel(self.tr("Images"), self)
        self.dialogue_label = QLabel(self.tr("Dialogue"), self)
        self.empty = QLabel(self)  # instead of the result lists when nothing matches: an empty grid looks like a hang
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.hide()

        self.images = QStandardItemModel(self)
        self.grid = QListView(self)
        self.grid.setModel(self.images)
        self.grid.setViewMode(QListView.ViewMode.IconMode)
        self.grid.setIconSize(THUMB)
        self.grid.setGridSize(QSize(THUMB.width() + 24, THUMB.height() + 40))
        self.grid.setResizeMode(QListView.ResizeMode.Adjust)
        self.grid.setMovement(QListView.Movement.Static)
        self.grid.setUniformItemSizes(True)
        self.grid.setWordWrap(True)
        self.grid.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.lines = QListWidget(self)

        self.no_launcher: QMessageBox | None = None  # the box a picture the desktop cannot open brought up
        self._placeholder = QPixmap(THUMB)
        self._placeholder.fill(Qt.GlobalColor.lightGray)
        self._items_by_path: dict[str, list[QStandardItem]] = {}
        self.thumbnails = ThumbnailLoader(THUMB, self)
        self.thumbnails.ready.connect(self._thumbnail)

        top = QHBoxLayout()
        top.addWidget(self.query, 1)
        top.addWidget(self.search_button)
        top.addWidget(self.similar_button)
        self.images_box, self.dialogue_box = images_box, dialogue_box = QWidget(self), QWidget(self)
        il = QVBoxLayout(images_box)
        il.setContentsMargins(0, 0, 0, 0)
        il.addWidget(self.images_label)
        il.addWidget(self.grid)
        dl = QVBoxLayout(dialogue_box)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addWidget(self.dialogue_label)
        dl.addWidget(self.lines)
        self.results = splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(images_box)
        splitter.addWidget(dialogue_box)
        splitter.setSizes([320, 160])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.status)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.empty, 1)

        self._typing = QTimer(self)
        self._typing.setSingleShot(True)
        self._typing.setInterval(TYPING_PAUSE_MS)
        self._typing.timeout.connect(self.run_search)
        self.query.textEdited.connect(lambda _: self._typing.start())
        self.query.returnPressed.connect(self.run_search)
        self.search_button.clicked.connect(self.run_search)
        self.similar_button.clicked.connect(self.find_similar)
        self.grid.doubleClicked.connect(lambda index: self.open_image(unescape(index.data(PathRole) or "")))
        self.lines.itemDoubleClicked.connect(self.open_line)
        self.grid.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        facade.search.searchResults.connect(self.show_results)
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.similar_button.setEnabled(self.selected_image() is not None)

    @Slot(list)
    def _hint(self, rows: Sequence[ModelRow]) -> None:
        """Pictures are found by what they show only with a visual model: without one the hint names words to find."""
        if any(row.role == "visual" and row.active and row.installed for row in rows):
            self.query.setPlaceholderText(self.tr("Search images and dialogue — “cat wearing sunglasses”, “invoice 4471”…"))
        else:
            self.query.setPlaceholderText(self.tr("Search images and dialogue — “invoice 4471”, “train to Berlin”…"))

    def run_search(self) -> None:
        self._typing.stop()
        text = self.query.text().strip()
        if text:
            self.status.setText(self.tr("Searching for “{query}”…").format(query=text))
            self.facade.search.query(text, None, "all")

    def selected_image(self) -> str | None:
        rows = self.grid.selectionModel().selectedIndexes()
        return unescape(rows[0].data(PathRole)) if rows else None

    def find_similar(self) -> None:
        path = self.selected_image()
        if path:
            self.status.setText(self.tr("Images similar to {name}…").format(name=Path(path).name))
            self.facade.search.query(None, Path(path), "image")

    @Slot(str, object)
    def show_results(self, label: str, results: Sequence[SearchResult]) -> None:
        images = [r for r in results if r.kind == "image"]
        lines = [r for r in results if r.kind == "dialogue"]
        self.images.clear()
        self._items_by_path.clear()
        for r in images:
            path = r.path
            item = QStandardItem(QIcon(self._placeholder), one_line(Path(path).name))
            item.setData(escape(path), PathRole)  # Qt keeps text only: a name's undecodable bytes travel escaped
            item.setToolTip(f"{one_line(path)}\n{r.snippet}\n{self.why(r)}".strip())
            item.setEditable(False)
            self.images.appendRow(item)
            self._items_by_path.setdefault(path, []).append(item)
            self.thumbnails.load(path)
        self.lines.clear()
        for r in lines:
            start = float(r.start or 0.0)
            entry = QListWidgetItem(f"{format_time(start)}   {r.snippet}   — {one_line(Path(r.path).name)}")
            entry.setData(PathRole, escape(r.path))
            entry.setData(StartRole, start)
            entry.setToolTip(f"{one_line(r.path)}\n{self.why(r)}")
            self.lines.addItem(entry)
        self.images_label.setText(self.tr("Images (%n)", "", len(images)))
        self.dialogue_label.setText(self.tr("Dialogue (%n)", "", len(lines)))
        self.status.setText(self.tr("%n result(s) for “{query}”", "", len(results)).format(query=label) if results else "")
        self.empty.setText(self.tr("Nothing matches “{query}”.").format(query=label))
        self.empty.setVisible(not results)
        self.results.setVisible(bool(results))
        self.images_box.setVisible(bool(images) or not lines)
        self.dialogue_box.setVisible(bool(lines) or not images)
        self._update_buttons()

    def why(self, result: SearchResult) -> str:
        """Why a result was found (:data:`app.engine.search.MATCHES`), as its tooltip says it."""
        text = one_line(result.match_text)
        if result.match == MATCH_TRANSLATION:
            return self.tr("Matched the translation of “{text}”").format(text=text)
        if result.match == MATCH_TRANSLATED_QUERY:
            return self.tr("Matched the query translated as “{text}”").format(text=text)
        if result.match == MATCH_MEANING:
            return self.tr("Matched by meaning")
        if result.match == MATCH_PICTURE:
            return self.tr("Matched by what the picture shows")
        return self.tr("Matched the words")

    @Slot(str, QImage)
    def _thumbnail(self, path: str, image: QImage) -> None:
        pixmap = QPixmap.fromImage(image)
        for item in self._items_by_path.get(path, []):
            item.setIcon(QIcon(pixmap))

    def open_image(self, path: str | None) -> None:
        """Open a found picture; a desktop with no application for it gets a box saying so (not silence)."""
        if path:
            self.no_launcher = open_with_desktop(self, path)

    def open_line(self, entry: QListWidgetItem) -> None:
        self.openCue.emit(unescape(entry.data(PathRole)), float(entry.data(StartRole) or 0.0))
