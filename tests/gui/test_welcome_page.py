"""The first-run page: shown on an empty library only, says what will be written, and its choices reach the first job."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from app.gui.app import Gui
from app.settings import Settings, load_settings, save_settings
from tests.engine_stages import make_media


def test_first_run_page_choices_apply_to_the_first_job_and_it_never_shows_again(
        qtbot: Any, tmp_path: Path, data_dir: Path, start_gui: Callable[..., Gui]) -> None:
    save_settings(data_dir, Settings(target_lang="de", naming="media-server"))
    gui = start_gui()
    window, page = gui.window, gui.window.welcome
    qtbot.waitUntil(lambda: window.pages.currentWidget() is window.welcome_page, timeout=10000)
    assert page.target_lang.code() == "de"
    assert "Holiday.en.srt, Holiday.de.srt, Holiday.de.ass" in page.examples.text()
    assert "cat.jpg.sidecar.json" in page.examples.text()
    qtbot.waitUntil(lambda: page.recommended is not None, timeout=10000)
    offer = page.download.text()
    assert "en→de translator" in offer and "translate-en-de" in offer, "the exact download German subtitles need"
    assert page.chosen() == "download", "the translator is one click away, chosen by default"
    assert "waits for its translator" in page.later.text()
    page.target_lang.set_code("zh")
    assert page.recommended is not None and page.recommended.name == "translate-en-zh"
    page.target_lang.set_code("de")

    # The examples follow the languages chosen on the page.
    page.target_lang.set_code("fr")
    assert "Holiday.fr.srt" in page.examples.text() and "Holiday.de.srt" not in page.examples.text()
    page.endpoint.setChecked(True)
    assert page.endpoint_url.isEnabled() and "sent to this address" in page.endpoint_note.text()
    page.endpoint_url.setText("http://127.0.0.1:1234/v1")

    media = tmp_path / "Holiday"
    make_media(media, 2)
    window.add_paths([media])
    qtbot.waitUntil(lambda: window.jobs_model.rowCount() == 1, timeout=20000)
    assert window.pages.currentWidget() is window.main_page
    assert window.jobs_model.jobs[0].options["target_lang"] == "fr", "the page's language did not reach the first job"
    qtbot.waitUntil(lambda: load_settings(data_dir).welcome_dismissed, timeout=10000)
    saved = json.loads((data_dir / "settings.json").read_text())
    assert (saved["target_lang"], saved["translation_endpoint"]) == ("fr", "http://127.0.0.1:1234/v1")
    with qtbot.waitSignal(gui.facade.closed, timeout=60000):
        gui.quit()

    again = start_gui()
    qtbot.waitUntil(lambda: again.window.jobs_model.rowCount() == 1, timeout=20000)
    assert again.window.pages.currentWidget() is again.window.main_page


def test_a_library_with_jobs_never_shows_it_and_skip_keeps_the_settings(
        qtbot: Any, tmp_path: Path, data_dir: Path, start_gui: Callable[..., Gui]) -> None:
    save_settings(data_dir, Settings(target_lang="ja"))
    gui = start_gui()
    window = gui.window
    qtbot.waitUntil(lambda: window.pages.currentWidget() is window.welcome_page, timeout=10000)
    window.welcome.target_lang.set_code("ko")
    window.welcome.skip.click()
    assert window.pages.currentWidget() is window.main_page
    qtbot.waitUntil(lambda: load_settings(data_dir).welcome_dismissed, timeout=10000)
    assert load_settings(data_dir).target_lang == "ja", "Skip changed a setting"
    with qtbot.waitSignal(gui.facade.closed, timeout=60000):
        gui.quit()

    # A library that already has a job, whatever the flag says, opens on its jobs.
    save_settings(data_dir, Settings(target_lang="ja", welcome_dismissed=False))
    gui = start_gui()
    media = tmp_path / "Series"
    make_media(media, 1)
    gui.window.add_paths([media])
    qtbot.waitUntil(lambda: gui.window.jobs_model.rowCount() == 1, timeout=20000)
    with qtbot.waitSignal(gui.facade.closed, timeout=60000):
        gui.quit()
    save_settings(data_dir, Settings(target_lang="ja", welcome_dismissed=False))
    third = start_gui()
    qtbot.waitUntil(lambda: third.window.jobs_model.rowCount() == 1, timeout=20000)
    assert third.window.pages.currentWidget() is third.window.main_page
