"""The glossary in the app: Settings → Glossary (a generated term / rendering list) is saved and frozen into new jobs;
the first-run page's terms reach the first job."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QLineEdit, QTableWidget

from app.gui.app import Gui
from app.gui.settings_dialog import NEW_JOBS_NOTICE, SettingsDialog
from app.settings import Settings, load_settings, save_settings
from tests.engine_stages import make_media


def test_the_settings_glossary_is_saved_and_new_jobs_freeze_it(qtbot: Any, tmp_path: Path, data_dir: Path,
                                                               start_gui: Callable[..., Gui]) -> None:
    """The glossary's generated list editor (term / rendering rows) and the endpoint model's generated text field."""
    save_settings(data_dir, Settings(target_lang="de", welcome_dismissed=True, glossary=["Winterfell"]))
    gui = start_gui()
    dialog = gui.window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    field = dialog.fields["glossary"]
    glossary = field.table
    assert isinstance(glossary, QTableWidget) and dialog.tabs.widget(1).isAncestorOf(glossary)
    dialog.tabs.setCurrentIndex(1)
    qtbot.waitUntil(glossary.isVisible)
    page = dialog.tabs.widget(1)
    qtbot.waitUntil(lambda: glossary.height() > page.height() // 2)  # a tab of its own: the table takes its height
    assert [glossary.horizontalHeaderItem(c).text() for c in (0, 1)] == ["Term", "Rendering in translations (optional)"]
    assert field.rows() == [("Winterfell", "")] and glossary.rowCount() == 2, "one empty row waits for the next term"
    assert not dialog.notice.isVisibleTo(dialog)
    glossary.item(1, 0).setText("Jon Snow")  # typed into the empty row: a new empty row appears below
    glossary.item(1, 1).setText(" Jon Schnee ")
    glossary.item(2, 0).setText("  ComfyUI  ")
    assert glossary.rowCount() == 4 and field.rows()[-1] == ("ComfyUI", "")
    assert NEW_JOBS_NOTICE in dialog.notice.text(), "the glossary is frozen into jobs: the dialog says new jobs use it"
    model = dialog.fields["translation_endpoint_model"]
    assert isinstance(model, QLineEdit) and model.text() == "" and model.placeholderText() == "empty: the server's default"
    model.setText("  qwen2.5:7b-instruct ")
    with qtbot.waitSignal(gui.facade.settings.settingsSaved, timeout=10000):
        dialog.save()
    saved = load_settings(data_dir)
    assert saved.glossary == ["Winterfell", "Jon Snow = Jon Schnee", "ComfyUI"]
    assert saved.translation_endpoint_model == "qwen2.5:7b-instruct"
    again = SettingsDialog(gui.facade, saved, gui.window)
    qtbot.addWidget(again)
    assert again.fields["glossary"].rows() == [("Winterfell", ""), ("Jon Snow", "Jon Schnee"), ("ComfyUI", "")]
    table = again.fields["glossary"].table
    table.item(0, 0).setText("")  # clearing a term (its rendering is empty) removes its row
    assert again.edited().glossary == ["Jon Snow = Jon Schnee", "ComfyUI"] and table.rowCount() == 3
    table.selectRow(1)
    qtbot.keyClick(table, Qt.Key.Key_Delete)  # so does Delete on a selected row
    assert again.edited().glossary == ["Jon Snow = Jon Schnee"] and table.rowCount() == 2
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


def test_the_glossary_has_add_and_remove_and_typing_survives_tab_and_enter(qtbot: Any, data_dir: Path,
                                                                          start_gui: Callable[..., Gui]) -> None:
    """Issue 39.8: no Add or Remove button; typed text was lost after Tab; Enter saved and closed the whole dialog."""
    save_settings(data_dir, Settings(welcome_dismissed=True, glossary=["Winterfell"]))
    gui = start_gui()
    dialog = gui.window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    field = dialog.fields["glossary"]
    dialog.show_tab_of(field)
    qtbot.waitUntil(field.isVisible)
    assert field.add_button.isVisible() and field.remove_button.isVisible() and not field.remove_button.isEnabled()
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).setDefault(True)  # what Enter presses in a dialog
    qtbot.mouseClick(field.add_button, Qt.MouseButton.LeftButton)  # starts typing a term in the empty row
    qtbot.waitUntil(lambda: field.table.state() == field.table.State.EditingState)
    assert field.table.currentRow() == 1
    editor = dialog.focusWidget()
    qtbot.keyClicks(editor, "Jon Snow")
    qtbot.keyClick(editor, Qt.Key.Key_Tab)  # on to its rendering
    qtbot.waitUntil(lambda: dialog.focusWidget() is not editor and field.table.state() == field.table.State.EditingState)
    qtbot.keyClicks(dialog.focusWidget(), "Jon Schnee")
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)  # commits the cell; the dialog stays open
    qtbot.waitUntil(lambda: field.table.state() != field.table.State.EditingState)
    assert dialog.isVisible()
    assert field.rows() == [("Winterfell", ""), ("Jon Snow", "Jon Schnee")] and field.table.rowCount() == 3
    qtbot.keyClick(field.table, Qt.Key.Key_Return)  # Enter outside an editor edits, never presses Save
    assert dialog.isVisible() and load_settings(data_dir).glossary == ["Winterfell"]
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Escape)
    field.table.selectRow(0)
    assert field.remove_button.isEnabled()
    qtbot.mouseClick(field.remove_button, Qt.MouseButton.LeftButton)
    assert field.rows() == [("Jon Snow", "Jon Schnee")]
    assert dialog.isVisible()
    with qtbot.waitSignal(gui.facade.settings.settingsSaved, timeout=10000):
        dialog.save()
    assert load_settings(data_dir).glossary == ["Jon Snow = Jon Schnee"]
