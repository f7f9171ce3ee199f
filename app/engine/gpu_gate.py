"""Admission of GPU stages by memory (SPEC §4).

Each GPU stage declares the memory its model needs. The budget is the free memory NVML
reports when a CUDA device exists, else a configured limit; by default one GPU stage
runs at a time. Resident idle models count against the budget and are released when a
different model needs the room (whisper goes before the LLM loads when both don't fit).
CPU stages never pass through here.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable, Collection, Protocol

log = logging.getLogger(__name__)


class MemoryProbe(Protocol):
    def free_mb(self) -> int | None:
        """Free device memory in MB, or None when there is no device."""


class NvmlProbe:
    """Free memory of CUDA device 0 through NVML; None when NVML or a device is missing."""

    def __init__(self) -> None:
        self._handle = None
        try:
            import pynvml

            pynvml.nvmlInit()
            if pynvml.nvmlDeviceGetCount() > 0:
                self._handle = pynvml.nvmlDeviceGetHandleByIndex(0)
                self._nvml = pynvml
        except Exception as exc:  # noqa: BLE001 - any NVML failure means "no device"
            log.debug("no NVML device: %s", exc)

    def device_name(self) -> str | None:
        """The device's name (shown in `sidecar workers`), or None without one."""
        if self._handle is None:
            return None
        name = self._nvml.nvmlDeviceGetName(self._handle)
        return name.decode() if isinstance(name, bytes) else str(name)

    def free_mb(self) -> int | None:
        if self._handle is None:
            return None
        return int(self._nvml.nvmlDeviceGetMemoryInfo(self._handle).free // (1024 * 1024))


class GpuGate:
    def __init__(self, configured_budget_mb: int, max_concurrent: int = 1, probe: MemoryProbe | None = None):
        self.configured_budget_mb = configured_budget_mb
        self.max_concurrent = max_concurrent
        self.probe = probe
        self.lock = threading.RLock()
        self._in_flight: dict[int, tuple[int, str | None]] = {}

    def budget_mb(self, resident_mb: int) -> int:
        """Memory available to our models: NVML free memory plus what our resident models hold."""
        free = self.probe.free_mb() if self.probe is not None else None
        if free is None:
            return self.configured_budget_mb
        return free + resident_mb

    def try_admit(self, stage_id: int, need_mb: int, model_key: str | None, resident: dict[str, int],
                  release: Callable[[str], None], in_use: Collection[str] = ()) -> bool:
        """Admit the stage when it fits, releasing idle resident models of other kinds if that makes room.

        ``in_use`` are models running stages hold besides the admitted ones; they are never released.
        """
        with self.lock:
            if len(self._in_flight) >= self.max_concurrent:
                return False
            busy = {key for _, key in self._in_flight.values()} | set(in_use)
            resident_mb = sum(resident.values())
            budget = self.budget_mb(resident_mb)
            if model_key is not None and model_key in resident:
                self._in_flight[stage_id] = (0, model_key)
                return True
            used = resident_mb + sum(n for n, key in self._in_flight.values() if key not in resident)
            if used + need_mb > budget:
                for key, mb in sorted(resident.items(), key=lambda kv: -kv[1]):
                    if key in busy or key == model_key:
                        continue
                    release(key)
                    used -= mb
                    if used + need_mb <= budget:
                        break
            if used + need_mb > budget and self._in_flight:
                return False
            # Nothing else runs: admit even an oversized need rather than stall forever (the
            # runtime falls back to the CPU or fails with a clear out-of-memory error).
            self._in_flight[stage_id] = (need_mb, model_key)
            return True

    def release(self, stage_id: int) -> None:
        with self.lock:
            self._in_flight.pop(stage_id, None)

    @property
    def in_flight(self) -> int:
        with self.lock:
            return len(self._in_flight)
