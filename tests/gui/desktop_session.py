"""A real little X desktop for tests and screenshots: Xvfb, the openbox window manager and the trayer tray host.

Qt's tray icon needs a tray host (a ``_NET_SYSTEM_TRAY_S0`` owner) to exist at all; the
offscreen platform has none. This starts one on a display of its own (Xvfb picks a
free number with ``-displayfd``) and stops everything it started on exit.
"""

from __future__ import annotations

import logging
import os
import subprocess
import tempfile
import time
from contextlib import contextmanager
from typing import Callable, Iterator

log = logging.getLogger(__name__)


def _wait_until(what: str, ready: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not come up")


def _window_manager_up(env: dict[str, str]) -> bool:
    """openbox sets the root's ``_NET_SUPPORTING_WM_CHECK`` once it manages the screen."""
    probe = subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=env, capture_output=True, text=True)
    return "window id #" in probe.stdout


def _tray_up(env: dict[str, str]) -> bool:
    tree = subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True, text=True).stdout
    return '("trayer" "Trayer")' in tree


def _start_trayer(env: dict[str, str]) -> subprocess.Popen[bytes]:
    """trayer, once its window is mapped (Qt then checks the tray selection itself).

    Now and then a trayer started on a fresh server exits or never maps; a second one comes up.
    """
    for _ in range(3):
        with tempfile.TemporaryFile() as err:  # a file, not a pipe: a chatty trayer never blocks on it
            trayer = subprocess.Popen(_TRAYER, env=env, stdout=subprocess.DEVNULL, stderr=err)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and trayer.poll() is None:
                if _tray_up(env):
                    return trayer
                time.sleep(0.1)
            trayer.kill()
            trayer.wait()
            err.seek(0)
            log.warning("trayer did not come up (exit %s): %s", trayer.returncode, err.read().decode(errors="replace")[-500:])
    raise RuntimeError("the tray host (trayer) did not come up")


_TRAYER = ["trayer", "--edge", "top", "--align", "right", "--widthtype", "request", "--height", "28",
           "--transparent", "false", "--tint", "0x303030"]


@contextmanager
def desktop_session(width: int = 1280, height: int = 800) -> Iterator[dict[str, str]]:
    """Yields the environment of a fresh desktop (``DISPLAY`` set, the xcb platform chosen)."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    started: list[subprocess.Popen[bytes]] = [xvfb]
    try:
        with os.fdopen(read) as fh:
            number = fh.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        env = {**os.environ, "DISPLAY": f":{number}", "QT_QPA_PLATFORM": "xcb"}
        started.append(subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        _wait_until("the window manager (openbox)", lambda: _window_manager_up(env))
        started.append(_start_trayer(env))
        yield env
    finally:
        for process in reversed(started):
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
