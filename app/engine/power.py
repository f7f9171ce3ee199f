"""Is this machine on battery, and how full is it: UPower on Linux, ``GetSystemPowerStatus`` on Windows.

Read by the work gate (:mod:`app.engine.background`) a few times a minute; None means
"unknown" (no UPower, a desktop machine without a battery, another OS), which never
pauses work.
"""

from __future__ import annotations

import ctypes
import sys
from dataclasses import dataclass
from typing import Callable

from app.engine.desktop_bus import BusReader

UPOWER = "org.freedesktop.UPower"
UPOWER_PATH = "/org/freedesktop/UPower"
DISPLAY_DEVICE = "/org/freedesktop/UPower/devices/DisplayDevice"


@dataclass(frozen=True)
class PowerStatus:
    on_battery: bool
    percent: float | None  # the battery's charge (UPower's display device), None when not known


class UPowerProbe:
    """UPower's ``OnBattery`` and its display device's ``Percentage`` on the system bus."""

    def __init__(self) -> None:
        self.bus = BusReader("SYSTEM")

    def __call__(self) -> PowerStatus | None:
        on_battery = self.bus.get(UPOWER_PATH, UPOWER, UPOWER, "OnBattery")
        if on_battery is None:
            return None
        percent = self.bus.get(DISPLAY_DEVICE, UPOWER, f"{UPOWER}.Device", "Percentage") if on_battery else None
        return PowerStatus(bool(on_battery), float(percent) if percent is not None else None)


class _SystemPowerStatus(ctypes.Structure):
    _fields_ = [("ACLineStatus", ctypes.c_ubyte), ("BatteryFlag", ctypes.c_ubyte),
                ("BatteryLifePercent", ctypes.c_ubyte), ("SystemStatusFlag", ctypes.c_ubyte),
                ("BatteryLifeTime", ctypes.c_ulong), ("BatteryFullLifeTime", ctypes.c_ulong)]


def windows_power() -> PowerStatus | None:
    """``ACLineStatus`` 0 is on battery, 1 on mains, 255 unknown; a percent of 255 is unknown."""
    status = _SystemPowerStatus()
    if not ctypes.windll.kernel32.GetSystemPowerStatus(ctypes.byref(status)):  # type: ignore[attr-defined]
        return None
    if status.ACLineStatus == 255:
        return None
    percent = None if status.BatteryLifePercent == 255 else float(status.BatteryLifePercent)
    return PowerStatus(status.ACLineStatus == 0, percent)


def system_power_probe() -> Callable[[], PowerStatus | None]:
    """This platform's probe: a callable answering :class:`PowerStatus` or None."""
    return windows_power if sys.platform == "win32" else UPowerProbe()
