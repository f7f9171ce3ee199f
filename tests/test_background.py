"""When the engine may work: schedule windows, timed pauses, battery and activity rules, and the scheduler obeying them."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping

import pytest

from app.engine.background import (BATTERY, IN_USE, KEEP_GOING, PAUSE_BELOW, PAUSED, SCHEDULE, BackgroundRules, Hold,
                                   WorkGate, background_rules, morning_after, rules_ignoring_schedule, schedule_of,
                                   working_override)
from app.engine.config import engine_config
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.power import PowerStatus
from app.engine.stage import ModelSpec, Pipeline, StageContext
from app.engine.work_hours import ALL_DAY, BadWorkWindow, Schedule, Window
from app.settings import Settings
from tests.engine_stages import JsonOutput, make_media

NIGHTS = Schedule.parse("22:00-07:00", "all")  # weekdays at night, weekends all day
# 2026-11-30 is a Monday.
MON = datetime(2026, 11, 30)


def at(day: int, hour: int, minute: int = 0) -> datetime:
    """Monday + ``day`` days, at hour:minute."""
    return datetime.fromordinal(MON.toordinal() + day).replace(hour=hour, minute=minute)


def test_window_parsing() -> None:
    assert Window.parse("22:00-07:00") == Window(22 * 60, 7 * 60)
    assert Window.parse("all") == ALL_DAY and Window.parse("off") is None and Window.parse("") is None
    assert Window.parse("09:30–17:00").text() == "09:30-17:00"  # an en dash as people type it
    assert Window.parse("08:00-24:00") == Window(8 * 60, 0)
    for bad in ("22-07", "25:00-07:00", "nightly"):
        with pytest.raises(BadWorkWindow):
            Window.parse(bad)


def test_night_window_crosses_midnight_and_weekends_are_all_day() -> None:
    assert not NIGHTS.allows(at(0, 21, 59))  # Monday evening
    assert NIGHTS.allows(at(0, 22, 0))
    assert NIGHTS.allows(at(1, 3, 0))  # Tuesday 03:00 is Monday night's window
    assert NIGHTS.allows(at(1, 6, 59)) and not NIGHTS.allows(at(1, 7, 0))
    assert NIGHTS.allows(at(5, 12, 0))  # Saturday noon
    assert not NIGHTS.allows(at(7, 7, 30))  # next Monday morning
    friday_night_only = Schedule.parse("22:00-07:00", "off")
    assert friday_night_only.allows(at(5, 3, 0))  # Saturday 03:00 belongs to Friday's night
    assert not friday_night_only.allows(at(5, 8, 0))


def test_next_start() -> None:
    assert NIGHTS.next_start(at(0, 10, 0)) == at(0, 22, 0)
    assert NIGHTS.next_start(at(4, 7, 0)) == at(4, 22, 0)  # Friday morning: Friday night
    assert NIGHTS.next_start(at(0, 23, 0)) == at(0, 23, 0)  # inside: now
    weekends_only = Schedule.parse("off", "all")
    assert weekends_only.next_start(at(2, 9, 0)) == at(5, 0, 0)  # Wednesday: Saturday midnight
    assert Schedule.parse("off", "off").next_start(at(0, 9, 0)) is None


class Clock:
    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def test_gate_reasons_in_order_of_precedence() -> None:
    clock = Clock(at(0, 10, 0))
    power: list[PowerStatus | None] = [None]
    idle: list[float | None] = [None]
    gate = WorkGate(BackgroundRules(schedule=NIGHTS), clock, lambda: power[0], lambda: idle[0])
    assert gate.hold() == Hold(SCHEDULE, at(0, 22, 0))
    assert gate.hold().words() == "waiting for the schedule (starts 22:00)"  # type: ignore[union-attr]
    clock.now = at(0, 22, 0)
    assert gate.hold() is None
    gate.set_rules(BackgroundRules(schedule=NIGHTS, paused_until=at(0, 23, 0).timestamp()))
    assert gate.hold() == Hold(PAUSED, at(0, 23, 0))
    clock.now = at(0, 23, 0)
    assert gate.hold() is None


def test_resume_now_overrides_the_schedule_until_its_window_opens() -> None:
    now = at(0, 10, 0)
    until = working_override(NIGHTS, now)
    assert until == at(0, 22, 0) and working_override(NIGHTS, at(0, 23, 0)) is None
    clock = Clock(now)
    gate = WorkGate(BackgroundRules(schedule=NIGHTS, working_until=until.timestamp()), clock)
    assert gate.hold() is None
    clock.now = at(1, 7, 0)  # the override ended at 22:00; the window then closed at 07:00
    assert gate.hold() == Hold(SCHEDULE, at(1, 22, 0))
    assert morning_after(at(0, 23, 0)) == at(1, 7, 0) and morning_after(at(1, 3, 0)) == at(1, 7, 0)


def test_battery_and_activity_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.engine.background.PROBE_TTL_S", 0.0)
    status = [PowerStatus(True, 50.0)]
    idle = [10.0]
    calls = {"power": 0}

    def power() -> PowerStatus:
        calls["power"] += 1
        return status[0]

    gate = WorkGate(BackgroundRules(), Clock(at(0, 10, 0)), power, lambda: idle[0])
    assert gate.hold() == Hold(BATTERY)
    status[0] = PowerStatus(False, None)
    assert gate.hold() is None  # mains, and activity is not watched by default
    gate.set_rules(BackgroundRules(on_battery=PAUSE_BELOW, battery_floor=30))
    status[0] = PowerStatus(True, 50.0)
    assert gate.hold() is None
    status[0] = PowerStatus(True, 29.0)
    assert gate.hold() == Hold(BATTERY)
    gate.set_rules(BackgroundRules(on_battery=KEEP_GOING, pause_while_in_use=True, in_use_seconds=300))
    asked = calls["power"]
    assert gate.hold() == Hold(IN_USE)
    assert calls["power"] == asked  # "keep going" never asks UPower
    idle[0] = 301.0
    assert gate.hold() is None


def test_ignore_schedule_keeps_the_battery_rule() -> None:
    rules = rules_ignoring_schedule(BackgroundRules(schedule=NIGHTS, paused_until=time.time() + 3600))
    gate = WorkGate(rules, Clock(at(0, 10, 0)), lambda: PowerStatus(True, 90.0))
    assert gate.hold() == Hold(BATTERY)


def test_settings_make_the_rules_and_cap_workers() -> None:
    s = Settings(work_weekdays="22:00-07:00", work_weekends="off", workers=8, max_cores=2, in_use_minutes=3)
    rules = background_rules(s)
    assert rules.schedule == Schedule(Window(22 * 60, 7 * 60), None) and rules.in_use_seconds == 180
    assert engine_config(s).workers == 2
    assert schedule_of(Settings(work_weekdays="nonsense")).always  # a hand-edited typo never stops all work


@dataclass
class EdgeStage:
    """Holds the first two items past the schedule's edge, then reaches a checkpoint."""

    clock: Clock
    edge: datetime
    name: str = "work"
    durable: bool = True
    output_type: type[JsonOutput] = JsonOutput
    started: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))
    release: threading.Event = field(default_factory=threading.Event)
    log: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"v": 1}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> JsonOutput:
        name = ctx.item.path.name
        with self.lock:
            self.log.append((name, "start"))
        self.started.release()
        self.release.wait(10)
        with self.lock:  # the clock passed the edge while this ran: still running, not killed
            self.log.append((name, "after edge" if self.clock() >= self.edge else "before edge"))
        time.sleep(1.5)  # work between checkpoints: the heartbeat asks for a stop meanwhile
        ctx.check()  # the next checkpoint: a stop here keeps the item's progress and its attempt
        with self.lock:
            self.log.append((name, "done"))
        return JsonOutput({"ok": name})


