"""The glossary in the app: Settings → Glossary is saved and frozen into new jobs; the first-run page's terms reach the first job."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from app.gui.app import Gui
from app.gui.settings_dialog import NEW_JOBS_NOTICE, SettingsDialog
from app.settings import Settings, load_settings, save_settings
from tests.engine_stages import make_media


def test_the_settings_glossary_is_saved_and_new_jobs_freeze_it(qtbot: Any, tmp_path: Path, data_dir: Path,
                                                               start_gui: Callable[..., Gui]) -> None:
    save_settings(data_dir, Settings(target_lang="de", welcome_dismissed=True, glossary=["Winterfell"]))
    gui = start_gui()
    dialog = gui.window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    assert dialog.glossary.text.toPlainText() == "Winterfell" and not dialog.notice.isVisibleTo(dialog)
    dialog.glossary.text.setPlainText("Winterfell\n\n  ComfyUI  \nJon Snow = Jon Schnee\n")
    assert NEW_JOBS_NOTICE in dialog.notice.text(), "the glossary is frozen into jobs: the dialog says new jobs use it"
    with qtbot.waitSignal(gui.facade.settingsSaved, timeout=10000):
        dialog.save()
    assert load_settings(data_dir).glossary == ["Winterfell", "ComfyUI", "Jon Snow = Jon Schnee"]
    media = tmp_path / "Series"
    make_media(media, 1)
    gui.window.add_paths([media])
    qtbot.waitUntil(lambda: gui.window.jobs_model.rowCount() == 1, timeout=20000)
    assert gui.window.jobs_model.jobs[0].options["glossary"] == [["ComfyUI", None], ["Jon Snow", "Jon Schnee"],
                                                                 ["Winterfell", None]]
    with qtbot.waitSignal(gui.facade.closed, timeout=60000):
        gui.quit()


def test_the_first_run_page_terms_reach_the_first_job(qtbot: Any, tmp_path: Path, data_dir: Path,
                                                      start_gui: Callable[..., Gui]) -> None:
    save_settings(data_dir, Settings(target_lang="de"))
    gui = start_gui()
    window, page = gui.window, gui.window.welcome
    qtbot.waitUntil(lambda: window.pages.currentWidget() is window.welcome_page, timeout=10000)
    page.glossary.setText("ComfyUI;  Bahnhof = train station ;")
    media = tmp_path / "Tutorials"
    make_media(media, 1)
    window.add_paths([media])
    qtbot.waitUntil(lambda: window.jobs_model.rowCount() == 1, timeout=20000)
    assert window.jobs_model.jobs[0].options["glossary"] == [["Bahnhof", "train station"], ["ComfyUI", None]]
    qtbot.waitUntil(lambda: load_settings(data_dir).glossary == ["ComfyUI", "Bahnhof = train station"], timeout=10000)
    with qtbot.waitSignal(gui.facade.closed, timeout=60000):
        gui.quit()
