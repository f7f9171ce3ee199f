"""The Log tab: the engine's log at INFO, delivered to the GUI thread by a signal.

Engine threads log from anywhere; a ``logging.Handler`` may not touch a widget from
those threads, so it only formats the record and emits a signal, which Qt queues to
the panel's thread. A busy engine logs a line per item and stage; the panel collects
them and appends them in one batch every :data:`FLUSH_MS` (one layout of the text view
per batch instead of one per line).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, QTimer, Signal, Slot
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout, QWidget

from app.shown_names import OneLineFormatter

log = logging.getLogger(__name__)

MAX_LINES = 5000
FLUSH_MS = 250


class _Emitter(QObject):
    record = Signal(str, str)  # level name, formatted line


class QtLogHandler(logging.Handler):
    """A logging handler whose records arrive as the ``emitter.record`` signal."""

    def __init__(self, level: int = logging.INFO):
        super().__init__(level)
        self.emitter = _Emitter()
        self.setFormatter(OneLineFormatter("%(asctime)s  %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.emitter.record.emit(record.levelname, self.format(record))
        except RuntimeError:  # the emitter was deleted at shutdown; a log line is not worth a crash
            pass


class LogPanel(QWidget):
    def __init__(self, handler: QtLogHandler, parent: QWidget | None = None):
        super().__init__(parent)
        self.view = QPlainTextEdit(self)
        self.view.setReadOnly(True)
        self.view.setMaximumBlockCount(MAX_LINES)
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self._pending: list[str] = []
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(FLUSH_MS)
        self._flush_timer.timeout.connect(self.flush)
        handler.emitter.record.connect(self.append)

    @Slot(str, str)
    def append(self, level: str, line: str) -> None:
        """Queue ``line``; it is shown with the others of its batch at the next flush."""
        self._pending.append(line)
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    @Slot()
    def flush(self) -> None:
        """Append the queued lines in one go (only the last ``MAX_LINES`` matter: older ones would be dropped)."""
        lines, self._pending = self._pending[-MAX_LINES:], []
        if lines:
            self.view.appendPlainText("\n".join(lines))


def install_handler(logger_name: str = "app") -> QtLogHandler:
    """Attach a Qt handler at INFO to the app's logger (the engine logs below ``app``)."""
    handler = QtLogHandler()
    logger = logging.getLogger(logger_name)
    if logger.level == logging.NOTSET or logger.level > logging.INFO:
        logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    return handler