def test_a_stage_running_at_the_edge_stops_at_its_next_checkpoint_and_nothing_new_is_claimed(
        data_dir: Path, tmp_path: Path, fast_config) -> None:  # type: ignore[no-untyped-def]
    edge = at(1, 7, 0)  # Tuesday 07:00: Monday night's window closes
    clock = Clock(at(1, 6, 59))
    stage = EdgeStage(clock, edge)
    lib = Library(data_dir, {"video": Pipeline("video", [stage])}, fast_config)  # two workers
    lib.scheduler.work_gate = WorkGate(BackgroundRules(schedule=NIGHTS), clock)
    make_media(tmp_path / "lib", 3)
    try:
        job = lib.add(tmp_path / "lib", JobOptions())
        lib.start()
        assert stage.started.acquire(timeout=10) and stage.started.acquire(timeout=10)  # two items running
        clock.now = edge
        stage.release.set()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and lib.status(job.id)[0].running:
            time.sleep(0.1)
        summary = lib.status(job.id)[0]
        assert (summary.running, summary.done, summary.failed) == (0, 0, 0)
        starts = [e for e in stage.log if e[1] == "start"]
        assert len(starts) == 2 and sorted(e for e in stage.log if e[1] == "after edge") == sorted(
            (n, "after edge") for n, _ in starts)
        assert not [e for e in stage.log if e[1] == "done"]  # stopped at the checkpoint, not finished
        assert lib.held() == Hold(SCHEDULE, at(1, 22, 0))
        time.sleep(1.0)
        assert len([e for e in stage.log if e[1] == "start"]) == 2  # nothing new claimed outside the window
        assert all(i.attempts <= 1 for i in lib.items(job.id))
        clock.now = at(1, 22, 0)  # the window opens again
        lib.run_until_idle()
        summary = lib.status(job.id)[0]
        assert (summary.done, summary.failed) == (3, 0)
    finally:
        stage.release.set()
        lib.close()


def test_library_open_obeys_the_saved_schedule_unless_told_to_ignore_it(data_dir: Path) -> None:
    """``sidecar run`` opens the library this way; ``--ignore-schedule`` passes ``ignore_schedule``."""
    from app.cli import build_parser
    from app.settings import save_settings

    save_settings(data_dir, Settings(work_weekdays="off", work_weekends="off"))
    held, free = Library.open(data_dir), Library.open(data_dir, ignore_schedule=True)
    try:
        assert held.held() == Hold(SCHEDULE, None)
        assert free.held() is None
    finally:
        held.close()
        free.close()
    assert build_parser().parse_args(["run", "--ignore-schedule"]).ignore_schedule
