"""Short, bounded calls to the desktop's D-Bus (UPower, the idle monitor): one connection per bus, reopened after a failure.

Through jeepney (pure Python, no libdbus binding to build). Every call has a timeout
and every failure answers None: a desktop without the service (a server, a container,
Wayland without GNOME) simply never pauses work for it. A blocking jeepney connection
must not be shared by two threads mid-call, so each bus has a lock; after a failure the
bus is left alone for a while instead of being reopened on every claim.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

log = logging.getLogger(__name__)

CALL_TIMEOUT_S = 1.0
_RETRY_AFTER_S = 30.0


class BusReader:
    """Property reads and method calls on one bus (``"SESSION"`` or ``"SYSTEM"``; the usual environment variables pick it)."""

    def __init__(self, bus: str):
        self.bus = bus
        self._lock = threading.Lock()
        self._conn: Any = None
        self._failed_at = float("-inf")

    def _connection(self) -> Any:
        if self._conn is None:
            if time.monotonic() - self._failed_at < _RETRY_AFTER_S:
                return None
            from jeepney.io.blocking import open_dbus_connection

            try:
                self._conn = open_dbus_connection(bus=self.bus)
            except (OSError, KeyError, ValueError) as exc:  # KeyError: no DBUS_SESSION_BUS_ADDRESS
                self._failed_at = time.monotonic()
                log.debug("no %s D-Bus: %s", self.bus.lower(), exc)
        return self._conn

    def _send(self, message: Any) -> Any:
        from jeepney import MessageType

        with self._lock:
            conn = self._connection()
            if conn is None:
                return None
            try:
                reply = conn.send_and_get_reply(message, timeout=CALL_TIMEOUT_S)
            except (OSError, TimeoutError, ValueError) as exc:
                log.debug("D-Bus call on the %s bus failed: %s", self.bus.lower(), exc)
                self.close_locked()
                self._failed_at = time.monotonic()
                return None
        if reply.header.message_type == MessageType.error:
            log.debug("D-Bus call on the %s bus answered an error: %s", self.bus.lower(), reply.body)
            return None
        return reply.body

    def get(self, path: str, bus_name: str, interface: str, name: str) -> Any:
        """One property's value, or None when the service or the property is not there."""
        from jeepney import DBusAddress, Properties

        body = self._send(Properties(DBusAddress(path, bus_name=bus_name, interface=interface)).get(name))
        return None if body is None else body[0][1]  # a variant: (signature, value)

    def call(self, path: str, bus_name: str, interface: str, method: str, signature: str | None = None,
             *args: Any) -> Any:
        """A method's first return value, or None when the service does not answer."""
        from jeepney import DBusAddress, new_method_call

        body = self._send(new_method_call(DBusAddress(path, bus_name=bus_name, interface=interface), method,
                                          signature, tuple(args)))
        return None if not body else body[0]

    def close_locked(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except OSError:
                pass
            self._conn = None

    def close(self) -> None:
        with self._lock:
            self.close_locked()
