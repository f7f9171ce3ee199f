"""Private D-Bus daemons with python-dbusmock's services on them (UPower, a notification daemon).

Each fixture starts its own ``dbus-daemon`` (a system bus for UPower, a session bus for
notifications), points ``DBUS_SYSTEM_BUS_ADDRESS`` / ``DBUS_SESSION_BUS_ADDRESS`` at it
for the test's duration, and runs the dbusmock template as a real service there, as
GNOME's own tests do. The returned mock object drives the service (properties, signals)
and reads its call log.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, Iterator

import dbus
import pytest
from dbusmock.testcase import BusType, PrivateDBus, SpawnedMock

UPOWER_IFACE = "org.freedesktop.UPower"
MOCK_IFACE = "org.freedesktop.DBus.Mock"


@contextmanager
def _private(bustype: BusType) -> Iterator[PrivateDBus]:
    env, before = bustype.environ
    bus = PrivateDBus(bustype)
    bus.start()
    try:
        yield bus
    finally:
        bus.stop()
        if before is None:
            os.environ.pop(env, None)
        else:
            os.environ[env] = before


@pytest.fixture
def upower() -> Iterator[Any]:
    """UPower on a private system bus, on mains power; ``set_battery(on, percent)`` switches it."""
    with _private(BusType.SYSTEM):
        with SpawnedMock.spawn_with_template("upower", {"OnBattery": False}, bustype=BusType.SYSTEM) as mock:
            yield UPowerControl(mock.obj)


class UPowerControl:
    def __init__(self, obj: Any):
        self.obj = obj
        conn = BusType.SYSTEM.get_connection()
        self.display = conn.get_object(UPOWER_IFACE, "/org/freedesktop/UPower/devices/DisplayDevice")

    def set_battery(self, on_battery: bool, percent: float = 80.0) -> None:
        dbus.Interface(self.display, dbus.PROPERTIES_IFACE).Set(f"{UPOWER_IFACE}.Device", "Percentage",
                                                                 dbus.Double(percent))
        dbus.Interface(self.obj, dbus.PROPERTIES_IFACE).Set(UPOWER_IFACE, "OnBattery", dbus.Boolean(on_battery))


@pytest.fixture
def notification_daemon() -> Iterator[Any]:
    """A notification daemon on a private session bus; its mock object (``GetMethodCalls``, ``EmitSignal``)."""
    with _private(BusType.SESSION):
        with SpawnedMock.spawn_with_template("notification_daemon", bustype=BusType.SESSION) as mock:
            yield dbus.Interface(mock.obj, MOCK_IFACE)
