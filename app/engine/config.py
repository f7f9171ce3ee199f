"""Engine tunables; defaults follow SPEC §3–4."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any

from app.settings import SPECS, Settings
from app.store.retry_policy import RetryPolicy


@dataclass(frozen=True)
class EngineConfig:
    workers: int = max(1, os.cpu_count() or 1)
    lease_seconds: float = 30.0
    max_attempts: int = 3
    backoff_base: float = 2.0
    backoff_cap: float = 60.0
    gpu_budget_mb: int = 6144
    max_gpu_concurrent: int = 1
    group_size: int = 8
    poll_interval: float = 0.5
    progress_interval: float = 0.5
    existing_policy: str = SPECS["existing_policy"].default
    # Write a crash report (faulthandler) so a file that crashes the engine process can be
    # told from a kill; process-wide, so only the process that is the engine turns it on.
    crash_reports: bool = False
    crash_limit: int = 3
    # What this process is, as `sidecar workers` lists it: engine (`sidecar run`), worker or gui.
    role: str = "engine"
    # The library database's URL (`--database-url` or the `database_url` setting); "" is the
    # SQLite file in the data dir unless SIDECAR_DATABASE_URL names one (app.store.location).
    database_url: str = ""

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
                     existing_policy=settings.existing_policy, database_url=settings.database_url),
        **overrides)
