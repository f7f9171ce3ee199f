"""The tray icon: background processing stays reachable after the window is closed.

Only created where the platform has a tray; without one the app is a plain window
app and closing the window quits (``MainWindow`` asks ``available``).
"""

from __future__ import annotations

import logging
from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QMenu, QSystemTrayIcon, QWidget

from app.gui.facade import EngineFacade

log = logging.getLogger(__name__)


class Tray(QObject):
    def __init__(self, facade: EngineFacade, window: QWidget, icon: QIcon, parent: QObject | None = None):
        """``quit_action`` is left for the app to connect: quitting also stops the engine."""
        super().__init__(parent)
        self.facade = facade
        self.window = window
        self.icon = QSystemTrayIcon(icon, self)
        self.icon.setToolTip("Sidecar")
        self.menu = QMenu()
        self.show_action = QAction(self.tr("Show / hide"), self.menu)
        self.pause_action = QAction(self.tr("Pause all"), self.menu)
        self.resume_action = QAction(self.tr("Resume all"), self.menu)
        self.quit_action = QAction(self.tr("Quit"), self.menu)

        self.show_action.triggered.connect(self.toggle_window)
        self.pause_action.triggered.connect(lambda: facade.pause(None))
        self.resume_action.triggered.connect(lambda: facade.resume(None))
        self.menu.addAction(self.show_action)
        self.menu.addSeparator()
        self.menu.addAction(self.pause_action)
        self.menu.addAction(self.resume_action)
        self.menu.addSeparator()
        self.menu.addAction(self.quit_action)
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._activated)
        facade.notice.connect(self.notify)
        self.icon.show()

    @staticmethod
    def available() -> bool:
        return QSystemTrayIcon.isSystemTrayAvailable()

    @Slot()
    def toggle_window(self) -> None:
        if self.window.isVisible() and not self.window.isMinimized():
            self.window.hide()
        else:
            self.window.showNormal()
            self.window.raise_()
            self.window.activateWindow()

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.toggle_window()

    @Slot(str, str)
    def notify(self, title: str, message: str) -> None:
        if QSystemTrayIcon.supportsMessages():
            self.icon.showMessage(title, message, QSystemTrayIcon.MessageIcon.Information, 5000)
