"""The tray's "when to work" actions, Settings' Schedule & power block, notifications and start at login, through the real window and engine."""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

import pytest

from app.engine.autostart import autostart_entry, autostart_file, set_autostart
from app.engine.background import PAUSED, SCHEDULE, morning_after
from app.gui.app import Gui, app_icon
from app.gui.settings_dialog import SettingsDialog
from app.gui.tray import Tray
from app.settings import Settings, load_settings, save_settings
from tests.engine_stages import make_media
from tests.gui.conftest import off_gui


def tray_of(gui: Gui) -> Tray:
    """The app's tray where the platform has one (under Xvfb with a tray host); else one built the same way."""
    return gui.tray if gui.tray is not None else Tray(gui.facade, gui.window, app_icon())


def test_pause_for_an_hour_holds_the_engine_and_resume_now_lets_it_work(qtbot: Any, tmp_path: Path,
                                                                        start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    tray = tray_of(gui)
    assert [a.text() for a in tray.menu.actions() if a.text()][:4] == [
        "Show / hide", "Pause for 1 hour", "Pause until tomorrow morning", "Resume now"]
    assert not tray.resume_now_action.isEnabled()
    tray.pause_hour_action.trigger()
    qtbot.waitUntil(lambda: gui.facade.workers.hold is not None, timeout=10000)
    hold = gui.facade.workers.hold
    assert hold.reason == PAUSED and abs(hold.until.timestamp() - (time.time() + 3600)) < 30
    assert tray.icon.toolTip() == f"Sidecar — paused until {hold.until:%H:%M}"
    assert tray.resume_now_action.isEnabled()
    assert load_settings(gui.facade.data_dir).paused_until == pytest.approx(time.time() + 3600, abs=30)  # survives a restart

    media = tmp_path / "Held"
    make_media(media, 2)
    gui.window.add_paths([media])
    jobs = gui.window.jobs_model
    qtbot.waitUntil(lambda: len(jobs.jobs) == 1, timeout=20000)
    time.sleep(1.0)
    qtbot.waitUntil(lambda: jobs.status_label(jobs.jobs[0]).startswith("paused until"), timeout=5000)
    assert jobs.jobs[0].done == 0 and jobs.jobs[0].status == "queued"  # nothing claimed while paused

    tray.pause_morning_action.trigger()
    morning = morning_after(datetime.now())
    qtbot.waitUntil(lambda: gui.facade.workers.hold is not None and gui.facade.workers.hold.until == morning, timeout=10000)
    assert tray.icon.toolTip() == f"Sidecar — paused until {morning:%H:%M}"

    tray.resume_now_action.trigger()
    qtbot.waitUntil(lambda: jobs.jobs and jobs.jobs[0].status == "completed", timeout=30000)
    qtbot.waitUntil(lambda: tray.icon.toolTip() == "Sidecar — Idle", timeout=5000)
    assert load_settings(gui.facade.data_dir).paused_until == 0.0


def test_outside_the_schedule_the_row_and_tooltip_say_when_work_starts(qtbot: Any, tmp_path: Path, data_dir: Path,
                                                                         start_gui: Callable[..., Gui]) -> None:
    now = time.localtime()
    start = f"{(now.tm_hour + 2) % 24:02d}:00"
    window = f"{start}-{(now.tm_hour + 3) % 24:02d}:00"  # a window that has not begun, on every kind of day
    save_settings(data_dir, Settings(welcome_dismissed=True, work_weekdays=window, work_weekends=window))
    gui = start_gui()
    settings = off_gui(lambda: load_settings(data_dir))
    gui.facade.settings.save(settings)  # the window applies to the running engine (the test factory has no gate yet)
    tray = tray_of(gui)
    qtbot.waitUntil(lambda: gui.facade.workers.hold is not None, timeout=10000)
    assert gui.facade.workers.hold.reason == SCHEDULE
    assert tray.icon.toolTip() == f"Sidecar — waiting for the schedule (starts {start})"
    media = tmp_path / "Tonight"
    make_media(media, 1)
    gui.window.add_paths([media])
    jobs = gui.window.jobs_model
    qtbot.waitUntil(lambda: len(jobs.jobs) == 1, timeout=20000)
    qtbot.waitUntil(lambda: jobs.status_label(jobs.jobs[0]) == f"waiting for the schedule (starts {start})",
                    timeout=10000)  # once the scan is done: "Adding files" before
    tray.resume_now_action.trigger()  # "Resume now" works through the gap until the window opens
    qtbot.waitUntil(lambda: jobs.jobs[0].status == "completed", timeout=30000)


def test_schedule_block_round_trips_and_saves(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    original = Settings(work_weekdays="22:00-07:00", work_weekends="off", on_battery="below", battery_floor=25,
                        max_cores=1, pause_while_in_use=True, in_use_minutes=3, notify_review=False)
    dialog = SettingsDialog(gui.facade, original)
    qtbot.addWidget(dialog)
    weekdays, weekends, fields = dialog.fields["work_weekdays"], dialog.fields["work_weekends"], dialog.fields
    assert weekdays.mode.currentData() == "span" and not weekdays.start.isHidden()
    assert weekends.mode.currentData() == "off" and weekends.start.isHidden()
    assert fields["battery_floor"].isEnabled() and fields["in_use_minutes"].isEnabled()
    edited = dialog.edited()
    for name in ("work_weekdays", "work_weekends", "on_battery", "battery_floor", "max_cores", "pause_while_in_use",
                 "in_use_minutes", "notify_finished", "notify_review", "notify_failed"):
        assert getattr(edited, name) == getattr(original, name), name
    weekends.mode.setCurrentIndex(weekends.mode.findData("all"))
    fields["on_battery"].set_value("keep_going")
    assert not fields["battery_floor"].isEnabled(), "enabled only with on_battery=below, as declared"
    assert (dialog.edited().work_weekends, dialog.edited().on_battery) == ("all", "keep_going")


def test_start_at_login_writes_and_removes_the_xdg_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    path = set_autostart(True, ["/opt/Sidecar/sidecar"])
    assert path == tmp_path / "config" / "autostart" / "sidecar.desktop" == autostart_file()
    text = path.read_text()
    assert "Exec=/opt/Sidecar/sidecar --tray\n" in text and text.startswith("[Desktop Entry]\nType=Application\n")
    assert 'Exec="/home/a b/sidecar" --tray' in autostart_entry(["/home/a b/sidecar"])
    set_autostart(False)
    assert not path.exists()
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/ignored")  # not absolute: the spec says use ~/.config
    assert autostart_file() == Path.home() / ".config" / "autostart" / "sidecar.desktop"


def test_saving_the_checkbox_writes_the_entry(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              start_gui: Callable[..., Gui]) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    gui = start_gui()
    entry = tmp_path / "config" / "autostart" / "sidecar.desktop"
    with qtbot.waitSignal(gui.facade.settings.settingsSaved, timeout=10000):
        gui.facade.settings.save(Settings(welcome_dismissed=True, start_at_login=True))
    assert entry.is_file() and "--tray" in entry.read_text()
    with qtbot.waitSignal(gui.facade.settings.settingsSaved, timeout=10000):
        gui.facade.settings.save(Settings(welcome_dismissed=True, start_at_login=False))
    assert not entry.exists()


def test_a_finished_job_is_one_desktop_notification_and_clicking_it_opens_the_job(
        qtbot: Any, tmp_path: Path, notification_daemon: Any, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    assert gui.facade.jobs.notifier is not None, "the facade did not reach the notification daemon"
    gui.facade.jobs.pause(None)
    folders = [tmp_path / "First", tmp_path / "Second"]
    for folder in folders:
        make_media(folder, 3)
    gui.window.add_paths(folders)
    jobs = gui.window.jobs_model
    qtbot.waitUntil(lambda: len(jobs.jobs) == 2 and all(j.status == "paused" for j in jobs.jobs), timeout=20000)
    balloons: list[Any] = []
    gui.facade.jobs.notice.connect(lambda *args: balloons.append(args))
    gui.facade.jobs.resume(None)
    qtbot.waitUntil(lambda: all(j.status == "completed" for j in jobs.jobs), timeout=60000)
    qtbot.waitUntil(lambda: len(notification_daemon.GetMethodCalls("Notify")) >= 2, timeout=10000)
    time.sleep(0.5)
    calls = notification_daemon.GetMethodCalls("Notify")
    bodies = sorted((str(c[1][3]), str(c[1][4])) for c in calls)
    assert bodies == [("Job finished", "First: 3 of 3 done"), ("Job finished", "Second: 3 of 3 done")]
    assert balloons == []  # the desktop took them: no second copy from the tray
    first = next(j for j in jobs.jobs if j.folder.endswith("First"))
    gui.window.select_job(next(j for j in jobs.jobs if j.folder.endswith("Second")).id)
    notification = notifier_id_of(gui, first.id)
    gui.window.hide()
    notification_daemon.EmitSignal("org.freedesktop.Notifications", "ActionInvoked", "us", [notification, "default"])
    qtbot.waitUntil(lambda: gui.window.isVisible() and gui.window.selected_job() is not None
                    and gui.window.selected_job().id == first.id, timeout=10000)


def notifier_id_of(gui: Gui, job_id: int) -> int:
    notifier = gui.facade.jobs.notifier
    assert notifier is not None
    return notifier._shown[job_id]


def test_the_tray_menu_works_in_a_real_tray_host(tmp_path: Path) -> None:
    """Xvfb + openbox + trayer: the app's tray exists, and its menu pauses and resumes the real engine."""
    import json
    import subprocess
    import sys

    from tests.gui.desktop_session import desktop_session

    repo = Path(__file__).resolve().parents[2]
    (tmp_path / "data").mkdir()
    with desktop_session() as env:
        run = subprocess.run([sys.executable, "-m", "tests.gui.tray_child", str(tmp_path / "data"), str(tmp_path / "Clips")],
                             env=env, cwd=repo, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["tray_host"] and seen["tray_built"] and seen["tray_visible"], seen
    assert seen["menu"][:4] == ["Show / hide", "Pause for 1 hour", "Pause until tomorrow morning", "Resume now"]
    assert seen["paused"] and seen["done_while_paused"] == 0, seen
    assert seen["finished_after_resume"] and seen["tooltip_after"] == "Sidecar — Idle" and seen["closed"], seen
