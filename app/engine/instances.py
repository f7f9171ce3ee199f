"""Which engine processes are alive: OS file locks on this machine, heartbeat rows across machines.

Each process holds an exclusive lock on ``<data>/instances/<id>.lock`` for its whole
life; the OS drops it when the process dies, however it dies. A lock another process
can take therefore belongs to a dead instance of this machine, whose claims are
reclaimed at once instead of waiting for anything to run out (and pid reuse cannot fool
it). A process on another machine (a ``sidecar worker`` on a shared database) has no
lock here: it is dead once its heartbeat row expires (app.store.instances).
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from filelock import FileLock, Timeout

from app.store.instances import InstanceRow

log = logging.getLogger(__name__)


def lock_folder(data_dir: Path) -> Path:
    return data_dir / "instances"


def lock_is_free(folder: Path, instance_id: str) -> bool:
    """True when that instance has a lock file here and nobody holds it (its process has ended).

    An instance without a lock file here (another machine, another data folder on a
    shared database) is never dead by this test: its heartbeat tells.
    """
    path = folder / f"{instance_id}.lock"
    if not path.exists():
        return False
    probe = FileLock(path)
    try:
        probe.acquire(timeout=0)
    except Timeout:
        return False
    probe.release()
    return True


class InstanceLock:
    def __init__(self, data_dir: Path):
        self.folder = lock_folder(data_dir)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.hostname = socket.gethostname()
        self.id = f"{self.hostname[:20]}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._lock = FileLock(self.folder / f"{self.id}.lock")
        self._lock.acquire(timeout=0)

    def is_dead(self, instance_id: str) -> bool:
        """True when that instance ran on this machine and its process has ended."""
        return instance_id != self.id and lock_is_free(self.folder, instance_id)

    def remove_lock(self, instance_id: str) -> None:
        """Delete a dead instance's lock file once its work was reclaimed."""
        try:
            (self.folder / f"{instance_id}.lock").unlink()
        except OSError:
            pass

    def release(self) -> None:
        self._lock.release()
        self.remove_lock(self.id)


@dataclass(frozen=True)
class WorkerView:
    """One engine process as ``sidecar workers`` and the Workers view show it."""

    id: str
    machine: str
    role: str
    pid: int
    running: Mapping[str, int]  # stage name -> how many of it run now
    heartbeat_age: float  # seconds since its last heartbeat, on the database's clock
    gpu: str | None
    version: str
    alive: bool

    def as_dict(self) -> dict[str, object]:
        return {"id": self.id, "machine": self.machine, "role": self.role, "pid": self.pid,
                "running": dict(self.running), "heartbeat_age_s": round(self.heartbeat_age, 1), "gpu": self.gpu,
                "version": self.version, "alive": self.alive}


def worker_views(rows: list[InstanceRow], data_dir: Path) -> list[WorkerView]:
    """The listed instances with the same liveness rule the scheduler reclaims by."""
    here, folder = socket.gethostname(), lock_folder(data_dir)
    return [
        WorkerView(id=r.id, machine=r.hostname, role=r.role, pid=r.pid, running=r.running,
                   heartbeat_age=r.heartbeat_age, gpu=r.gpu, version=r.version,
                   alive=not r.expired and not (r.hostname == here and lock_is_free(folder, r.id)))
        for r in rows
    ]
