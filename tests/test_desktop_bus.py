"""Battery and notifications over real D-Bus: private dbus-daemons with python-dbusmock's UPower and notification daemon."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path
from typing import Any

from app.engine.background import BackgroundRules, Hold, WorkGate, BATTERY, PAUSE_BELOW
from app.engine.desktop_notify import DesktopNotifier, headless_notices
from app.engine.job_notices import FAILED, FINISHED, REVIEW
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.power import PowerStatus, UPowerProbe
from tests.engine_stages import fake_pipeline, make_media

ALL_KINDS = frozenset({FINISHED, REVIEW, FAILED})


def wait_for(predicate: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def test_upower_probe_reads_battery_and_charge(upower: Any) -> None:
    probe = UPowerProbe()
    assert probe() == PowerStatus(False, None)
    upower.set_battery(True, 42.0)
    assert probe() == PowerStatus(True, 42.0)
    gate = WorkGate(BackgroundRules(on_battery=PAUSE_BELOW, battery_floor=50), power=probe)
    assert gate.hold() == Hold(BATTERY)


def test_no_upower_never_pauses() -> None:
    """A machine without UPower (a server): the probe answers "unknown" and work goes on."""
    import os

    before = os.environ.get("DBUS_SYSTEM_BUS_ADDRESS")
    os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
    try:
        assert WorkGate(BackgroundRules(), power=UPowerProbe()).hold() is None
    finally:
        if before is None:
            del os.environ["DBUS_SYSTEM_BUS_ADDRESS"]
        else:
            os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = before


def test_on_battery_the_engine_stops_claiming_and_resumes_on_mains(upower: Any, data_dir: Path, tmp_path: Path,
                                                                   fast_config) -> None:  # type: ignore[no-untyped-def]
    pipeline, digests = fake_pipeline(max_sleep=0.15)
    lib = Library(data_dir, {"video": pipeline}, fast_config)
    lib.scheduler.work_gate = WorkGate(BackgroundRules(), power=UPowerProbe())
    make_media(tmp_path / "lib", 40)
    try:
        job = lib.add(tmp_path / "lib", JobOptions())
        lib.start()
        assert wait_for(lambda: len(digests[0].calls) >= 2, 10)
        upower.set_battery(True, 80.0)
        switched = time.monotonic()
        assert wait_for(lambda: lib.held() == Hold(BATTERY), 5)
        assert wait_for(lambda: lib.status(job.id)[0].running == 0, 5)
        stopped_after = time.monotonic() - switched
        claimed = sum(len(d.calls) for d in digests)
        time.sleep(2.0)
        assert sum(len(d.calls) for d in digests) == claimed  # nothing claimed on battery
        assert lib.status(job.id)[0].done < 40
        assert stopped_after < 5.0
        upower.set_battery(False)
        assert wait_for(lambda: sum(len(d.calls) for d in digests) > claimed, 5)  # mains: work goes on
        lib.run_until_idle()
        summary = lib.status(job.id)[0]
        assert (summary.done, summary.failed) == (40, 0)
    finally:
        lib.close()


def test_notifier_shows_one_notification_and_a_click_opens_its_job(notification_daemon: Any) -> None:
    opened: list[int] = []
    clicked = threading.Event()
    notifier = DesktopNotifier(lambda job_id: (opened.append(job_id), clicked.set()))
    assert notifier.start()
    try:
        nid = notifier.notify(7, "Job finished", "films: 3 of 3 done")
        assert nid is not None
        calls = notification_daemon.GetMethodCalls("Notify")
        assert len(calls) == 1
        app, replaces, _icon, title, body, actions, _hints, _timeout = calls[0][1]
        assert (str(app), int(replaces), str(title), str(body)) == ("Sidecar", 0, "Job finished", "films: 3 of 3 done")
        assert "default" in [str(a) for a in actions]
        notification_daemon.EmitSignal("org.freedesktop.Notifications", "ActionInvoked", "us", [nid, "default"])
        assert clicked.wait(5)
        assert opened == [7]
        assert notifier.notify(7, "Job finished", "films: 4 of 4 done") is not None
        assert int(notification_daemon.GetMethodCalls("Notify")[1][1][1]) == nid  # the job's one notification, replaced
    finally:
        notifier.close()


def test_no_notification_service_falls_back(tmp_path: Path) -> None:
    import os

    before = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={tmp_path}/none"
    try:
        assert not DesktopNotifier(lambda job_id: None).start()
    finally:
        if before is None:
            del os.environ["DBUS_SESSION_BUS_ADDRESS"]
        else:
            os.environ["DBUS_SESSION_BUS_ADDRESS"] = before


def test_a_finished_run_sends_exactly_one_notification_with_its_counts(notification_daemon: Any, data_dir: Path,
                                                                      tmp_path: Path, fast_config) -> None:  # type: ignore[no-untyped-def]
    """``sidecar run``'s notices: 6 files, one failing for good: one notification, not one per file."""
    pipeline, _ = fake_pipeline(fail_codes={"clip002.mp4": ("corrupt_media", False)})
    lib = Library(data_dir, {"video": pipeline}, dataclasses.replace(fast_config, workers=2))
    make_media(tmp_path / "films", 6)
    try:
        lib.add(tmp_path / "films", JobOptions())
        with headless_notices(lib.status, ALL_KINDS):
            lib.start()
            lib.run_until_idle()
        calls = notification_daemon.GetMethodCalls("Notify")
        assert len(calls) == 1
        title, body = (str(v) for v in calls[0][1][3:5])
        assert (title, body) == ("Items failed", "films: 5 of 6 done, 1 failed")
    finally:
        lib.close()


def test_notices_switched_off_send_nothing(notification_daemon: Any, data_dir: Path, tmp_path: Path,
                                           fast_config) -> None:  # type: ignore[no-untyped-def]
    pipeline, _ = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline}, fast_config)
    make_media(tmp_path / "films", 2)
    try:
        lib.add(tmp_path / "films", JobOptions())
        with headless_notices(lib.status, frozenset({FAILED, REVIEW})):  # "finished" switched off
            lib.start()
            lib.run_until_idle()
        assert lib.status()[0].done == 2
        assert notification_daemon.GetMethodCalls("Notify") == []
    finally:
        lib.close()
