"""How long since the person last touched the keyboard or mouse, for "pause while I use the computer".

GNOME's idle monitor on the session bus first (it also answers under Wayland), then
the X11 screen-saver extension (libXss, through ctypes), and ``GetLastInputInfo`` on
Windows. None when nothing can tell: the gate then never pauses for activity.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import threading
from typing import Any, Callable

from app.engine.desktop_bus import BusReader

MUTTER_IDLE = "org.gnome.Mutter.IdleMonitor"
MUTTER_IDLE_PATH = "/org/gnome/Mutter/IdleMonitor/Core"


class _XScreenSaverInfo(ctypes.Structure):
    _fields_ = [("window", ctypes.c_ulong), ("state", ctypes.c_int), ("kind", ctypes.c_int),
                ("til_or_since", ctypes.c_ulong), ("idle", ctypes.c_ulong), ("eventMask", ctypes.c_ulong)]


class X11Idle:
    """``XScreenSaverQueryInfo`` on the display the process was started on; one display connection, kept."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ready = False
        self._display: Any = None
        self._x11: Any = None
        self._xss: Any = None

    def _open(self) -> bool:
        self._ready = True
        x11_name, xss_name = ctypes.util.find_library("X11"), ctypes.util.find_library("Xss")
        if not (os.environ.get("DISPLAY") and x11_name and xss_name):
            return False
        self._x11, self._xss = ctypes.cdll.LoadLibrary(x11_name), ctypes.cdll.LoadLibrary(xss_name)
        self._x11.XOpenDisplay.restype = ctypes.c_void_p
        self._x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        self._x11.XDefaultRootWindow.restype = ctypes.c_ulong
        self._x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        self._xss.XScreenSaverAllocInfo.restype = ctypes.POINTER(_XScreenSaverInfo)
        self._xss.XScreenSaverQueryInfo.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(_XScreenSaverInfo)]
        self._display = self._x11.XOpenDisplay(None)
        return bool(self._display)

    def __call__(self) -> float | None:
        with self._lock:
            if not self._ready:
                self._open()
            if not self._display:
                return None
            info = self._xss.XScreenSaverAllocInfo()
            try:
                if not self._xss.XScreenSaverQueryInfo(self._display, self._x11.XDefaultRootWindow(self._display), info):
                    return None
                return info.contents.idle / 1000.0
            finally:
                self._x11.XFree(info)


class _LastInputInfo(ctypes.Structure):
    _fields_ = [("cbSize", ctypes.c_uint), ("dwTime", ctypes.c_ulong)]


def windows_idle() -> float | None:
    info = _LastInputInfo(ctypes.sizeof(_LastInputInfo), 0)
    if not ctypes.windll.user32.GetLastInputInfo(ctypes.byref(info)):  # type: ignore[attr-defined]
        return None
    return ((ctypes.windll.kernel32.GetTickCount() - info.dwTime) & 0xFFFFFFFF) / 1000.0  # type: ignore[attr-defined]


class LinuxIdle:
    """GNOME's idle monitor, else X11's screen-saver extension."""

    def __init__(self) -> None:
        self.bus = BusReader("SESSION")
        self.x11 = X11Idle()

    def __call__(self) -> float | None:
        ms = self.bus.call(MUTTER_IDLE_PATH, MUTTER_IDLE, MUTTER_IDLE, "GetIdletime")
        return ms / 1000.0 if ms is not None else self.x11()


def idle_seconds_probe() -> Callable[[], float | None]:
    """This platform's probe: seconds since the last input, or None when it cannot be told."""
    return windows_idle if sys.platform == "win32" else LinuxIdle()
