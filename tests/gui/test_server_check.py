"""Settings asks a changed translation server for an answer when saved (issue 39.3), off the GUI thread."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any, Callable

from PySide6.QtWidgets import QDialogButtonBox

from app.gui.app import Gui
from app.gui.settings_dialog import SettingsDialog
from app.settings import load_settings
from tests.model_server import ModelServer


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _save(dialog: SettingsDialog) -> None:
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()


def test_a_server_that_does_not_answer_is_named_and_a_second_save_keeps_it(qtbot: Any, data_dir: Path,
                                                                          start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    dialog = gui.window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    gone = f"http://127.0.0.1:{_closed_port()}/v1"
    dialog.fields["translation_endpoint"].set_value(gone)
    with qtbot.waitSignal(gui.facade.settings.serverChecked, timeout=20000):
        _save(dialog)
    assert dialog.isVisible(), "not saved while the server does not answer"
    text = dialog.server_check.text()
    assert "does not answer" in text and "Connection refused" in text and "urlopen" not in text, text
    assert load_settings(data_dir).translation_endpoint == ""
    with qtbot.waitSignal(gui.facade.settings.settingsSaved, timeout=10000):
        _save(dialog)  # kept on purpose: a server started later
    assert load_settings(data_dir).translation_endpoint == gone


def test_a_server_that_answers_is_saved_after_its_check(qtbot: Any, data_dir: Path,
                                                       start_gui: Callable[..., Gui]) -> None:
    server = ModelServer(answer=lambda language, text: text).start()
    try:
        gui = start_gui()
        dialog = gui.window.open_settings()
        assert isinstance(dialog, SettingsDialog)
        dialog.fields["translation_endpoint"].set_value(server.url("/v1"))
        with qtbot.waitSignal(gui.facade.settings.settingsSaved, timeout=20000):
            _save(dialog)
        assert load_settings(data_dir).translation_endpoint == server.url("/v1")
        assert any(r.path.endswith("/v1/models") for r in server.requests), "the server was asked"
    finally:
        server.stop()
