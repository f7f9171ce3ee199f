"""When the person lets Sidecar work: a daily window for weekdays and one for weekends.

Pure calendar arithmetic on naive local datetimes (the person's wall clock), so the
gate that consults it (:mod:`app.engine.background`) can be tested with an injected
clock at any edge: a window that crosses midnight (22:00–07:00) belongs to the day it
starts on, so Friday 22:00–07:00 still covers Saturday 03:00 even if weekends are off.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from app.errors import Code, SidecarError

_SPAN = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*[-–]\s*(\d{1,2}):(\d{2})\s*$")
ALL_DAY_TEXT = "all"
NEVER_TEXT = "off"


class BadWorkWindow(SidecarError):
    """A schedule setting is not ``all``, ``off`` or ``HH:MM-HH:MM``."""

    code = Code.BAD_WORK_WINDOW


@dataclass(frozen=True)
class Window:
    """A daily span in minutes after midnight; ``start == end`` is the whole day, ``end < start`` crosses midnight."""

    start: int
    end: int

    @property
    def all_day(self) -> bool:
        return self.start == self.end

    @property
    def crosses_midnight(self) -> bool:
        return self.end < self.start

    @classmethod
    def parse(cls, text: str) -> Window | None:
        """``all`` (whole day), ``off`` or ``""`` (never: None), or ``22:00-07:00``."""
        text = text.strip().lower()
        if text == ALL_DAY_TEXT:
            return ALL_DAY
        if text in (NEVER_TEXT, ""):
            return None
        m = _SPAN.match(text)
        if not m:
            raise BadWorkWindow(f"“{text}” is not a time span like 22:00-07:00, “all” or “off”")
        h1, m1, h2, m2 = (int(g) for g in m.groups())
        if h1 > 23 or h2 > 24 or m1 > 59 or m2 > 59 or (h2 == 24 and m2):
            raise BadWorkWindow(f"“{text}” is not a time of day")
        return cls(h1 * 60 + m1, (h2 * 60 + m2) % (24 * 60))

    def text(self) -> str:
        if self.all_day:
            return ALL_DAY_TEXT
        return f"{self.start // 60:02d}:{self.start % 60:02d}-{self.end // 60:02d}:{self.end % 60:02d}"


ALL_DAY = Window(0, 0)


def window_text(window: Window | None) -> str:
    return NEVER_TEXT if window is None else window.text()


@dataclass(frozen=True)
class Schedule:
    """One window for Monday–Friday, one for Saturday and Sunday (None: no work those days)."""

    weekdays: Window | None = ALL_DAY
    weekends: Window | None = ALL_DAY

    @property
    def always(self) -> bool:
        return self.weekdays == ALL_DAY and self.weekends == ALL_DAY

    @classmethod
    def parse(cls, weekdays: str, weekends: str) -> Schedule:
        return cls(Window.parse(weekdays), Window.parse(weekends))

    def window_of(self, day: datetime) -> Window | None:
        return self.weekends if day.weekday() >= 5 else self.weekdays

    def allows(self, now: datetime) -> bool:
        """Inside today's window, or inside the part after midnight of yesterday's."""
        minute = now.hour * 60 + now.minute
        today = self.window_of(now)
        if today is not None:
            if today.all_day:
                return True
            if today.crosses_midnight and minute >= today.start:
                return True
            if not today.crosses_midnight and today.start <= minute < today.end:
                return True
        yesterday = self.window_of(now - timedelta(days=1))
        return yesterday is not None and yesterday.crosses_midnight and minute < yesterday.end

    def next_start(self, now: datetime) -> datetime | None:
        """The first instant at or after ``now`` the schedule allows (None: it never does)."""
        if self.allows(now):
            return now
        midnight = datetime.combine(now.date(), time())
        candidates = []
        for day in range(8):
            base = midnight + timedelta(days=day)
            window = self.window_of(base)
            if window is not None:
                candidates += [base, base + timedelta(minutes=window.start)]
        return min((c for c in candidates if c >= now and self.allows(c)), default=None)
