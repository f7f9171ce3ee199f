"""A global pause is visible (status bar, window title, tray icon and tooltip) and explained on new jobs; a job's
Pause/Resume buttons are enabled only where they can do something; the tray says what Sidecar is doing."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from app.gui.activity import activity_line
from app.gui.app import Gui
from app.gui.tray import Tray
from app.store.records import JobSummary
from app.store.states import JobSummaryStatus
from tests.engine_stages import make_media
from tests.gui.conftest import library_factory


def _job(status: JobSummaryStatus, folder: str = "/media/Film", done: int = 3, total: int = 12) -> JobSummary:
    return JobSummary(1, folder, status, status == JobSummaryStatus.PAUSED, total, done, 0, 0, 0, 0, None, None, 0.0)


def test_the_tray_line_says_what_sidecar_is_doing() -> None:
    assert activity_line([_job(JobSummaryStatus.RUNNING)], False) == "Sidecar — 3 of 12 files, working on Film"
    assert activity_line([_job(JobSummaryStatus.PAUSED)], True) == "Sidecar — Paused: 3 of 12 files done"
    assert activity_line([], True) == "Sidecar — Paused: new jobs wait for Resume all"
    assert activity_line([_job(JobSummaryStatus.COMPLETED, done=12)], False) == "Sidecar — Idle"


def test_pause_all_is_shown_everywhere_and_explained_on_the_next_job(qtbot: Any, tmp_path: Path,
                                                                     start_gui: Callable[..., Gui]) -> None:
    gui = start_gui(library_factory(max_sleep=0.3))
    window, queue = gui.window, gui.window.queue
    tray = Tray(gui.facade, window, window.windowIcon())  # offscreen has no tray; the object works the same
    plain = tray.icon.icon().pixmap(32, 32).toImage()
    qtbot.waitUntil(lambda: window.windowTitle() == "Sidecar", timeout=10000)
    assert not window.pause_indicator.isVisible()

    window.pause_all_action.trigger()  # with nothing to do, as the person in the issue did
    qtbot.waitUntil(lambda: window.pause_indicator.isVisible(), timeout=10000)
    assert "paused" in window.pause_indicator.text() and window.windowTitle() == "Sidecar — Paused"
    assert tray.icon.toolTip() == "Sidecar — Paused: new jobs wait for Resume all"
    assert tray.icon.icon().pixmap(32, 32).toImage() != plain, "the tray icon does not show the pause"

    media = tmp_path / "Series"
    make_media(media, 2)
    window.add_paths([media])
    qtbot.waitUntil(lambda: window.jobs_model.rowCount() == 1 and window.jobs_model.jobs[0].status == "paused",
                    timeout=20000)
    assert "everything is paused" in window.statusBar().currentMessage()
    assert "Pause all" in window.jobs_model.data(window.jobs_model.index(0, 1), 3)  # ToolTipRole
    qtbot.waitUntil(lambda: queue.model.job is not None and queue.model.job.paused, timeout=10000)
    assert not queue.resume_button.isEnabled() and "Resume all" in queue.resume_button.toolTip()
    assert not queue.pause_button.isEnabled()

    window.pause_indicator.linkActivated.emit("resume")  # the indicator's own "Resume all"
    qtbot.waitUntil(lambda: not window.pause_indicator.isVisible(), timeout=10000)
    assert tray.icon.icon().pixmap(32, 32).toImage() == plain
    qtbot.waitUntil(lambda: window.jobs_model.jobs[0].status == "completed", timeout=60000)
    qtbot.waitUntil(lambda: queue.model.job is not None and queue.model.job.status == "completed", timeout=10000)
    assert not queue.pause_button.isEnabled() and not queue.resume_button.isEnabled(), "buttons enabled on a finished job"
    qtbot.waitUntil(lambda: tray.icon.toolTip() == "Sidecar — Idle", timeout=10000)


def test_the_first_close_to_the_tray_says_sidecar_keeps_working_once(qtbot: Any, data_dir: Path,
                                                                    start_gui: Callable[..., Gui]) -> None:
    from PySide6.QtWidgets import QMessageBox, QSystemTrayIcon

    from app.settings import load_settings

    gui = start_gui()
    window = gui.window
    window.has_tray = True
    told: list[tuple[str, str]] = []
    window.trayNotice.connect(lambda title, text: told.append((title, text)))
    with qtbot.waitSignal(gui.facade.settings.settingsSaved, timeout=10000):
        window.close()
    assert not window.isVisible() and load_settings(data_dir).tray_notice_shown
    if QSystemTrayIcon.supportsMessages():
        assert told and told[0][0] == "Sidecar keeps working"
    else:
        assert isinstance(window.close_notice, QMessageBox) and "background" in window.close_notice.text()
        window.close_notice.close()
    window.show()
    told.clear()
    window.close()
    assert not window.isVisible() and told == []
