"""The window drives and reflects the real engine (fake stage work, see conftest)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from app.gui.app import Gui
from app.gui.facade import GuiThreadViolation
from tests.engine_stages import make_media
from tests.gui.conftest import library_factory, off_gui


def _drop(gui: Gui, *paths: Path) -> None:
    """Deliver a real drag-enter + drop of local URLs to the window, as a file manager would."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    pos = gui.window.rect().center()  # QDragEnterEvent takes a QPoint, QDropEvent a QPointF
    enter = QDragEnterEvent(pos, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(gui.window, enter)
    assert enter.isAccepted(), "the window refuses a drag of local folders"
    drop = QDropEvent(QPointF(pos), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(gui.window, drop)
    assert drop.isAccepted()


def test_dropped_folder_becomes_a_job_and_the_view_follows_its_items(qtbot: Any, tmp_path: Path,
                                                                    start_gui: Callable[..., Gui]) -> None:
    media = tmp_path / "Holiday"
    make_media(media, 5)
    gui = start_gui(library_factory(max_sleep=0.15))
    seen_done: list[int] = []
    gui.facade.jobs.jobsChanged.connect(lambda jobs: seen_done.extend(j.done for j in jobs))

    _drop(gui, media)
    jobs = gui.window.jobs_model
    qtbot.waitUntil(lambda: jobs.rowCount() == 1 and jobs.jobs[0].status != "creating", timeout=20000)
    job = gui.window.jobs_model.jobs[0]
    assert job.folder == str(media) and job.total == 5
    assert gui.window.selected_job() is not None and gui.window.selected_job().id == job.id

    queue = gui.window.queue.model
    qtbot.waitUntil(lambda: queue.rowCount() == 5 and all(queue.item_at(r) is not None for r in range(5)), timeout=20000)
    qtbot.waitUntil(lambda: [queue.item_at(r).status for r in range(5)] == ["completed"] * 5, timeout=60000)
    qtbot.waitUntil(lambda: gui.window.jobs_model.jobs[0].status == "completed", timeout=10000)
    assert gui.window.jobs_model.data(gui.window.jobs_model.index(0, 2)) == "5 / 5"
    assert any(0 < d < 5 for d in seen_done), f"the jobs view never showed a job in progress: {sorted(set(seen_done))}"
    assert sorted(p.name for p in media.glob("*.test.srt")) == [f"clip{i:03d}.test.srt" for i in range(5)]
    status = off_gui(lambda: gui.facade.library.status())  # type: ignore[union-attr]
    assert [(j.done, j.total) for j in status] == [(5, 5)]


def test_pause_and_resume_buttons_change_engine_state(qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    media = tmp_path / "Series"
    make_media(media, 6)
    gui = start_gui(library_factory(max_sleep=0.3))
    library = gui.facade.library
    assert library is not None
    gui.window.add_paths([media])
    qtbot.waitUntil(lambda: gui.window.queue.model.job is not None, timeout=20000)

    gui.window.pause_all_action.trigger()
    qtbot.waitUntil(lambda: off_gui(lambda: all(j.paused for j in library.status())), timeout=10000)
    qtbot.waitUntil(lambda: gui.window.jobs_model.jobs[0].status == "paused", timeout=10000)
    frozen = off_gui(lambda: library.status()[0].done)
    assert off_gui(lambda: library.store.jobs.paused_state())[0] is True

    gui.window.resume_all_action.trigger()
    qtbot.waitUntil(lambda: off_gui(lambda: not library.status()[0].paused), timeout=10000)

    queue = gui.window.queue
    qtbot.waitUntil(lambda: queue.pause_button.isEnabled(), timeout=10000)
    qtbot.mouseClick(queue.pause_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: off_gui(lambda: library.status()[0].paused), timeout=10000)
    assert off_gui(lambda: library.store.jobs.paused_state()) == (False, {queue.model.job.id})
    qtbot.waitUntil(lambda: queue.resume_button.isEnabled() and not queue.pause_button.isEnabled(), timeout=10000)
    qtbot.mouseClick(queue.resume_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: off_gui(lambda: library.status()[0].status) == "completed", timeout=60000)
    assert off_gui(lambda: library.status()[0].done) == 6 >= frozen


def test_the_store_raises_on_the_gui_thread_while_the_app_runs(start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    library = gui.facade.library
    assert library is not None
    with pytest.raises(GuiThreadViolation):
        library.status()
    assert gui.facade.guard.violations
    gui.facade.guard.violations.clear()  # this one was on purpose; teardown checks no other call tripped it
    assert off_gui(library.status) == []


def test_shortcuts_pause_resume_and_jump_to_search(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    from PySide6.QtGui import QKeySequence
    from PySide6.QtTest import QTest

    gui = start_gui()
    window = gui.window
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    shortcuts = {a.text(): a.shortcut().toString() for a in (window.pause_all_action, window.resume_all_action,
                                                             window.find_action, window.add_folder_action)}
    assert shortcuts == {"Pause all": "Ctrl+Shift+P", "Resume all": "Ctrl+Shift+R", "Search": "Ctrl+F",
                         "Add folder…": "Ctrl+O"}
    assert not window.pause_all_action.icon().isNull() and "Ctrl+Shift+P" in window.pause_all_action.toolTip()
    library = gui.facade.library
    assert library is not None
    QTest.keySequence(window, QKeySequence("Ctrl+Shift+P"))
    qtbot.waitUntil(lambda: off_gui(lambda: library.store.jobs.paused_state())[0] is True, timeout=10000)
    QTest.keySequence(window, QKeySequence("Ctrl+Shift+R"))
    qtbot.waitUntil(lambda: off_gui(lambda: library.store.jobs.paused_state())[0] is False, timeout=10000)
    window.tabs.setCurrentIndex(0)
    QTest.keySequence(window, QKeySequence("Ctrl+F"))
    assert window.tabs.currentWidget() is window.search
    assert QApplication.focusWidget() is window.search.query
