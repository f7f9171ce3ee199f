"""The subtitle editor: a finished video's cues beside its playback, edited and saved as the person's revision.

Playback is QtMultimedia (PySide6-Addons, with Qt's own FFmpeg: ~24 MB in the
package). The subtitle is drawn over the picture by the editor itself, from the cues
being edited, so a fix shows the moment it is typed. Clicking a cue seeks there; while
playing, the current cue follows the picture. Reading and saving go through the facade
(off the GUI thread); saving writes every subtitle file of the video through
:mod:`app.engine.subtitle_edits`, so later runs never overwrite the edit.
"""

from __future__ import annotations

import bisect
import html
import logging
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from PySide6.QtCore import QEvent, QObject, QSizeF, Qt, Slot
from PySide6.QtGui import (QCloseEvent, QColor, QFont, QGuiApplication, QKeyEvent, QKeySequence, QResizeEvent, QShortcut,
                           QTextCursor)
from PySide6.QtMultimedia import QAudioOutput, QMediaPlayer
from PySide6.QtMultimediaWidgets import QGraphicsVideoItem
from PySide6.QtWidgets import (QAbstractItemDelegate, QAbstractItemView, QDoubleSpinBox, QFrame, QGraphicsDropShadowEffect, QGraphicsScene,
                               QGraphicsTextItem, QGraphicsView, QHBoxLayout, QHeaderView, QInputDialog, QLabel, QMenu,
                               QMessageBox,
                               QPlainTextEdit, QPushButton, QSlider, QSplitter, QStyledItemDelegate,
                               QStyleOptionViewItem, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app.codes import LINE_REASONS, UNREACHABLE_SERVER, explain
from app.gui.facade.calculations import merge_cues, rename_speaker, shift_cues, split_cue
from app.gui.facade.records import EditCue, SubtitleDocument
from app.gui.facade import EngineFacade
from app.gui.file_urls import file_url
from app.gui.theme import banner_style, tint
from app.gui.translations import code_words
from app.shown_names import one_line

if TYPE_CHECKING:  # the model list is read off the GUI thread, where model_choice is imported
    from app.gui.facade.records import ModelRow

log = logging.getLogger(__name__)

START, END, SPEAKER, ORIGINAL, TRANSLATION = range(5)
AUDIO_STRIP_HEIGHT = 96  # an audio file's "picture": room for a two-line cue


def format_ms(ms: int) -> str:
    seconds, milli = divmod(max(0, int(ms)), 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}.{milli:03d}"


class VideoWithSubtitle(QGraphicsView):
    """The picture with the current cue drawn over its lower part."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setBackgroundBrush(QColor("black"))
        self.video = QGraphicsVideoItem()
        self.video.setSize(QSizeF(640, 360))
        self.scene().addItem(self.video)
        self.subtitle = QGraphicsTextItem()
        self.subtitle.setDefaultTextColor(QColor("white"))
        font = QFont()
        font.setPointSize(18)
        font.setBold(True)
        self.subtitle.setFont(font)
        shadow = QGraphicsDropShadowEffect()
        shadow.setOffset(1.5, 1.5)
        shadow.setBlurRadius(4)
        shadow.setColor(QColor("black"))
        self.subtitle.setGraphicsEffect(shadow)
        self.scene().addItem(self.subtitle)
        self.text = ""
        self.setMinimumSize(320, 180)

    def show_text(self, text: str) -> None:
        self.text = text
        self._place_text()

    def _place_text(self) -> None:
        size = self.video.size()
        self.subtitle.setTextWidth(size.width() * 0.9)
        lines = "<br>".join(html.escape(line) for line in self.text.split("\n"))
        self.subtitle.setHtml(f"<div align='center'>{lines}</div>" if self.text else "")
        height = self.subtitle.boundingRect().height()
        self.subtitle.setPos(size.width() * 0.05, size.height() - height - size.height() * 0.04)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.video.setSize(QSizeF(self.viewport().width(), self.viewport().height()))
        self.scene().setSceneRect(0, 0, self.viewport().width(), self.viewport().height())
        self._place_text()


class CueTextDelegate(QStyledItemDelegate):
    """A cue's text edited in a multi-line box showing every line: Enter keeps it, Shift+Enter starts a new line,
    leaving the box keeps it too. The row grows to the box while it is open, so the box covers no other row."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Any) -> QWidget:
        editor = QPlainTextEdit(parent)
        editor.setTabChangesFocus(True)
        editor.setFrameShape(QFrame.Shape.NoFrame)
        view = parent.parent()
        if isinstance(view, QTableWidget):
            lines = max(3, str(index.data(Qt.ItemDataRole.EditRole) or "").count("\n") + 2)
            view.setRowHeight(index.row(), max(view.rowHeight(index.row()),
                                               editor.fontMetrics().lineSpacing() * lines + 12))
        return editor

    def eventFilter(self, editor: QObject, event: QEvent) -> bool:
        """Enter commits the cell (a multi-line box would otherwise never end by the keyboard); Shift+Enter is a new line."""
        if (isinstance(editor, QPlainTextEdit) and isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier):
            self.commitData.emit(editor)
            self.closeEditor.emit(editor, QAbstractItemDelegate.EndEditHint.NoHint)
            return True
        return super().eventFilter(editor, event)

    def setEditorData(self, editor: QWidget, index: Any) -> None:
        assert isinstance(editor, QPlainTextEdit)
        editor.setPlainText(str(index.data(Qt.ItemDataRole.EditRole) or ""))
        editor.moveCursor(QTextCursor.MoveOperation.End)

    def setModelData(self, editor: QWidget, model: Any, index: Any) -> None:
        assert isinstance(editor, QPlainTextEdit)
        model.setData(index, editor.toPlainText(), Qt.ItemDataRole.EditRole)

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem, index: Any) -> None:
        """The cell, which :meth:`createEditor` made at least three lines tall (its row, not the rows below)."""
        rect = option.rect
        viewport = editor.parent()
        view = viewport.parent() if viewport is not None else None
        if isinstance(view, QTableWidget):  # the row grew in createEditor; the option may predate the new layout
            rect.setHeight(max(rect.height(), view.rowHeight(index.row())))
        editor.setGeometry(rect)


