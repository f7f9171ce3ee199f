"""The engine's resident model processes, with load counting.

A model stays resident between stages that use it; it is released (its process ended)
when the GPU gate needs the room for another model, when the engine goes idle, or when
its process crashed (the next stage gets a fresh one). A model whose call hung (the
stall watchdog, :mod:`app.engine.scheduler`) is restarted: its process is killed, and the
next stage that asks for it gets a fresh one.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from app.ml.spec import ModelSpec
from app.ml.host import ModelHost, end_spare

log = logging.getLogger(__name__)


class ModelPool:
    def __init__(self, on_load: Callable[[ModelSpec], None] | None = None):
        self._hosts: dict[str, ModelHost] = {}
        self._lock = threading.Lock()
        self._key_locks: dict[str, threading.Lock] = {}
        self._on_load = on_load or (lambda spec: None)
        self.loads: dict[str, int] = {}

    def get(self, spec: ModelSpec) -> ModelHost:
        """The live host for ``spec``, starting one (and counting the load) when needed."""
        with self._lock:
            key_lock = self._key_locks.setdefault(spec.key, threading.Lock())
        with key_lock:
            with self._lock:
                host = self._hosts.get(spec.key)
            if host is not None and host.alive:
                return host
            if host is not None:
                log.warning("model process for %s died; starting a new one", spec.runtime)
                host.close()
            host = ModelHost(spec)
            with self._lock:
                self._hosts[spec.key] = host
                self.loads[spec.key] = self.loads.get(spec.key, 0) + 1
            self._on_load(spec)
            return host

    def resident(self) -> dict[str, int]:
        """Resident model keys and their memory need (MB)."""
        with self._lock:
            return {k: h.spec.memory_mb for k, h in self._hosts.items() if h.alive}

    def release(self, key: str, *, hung: bool = False) -> None:
        """End the process of ``key``; ``hung``: kill it at once (it answers nothing, so a polite exit would wait)."""
        with self._lock:
            host = self._hosts.pop(key, None)
        if host is not None:
            log.info("%s model %s", "killing the hung" if hung else "releasing", key)
            host.close(wait=not hung)

    def release_all(self) -> None:
        """End every model process, and a spare host nobody took (:func:`app.ml.host.start_spare`)."""
        with self._lock:
            keys = list(self._hosts)
        for key in keys:
            self.release(key)
        end_spare()
