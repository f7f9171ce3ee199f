"""Run in a child process on a real X desktop (tests/gui/desktop_session.py): the app's own tray, driven by its menu.

Prints one JSON line of what it saw; the test asserts on it. A child, because the test
process's Qt already runs on the offscreen platform, which has no tray.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication, QSystemTrayIcon

from app.gui.app import build_gui
from app.settings import Settings, save_settings
from tests.engine_stages import make_media
from tests.gui.conftest import library_factory


def wait(condition: Callable[[], Any], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        QCoreApplication.processEvents()
        if condition():
            return True
        time.sleep(0.02)
    return bool(condition())


def main(data_dir: Path, media: Path) -> dict[str, Any]:
    app = QApplication(sys.argv[:1])
    seen: dict[str, Any] = {"tray_host": wait(QSystemTrayIcon.isSystemTrayAvailable, 30)}
    save_settings(data_dir, Settings(welcome_dismissed=True))
    gui = build_gui([], data_dir, library_factory(), poll_ms=100)
    assert gui is not None
    seen["tray_built"] = gui.tray is not None
    if gui.tray is None:
        return seen
    tray = gui.tray
    seen["tray_visible"] = wait(tray.icon.isVisible, 5)
    seen["geometry"] = tray.icon.geometry().isValid()
    wait(lambda: gui.facade.settings.current is not None, 60)
    menu = {a.text(): a for a in tray.menu.actions() if a.text()}
    seen["menu"] = list(menu)
    menu["Pause for 1 hour"].trigger()
    seen["paused"] = wait(lambda: tray.icon.toolTip().startswith("Sidecar — paused until"), 30)
    seen["tooltip"] = tray.icon.toolTip()
    gui.window.add_paths([media])
    jobs = gui.window.jobs_model
    wait(lambda: len(jobs.jobs) == 1, 60)
    time.sleep(0.5)
    wait(lambda: False, 1)
    seen["done_while_paused"] = jobs.jobs[0].done if jobs.jobs else None
    menu["Resume now"].trigger()
    seen["finished_after_resume"] = wait(lambda: jobs.jobs and jobs.jobs[0].status == "completed", 90)
    seen["tooltip_after"] = tray.icon.toolTip()
    closed: list[bool] = []
    gui.facade.closed.connect(lambda: closed.append(True))
    gui.quit()
    seen["closed"] = wait(lambda: bool(closed), 60)  # the engine stopped (app.exec() could miss a quit sent before it)
    del app
    return seen


if __name__ == "__main__":
    data, media = Path(sys.argv[1]), Path(sys.argv[2])
    make_media(media, 2)
    print(json.dumps(main(data, media)), flush=True)