def fit_to_screen(window: QWidget, width: int, height: int) -> None:
    """Size ``window`` to ``width``×``height`` or the screen's free area, whichever is smaller (its frame included)."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        window.resize(width, height)
        return
    free = screen.availableGeometry()
    frame = 40  # the title bar and borders the window manager adds around the window
    window.resize(min(width, free.width() - 16), min(height, free.height() - frame))


class TranscriptEditor(QWidget):
    def __init__(self, facade: EngineFacade, video: Path, start_s: float | None = None, kind: str = "video",
                 parent: QWidget | None = None):
        super().__init__(parent, Qt.WindowType.Window)
        self.facade = facade
        self.video_path = Path(video)
        self.kind = kind
        self.start_ms = None if start_s is None else int(start_s * 1000)
        self.document: SubtitleDocument | None = None
        self.cues: list[EditCue] = []
        #: Cues the translation's quality check left untranslated, by start time (they follow splits and
        #: merges) → the reason; a mark goes when the person edits that cue's translation.
        self.doubtful: dict[int, str] = {}
        self.dirty = False
        self._filling = False
        self.setWindowTitle(self.tr("Subtitles — {name}").format(name=one_line(self.video_path.name)))
        fit_to_screen(self, 1200, 720)

        self.view = VideoWithSubtitle(self)
        self.player = QMediaPlayer(self)
        self.audio = QAudioOutput(self)
        self.player.setAudioOutput(self.audio)
        self.player.setVideoOutput(self.view.video)
        self.play_button = QPushButton(self.tr("Play"), self)
        self.position = QSlider(Qt.Orientation.Horizontal, self)
        self.time_label = QLabel(format_ms(0), self)

        self.banner = QLabel(self)
        self.banner.setWordWrap(True)
        self.banner.hide()
        self.table = QTableWidget(0, 5, self)
        self.table.setHorizontalHeaderLabels([self.tr("Start"), self.tr("End"), self.tr("Speaker"), self.tr("Original"),
                                              self.tr("Translation")])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(ORIGINAL, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(TRANSLATION, QHeaderView.ResizeMode.Stretch)
        self.text_delegate = CueTextDelegate(self.table)
        for column in (ORIGINAL, TRANSLATION):
            self.table.setItemDelegateForColumn(column, self.text_delegate)
        self.split_button = QPushButton(self.tr("Split at playhead"), self)
        self.merge_button = QPushButton(self.tr("Merge with next"), self)
        self.shift = QDoubleSpinBox(self)
        self.shift.setRange(-600.0, 600.0)
        self.shift.setDecimals(2)
        self.shift.setSingleStep(0.1)
        self.shift.setSuffix(" s")
        self.shift_button = QPushButton(self.tr("Shift selected"), self)
        self.rename_button = QPushButton(self.tr("Rename speaker…"), self)
        self.rename_button.setToolTip(self.tr("Give the selected line's speaker a name: every line of theirs takes it"))
        self.rename_button.hide()
        self.retranslate_button = QPushButton(self.tr("Re-translate"), self)
        self.retranslate_button.setToolTip(self.tr("Translate this video again from its transcript with another model"))
        self.retranslate_menu = QMenu(self)
        self.retranslate_button.setMenu(self.retranslate_menu)
        self.save_button = QPushButton(self.tr("Save"), self)
        self.save_button.setShortcut(QKeySequence(QKeySequence.StandardKey.Save))
        self.save_button.setEnabled(False)

        transport = QHBoxLayout()
        transport.addWidget(self.play_button)
        transport.addWidget(self.position, 1)
        transport.addWidget(self.time_label)
        left = QWidget(self)
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.view, 1)
        ll.addLayout(transport)
        tools = QHBoxLayout()
        for widget in (self.split_button, self.merge_button, self.shift, self.shift_button, self.rename_button):
            tools.addWidget(widget)
        tools.addStretch(1)
        tools.addWidget(self.retranslate_button)
        tools.addWidget(self.save_button)
        right = QWidget(self)
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.table, 1)
        rl.addLayout(tools)
        splitter = QSplitter(self)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setSizes([560, 640])
        if kind == "audio":  # no picture: a strip for the current cue above the cues, not a black video area
            splitter.setOrientation(Qt.Orientation.Vertical)
            self.view.setMinimumSize(320, 0)
            self.view.setFixedHeight(AUDIO_STRIP_HEIGHT)
            left.setMaximumHeight(left.sizeHint().height())
            splitter.setSizes([left.sizeHint().height(), 600])
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(splitter, 1)
        if splitter.orientation() == Qt.Orientation.Horizontal and self.minimumSizeHint().width() > self.width():
            splitter.setOrientation(Qt.Orientation.Vertical)  # a narrow screen: the picture above the cues

        self.play_button.clicked.connect(self.toggle_play)
        QShortcut(QKeySequence("Ctrl+Space"), self, self.toggle_play)
        self.position.sliderMoved.connect(self.player.setPosition)
        self.player.durationChanged.connect(lambda ms: self.position.setRange(0, ms))
        self.player.positionChanged.connect(self._position_changed)
        self.player.playbackStateChanged.connect(self._playback_changed)
        self.player.errorOccurred.connect(lambda _e, message: self.show_banner(
            self.tr("This video cannot be played here ({message}); the subtitles can still be edited.").format(
                message=message), "error"))
        self.table.cellClicked.connect(lambda row, _column: self.seek_to_cue(row))
        self.table.itemChanged.connect(self._cell_edited)
        self.split_button.clicked.connect(self.split_at_playhead)
        self.merge_button.clicked.connect(self.merge_with_next)
        self.shift_button.clicked.connect(self.shift_selected)
        self.rename_button.clicked.connect(self.ask_speaker_name)
        self.save_button.clicked.connect(self.save)
        facade.review.subtitlesOpened.connect(self._opened)
        facade.review.subtitlesSaved.connect(self._saved)
        facade.review.subtitlesFailed.connect(self._failed)
        facade.models.modelsListed.connect(self._models_listed)
        self.retranslate_menu.triggered.connect(lambda action: self.retranslate(str(action.data())))
        self.player.setSource(file_url(str(self.video_path)))
        facade.review.open_subtitles(self.video_path)
        facade.models.list_models()

    def _models_listed(self, rows: Sequence[ModelRow]) -> None:
        self.retranslate_menu.clear()
        for row in rows:
            if row.role == "translation" and row.installed:
                label = row.name + (self.tr(" (placeholder: poor translations)") if row.placeholder else "") + (
                    self.tr(" (in use)") if row.active else "")
                self.retranslate_menu.addAction(label).setData(row.name)
        self.retranslate_button.setEnabled(not self.retranslate_menu.isEmpty())

    def retranslate(self, model: str) -> None:
        """A new run of this video that reuses its transcript and translates with ``model``."""
        kind = self.kind
        self.facade.review.retranslate(self.video_path, kind, model)
        self.show_banner(self.tr("Re-translating with {model}: follow it in the queue, then open the subtitles again. "
                                 "Files you edited are not replaced without asking (Review).").format(model=model), "info")

    # -- document -------------------------------------------------------------------------

    @Slot(object)
    def _opened(self, document: SubtitleDocument) -> None:
        if document.video != self.video_path:
            return
        self.document = document
        self.cues = list(document.cues)
        self.doubtful = {self.cues[n - 1].start_ms: reason for n, reason in document.doubtful.items()
                         if 0 < n <= len(self.cues)}
        self.table.setColumnHidden(TRANSLATION, not document.has_translation)
        labelled = any(cue.speaker for cue in self.cues)
        self.table.setColumnHidden(SPEAKER, not labelled)
        # Names live in the files that show them: the bilingual ASS (a style per speaker) and an audio file's text.
        self.rename_button.setVisible(labelled and bool({"bilingual", "transcript_text"} & set(document.files)))
        self._fill()
        self._set_dirty(False)
        if document.untranslated is not None:  # the job asked for a translation and got none: say why, and the way out
            result, detail = document.untranslated
            explanation = explain(result)
            why = (code_words(UNREACHABLE_SERVER).format(server=detail["unreachable"]) if detail.get("unreachable")
                   else code_words(explanation.sentence) if explanation else result)
            self.show_banner(self.tr("No translation: {why} Install a translation model or set a translation server, "
                                     "then choose Translate again in the queue.").format(why=why), "warning")
        if self.doubtful:
            self.show_banner(self.tr("%n line(s) failed the translation check and kept their original text: "
                                     "they are marked in the list. Type their translation and save.", "",
                                     len(self.doubtful)), "warning")
        if self.start_ms is not None:
            self.player.setPosition(self.start_ms)
            self._follow(self.start_ms)
            self.start_ms = None

    def _fill(self) -> None:
        self._filling = True
        self.table.setRowCount(len(self.cues))
        for row, cue in enumerate(self.cues):
            for column, text, editable in ((START, format_ms(cue.start_ms), False), (END, format_ms(cue.end_ms), False),
                                           (SPEAKER, cue.speaker or "", False), (ORIGINAL, cue.original, True),
                                           (TRANSLATION, cue.translation or "", True)):
                item = QTableWidgetItem(text)
                if not editable:
                    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.table.setItem(row, column, item)
            self._mark(row)
        self.table.resizeRowsToContents()
        self._filling = False

    def _mark(self, row: int) -> None:
        """Tint a doubtful cue's translation cell and say why in its tooltip (or clear both)."""
        item = self.table.item(row, TRANSLATION)
        if item is None:
            return
        reason = self.doubtful.get(self.cues[row].start_ms)
        if reason is None:
            item.setData(Qt.ItemDataRole.BackgroundRole, None)
            item.setToolTip("")
            return
        item.setBackground(QColor(tint("warning")))
        item.setToolTip(self.tr("Not translated: this line failed the translation check ({reason}) and kept its "
                                "original text.").format(reason=code_words(LINE_REASONS.get(reason, reason))))

    def _cell_edited(self, item: QTableWidgetItem) -> None:
        if self._filling or item.row() >= len(self.cues):
            return
        cue = self.cues[item.row()]
        if item.column() == ORIGINAL and item.text() != cue.original:
            self.cues[item.row()] = replace(cue, original=item.text())
        elif item.column() == TRANSLATION and item.text() != (cue.translation or ""):
            self.cues[item.row()] = replace(cue, translation=item.text())
            if self.doubtful.pop(cue.start_ms, None) is not None:
                self._filling = True
                self._mark(item.row())
                self._filling = False
                if not self.doubtful:  # the last marked line is fixed: the banner asking for it goes
                    self.banner.hide()
        else:
            return
        self.table.resizeRowToContents(item.row())  # every line of the edited text shows, not only the first
        self._set_dirty(True)
        self._follow(self.player.position())

    def _replace(self, cues: Sequence[EditCue], select: int | None = None) -> None:
        self.cues = list(cues)
        self._fill()
        self._set_dirty(True)
        if select is not None:
            self.table.selectRow(select)
        self._follow(self.player.position())

    def _set_dirty(self, dirty: bool) -> None:
        self.dirty = dirty
        self.save_button.setEnabled(dirty and self.document is not None)
        name = one_line(self.video_path.name) + (" *" if dirty else "")
        self.setWindowTitle(self.tr("Subtitles — {name}").format(name=name))

    def selected_rows(self) -> list[int]:
        return sorted({index.row() for index in self.table.selectionModel().selectedRows()})

    def current_row(self, position_ms: int) -> int | None:
        """The cue shown at ``position_ms``, if any."""
        row = bisect.bisect_right([c.start_ms for c in self.cues], position_ms) - 1
        return row if row >= 0 and position_ms < self.cues[row].end_ms else None

    # -- editing --------------------------------------------------------------------------

    def split_at_playhead(self) -> None:
        position = self.player.position()
        row = self.current_row(position)
        if row is None:
            self.show_banner(self.tr("Move the playhead into the cue to split."), "error")
            return
        try:
            self._replace(split_cue(self.cues, row, position), select=row)
        except ValueError:
            self.show_banner(self.tr("The playhead is too close to the cue's start or end to split there."), "error")

    def merge_with_next(self) -> None:
        rows = self.selected_rows()
        if not rows or rows[0] >= len(self.cues) - 1:
            self.show_banner(self.tr("Select a cue that has a next one to merge with."), "error")
            return
        self._replace(merge_cues(self.cues, rows[0]), select=rows[0])

    def shift_selected(self) -> None:
        rows = self.selected_rows()
        delta = int(round(self.shift.value() * 1000))
        if not rows or not delta:
            self.show_banner(self.tr("Select the cues to move and how far."), "error")
            return
        self._replace(shift_cues(self.cues, delta, rows))
        for row in rows:
            self.table.selectRow(row)

    def ask_speaker_name(self) -> None:
        """Ask for a name for the selected line's speaker (a window that does not hold up the editor)."""
        rows = self.selected_rows()
        speaker = self.cues[rows[0]].speaker if rows else None
        if speaker is None:
            self.show_banner(self.tr("Select a line of the speaker to rename."), "error")
            return
        dialog = QInputDialog(self)
        dialog.setWindowTitle(self.tr("Rename speaker"))
        dialog.setLabelText(self.tr("Name for {speaker}:").format(speaker=speaker))
        dialog.setTextValue(speaker)
        dialog.textValueSelected.connect(lambda name: self.rename_speaker(speaker, name))
        dialog.open()

    def rename_speaker(self, old: str, new: str) -> None:
        """Every line of speaker ``old`` said by ``new``; saved into the files that name speakers."""
        try:
            renamed = rename_speaker(self.cues, old, new)
        except ValueError:
            self.show_banner(self.tr("A speaker needs a name."), "error")
            return
        if renamed != self.cues:
            self._replace(renamed, select=self.selected_rows()[0] if self.selected_rows() else None)

    def save(self) -> None:
        if self.document is None or not self.dirty:
            return
        self.save_button.setEnabled(False)
        self.facade.review.save_subtitles(self.document, list(self.cues))

    @Slot(object)
    def _saved(self, document: SubtitleDocument) -> None:
        if document.video != self.video_path:
            return
        self.document = document
        self._set_dirty(False)
        self.show_banner(self.tr("Saved next to the video. Sidecar will not overwrite your edit: a later run asks "
                                 "in Review first."), "ok")

    @Slot(str, str, str)
    def _failed(self, video: str, code: str, message: str) -> None:
        if Path(video) != self.video_path:
            return
        self.save_button.setEnabled(self.dirty and self.document is not None)
        self.show_banner(self.tr("{message} ({code})").format(message=message, code=code), "error")

    def show_banner(self, text: str, accent: str) -> None:
        self.banner.setText(text)
        self.banner.setStyleSheet(f"QLabel {{ {banner_style(accent)} padding:6px; border-radius:3px; }}")
        self.banner.show()

    # -- playback -------------------------------------------------------------------------

    def toggle_play(self) -> None:
        if self.player.playbackState() == QMediaPlayer.PlaybackState.PlayingState:
            self.player.pause()
        else:
            self.player.play()

    def _playback_changed(self, state: QMediaPlayer.PlaybackState) -> None:
        playing = state == QMediaPlayer.PlaybackState.PlayingState
        self.play_button.setText(self.tr("Pause") if playing else self.tr("Play"))

    def seek_to_cue(self, row: int) -> None:
        if 0 <= row < len(self.cues):
            self.player.setPosition(self.cues[row].start_ms)
            self._follow(self.cues[row].start_ms)

    def _position_changed(self, position: int) -> None:
        if not self.position.isSliderDown():
            self.position.setValue(position)
        self._follow(position)

    def _follow(self, position: int) -> None:
        """Show the cue at ``position`` over the picture and select its row, without seeking again."""
        self.time_label.setText(format_ms(position))
        row = self.current_row(position)
        if row is None:
            self.view.show_text("")
            return
        cue = self.cues[row]
        text = cue.translation if cue.translation else cue.original
        if cue.translation and cue.translation != cue.original:
            text = f"{cue.translation}\n{cue.original}"
        self.view.show_text(text)
        if row not in self.selected_rows():
            self.table.blockSignals(True)
            self.table.selectRow(row)
            self.table.blockSignals(False)
            cell = self.table.item(row, ORIGINAL)
            if cell is not None:
                self.table.scrollToItem(cell)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.dirty:
            answer = QMessageBox.question(self, self.tr("Unsaved edits"),
                                          self.tr("Save your edits to the subtitles of {name}?").format(
                                              name=one_line(self.video_path.name)),
                                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                                          | QMessageBox.StandardButton.Cancel)
            if answer == QMessageBox.StandardButton.Cancel:
                event.ignore()
                return
            if answer == QMessageBox.StandardButton.Save:
                self.save()
        self.player.stop()
        event.accept()
