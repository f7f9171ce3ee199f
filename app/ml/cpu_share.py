"""The person's "use at most N cores": a cap every model runtime applies to its threads.

Model runtimes run in spawned child processes (app.ml.host), so the cap travels in the
environment (``SIDECAR_MAX_CORES``), which each child inherits from the engine process
that set it; the engine caps its own worker count from the same setting.
"""

from __future__ import annotations

import os

ENV = "SIDECAR_MAX_CORES"


def set_core_cap(cores: int) -> None:
    """Cap the threads of model processes started from now on (0: no cap)."""
    if cores > 0:
        os.environ[ENV] = str(cores)
    else:
        os.environ.pop(ENV, None)


def core_cap() -> int | None:
    try:
        cap = int(os.environ.get(ENV, "0"))
    except ValueError:
        return None
    return cap if cap > 0 else None


def capped_threads(wanted: int | None) -> int | None:
    """``wanted`` threads (None: the runtime's default, all cores) within the cap."""
    cap = core_cap()
    if cap is None:
        return wanted
    return cap if wanted is None or wanted <= 0 else min(wanted, cap)
