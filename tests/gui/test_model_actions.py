"""The Settings dialog's model actions against a real download from a loopback server.

Install shows progress and can be cancelled (nothing is installed, what arrived is
kept), Install again resumes with a Range request, then Use and Remove.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from PySide6.QtCore import Qt

from app.gui.app import Gui
from app.gui.settings_dialog import SettingsDialog
from app.ml.model_choice import active_model, models_list
from app.ml.model_state import install_dir
from app.ml.downloads import part_path
from tests.model_server import ModelServer

SIZE = 3 * 1024 * 1024 + 4321
HOLD_AT = 1024 * 1024


@pytest.fixture
def model_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ModelServer, bytes]]:
    """One downloadable asr model (a single file) served on 127.0.0.1, beside a bundled default."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    payload = os.urandom(SIZE)
    server = ModelServer({"/model.bin": payload}, hold_at=HOLD_AT).start()
    resources = tmp_path / "resources"
    resources.mkdir()
    (resources / "models.json").write_text(json.dumps({"version": 1, "models": [
        {"name": "bundled-base", "role": "asr", "format": "ctranslate2-folder", "bundled": ["json"], "url": "",
         "size": 1, "sha256": None, "licence": "MIT", "memory_mb": 1, "description": "stdlib as a bundle"},
        {"name": "big-asr", "role": "asr", "format": "ctranslate2-folder", "url": "", "size": SIZE,
         "sha256": None, "licence": "MIT", "memory_mb": 100, "description": "served from a test server",
         "files": [{"path": "model.bin", "url": server.url("/model.bin"), "size": SIZE,
                    "sha256": hashlib.sha256(payload).hexdigest()}]},
    ]}))
    monkeypatch.setenv("SIDECAR_RESOURCES", str(resources))
    yield server, payload
    server.release.set()
    server.stop()


def _row(dialog: SettingsDialog, name: str) -> int:
    return next(n for n in range(dialog.models.rowCount()) if dialog.models.item(n, 0).text() == name)


def test_install_can_be_cancelled_then_resumes_and_the_model_can_be_used_and_removed(
        qtbot: Any, data_dir: Path, model_server: tuple[ModelServer, bytes], start_gui: Callable[..., Gui]) -> None:
    server, payload = model_server
    gui = start_gui()
    dialog = gui.window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    qtbot.waitUntil(lambda: dialog.models.rowCount() == 2, timeout=20000)
    dialog.show_tab_of(dialog.models)
    dialog.select_model("big-asr")
    assert dialog.install_button.isEnabled() and not dialog.use_button.isEnabled()
    big = _row(dialog, "big-asr")
    assert dialog.models.item(big, 1).text() == "transcription", "the manager does not say what the model is for"
    assert dialog.models.item(big, 2).text().endswith(("MB", "GB")), "the manager does not show the model's size"
    assert not dialog.remove_button.isEnabled() and not dialog.cancel_install_button.isEnabled()
    progress: list[tuple[int, int]] = []
    gui.facade.models.modelProgress.connect(lambda name, done, total: progress.append((done, total)))

    qtbot.mouseClick(dialog.install_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(server.holding.is_set, timeout=20000)  # a third of the file has been sent
    # ...and received: on a busy machine the client can still be reading the first chunks when the server holds.
    qtbot.waitUntil(lambda: any(done >= HOLD_AT for done, _ in progress), timeout=20000)
    assert dialog.install_progress.isVisible() and dialog.cancel_install_button.isEnabled()
    assert not dialog.install_button.isEnabled()
    assert dialog.models.item(_row(dialog, "big-asr"), 3).text().startswith("downloading")
    with qtbot.waitSignal(gui.facade.models.modelInstallEnded, timeout=20000) as ended:
        qtbot.mouseClick(dialog.cancel_install_button, Qt.MouseButton.LeftButton)
        server.release.set()  # the server would now send the rest: the cancelled download must not take it
    assert ended.args[:2] == ["big-asr", "download_cancelled"]
    assert "Stopped downloading big-asr" in dialog.model_status.text()
    folder = install_dir(data_dir, "big-asr")
    assert not (folder / "model.bin").exists(), "a cancelled download left the model file"
    kept = part_path(folder / "model.bin").stat().st_size
    assert HOLD_AT <= kept < SIZE
    row = next(r for r in models_list(data_dir) if r["name"] == "big-asr")
    assert not row["installed"] and row["partial_download"]
    qtbot.waitUntil(lambda: dialog.models.item(_row(dialog, "big-asr"), 3).text() == "partly downloaded", timeout=20000)
    assert dialog.install_button.isEnabled() and not dialog.install_progress.isVisible()

    with qtbot.waitSignal(gui.facade.models.modelInstallEnded, timeout=60000) as ended:
        qtbot.mouseClick(dialog.install_button, Qt.MouseButton.LeftButton)
    assert ended.args[:2] == ["big-asr", ""]
    assert server.requests[-1].headers.get("Range") == f"bytes={kept}-", "the second install did not resume"
    assert (folder / "model.bin").read_bytes() == payload
    qtbot.waitUntil(lambda: dialog.models.item(_row(dialog, "big-asr"), 3).text() == "yes", timeout=20000)
    dialog.select_model("big-asr")
    assert dialog.use_button.isEnabled() and dialog.remove_button.isEnabled()

    qtbot.mouseClick(dialog.use_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.models.item(_row(dialog, "big-asr"), 4).text() == "✓", timeout=20000)
    assert active_model(data_dir, "asr").name == "big-asr"

    dialog.select_model("big-asr")
    qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.models.item(_row(dialog, "big-asr"), 3).text() == "no", timeout=20000)
    assert not folder.exists() and active_model(data_dir, "asr") is None
