"""Screenshots of what the app says when translation does not happen (issue 39), in a language, on a real little X desktop.

    .venv/bin/python packaging/translation_screenshots.py OUT_DIR [--language zh_CN]

Starts Xvfb + openbox + trayer (tests/gui/desktop_session.py), then itself as a child on
that display: a job of three videos of which two got no translation (a stage that places
the transcript and reports ``translation_failed``, one of them because its server could not
be reached), the Settings' Models tab (a catalogue with a placeholder and a recommended
model) and Glossary tab, and the first close to the tray with its notice. Windows are
taken with ``QWidget.grab`` (``<what>-<language>.png``); the notice, drawn by Qt as a
balloon under the tray icon, from the screen's top right with ImageMagick's ``import``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def child(out: Path, language: str, data_dir: Path) -> None:
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication, QSystemTrayIcon

    from app.engine.library import Library
    from app.engine.stage import Output, Pipeline
    from app.gui.app import build_gui
    from app.gui.settings_dialog import SettingsDialog
    from app.settings import Settings, save_settings
    from tests.engine_stages import JsonOutput, make_media
    from tests.gui.conftest import GUI_TEST_CONFIG

    class Untranslated:
        """Places a transcript; the second and third file get no translation (one of them: an unreachable server)."""

        name, durable, per_path, output_type = "place", True, True, JsonOutput

        def fingerprint(self, options: Any) -> dict[str, Any]:
            return {}

        def model_spec(self, options: Any) -> None:
            return None

        def run(self, ctx: Any) -> JsonOutput:
            stem = ctx.item.path.stem
            ctx.place([Output(f"{stem}.en.srt", b"1\n00:00:00,000 --> 00:00:00,800\nGood morning.\n\n", "transcript")])
            if stem.endswith("1"):
                return JsonOutput({})
            detail: dict[str, Any] = {"untranslated_cues": [1], "cues": 1}
            if stem.endswith("2"):
                detail["unreachable"] = "http://192.168.1.20:8080/v1"
            return JsonOutput({"item_result": "translation_failed", "item_detail": detail})

    def library(data: Path, settings: Settings) -> Library:
        return Library(data, {"video": Pipeline("video", [Untranslated()])}, GUI_TEST_CONFIG)

    def pump(seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.02)

    app = QApplication(sys.argv[:1])  # noqa: F841 - kept alive while the GUI runs
    while not QSystemTrayIcon.isSystemTrayAvailable():
        pump(0.1)
    save_settings(data_dir, Settings(welcome_dismissed=True, ui_language=language, target_lang="de",
                                     glossary=["Winterfell", "Jon Snow = Jon Schnee"]))
    gui = build_gui([], data_dir, library, poll_ms=200)
    assert gui is not None and gui.tray is not None
    suffix = language or "en"
    media = data_dir.parent / "Holiday videos"
    make_media(media, 3)
    gui.window.resize(1100, 560)
    gui.window.move(40, 60)
    gui.window.show()
    pump(2)
    gui.window.add_paths([media])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (gui.window.jobs_model.jobs
                                               and gui.window.jobs_model.jobs[0].status == "completed"):
        pump(0.2)
    gui.window.select_job(gui.window.jobs_model.jobs[0].id)
    gui.window.tabs.setCurrentWidget(gui.window.queue)
    pump(2)
    gui.window.queue.table.selectRow(2)
    pump(1)
    gui.window.grab().save(str(out / f"untranslated-job-{suffix}.png"))

    dialog = SettingsDialog(gui.facade, gui.facade.settings or Settings(), gui.window)
    dialog.resize(900, 620)
    dialog.show()
    dialog.show_tab_of(dialog.models)
    pump(2)
    dialog.select_model(next(r.name for r in dialog._model_rows if r.placeholder))
    pump(0.5)
    dialog.grab().save(str(out / f"models-{suffix}.png"))
    dialog.show_tab_of(dialog.fields["glossary"])
    dialog.fields["glossary"].table.selectRow(1)
    pump(1)
    dialog.grab().save(str(out / f"glossary-{suffix}.png"))
    dialog.close()

    gui.window.close()  # the first close to the tray: its notice
    pump(1.5)
    width = int(subprocess.run(["xdpyinfo"], capture_output=True, text=True).stdout.split("dimensions:")[1].split("x")[0])
    subprocess.run(["import", "-window", "root", "-crop", f"520x260+{width - 520}+0", "+repage",
                    str(out / f"tray-notice-{suffix}.png")], check=True)
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
