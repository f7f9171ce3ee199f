"""A job just added is selected and scrolled to, so its queue shows at once (issue 39.9)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from app.gui.app import Gui
from tests.engine_stages import make_media


def test_each_new_job_is_selected(qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    window = gui.window
    for n, name in enumerate(("first", "second", "third")):
        make_media(tmp_path / name, 1)
        window.add_paths([tmp_path / name])
        qtbot.waitUntil(lambda n=n: len(window.jobs_model.jobs) == n + 1, timeout=20000)
        newest = window.jobs_model.jobs[-1]
        qtbot.waitUntil(lambda newest=newest: window.selected_job() is not None
                        and window.selected_job().id == newest.id, timeout=10000)
        qtbot.waitUntil(lambda newest=newest: window.queue.model.job is not None
                        and window.queue.model.job.id == newest.id, timeout=10000)
