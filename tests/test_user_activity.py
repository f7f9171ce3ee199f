""""Pause while I use the computer" on a real X server: Xvfb's screen-saver extension, input sent through XTest."""

from __future__ import annotations

import ctypes
import ctypes.util
import time

import pytest

from app.engine.background import IN_USE, BackgroundRules, Hold, WorkGate
from app.engine.user_activity import X11Idle
from tests.gui.desktop_session import desktop_session


def move_pointer(x: int, y: int) -> None:
    """A mouse move as a person makes it (XTest), so the server counts it as input."""
    x11 = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
    xtst = ctypes.cdll.LoadLibrary(ctypes.util.find_library("Xtst") or "libXtst.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_ulong]
    x11.XFlush.argtypes = x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    display = x11.XOpenDisplay(None)
    assert display, "no X display"
    xtst.XTestFakeMotionEvent(display, -1, x, y, 0)
    x11.XFlush(display)
    x11.XCloseDisplay(display)


def test_idle_time_grows_and_input_resets_it_and_the_gate_follows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.engine.background.PROBE_TTL_S", 0.0)
    with desktop_session() as env:
        monkeypatch.setenv("DISPLAY", env["DISPLAY"])
        idle = X11Idle()
        gate = WorkGate(BackgroundRules(pause_while_in_use=True, in_use_seconds=1.0), idle_seconds=idle)
        time.sleep(1.2)
        first = idle()
        assert first is not None and first >= 1.0
        assert gate.hold() is None  # nobody touched it for over a second
        move_pointer(100, 120)
        time.sleep(0.1)
        after = idle()
        assert after is not None and after < 0.5
        assert gate.hold() == Hold(IN_USE)
        time.sleep(1.2)
        assert gate.hold() is None


def test_without_a_display_activity_is_unknown_and_never_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    idle = X11Idle()
    assert idle() is None
    assert WorkGate(BackgroundRules(pause_while_in_use=True), idle_seconds=idle).hold() is None
