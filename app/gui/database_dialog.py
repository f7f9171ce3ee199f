"""The way back from a library database that cannot be opened, without a text editor.

A mistyped "Library database" URL, a server that is down, or a library written by a newer
Sidecar stops the engine at start. The window then opens this dialog: it says why in
words, lets the person correct the URL (checked off the GUI thread before it is used), or
go back to the library on this computer, and starts the engine again with the choice.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFormLayout, QLabel, QLayout, QLineEdit, QPushButton,
                               QVBoxLayout, QWidget)

from app.codes import Code
from app.gui.translations import QT_TRANSLATE_NOOP
from app.gui.facade import EngineFacade
from app.gui.theme import ink

log = logging.getLogger(__name__)

#: What the person can do about each reason the library did not open (other codes: the first one).
ADVICE: dict[str, Any] = {
    Code.DATABASE_UNAVAILABLE: QT_TRANSLATE_NOOP("DatabaseDialog", "No database server answered at that address. Check "
                                              "the address and that PostgreSQL runs there, or go back to the library "
                                              "on this computer."),
    Code.BAD_DATABASE_URL: QT_TRANSLATE_NOOP("DatabaseDialog", "Sidecar cannot open a library from that address. "
                                          "Correct it (postgresql://user@server/database), or go back to the "
                                          "library on this computer."),
    Code.DATABASE_TOO_NEW: QT_TRANSLATE_NOOP("DatabaseDialog", "A newer Sidecar wrote this library. Update Sidecar, or "
                                          "go back to the library on this computer."),
}


def check_words(code: str, message: str) -> str:
    """A ``databaseChecked`` answer in the window's language: what the URL leads to, or why it does not open."""
    if not code and message == "library":
        return QCoreApplication.translate("DatabaseDialog", "Opens: a Sidecar library.")
    if not code:
        return QCoreApplication.translate("DatabaseDialog", "Opens: an empty database; Sidecar creates the library in it.")
    return QCoreApplication.translate("DatabaseDialog", "Does not open: {reason}").format(reason=message)


class DatabaseDialog(QDialog):
    """Correct the library database URL, or go back to the library on this computer."""

    def __init__(self, facade: EngineFacade, code: str, message: str, url: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.facade = facade
        self.setWindowTitle(self.tr("The library cannot be opened"))
        self.headline = QLabel(self.tr("Sidecar could not open the library database."), self)
        font = self.headline.font()
        font.setBold(True)
        self.headline.setFont(font)
        self.reason = QLabel(self)
        self.reason.setWordWrap(True)
        self.reason.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.advice = QLabel(self)
        self.advice.setWordWrap(True)
        self.url = QLineEdit(url, self)
        self.url.setPlaceholderText(self.tr("empty: the library on this computer ({path})").format(
            path=facade.settings.local_database()))
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.retry_button = QPushButton(self.tr("Try this address"), self)
        self.local_button = QPushButton(self.tr("Use the library on this computer"), self)
        self.local_button.setToolTip(str(facade.settings.local_database()))
        self.buttons = QDialogButtonBox(self)
        self.buttons.addButton(self.retry_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(self.local_button, QDialogButtonBox.ButtonRole.ResetRole)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.retry_button.setDefault(True)
        self.retry_button.clicked.connect(self.try_address)
        self.local_button.clicked.connect(self.use_local)
        self.buttons.rejected.connect(self.reject)

        form = QFormLayout()
        form.addRow(self.tr("Library database:"), self.url)
        layout = QVBoxLayout(self)
        layout.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)  # wrapped lines get their height
        layout.addWidget(self.headline)
        layout.addWidget(self.reason)
        layout.addWidget(self.advice)
        layout.addLayout(form)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        for label in (self.reason, self.advice, self.status):
            label.setMinimumWidth(600)
        self.show_reason(code, message)
        facade.settings.databaseChecked.connect(self._checked)

    def show_reason(self, code: str, message: str) -> None:
        """Why the library did not open (again, after a corrected address failed at start too)."""
        self.reason.setText(message[:1].upper() + message[1:])  # the server's own words (not translated)
        self.reason.setStyleSheet(f"color:{ink('error')};")
        self.advice.setText(self.tr(ADVICE.get(code, ADVICE[Code.BAD_DATABASE_URL])))
        self.status.clear()
        self._busy(False)

    def _busy(self, busy: bool) -> None:
        for widget in (self.retry_button, self.local_button, self.url):
            widget.setEnabled(not busy)

    @Slot()
    def try_address(self) -> None:
        """Check the address off the GUI thread; a library there (or an empty database) is saved and opened."""
        url = self.url.text().strip()
        if not url:
            self.use_local()
            return
        self._busy(True)
        self.status.setStyleSheet("")
        self.status.setText(self.tr("Checking {url}…").format(url=url))
        self.facade.settings.check_database(url)

    @Slot(str, str, str)
    def _checked(self, url: str, code: str, message: str) -> None:
        if url != self.url.text().strip():
            return  # an answer about an address the person has since changed
        self.status.setText(check_words(code, message))
        if code:
            self.status.setStyleSheet(f"color:{ink('error')};")
            self._busy(False)
            return
        self._open(url)

    @Slot()
    def use_local(self) -> None:
        self._open(self.facade.settings.local_database_url())

    def _open(self, url: str) -> None:
        self._busy(True)
        self.status.setStyleSheet("")
        self.status.setText(self.tr("Opening the library…"))
        self.facade.reopen(url)
        self.accept()


__all__ = ["ADVICE", "DatabaseDialog", "check_words"]
