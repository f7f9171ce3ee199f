"""Which engine processes are alive, told by OS file locks rather than timers.

Each process holds an exclusive lock on ``<data>/instances/<id>.lock`` for its whole
life; the OS drops it when the process dies, however it dies. A lock another process
can take therefore belongs to a dead instance, whose claims are reclaimed at once
instead of waiting for their leases to run out (and pid reuse cannot fool it).
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from pathlib import Path

from filelock import FileLock, Timeout

log = logging.getLogger(__name__)


class InstanceLock:
    def __init__(self, data_dir: Path):
        self.folder = data_dir / "instances"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.id = f"{socket.gethostname()[:20]}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._lock = FileLock(self.folder / f"{self.id}.lock")
        self._lock.acquire(timeout=0)

    def is_dead(self, instance_id: str) -> bool:
        """True when nobody holds that instance's lock (its process has ended)."""
        if instance_id == self.id:
            return False
        path = self.folder / f"{instance_id}.lock"
        probe = FileLock(path)
        try:
            probe.acquire(timeout=0)
        except Timeout:
            return False
        probe.release()
        try:
            path.unlink()
        except OSError:
            pass
        return True

    def release(self) -> None:
        self._lock.release()
        try:
            (self.folder / f"{self.id}.lock").unlink()
        except OSError:
            pass
