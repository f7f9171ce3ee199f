"""Jobs a person can tell apart and understand (issue 39.9): two jobs of one folder, a folder with no media."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from app.gui.app import Gui
from tests.engine_stages import make_media


def test_two_jobs_of_one_folder_are_told_apart(qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    window, jobs = gui.window, gui.window.jobs_model
    make_media(tmp_path / "lib2", 1)
    window.add_paths([tmp_path / "lib2"])
    qtbot.waitUntil(lambda: jobs.rowCount() == 1, timeout=20000)
    assert jobs.data(jobs.index(0, 0)) == "lib2"
    window.add_paths([tmp_path / "lib2"])
    qtbot.waitUntil(lambda: jobs.rowCount() == 2, timeout=20000)
    names = [jobs.data(jobs.index(row, 0)) for row in range(2)]
    assert names == [f"lib2 (job {job.id})" for job in jobs.jobs] and names[0] != names[1]


def test_a_folder_without_media_says_so(qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    window, jobs = gui.window, gui.window.jobs_model
    empty = tmp_path / "Notes"
    empty.mkdir()
    (empty / "readme.txt").write_text("no media here")
    window.add_paths([empty])
    qtbot.waitUntil(lambda: jobs.rowCount() == 1 and jobs.jobs[0].status == "completed", timeout=20000)
    assert jobs.data(jobs.index(0, 1)) == "Finished — no media files in this folder"
    qtbot.waitUntil(lambda: "nothing to do" in window.statusBar().currentMessage(), timeout=10000)
