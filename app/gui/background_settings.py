"""Settings' "Schedule & power" block: when Sidecar works, on battery, how many cores, notifications, start at login.

One self-contained group box: the dialog places it, :meth:`BackgroundBox.load` fills it
from ``Settings`` and :meth:`BackgroundBox.apply` writes it back into a copy. The
windows are edited as "all day / from–to / not at all" for weekdays and for weekends;
the settings file keeps them as ``all``, ``22:00-07:00`` or ``off``
(:mod:`app.engine.work_hours`).
"""

from __future__ import annotations

import dataclasses
import os
import sys

from PySide6.QtCore import QTime, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QSpinBox,
                               QTimeEdit, QVBoxLayout, QWidget)

from app.engine.background import BATTERY_CHOICES, KEEP_GOING, PAUSE, PAUSE_BELOW
from app.engine.work_hours import ALL_DAY, BadWorkWindow, Window, window_text
from app.settings import Settings

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
        self.set_text("all")

    def _mode_changed(self) -> None:
        span = self.mode.currentData() == SPAN_MODE
        for widget in (self.start, self.until, self.end):
            widget.setVisible(span)
        self.changed.emit()

    def set_text(self, text: str) -> None:
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

    def text(self) -> str:
        mode = self.mode.currentData()
        if mode != SPAN_MODE:
            return str(mode)
        start, end = self.start.time(), self.end.time()
        window = Window(start.hour() * 60 + start.minute(), end.hour() * 60 + end.minute())
        return window_text(window)


class BackgroundBox(QGroupBox):
    """The "Schedule & power" group of Settings."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(self.tr("Schedule & power").replace("&", "&&"), parent)  # a title's lone & is a mnemonic
        self.weekdays, self.weekends = WindowEdit(self), WindowEdit(self)
        self.battery = QComboBox(self)
        labels = {PAUSE: self.tr("Pause"), KEEP_GOING: self.tr("Keep going"), PAUSE_BELOW: self.tr("Pause below")}
        for choice in BATTERY_CHOICES:
            self.battery.addItem(labels[choice], choice)
        self.battery_floor = QSpinBox(self)
        self.battery_floor.setRange(5, 95)
        self.battery_floor.setSuffix(" %")
        self.cores = QSpinBox(self)
        self.cores.setRange(0, max(1, os.cpu_count() or 1))
        self.cores.setSpecialValueText(self.tr("all"))
        self.in_use = QCheckBox(self.tr("Pause while I use the computer"), self)
        self.in_use_minutes = QSpinBox(self)
        self.in_use_minutes.setRange(1, 60)
        self.in_use_minutes.setPrefix(self.tr("input in the last "))
        self.in_use_minutes.setSuffix(self.tr(" min"))
        self.notify_finished = QCheckBox(self.tr("a job finishes"), self)
        self.notify_review = QCheckBox(self.tr("something needs my decision"), self)
        self.notify_failed = QCheckBox(self.tr("items fail"), self)
        self.start_at_login = QCheckBox(self.tr("Start Sidecar in the tray when I log in"), self)
        self.start_at_login.setVisible(sys.platform.startswith("linux"))

        form = QFormLayout(self)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # a tab as wide as the dialog, in every language
        form.addRow(self.tr("Work on weekdays:"), self.weekdays)
        form.addRow(self.tr("Work on weekends:"), self.weekends)
        note = QLabel(self.tr("Outside these hours the running step stops at its next checkpoint (its "
                              "progress is kept) and nothing new starts."), self)
        note.setWordWrap(True)
        form.addRow(note)
        form.addRow(self.tr("On battery:"), _row(self, self.battery, self.battery_floor))
        form.addRow(self.tr("Use at most:"), _row(self, self.cores, QLabel(self.tr("cores (workers and each model's "
                                                                                 "threads)"), self)))
        form.addRow("", _row(self, self.in_use, self.in_use_minutes))
        tell = QWidget(self)
        tell_layout = QVBoxLayout(tell)
        tell_layout.setContentsMargins(0, 0, 0, 0)
        for box in (self.notify_finished, self.notify_review, self.notify_failed):
            tell_layout.addWidget(box)
        form.addRow(self.tr("Tell me when:"), tell)
        form.addRow("", self.start_at_login)
        for signal in (self.weekdays.changed, self.weekends.changed, self.battery.currentIndexChanged,
                       self.battery_floor.valueChanged, self.cores.valueChanged, self.in_use.toggled,
                       self.in_use_minutes.valueChanged, self.notify_finished.toggled, self.notify_review.toggled,
                       self.notify_failed.toggled, self.start_at_login.toggled):
            signal.connect(self.changed)
        self.battery.currentIndexChanged.connect(self._enable)
        self.in_use.toggled.connect(self._enable)

    def _enable(self) -> None:
        self.battery_floor.setEnabled(self.battery.currentData() == PAUSE_BELOW)
        self.in_use_minutes.setEnabled(self.in_use.isChecked())

    def load(self, s: Settings) -> None:
        self.weekdays.set_text(s.work_weekdays)
        self.weekends.set_text(s.work_weekends)
        self.battery.setCurrentIndex(max(0, self.battery.findData(s.on_battery)))
        self.battery_floor.setValue(s.battery_floor)
        self.cores.setValue(min(s.max_cores, self.cores.maximum()))
        self.in_use.setChecked(s.pause_while_in_use)
        self.in_use_minutes.setValue(s.in_use_minutes)
        self.notify_finished.setChecked(s.notify_finished)
        self.notify_review.setChecked(s.notify_review)
        self.notify_failed.setChecked(s.notify_failed)
        self.start_at_login.setChecked(s.start_at_login)
        self._enable()

    def apply(self, s: Settings) -> Settings:
        """``s`` with this block's values."""
        return dataclasses.replace(
            s, work_weekdays=self.weekdays.text(), work_weekends=self.weekends.text(),
            on_battery=str(self.battery.currentData()), battery_floor=self.battery_floor.value(),
            max_cores=self.cores.value(), pause_while_in_use=self.in_use.isChecked(),
            in_use_minutes=self.in_use_minutes.value(), notify_finished=self.notify_finished.isChecked(),
            notify_review=self.notify_review.isChecked(), notify_failed=self.notify_failed.isChecked(),
            start_at_login=self.start_at_login.isChecked())


def _row(parent: QWidget, *widgets: QWidget) -> QWidget:
    row = QWidget(parent)
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        layout.addWidget(widget)
    layout.addStretch(1)
    return row
