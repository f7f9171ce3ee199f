"""The tray icon: background processing stays reachable after the window is closed.

Only created where the platform has a tray; without one the app is a plain window
app and closing the window quits (``MainWindow`` asks ``available``). Its menu also
says when to work: "Pause for 1 hour", "Pause until tomorrow morning" and "Resume
now" set a timed pause (or override the schedule) that the engine obeys before each
claim and that survives a restart; the tooltip says why the engine waits.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QMenu, QSystemTrayIcon, QWidget

from app.engine.background import PAUSED, SCHEDULE, Hold, morning_after
from app.gui.facade import EngineFacade
from app.gui.hold_words import hold_words

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
        self.pause_hour_action = QAction(self.tr("Pause for 1 hour"), self.menu)
        self.pause_morning_action = QAction(self.tr("Pause until tomorrow morning"), self.menu)
        self.resume_now_action = QAction(self.tr("Resume now"), self.menu)
        self.pause_action = QAction(self.tr("Pause all"), self.menu)
        self.resume_action = QAction(self.tr("Resume all"), self.menu)
        self.quit_action = QAction(self.tr("Quit"), self.menu)
        self._last_notified: int | None = None
        self.resume_now_action.setEnabled(False)

        self.show_action.triggered.connect(self.toggle_window)
        self.pause_hour_action.triggered.connect(lambda: facade.pause_work(datetime.now() + timedelta(hours=1)))
        self.pause_morning_action.triggered.connect(lambda: facade.pause_work(morning_after(datetime.now())))
        self.resume_now_action.triggered.connect(facade.resume_work)
        self.pause_action.triggered.connect(lambda: facade.pause(None))
        self.resume_action.triggered.connect(lambda: facade.resume(None))
        self.menu.addAction(self.show_action)
        self.menu.addSeparator()
        for action in (self.pause_hour_action, self.pause_morning_action, self.resume_now_action):
            self.menu.addAction(action)
        self.menu.addSeparator()
        self.menu.addAction(self.pause_action)
        self.menu.addAction(self.resume_action)
        self.menu.addSeparator()
        self.menu.addAction(self.quit_action)
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._activated)
        self.icon.messageClicked.connect(self._message_clicked)
        facade.notice.connect(self.notify)
        facade.holdChanged.connect(self.show_hold)
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

    @Slot(object)
    def show_hold(self, hold: Hold | None) -> None:
        """The tooltip says why the engine waits; "Resume now" is offered while a schedule or timed pause holds it."""
        self.icon.setToolTip("Sidecar" if hold is None else f"Sidecar — {hold_words(hold)}")
        self.resume_now_action.setEnabled(hold is not None and hold.reason in (SCHEDULE, PAUSED))

    @Slot(int, str, str)
    def notify(self, job_id: int, title: str, message: str) -> None:
        """The balloon, where no desktop notification service took the notice (Windows); a click opens the job."""
        if QSystemTrayIcon.supportsMessages():
            self._last_notified = job_id
            self.icon.showMessage(title, message, QSystemTrayIcon.MessageIcon.Information, 5000)

    def _message_clicked(self) -> None:
        if self._last_notified is not None:
            self.facade.openJob.emit(self._last_notified)
