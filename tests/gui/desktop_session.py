"""A real little X desktop for tests and screenshots: Xvfb, the openbox window manager and the trayer tray host.

Qt's tray icon needs a tray host (a ``_NET_SYSTEM_TRAY_S0`` owner) to exist at all; the
offscreen platform has none. This starts one on a display of its own (Xvfb picks a
free number with ``-displayfd``) and stops everything it started on exit.
"""

from __future__ import annotations

import os
import subprocess
import time
from contextlib import contextmanager
from typing import Iterator


def _wait_for_tray(env: dict[str, str], timeout: float = 40.0) -> None:
    """Until trayer's window is mapped (Qt then still checks the tray selection itself)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        tree = subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True, text=True).stdout
        if '("trayer" "Trayer")' in tree:
            return
        time.sleep(0.2)
    raise RuntimeError("the tray host (trayer) did not come up")


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
        started.append(subprocess.Popen(["trayer", "--edge", "top", "--align", "right", "--widthtype", "request",
                                         "--height", "28", "--transparent", "false", "--tint", "0x303030"],
                                        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        _wait_for_tray(env)
        yield env
    finally:
        for process in reversed(started):
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
