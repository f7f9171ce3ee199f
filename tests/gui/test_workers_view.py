"""The Workers tab lists this app's engine and the other machines' workers, refreshed off the GUI thread."""

from __future__ import annotations

import os
import socket
from typing import Any, Callable

from PySide6.QtCore import Qt

from app.gui.app import Gui
from app.store.instances import InstanceInfo
from tests.gui.conftest import off_gui

GPU_BOX = InstanceInfo("gpu-box-41-aaaa", "gpu-box", 41, "worker", gpu="NVIDIA H200", version="0.1.0")
GONE = InstanceInfo("old-nas-7-bbbb", "old-nas", 7, "engine")


def _rows(gui: Gui) -> dict[str, list[str]]:
    model = gui.window.workers.model
    return {model.data(model.index(r, 0)) + ":" + model.data(model.index(r, 2)):
            [model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(model.rowCount())}


def test_workers_tab_shows_every_machine_and_follows_their_heartbeats(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    library = gui.facade.library
    assert library is not None
    off_gui(lambda: library.store.instances.beat(GPU_BOX, grace=60, running={"transcribe": 1}))
    off_gui(lambda: library.store.instances.beat(GONE, grace=-1))
    view = gui.window.workers
    view.timer.setInterval(100)
    gui.window.tabs.setCurrentWidget(view)

    here = f"{socket.gethostname()}:{os.getpid()}"
    qtbot.waitUntil(lambda: len(_rows(gui)) == 3, timeout=10000)
    rows = _rows(gui)
    assert rows[here][1] == "Engine" and rows[here][3] == "idle" and rows[here][6] == "yes"
    assert rows["gpu-box:41"][1:] == ["Worker", "41", "1 × Transcribe", rows["gpu-box:41"][4], "NVIDIA H200", "yes"]
    assert rows["gpu-box:41"][4].endswith(" s ago")
    assert rows["old-nas:7"][6] == "no"
    model = view.model
    dead_row = [r for r in range(model.rowCount()) if model.data(model.index(r, 0)) == "old-nas"][0]
    assert model.data(model.index(dead_row, 0), Qt.ItemDataRole.ForegroundRole) is not None, "a dead engine is greyed"

    # The next heartbeat of the GPU box changes what it runs; the tab follows without being asked.
    off_gui(lambda: library.store.instances.beat(GPU_BOX, grace=60, running={"translate": 2}))
    qtbot.waitUntil(lambda: _rows(gui)["gpu-box:41"][3] == "2 × Translate", timeout=10000)

    gui.window.tabs.setCurrentIndex(0)
    assert not view.timer.isActive(), "no polling while the tab is hidden"
