"""Settings → Models → "Install from file…": a translation package downloaded elsewhere, installed off the GUI thread.

The real zh→en package installs and its row says whom to credit; a damaged copy says why
in full and leaves the models folder as it was. The file dialog is the only step skipped
(the button's handler is called with the path it would return).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest
from PySide6.QtWidgets import QFileDialog

from app.gui.app import Gui
from app.ml import opus_mt
from tests.opus_mt import zh_en_package


def test_a_package_file_installs_and_a_damaged_one_says_why_and_changes_nothing(
        qtbot: Any, tmp_path: Path, data_dir: Path, start_gui: Callable[..., Gui], monkeypatch: pytest.MonkeyPatch) -> None:
    gui = start_gui()
    dialog = gui.window.open_settings()
    chosen = {"path": str(zh_en_package())}
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (chosen["path"], ""))
    with qtbot.waitSignal(gui.facade.models.modelInstallEnded, timeout=120000) as ended:
        dialog.install_file_button.click()
    assert ended.args[:2] == ["translate-zh-en", ""]
    assert [p.pair for p in opus_mt.installed_translators(data_dir)] == ["zh→en"]
    qtbot.waitUntil(lambda: any(dialog.models.item(n, 0).text().startswith("translate-zh-en")
                                for n in range(dialog.models.rowCount())), timeout=10000)
    row = next(n for n in range(dialog.models.rowCount()) if dialog.models.item(n, 0).text().startswith("translate-zh-en"))
    dialog.models.selectRow(row)
    assert "Credit: OPUS-MT" in dialog.model_about.text() and not dialog.use_button.isEnabled()

    damaged = tmp_path / "damaged.argosmodel"
    damaged.write_bytes(zh_en_package().read_bytes()[:20_000_000])
    chosen["path"] = str(damaged)
    before = sorted(p.name for p in (data_dir / "models").iterdir())
    with qtbot.waitSignal(gui.facade.models.modelInstallEnded, timeout=60000) as ended:
        dialog.install_file_button.click()
    assert ended.args[1] == "bad_package" and "damaged.argosmodel" in ended.args[2]
    assert sorted(p.name for p in (data_dir / "models").iterdir()) == before
