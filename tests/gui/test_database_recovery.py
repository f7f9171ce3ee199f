"""A mistyped Library database URL never locks the person out: Save checks it, and a start that cannot
open the library offers a way back (correct the URL, or the library on this computer) without a text editor."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import Qt

from app.engine.library import Library
from app.gui.app import Gui, build_gui
from app.gui.database_dialog import DatabaseDialog
from app.gui.settings_dialog import SettingsDialog
from app.settings import Settings, load_settings, save_settings
from tests.gui.conftest import library_factory
from tests.postgres_server import _free_port


def _closed_port_url() -> str:
    return f"postgresql+psycopg://sidecar@127.0.0.1:{_free_port()}/sidecar"


def test_a_start_on_an_unreachable_library_offers_the_local_one_and_gets_back_to_work(
        qtbot: Any, data_dir: Path) -> None:
    wrong = _closed_port_url()
    save_settings(data_dir, Settings(welcome_dismissed=True, database_url=wrong))
    real = library_factory()

    def factory(root: Path, settings: Settings) -> Library:
        Library.open(root, settings).close()  # opens settings.database_url as the app does: raises when it cannot
        return real(root, settings)

    gui = build_gui([], data_dir, factory, poll_ms=100)
    assert isinstance(gui, Gui)
    try:
        gui.window.show()
        with qtbot.waitSignal(gui.facade.startFailed, timeout=30000) as failed:
            pass
        assert failed.args[0] == "database_unavailable"
        dialog = gui.window.database_dialog
        assert isinstance(dialog, DatabaseDialog) and dialog.isVisible()
        assert "cannot be reached" in dialog.reason.text() and dialog.url.text() == wrong
        assert str(data_dir / "library.sqlite3") in dialog.local_button.toolTip()
        # Settings open while the library is out of reach (never "still loading" forever)
        assert isinstance(gui.window.open_settings(), SettingsDialog)

        # another wrong address is checked, refused in words, and not saved
        dialog.url.setText("postgres://sidecar@127.0.0.1:notaport/x")
        with qtbot.waitSignal(gui.facade.settings.databaseChecked, timeout=30000):
            qtbot.mouseClick(dialog.retry_button, Qt.MouseButton.LeftButton)
        assert dialog.status.text().startswith("Does not open:") and dialog.isVisible()
        assert load_settings(data_dir).database_url == wrong

        with qtbot.waitSignal(gui.facade.started, timeout=30000):
            qtbot.mouseClick(dialog.local_button, Qt.MouseButton.LeftButton)
        assert load_settings(data_dir).database_url == "" and gui.facade.start_error is None
        qtbot.waitUntil(lambda: gui.window.jobs_model.rowCount() == 0 and gui.window.database_dialog is None,
                        timeout=10000)
    finally:
        with qtbot.waitSignal(gui.facade.closed, timeout=60000):
            gui.quit()
        gui.window.close()


def test_settings_refuse_to_save_a_database_url_that_does_not_open(qtbot: Any, data_dir: Path,
                                                                  start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    dialog = gui.window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    assert str(data_dir / "library.sqlite3") in dialog.database_where.text(), "where the local library is, is not shown"
    dialog.fields["database_url"].setText(_closed_port_url())
    with qtbot.waitSignal(gui.facade.settings.databaseChecked, timeout=30000):
        dialog.save()
    assert dialog.isVisible() and dialog.database_check.isVisibleTo(dialog)
    assert "cannot be reached" in dialog.database_check.text()
    assert load_settings(data_dir).database_url == "", "a URL that does not open was saved"

    dialog.fields["database_url"].setText(f"sqlite:///{data_dir / 'other.sqlite3'}")  # a new library file: fine
    with qtbot.waitSignal(gui.facade.settings.settingsSaved, timeout=30000):
        dialog.save()
    assert load_settings(data_dir).database_url.endswith("other.sqlite3")
