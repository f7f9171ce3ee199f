"""The one question the scheduler asks before it claims work: may this machine work now, and if not, why and until when.

The answer (a :class:`Hold`, or None) combines the person's schedule, a timed pause from
the tray ("Pause for 1 hour"), the power supply and, when asked for, whether the person
is using the computer. Held, the scheduler claims nothing new and asks running stages to
stop at their next checkpoint (their progress is kept, as with Pause); a stage without
checkpoints finishes. Clock and probes are injected, so every edge is testable.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Callable

from app.engine.power import PowerStatus
from app.engine.work_hours import BadWorkWindow, Schedule
from app.settings import KEEP_GOING, PAUSE, PAUSE_BELOW, SPECS, Settings

log = logging.getLogger(__name__)

#: How long a probe's answer (D-Bus, X11) is reused: claims are frequent, probes cost a round trip.
PROBE_TTL_S = 2.0


SCHEDULE, PAUSED, BATTERY, IN_USE = "schedule", "timed_pause", "battery", "in_use"


@dataclass(frozen=True)
class Hold:
    """Why work waits: ``schedule``, ``timed_pause``, ``battery`` or ``in_use``; ``until`` when known."""

    reason: str
    until: datetime | None = None

    def words(self) -> str:
        """English words for logs and ``sidecar run`` (the GUI words its own through tr())."""
        at = f" ({'starts' if self.reason == SCHEDULE else 'until'} {self.until:%H:%M})" if self.until else ""
        return {SCHEDULE: "waiting for the schedule", PAUSED: "paused for a while", BATTERY: "paused on battery power",
                IN_USE: "paused while the computer is in use"}[self.reason] + at


@dataclass(frozen=True)
class BackgroundRules:
    """The person's rules, from Settings (``Settings.background_rules``)."""

    schedule: Schedule = field(default_factory=Schedule)
    paused_until: float = 0.0  # epoch seconds: the tray's "Pause for 1 hour" / "until tomorrow morning"
    working_until: float = 0.0  # epoch seconds: "Resume now" outside the schedule works until then
    on_battery: str = SPECS["on_battery"].default
    battery_floor: int = SPECS["battery_floor"].default  # percent, for PAUSE_BELOW
    pause_while_in_use: bool = SPECS["pause_while_in_use"].default
    in_use_seconds: float = SPECS["in_use_minutes"].default * 60.0  # input within this long means the person is at the computer


def morning_after(now: datetime, hour: int = 7) -> datetime:
    """"Tomorrow morning": the next 07:00 (today's when it is still before 07:00)."""
    morning = now.replace(hour=hour, minute=0, second=0, microsecond=0)
    return morning if morning > now else morning + timedelta(days=1)


def working_override(schedule: Schedule, now: datetime) -> datetime | None:
    """How long "Resume now" overrides the schedule: until its next window opens (None: inside one already)."""
    if schedule.allows(now):
        return None
    start = schedule.next_start(now)
    return start if start is not None else now + timedelta(days=1)


class WorkGate:
    """Answers :meth:`hold`; thread-safe (workers and the heartbeat ask), probes cached for ``PROBE_TTL_S``."""

    def __init__(self, rules: BackgroundRules, clock: Callable[[], datetime] = datetime.now,
                 power: Callable[[], PowerStatus | None] | None = None,
                 idle_seconds: Callable[[], float | None] | None = None):
        self._rules = rules
        self._clock = clock
        self._power = power
        self._idle = idle_seconds
        self._lock = threading.Lock()
        self._probed_at = float("-inf")
        self._power_now: PowerStatus | None = None
        self._idle_now: float | None = None
        self._last: Hold | None = None

    @property
    def rules(self) -> BackgroundRules:
        return self._rules

    def set_rules(self, rules: BackgroundRules) -> None:
        """New settings or a tray action: applies at the next claim."""
        with self._lock:
            self._rules = rules

    def _probe(self) -> tuple[PowerStatus | None, float | None]:
        now = time.monotonic()
        if now - self._probed_at >= PROBE_TTL_S:
            self._probed_at = now
            rules = self._rules
            self._power_now = self._power() if self._power is not None and rules.on_battery != KEEP_GOING else None
            self._idle_now = self._idle() if self._idle is not None and rules.pause_while_in_use else None
        return self._power_now, self._idle_now

    def hold(self) -> Hold | None:
        """None when work may go on; else why not. Logs each change once."""
        with self._lock:
            rules, now = self._rules, self._clock()
            stamp = now.timestamp()
            hold: Hold | None = None
            if stamp < rules.paused_until:
                hold = Hold(PAUSED, datetime.fromtimestamp(rules.paused_until))
            elif stamp >= rules.working_until and not rules.schedule.allows(now):
                hold = Hold(SCHEDULE, rules.schedule.next_start(now))
            else:
                power, idle = self._probe()
                if power is not None and power.on_battery and (
                        rules.on_battery == PAUSE
                        or (rules.on_battery == PAUSE_BELOW and power.percent is not None
                            and power.percent < rules.battery_floor)):
                    hold = Hold(BATTERY)
                elif idle is not None and idle < rules.in_use_seconds:
                    hold = Hold(IN_USE)
            if hold != self._last:
                log.info("work %s", hold.words() if hold else "goes on")
                self._last = hold
            return hold


def system_gate(rules: BackgroundRules) -> WorkGate:
    """The gate of a real engine: the wall clock, this platform's power and idle probes."""
    from app.engine.power import system_power_probe
    from app.engine.user_activity import idle_seconds_probe

    return WorkGate(rules, power=system_power_probe(), idle_seconds=idle_seconds_probe())


def rules_ignoring_schedule(rules: BackgroundRules) -> BackgroundRules:
    """``sidecar run --ignore-schedule``: the windows and a timed pause are ignored; power and activity still count."""
    return replace(rules, schedule=Schedule(), paused_until=0.0)


def schedule_of(settings: Settings) -> Schedule:
    """The person's work windows; a hand-edited value that does not parse means "always", with a warning."""
    try:
        return Schedule.parse(settings.work_weekdays, settings.work_weekends)
    except BadWorkWindow as exc:
        log.warning("ignoring the work schedule: %s", exc.message)
        return Schedule()


def background_rules(settings: Settings) -> BackgroundRules:
    """When and how the person lets the engine work, from their settings."""
    return BackgroundRules(schedule_of(settings), settings.paused_until, settings.working_until, settings.on_battery,
                           settings.battery_floor, settings.pause_while_in_use, settings.in_use_minutes * 60.0)
