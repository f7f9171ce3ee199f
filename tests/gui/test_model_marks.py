"""Settings → Models marks the placeholder and the recommended model in the table, in the window's language, and a
failed download says why (issue 39.6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from PySide6.QtCore import Qt

from app.gui.app import Gui
from app.gui.settings_dialog import SettingsDialog
from app.gui.translations import install_translators
from app.settings import Settings, save_settings
from tests.model_server import ModelServer


@pytest.fixture
def catalogue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModelServer]:
    """A placeholder translator, a recommended one served from loopback (its file is missing: 404), and a plain one."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    server = ModelServer({}).start()
    resources = tmp_path / "resources"
    resources.mkdir()
    (resources / "models.json").write_text(json.dumps({"version": 1, "models": [
        {"name": "tiny-llm", "role": "translation", "format": "gguf", "bundled": ["json"], "url": "", "size": 1,
         "sha256": None, "licence": "MIT", "memory_mb": 1, "placeholder": True, "description": "English only"},
        {"name": "good-llm", "role": "translation", "format": "gguf", "url": server.url("/gone.gguf"), "size": 10,
         "sha256": None, "licence": "MIT", "memory_mb": 1, "recommended": True, "description": "English only",
         "files": [{"path": "good.gguf", "url": server.url("/gone.gguf"), "size": 10, "sha256": "0" * 64}]},
        {"name": "other-asr", "role": "asr", "format": "ctranslate2-folder", "bundled": ["json"], "url": "", "size": 1,
         "sha256": None, "licence": "MIT", "memory_mb": 1, "description": "English only"},
    ]}))
    monkeypatch.setenv("SIDECAR_RESOURCES", str(resources))
    yield server
    server.stop()


def _dialog(qtbot: Any, gui: Gui) -> SettingsDialog:
    dialog = gui.window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    qtbot.waitUntil(lambda: dialog.models.rowCount() == 3, timeout=20000)
    dialog.show_tab_of(dialog.models)
    return dialog


def _names(dialog: SettingsDialog) -> list[str]:
    return [dialog.models.item(n, 0).text() for n in range(dialog.models.rowCount())]


@pytest.mark.parametrize(("language", "names", "role"), [
    ("en", ["tiny-llm (placeholder)", "good-llm (recommended)", "other-asr"], "translation"),
    ("zh_CN", ["tiny-llm（占位）", "good-llm（推荐）", "other-asr"], "翻译"),
    ("de", ["tiny-llm (Platzhalter)", "good-llm (empfohlen)", "other-asr"], "Übersetzung"),
])
def test_the_placeholder_and_the_recommended_model_are_marked_without_a_click(
        qtbot: Any, qapp: Any, data_dir: Path, catalogue: ModelServer, start_gui: Callable[..., Gui], language: str,
        names: list[str], role: str) -> None:
    save_settings(data_dir, Settings(welcome_dismissed=True, ui_language=language))
    try:
        gui = start_gui()
        dialog = _dialog(qtbot, gui)
        assert _names(dialog) == names
        assert dialog.models.item(0, 1).text() == role
        warning = dialog.models.item(0, 0).toolTip()
        assert "Sidecar" in warning and (language == "en") == ("placeholder" in warning), warning
        dialog.select_model("tiny-llm")
        assert dialog.model_about.text().startswith(warning.splitlines()[0])  # the translated warning, not English
    finally:
        install_translators(qapp, "en")


def test_a_failed_download_says_why_in_words(qtbot: Any, data_dir: Path, catalogue: ModelServer,
                                             start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    dialog = _dialog(qtbot, gui)
    dialog.select_model("good-llm")
    with qtbot.waitSignal(gui.facade.models.modelInstallEnded, timeout=30000) as ended:
        qtbot.mouseClick(dialog.install_button, Qt.MouseButton.LeftButton)
    assert ended.args[:2] == ["good-llm", "download_failed"]
    status = dialog.model_status.text()
    assert "The model download failed." in status and "404" in status and "(download_failed)" not in status, status
