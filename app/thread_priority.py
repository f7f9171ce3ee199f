"""Background threads at a lower CPU priority than the desktop app's window.

The desktop app runs the engine in its own process: stage workers, store reads and
scans share the CPUs (and the GIL) with the thread that paints the window. On a busy
machine the window's thread then waits in the kernel's run queue behind them, and a
person feels it as a frozen scroll (``bench/gui_stall.py`` measured most of the
longest stalls as run-queue wait). Linux schedules threads one by one and gives each
its own nice value, so background threads lowered a few steps give way to the window
whenever both are ready to run.

Only Linux can do this per thread: there ``setpriority(PRIO_PROCESS, tid)`` addresses
one thread; elsewhere the same call would lower the whole process (or another one),
so it is left alone there.
"""

from __future__ import annotations

import os
import sys
import threading

MAX_NICE = 19


def lower_current_thread(steps: int) -> bool:
    """Run the calling thread ``steps`` nice levels below the process's main thread; False where it cannot.

    Relative to the main thread, not to the calling thread, so it does not compound: a
    thread inherits its creator's nice value (the engine's threads, started from a
    lowered thread, run lowered with it).
    """
    if steps <= 0 or not sys.platform.startswith("linux"):
        return False
    try:
        base = os.getpriority(os.PRIO_PROCESS, os.getpid())  # the main thread's id is the process id
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), min(MAX_NICE, base + steps))
    except OSError:
        return False
    return True


__all__ = ["lower_current_thread"]
