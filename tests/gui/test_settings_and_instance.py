"""Settings saved in the dialog survive a restart; a second launch hands its folder to the running app."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from app.gui.app import Gui
from app.engine.kinds import LEFT_OUT_BY_DEFAULT
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.gui.settings_dialog import DATABASE_NOTICE, INSTALLED_COLUMN, LEFT_OUT_NOTICE, NEW_JOBS_NOTICE, SettingsDialog
from app.paths import database_path
from app.settings import Settings, load_settings
from app.store import Store
from tests.engine_stages import make_media

REPO = Path(__file__).resolve().parents[2]


def test_settings_persist_across_restarts(qtbot: Any, tmp_path: Path, data_dir: Path,
                                         start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    dialog = gui.window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    assert not dialog.notice.isVisibleTo(dialog)
    dialog.fields["target_lang"].set_value("zh")
    dialog.fields["naming"].set_value("media-server")
    assert dialog.naming_example.text() == "Movie.ja.srt  Movie.zh.srt  Movie.zh.ass"
    dialog.fields["naming"].set_value("compat")
    assert dialog.naming_example.text() == "Movie.JA.srt  Movie.CN.srt  Movie.CN_dual_eye.ass"
    assert dialog.naming_warning.isVisibleTo(dialog)
    dialog.fields["target_lang"].set_value("de")
    assert dialog.naming_example.text() == "Movie.JA.srt  Movie.DE.srt  Movie.DE_dual_eye.ass"
    assert dialog.notice.isVisibleTo(dialog) and NEW_JOBS_NOTICE in dialog.notice.text()
    dialog.fields["existing_policy"].set_value("keep_both")
    dialog.fields["workers"].setValue(3)
    stall = dialog.fields["stall_seconds"]  # generated from the declaration, on the Processing tab
    assert stall.value() == 60 and stall.minimum() == 10 and stall.isVisibleTo(dialog.tabs.widget(2))  # Processing
    stall.setValue(90)
    dialog.fields["gpu_budget_mb"].setValue(4096)
    dialog.fields["close_to_tray"].setChecked(False)
    left_out = dialog.fields["scan_ignore"]
    assert left_out.text.toPlainText().splitlines() == list(LEFT_OUT_BY_DEFAULT)
    left_out.text.appendPlainText("  Extras  \n")
    assert LEFT_OUT_NOTICE in dialog.notice.text()
    (tmp_path / "Incoming").mkdir()
    dialog.add_watched_folder(str(tmp_path / "Incoming"))
    qtbot.waitUntil(lambda: dialog.models.rowCount() > 0, timeout=20000)
    assert {dialog.models.item(r, INSTALLED_COLUMN).text() for r in range(dialog.models.rowCount())} <= {"yes", "no", "partly downloaded"}
    with qtbot.waitSignal(gui.facade.settings.settingsSaved, timeout=10000):
        dialog.save()
    with qtbot.waitSignal(gui.facade.closed, timeout=60000):
        gui.quit()

    saved = load_settings(data_dir)
    assert (saved.naming, saved.target_lang, saved.existing_policy, saved.workers, saved.gpu_budget_mb,
            saved.close_to_tray, saved.watched_folders) == ("compat", "de", "keep_both", 3, 4096, False,
                                                            [str(tmp_path / "Incoming")])
    assert saved.stall_seconds == 90
    assert saved.scan_ignore == [*LEFT_OUT_BY_DEFAULT, "Extras"], "the edited list is saved, one pattern a line"
    store = Store(database_path(data_dir))
    try:
        assert [w.folder for w in store.watches.list()] == [str(tmp_path / "Incoming")], "the watch itself is stored"
    finally:
        store.close()
    again = start_gui()
    reopened = again.window.open_settings()
    assert isinstance(reopened, SettingsDialog)
    assert reopened.edited() == saved
    assert not reopened.notice.isVisibleTo(reopened)


def test_second_launch_hands_its_folder_to_the_running_instance(qtbot: Any, tmp_path: Path, data_dir: Path,
                                                                start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    media = tmp_path / "From the file manager"
    make_media(media, 2)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    second = subprocess.Popen([sys.executable, "-m", "app", "--data-dir", str(data_dir), str(media)], cwd=REPO, env=env)
    qtbot.waitUntil(lambda: [(j.folder, j.total) for j in gui.window.jobs_model.jobs] == [(str(media), 2)], timeout=90000)
    assert second.wait(timeout=90) == 0, "the second launch did not exit after handing over"


def test_the_app_opens_the_shared_library_database_its_settings_name(qtbot: Any, tmp_path: Path, data_dir: Path,
                                                                      postgres_url: str,
                                                                      start_gui: Callable[..., Gui]) -> None:
    """Issue 14.5: a person points the app at the PostgreSQL library another machine fills."""
    gui = start_gui()
    dialog = gui.window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    dialog.fields["database_url"].setText(f"  {postgres_url}  ")
    assert dialog.notice.isVisibleTo(dialog) and DATABASE_NOTICE in dialog.notice.text()
    with qtbot.waitSignal(gui.facade.settings.settingsSaved, timeout=10000):
        dialog.save()
    with qtbot.waitSignal(gui.facade.closed, timeout=60000):
        gui.quit()
    assert load_settings(data_dir).database_url == postgres_url

    shared = tmp_path / "Shared"
    make_media(shared, 2)
    nas = Library.open(tmp_path / "nas", Settings(database_url=postgres_url, workers=1))
    try:  # another machine adds the folder; nobody runs it
        job = nas.add(shared, JobOptions())
        nas.pause(None)
    finally:
        nas.close()
    again = start_gui(factory=Library.open)
    qtbot.waitUntil(lambda: [j.id for j in again.window.jobs_model.jobs] == [job.id], timeout=20000)
    assert again.window.jobs_model.jobs[0].total == 2
    reopened = again.window.open_settings()
    assert isinstance(reopened, SettingsDialog) and reopened.fields["database_url"].text() == postgres_url
