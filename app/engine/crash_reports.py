"""Telling an engine that crashed on a file from one that was killed.

A stage can take the whole engine process down with it (a native library aborting or
segfaulting on one file). A restarted engine would claim that file again and crash
again, forever. From the database, a process killed from outside (SIGKILL, the OOM
killer, a power cut) looks exactly the same: its claims are just left behind. Only a
crash leaves evidence, so only a crash is counted: :mod:`faulthandler` writes the fatal
error and every thread's stack into this instance's report file, and each worker wrote
its thread id there when it started, so the report names the worker — and through its
lease, the claimed stage — whose thread crashed. A killed engine leaves a report with
no fatal error in it and counts for nothing: the kill-loop test's random SIGKILLs can
never set a file aside, however often they land on the same stage.

The report sits next to the instance's lock (:mod:`app.engine.instances`); whoever finds
the instance dead reads it and deletes it. faulthandler has one file per process, so
only a process that is an engine asks for it (``sidecar run``); the previous handler is
put back when the engine stops.
"""

from __future__ import annotations

import faulthandler
import logging
import re
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

log = logging.getLogger(__name__)

_WORKER = re.compile(r"^worker (\S+) thread 0x([0-9a-fA-F]+)$", re.MULTILINE)
_CRASHED_THREAD = re.compile(r"^Current thread 0x([0-9a-fA-F]+)", re.MULTILINE)
_FATAL = re.compile(r"^Fatal Python error: (.+)$", re.MULTILINE)


@dataclass(frozen=True)
class Crash:
    """The worker (lease owner) whose thread crashed, and the fatal error as faulthandler named it."""

    owner: str
    error: str


def _report_path(folder: Path, instance_id: str) -> Path:
    return folder / f"{instance_id}.crash"


class CrashRecorder:
    """This engine's crash report: faulthandler's output plus which thread each worker runs on."""

    def __init__(self, folder: Path, instance_id: str):
        self.path = _report_path(folder, instance_id)
        self._file: TextIO | None = None
        self._lock = threading.Lock()
        self._was_enabled = False

    def start(self) -> None:
        self._was_enabled = faulthandler.is_enabled()
        self._file = open(self.path, "w", encoding="utf-8")  # open for the engine's whole life
        faulthandler.enable(self._file, all_threads=True)

    def worker_started(self, owner: str) -> None:
        """Called on the worker's own thread: a crash report then tells which worker's thread crashed."""
        if self._file is None:
            return
        with self._lock:
            self._file.write(f"worker {owner} thread 0x{threading.get_ident():x}\n")
            self._file.flush()

    def stop(self) -> None:
        """A clean stop: hand faulthandler back and delete the report (there was no crash)."""
        if self._file is None:
            return
        if self._was_enabled and sys.__stderr__ is not None:
            faulthandler.enable(sys.__stderr__, all_threads=True)
        else:
            faulthandler.disable()
        self._file.close()
        self._file = None
        self.path.unlink(missing_ok=True)


def take_crash_report(folder: Path, instance_id: str) -> Crash | None:
    """Read and delete a dead instance's report; a Crash only when it crashed on a worker's thread."""
    path = _report_path(folder, instance_id)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    path.unlink(missing_ok=True)
    fatal, crashed = _FATAL.search(text), _CRASHED_THREAD.search(text)
    if fatal is None or crashed is None:
        return None  # killed from outside, or crashed before faulthandler could say where
    thread = int(crashed.group(1), 16)
    owners = {int(m.group(2), 16): m.group(1) for m in _WORKER.finditer(text)}
    owner = owners.get(thread)
    if owner is None:
        log.warning("engine %s crashed (%s) outside its workers", instance_id, fatal.group(1))
        return None
    return Crash(owner, fatal.group(1).strip())


__all__ = ["Crash", "CrashRecorder", "take_crash_report"]
