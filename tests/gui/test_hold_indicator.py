""""Pause for 1 hour" shows: a badge on the tray icon, the window's title and a status-bar banner with Resume now (issue 39.9)."""

from __future__ import annotations

from typing import Any, Callable

from app.gui.app import Gui, app_icon
from app.gui.tray import Tray


def test_a_timed_pause_is_shown_until_resume_now(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    window = gui.window
    tray = gui.tray if gui.tray is not None else Tray(gui.facade, window, app_icon())
    plain = tray.icon.icon().pixmap(32, 32).toImage()
    tray.pause_hour_action.trigger()
    qtbot.waitUntil(lambda: gui.facade.workers.hold is not None, timeout=10000)
    until = f"{gui.facade.workers.hold.until:%H:%M}"
    qtbot.waitUntil(lambda: window.hold_indicator.isVisibleTo(window), timeout=10000)
    assert window.hold_indicator.text().startswith(f"Paused until {until}.") and "Resume now" in window.hold_indicator.text()
    assert window.windowTitle() == f"Sidecar — paused until {until}"
    assert tray.icon.icon().pixmap(32, 32).toImage() != plain, "no pause badge on the tray icon"
    window.hold_indicator.linkActivated.emit("now")
    qtbot.waitUntil(lambda: not window.hold_indicator.isVisibleTo(window), timeout=10000)
    assert window.windowTitle() == "Sidecar"
    qtbot.waitUntil(lambda: tray.icon.icon().pixmap(32, 32).toImage() == plain, timeout=10000)
