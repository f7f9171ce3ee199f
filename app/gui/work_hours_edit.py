"""The editor of one work window (Settings → Schedule & power, ``work_weekdays`` and ``work_weekends``).

A window is edited as "all day / from–to / not at all"; the settings file keeps it as
``all``, ``22:00-07:00`` or ``off``, and :mod:`app.engine.work_hours` parses and writes
that form, so this widget is the one generated field that is not built from Qt's stock
widgets alone: two time edits shown only for "from–to".
"""

from __future__ import annotations

from PySide6.QtCore import QTime, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QTimeEdit, QWidget

from app.gui.facade.calculations import window_text
from app.gui.facade.records import ALL_DAY, BadWorkWindow, Window

ALL_DAY_MODE, SPAN_MODE, NEVER_MODE = "all", "span", "off"


class WindowEdit(QWidget):
    """One day kind's window: all day, from–to, or not at all."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.mode = QComboBox(self)
        self.mode.addItem(self.tr("All day"), ALL_DAY_MODE)
        self.mode.addItem(self.tr("From"), SPAN_MODE)
        self.mode.addItem(self.tr("Not at all"), NEVER_MODE)
        self.start, self.end = QTimeEdit(self), QTimeEdit(self)
        for edit in (self.start, self.end):
            edit.setDisplayFormat("HH:mm")
            edit.timeChanged.connect(self.changed)
        self.until = QLabel(self.tr("to"), self)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (self.mode, self.start, self.until, self.end):
            row.addWidget(widget)
        row.addStretch(1)
        self.mode.currentIndexChanged.connect(self._mode_changed)
        self.set_value("all")

    def _mode_changed(self) -> None:
        span = self.mode.currentData() == SPAN_MODE
        for widget in (self.start, self.until, self.end):
            widget.setVisible(span)
        self.changed.emit()

    def set_value(self, text: str) -> None:
        """From the settings' ``all`` / ``off`` / ``22:00-07:00`` (anything unreadable shows as all day)."""
        try:
            window = Window.parse(text)
        except BadWorkWindow:  # a hand-edited file: the engine treats it as "always" too
            window = ALL_DAY
        mode = NEVER_MODE if window is None else ALL_DAY_MODE if window.all_day else SPAN_MODE
        if window is not None and not window.all_day:
            self.start.setTime(QTime(window.start // 60, window.start % 60))
            self.end.setTime(QTime(window.end // 60, window.end % 60))
        else:
            self.start.setTime(QTime(22, 0))
            self.end.setTime(QTime(7, 0))
        self.mode.setCurrentIndex(self.mode.findData(mode))
        self._mode_changed()

    def value(self) -> str:
        mode = self.mode.currentData()
        if mode != SPAN_MODE:
            return str(mode)
        start, end = self.start.time(), self.end.time()
        window = Window(start.hour() * 60 + start.minute(), end.hour() * 60 + end.minute())
        return window_text(window)
