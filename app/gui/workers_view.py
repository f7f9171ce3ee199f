"""The Workers tab: every engine process on this library — this machine's and other machines' — and whether it lives.

The same listing as ``sidecar workers``, read through the facade off the GUI thread
while the tab is shown (every few seconds: heartbeats come every ``lease/3`` seconds,
so a faster refresh would show nothing new).
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

from PySide6.QtCore import QCoreApplication, QModelIndex, Qt, QTimer, Slot
from PySide6.QtGui import QColor, QHideEvent, QShowEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from app.gui.facade.records import WorkerView
from app.gui.facade import EngineFacade
from app.gui.state_words import state_word
from app.gui.table_model import ColumnsModel, Index
from app.gui.theme import muted
from app.gui.translations import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)

REFRESH_MS = 3000

ROLE_WORDS = {"engine": QT_TRANSLATE_NOOP("WorkersModel", "Engine"),
              "worker": QT_TRANSLATE_NOOP("WorkersModel", "Worker"),
              "gui": QT_TRANSLATE_NOOP("WorkersModel", "Desktop app")}


class WorkersModel(ColumnsModel):
    COLUMNS = (QT_TRANSLATE_NOOP("Columns", "Machine"), QT_TRANSLATE_NOOP("Columns", "Role"),
               QT_TRANSLATE_NOOP("Columns", "Process"), QT_TRANSLATE_NOOP("Columns", "Running"),
               QT_TRANSLATE_NOOP("Columns", "Heartbeat"), QT_TRANSLATE_NOOP("Columns", "GPU"),
               QT_TRANSLATE_NOOP("Columns", "Alive"))

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.workers: list[WorkerView] = []

    def set_workers(self, workers: Sequence[WorkerView]) -> None:
        self.beginResetModel()
        self.workers = list(workers)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.workers)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        w = self.workers[index.row()]
        if role == Qt.ItemDataRole.ForegroundRole and not w.alive:
            return QColor(muted())
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        word = ROLE_WORDS.get(w.role)
        return (
            w.machine,
            QCoreApplication.translate("WorkersModel", word) if word else w.role,
            str(w.pid),
            ", ".join(f"{n} × {state_word(name)}" for name, n in sorted(w.running.items())) or QCoreApplication.translate("WorkersModel", "idle"),
            QCoreApplication.translate("WorkersModel", "{seconds} s ago").format(seconds=round(w.heartbeat_age)),
            w.gpu or "—",
            QCoreApplication.translate("WorkersModel", "yes") if w.alive
            else QCoreApplication.translate("WorkersModel", "no"),
        )[index.column()]


class WorkersView(QWidget):
    """The table, refreshed through the facade while visible."""

    def __init__(self, facade: EngineFacade, parent: QWidget | None = None, refresh_ms: int = REFRESH_MS):
        super().__init__(parent)
        self.facade = facade
        self.model = WorkersModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.note = QLabel(self.tr("Every Sidecar engine working on this library, on this computer and on others. "
                                   "One that stopped beating is shown grey; its work goes back to the queue."), self)
        self.note.setWordWrap(True)
        self.note.setStyleSheet(f"color:{muted()};")
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(self.note)
        self.timer = QTimer(self)
        self.timer.setInterval(refresh_ms)
        self.timer.timeout.connect(facade.workers.refresh)
        facade.workers.workersChanged.connect(self.show_workers)

    @Slot(list)
    def show_workers(self, workers: Sequence[WorkerView]) -> None:
        self.model.set_workers(workers)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.facade.workers.refresh()
        self.timer.start()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self.timer.stop()
