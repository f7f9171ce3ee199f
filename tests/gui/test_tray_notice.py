"""The first close to the tray tells, in the tray's own balloon, that Sidecar keeps working (issue 39.5).

Built through ``build_gui`` as the app is, so the wiring between the window's notice and
the tray is what is tested: it once connected a two-argument signal to a three-argument
slot, raised a TypeError on the first close, and the window simply vanished.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest
from PySide6.QtWidgets import QSystemTrayIcon

from app.gui.app import Gui
from app.gui.tray import Tray
from app.settings import load_settings


def test_the_first_close_to_the_tray_shows_the_notice_in_the_tray(qtbot: Any, data_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   start_gui: Callable[..., Gui]) -> None:
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(Tray, "available", staticmethod(lambda: True))
    monkeypatch.setattr(QSystemTrayIcon, "supportsMessages", staticmethod(lambda: True))
    monkeypatch.setattr(QSystemTrayIcon, "showMessage",
                        lambda icon, title, message, *rest: shown.append((title, message)))
    gui = start_gui()
    assert gui.tray is not None and gui.window.has_tray
    with qtbot.waitSignal(gui.facade.settings.settingsSaved, timeout=10000):
        gui.window.close()
    assert not gui.window.isVisible() and load_settings(data_dir).tray_notice_shown
    assert len(shown) == 1 and shown[0][0] == "Sidecar keeps working" and "tray icon" in shown[0][1]
    gui.tray.icon.messageClicked.emit()  # a click on this balloon opens no job
    gui.window.show()
    gui.window.close()
    assert len(shown) == 1, "the notice is said once"
