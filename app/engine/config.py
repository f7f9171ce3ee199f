"""Engine tunables; defaults follow SPEC §3–4."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from app.settings import SPECS, Settings
from app.store.retry_policy import RetryPolicy


@dataclass(frozen=True)
class EngineConfig:
    workers: int = SPECS["workers"].default
    lease_seconds: float = 30.0
    max_attempts: int = 3
    backoff_base: float = 2.0
    backoff_cap: float = 60.0
    gpu_budget_mb: int = SPECS["gpu_budget_mb"].default
    max_gpu_concurrent: int = 1
    group_size: int = SPECS["group_size"].default
    poll_interval: float = 0.5
    progress_interval: float = 0.5
    # Write a crash report (faulthandler) so a file that crashes the engine process can be
    # told from a kill; process-wide, so only the process that is the engine turns it on.
    crash_reports: bool = False
    crash_limit: int = 3
    # What this process is, as `sidecar workers` lists it: engine (`sidecar run`), worker or gui.
    role: str = "engine"
    # The library database's URL (`--database-url` or the `database_url` setting); "" is the
    # SQLite file in the data dir unless SIDECAR_DATABASE_URL names one (app.store.location).
    database_url: str = ""
    # The stall watchdog (README "When a step hangs"): a stage that shows no life this long is
    # stopped and its item fails ``stalled``. A stage without a model (hash, audio extraction,
    # placing) reports after every block it reads, so this is "no bytes read for 60 s". A stage
    # running a model reports per segment or batch, and one call may run long on a slow CPU,
    # so it gets :attr:`model_stall_factor` times this plus :attr:`stall_per_media_second`
    # seconds per second of the item's media (see :meth:`stall_limit`).
    stall_seconds: float = SPECS["stall_seconds"].default
    model_stall_factor: float = 10.0
    stall_per_media_second: float = 0.5

    def stall_limit(self, uses_model: bool, media_seconds: float) -> float:
        """Seconds without progress after which the watchdog stops a stage.

        60 s for reading stages; for a model stage 600 s + half the media's duration
        (a two-hour film: 1 h 10 min) with the defaults.
        """
        if not uses_model:
            return self.stall_seconds
        return self.stall_seconds * self.model_stall_factor + self.stall_per_media_second * max(0.0, media_seconds)

    @property
    def retry_policy(self) -> RetryPolicy:
        return RetryPolicy(self.max_attempts, self.backoff_base, self.backoff_cap)

    @property
    def heartbeat_seconds(self) -> float:
        return self.lease_seconds / 3


def engine_config(settings: Settings, **overrides: Any) -> EngineConfig:
    """The tunables the person's settings decide, with ``overrides`` (a command's flags) on top.

    "Use at most N cores" caps the workers too (each model's threads are capped by app.ml.cpu_share).
    """
    workers = max(1, min(settings.workers, settings.max_cores)) if settings.max_cores > 0 else settings.workers
    return dataclasses.replace(
        EngineConfig(workers=workers, gpu_budget_mb=settings.gpu_budget_mb, group_size=settings.group_size,
                     database_url=settings.database_url,
                     stall_seconds=settings.stall_seconds),
        **overrides)
