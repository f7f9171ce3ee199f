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

from PySide6.QtCore import QObject, QRect, Qt, Slot
from PySide6.QtGui import QAction, QColor, QIcon, QPainter
from PySide6.QtWidgets import QMenu, QSystemTrayIcon, QWidget

from app.gui.facade.calculations import morning_after
from app.gui.facade.records import PAUSED, SCHEDULE, Hold
from app.gui.activity import activity_line
from app.gui.facade import EngineFacade
from app.gui.hold_words import hold_words
from app.gui.theme import ACCENTS

log = logging.getLogger(__name__)


def paused_icon(icon: QIcon, size: int = 64) -> QIcon:
    """``icon`` with a pause badge (two bars on an amber disc) in its lower right corner."""
    pixmap = icon.pixmap(size, size)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    badge = QRect(size // 2, size // 2, size // 2, size // 2)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(ACCENTS["warning"]))
    painter.drawEllipse(badge)
    bar_w, bar_h = badge.width() // 6, badge.height() // 2
    painter.setBrush(QColor("white"))
    for x in (badge.center().x() - bar_w * 3 // 2, badge.center().x() + bar_w // 2):
        painter.drawRect(x, badge.center().y() - bar_h // 2, bar_w, bar_h)
    painter.end()
    return QIcon(pixmap)


class Tray(QObject):
    def __init__(self, facade: EngineFacade, window: QWidget, icon: QIcon, parent: QObject | None = None):
        """``quit_action`` is left for the app to connect: quitting also stops the engine."""
        super().__init__(parent)
        self.facade = facade
        self.window = window
        self.icon = QSystemTrayIcon(icon, self)
        self.icons = {False: icon, True: paused_icon(icon)}  # by "Pause all" on
        self.icon.setToolTip(self.tr("Sidecar — starting"))
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
        self.pause_hour_action.triggered.connect(lambda: facade.workers.pause_work(datetime.now() + timedelta(hours=1)))
        self.pause_morning_action.triggered.connect(lambda: facade.workers.pause_work(morning_after(datetime.now())))
        self.resume_now_action.triggered.connect(facade.workers.resume_work)
        self.pause_action.triggered.connect(lambda: facade.jobs.pause(None))
        self.resume_action.triggered.connect(lambda: facade.jobs.resume(None))
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
        facade.jobs.notice.connect(self.notify)
        self._hold: Hold | None = None
        facade.jobs.jobsChanged.connect(lambda _: self.show_activity())
        facade.jobs.pausedAllChanged.connect(lambda _: self.show_activity())
        facade.workers.holdChanged.connect(self.show_hold)
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

    @Slot()
    def show_activity(self) -> None:
        """Tooltip: what Sidecar is doing, or why the engine waits (schedule, battery, timed pause);
        the icon carries a pause badge while "Pause all" is on."""
        paused = self.facade.jobs.all_paused
        hold = self._hold
        if hold is not None and not paused:
            self.icon.setToolTip(f"Sidecar — {hold_words(hold)}")
        else:
            self.icon.setToolTip(activity_line(self.facade.jobs.current(), paused))
        self.icon.setIcon(self.icons[paused or (hold is not None and hold.reason == PAUSED)])  # "Pause for 1 hour" too

    @Slot(object)
    def show_hold(self, hold: Hold | None) -> None:
        """The engine started or stopped waiting; "Resume now" is offered while a schedule or timed pause holds it."""
        self._hold = hold
        self.resume_now_action.setEnabled(hold is not None and hold.reason in (SCHEDULE, PAUSED))
        self.show_activity()

    @Slot(int, str, str)
    def notify(self, job_id: int, title: str, message: str) -> None:
        """The balloon, where no desktop notification service took the notice (Windows); a click opens the job."""
        if QSystemTrayIcon.supportsMessages():
            self._last_notified = job_id
            self.icon.showMessage(title, message, QSystemTrayIcon.MessageIcon.Information, 5000)

    @Slot(str, str)
    def say(self, title: str, message: str) -> None:
        """A balloon about the app itself, not a job (the first close to the tray): a click opens no job."""
        if QSystemTrayIcon.supportsMessages():
            self._last_notified = None
            self.icon.showMessage(title, message, QSystemTrayIcon.MessageIcon.Information, 10000)

    def _message_clicked(self) -> None:
        if self._last_notified is not None:
            self.facade.jobs.openJob.emit(self._last_notified)
