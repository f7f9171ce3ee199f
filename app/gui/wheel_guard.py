"""The mouse wheel scrolls the page; it changes a choice only in the control the person clicked into.

Qt's combo boxes, spin boxes and sliders take a wheel event whenever the pointer is over
them, so scrolling a long page of settings past one changes it (a person found their
Language set to Deutsch that way). Guarded controls take focus by click or Tab only, and
a wheel event over one without focus is handed on to the page, which scrolls.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QSlider, QWidget

GUARDED = (QComboBox, QAbstractSpinBox, QSlider)  # not scroll bars: they are the scrolling


class WheelGuard(QObject):
    """Event filter: a wheel event over an unfocused guarded control goes to its parent instead."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Wheel and isinstance(watched, QWidget) and not watched.hasFocus():
            event.ignore()  # not accepted: QApplication offers it to the parent (the scroll area)
            return True
        return False


def guard_wheel(root: QWidget) -> WheelGuard:
    """Guard every combo box, spin box and slider inside ``root`` (built so far); returns the guard (owned by ``root``)."""
    guard = WheelGuard(root)
    for kind in GUARDED:
        for control in root.findChildren(kind):
            control.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            control.installEventFilter(guard)
    return guard
