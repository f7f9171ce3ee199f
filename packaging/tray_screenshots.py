"""Screenshots of the Schedule & power settings and the tray menu, in a language, on a real little X desktop.

    .venv/bin/python packaging/tray_screenshots.py OUT_DIR [--language zh_CN]

Starts Xvfb + openbox + trayer (tests/gui/desktop_session.py), then itself as a child on
that display: the app with a night schedule (so the tooltip and the jobs list say
"waiting for the schedule"), its Settings tabs (Output, Glossary, Processing, Schedule & power) taken from the
screen as ``settings-<tab>-<language>.png``, and the tray menu
opened under the tray icon and taken from the screen with ImageMagick's ``import``. The
tooltip (drawn by the tray host, which trayer does not do) is printed instead.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def child(out: Path, language: str, data_dir: Path) -> None:
    from PySide6.QtCore import QCoreApplication, QPoint
    from PySide6.QtWidgets import QApplication, QSystemTrayIcon

    from app.gui.app import build_gui
    from app.gui.settings_dialog import SettingsDialog
    from app.settings import Settings, save_settings
    from tests.engine_stages import make_media
    from tests.gui.conftest import library_factory

    def pump(seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.02)

    app = QApplication(sys.argv[:1])  # noqa: F841 - kept alive while the GUI runs
    while not QSystemTrayIcon.isSystemTrayAvailable():
        pump(0.1)
    now = time.localtime()
    window = f"{(now.tm_hour + 2) % 24:02d}:00-07:00"  # a night window that has not begun
    settings = Settings(welcome_dismissed=True, ui_language=language, work_weekdays=window, work_weekends="all",
                        on_battery="below", battery_floor=30, max_cores=2)
    save_settings(data_dir, settings)
    gui = build_gui([], data_dir, library_factory(), poll_ms=200)
    assert gui is not None and gui.tray is not None
    pump(2)
    gui.facade.save_settings(gui.facade.settings or settings)  # the schedule applies to the running (test) engine
    media = data_dir.parent / "Holiday videos"
    make_media(media, 3)
    gui.window.add_paths([media])
    gui.window.resize(1000, 560)
    gui.window.move(40, 60)
    gui.window.show()
    pump(4)
    suffix = f"-{language}" if language else ""
    dialog = SettingsDialog(gui.facade, gui.facade.settings or settings, gui.window)
    dialog.show()
    for tab, name in ((0, "output"), (1, "glossary"), (2, "processing"), (3, "schedule")):  # the README's settings-*.png
        dialog.tabs.setCurrentIndex(tab)
        pump(1)
        subprocess.run(["import", "-window", "root", str(out / f"settings-{name}{suffix or '-en'}.png")], check=True)
    dialog.close()
    tray = gui.tray
    corner = tray.icon.geometry().bottomLeft()
    tray.menu.popup(QPoint(max(0, corner.x() - 260), corner.y() + 2))
    pump(1)
    subprocess.run(["import", "-window", "root", str(out / f"tray-menu{suffix}.png")], check=True)
    tray.menu.hide()
    print("tooltip:", tray.icon.toolTip(), flush=True)
    gui.quit()
    pump(3)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--language", default="")
    parser.add_argument("--child", type=Path)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.child:
        child(args.out.resolve(), args.language, args.child)
        return 0
    from tests.gui.desktop_session import desktop_session

    with tempfile.TemporaryDirectory() as tmp, desktop_session(1280, 800) as env:
        (Path(tmp) / "data").mkdir()
        return subprocess.run([sys.executable, __file__, str(args.out), "--language", args.language,
                               "--child", str(Path(tmp) / "data")], env=env, cwd=REPO).returncode


if __name__ == "__main__":
    sys.exit(main())
