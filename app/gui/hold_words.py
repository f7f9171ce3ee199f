"""The words for why the engine waits, in the window's language: the tray's tooltip and the jobs list say them."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.gui.facade.records import BATTERY, PAUSED, SCHEDULE, Hold


def hold_words(hold: Hold) -> str:
    """"waiting for the schedule (starts 22:00)", "paused until 07:00", "paused on battery power"…"""
    translate = QCoreApplication.translate
    at = hold.until.strftime("%H:%M") if hold.until is not None else ""
    if hold.reason == SCHEDULE and at:
        return translate("HoldWords", "waiting for the schedule (starts {time})").format(time=at)
    if hold.reason == SCHEDULE:
        return translate("HoldWords", "waiting for the schedule")
    if hold.reason == PAUSED:
        return translate("HoldWords", "paused until {time}").format(time=at)
    if hold.reason == BATTERY:
        return translate("HoldWords", "paused on battery power")
    return translate("HoldWords", "paused while the computer is in use")
