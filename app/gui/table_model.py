"""The part every table model of the window shares: fixed named columns."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, QPersistentModelIndex, Qt

Index = QModelIndex | QPersistentModelIndex

# Roles and alignment as plain ints for data()/multiData(): comparing with an enum member
# costs an attribute lookup in enum.py, per cell, per role, per repaint.
DISPLAY, TOOLTIP, DECORATION = (int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.ToolTipRole),
                                int(Qt.ItemDataRole.DecorationRole))
ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
CENTRED = int(Qt.AlignmentFlag.AlignCenter)


class ColumnsModel(QAbstractTableModel):
    """A flat table whose header is the ``COLUMNS`` tuple (marked for translation in the "Columns" context)."""

    COLUMNS: tuple[str, ...] = ()

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return QCoreApplication.translate("Columns", self.COLUMNS[section])

        return None
