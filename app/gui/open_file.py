"""Handing a file to the desktop's application for it, and saying so when the desktop has none.

The queue (Open file, Show in folder) and the search results (a double-clicked picture) open
files the same way: a desktop without an application for the kind of file would otherwise do
nothing visible. The words keep the "QueueView" context they were first translated under.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QWidget

from app.gui.file_urls import file_url
from app.shown_names import one_line


def open_with_desktop(parent: QWidget, path: str) -> QMessageBox | None:
    """Open ``path`` (exact bytes kept, see file_urls); None when it opened, else the box now saying why not."""
    if QDesktopServices.openUrl(file_url(path)):
        return None
    shown = one_line(path)
    box = QMessageBox(QMessageBox.Icon.Information, QCoreApplication.translate("QueueView", "Nothing to open it with"),
                      QCoreApplication.translate("QueueView", "This desktop has no application set to open {path}.")
                      .format(path=shown), QMessageBox.StandardButton.Ok, parent)
    box.setInformativeText(QCoreApplication.translate(
        "QueueView", "Its location is selectable below; set a default application for this kind of file (or a file "
                     "manager) in your desktop's settings."))
    box.setDetailedText(shown)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
