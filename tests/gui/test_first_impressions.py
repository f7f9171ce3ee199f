"""Defaults and hints a new person meets (issue 39.9, 39.10)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Callable

from PySide6.QtWidgets import QLabel

from app.gui.app import Gui
from app.gui.settings_dialog import SettingsDialog
from app.gui.translations import install_translators
from app.settings import Settings, save_settings


def test_the_first_run_page_offers_subtitles_in_the_windows_language_and_names_audio(
        qtbot: Any, qapp: Any, data_dir: Path, start_gui: Callable[..., Gui]) -> None:
    save_settings(data_dir, Settings(ui_language="zh_CN"))
    try:
        gui = start_gui()
        page = gui.window.welcome
        qtbot.waitUntil(lambda: gui.window.pages.currentWidget() is gui.window.welcome_page, timeout=10000)
        qtbot.waitUntil(lambda: page.target_lang.value() == "zh", timeout=10000)  # not English for a Chinese window
        assert any(all(word in label.text() for word in ("视频", "音频", "照片")) for label in page.findChildren(QLabel)), \
            "the page does not mention audio"
    finally:
        install_translators(qapp, "en")


def test_the_english_first_run_page_names_audio_and_keeps_english(qtbot: Any, data_dir: Path,
                                                                  start_gui: Callable[..., Gui]) -> None:
    save_settings(data_dir, Settings(ui_language="en"))
    gui = start_gui()
    page = gui.window.welcome
    qtbot.waitUntil(lambda: page.settings is not None, timeout=10000)
    assert page.target_lang.value() == "en"
    assert any("audio recordings" in label.text() for label in page.findChildren(QLabel))


def test_a_schedule_that_never_works_is_warned_of(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    dialog = gui.window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    dialog.fields["work_weekdays"].set_value("off")
    dialog._changed()
    assert "never works" not in dialog.notice.text()
    dialog.fields["work_weekends"].set_value("off")
    dialog._changed()
    assert "never works" in dialog.notice.text() and dialog.notice.isVisibleTo(dialog)
    assert dataclasses.replace(dialog.edited()).work_weekends == "off"


def test_the_search_hint_offers_a_picture_search_only_with_a_visual_model(qtbot: Any,
                                                                         start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    search = gui.window.search
    with qtbot.waitSignal(gui.facade.models.modelsListed, timeout=20000):
        gui.facade.models.list_models()
    hint = search.query.placeholderText()
    assert "sunglasses" not in hint and "invoice 4471" in hint  # no visual model in a fresh data dir


def test_a_found_picture_the_desktop_cannot_open_says_so(qtbot: Any, tmp_path: Path, monkeypatch: Any,
                                                        start_gui: Callable[..., Gui]) -> None:
    """Issue 39.9: double-clicking an image result did nothing visible when no application opens it."""
    from PySide6.QtGui import QDesktopServices
    from PySide6.QtWidgets import QMessageBox

    picture = tmp_path / "scan.png"
    picture.write_bytes(b"not really a png")
    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()) and False)
    gui = start_gui()
    search = gui.window.search
    search.open_image(str(picture))
    assert opened == [str(picture)]
    assert isinstance(search.no_launcher, QMessageBox) and search.no_launcher.isVisible()
    assert str(picture) in search.no_launcher.text()
    search.no_launcher.close()
