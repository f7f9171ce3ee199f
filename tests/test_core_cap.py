""""Use at most N cores": the engine's workers and every model child's threads."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.engine.library import Library
from app.ml.cpu_share import ENV, capped_threads, set_core_cap
from app.ml.host import ModelHost, start_spare
from app.ml.spec import ModelSpec
from app.settings import Settings, save_settings


def test_capped_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert capped_threads(None) is None and capped_threads(8) == 8
    monkeypatch.setenv(ENV, "2")
    assert capped_threads(None) == 2 and capped_threads(8) == 2 and capped_threads(1) == 1 and capped_threads(0) == 2


def test_the_setting_caps_workers_and_reaches_model_children(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    save_settings(data_dir, Settings(workers=6, max_cores=2))
    lib = Library.open(data_dir)
    host = ModelHost(ModelSpec.of("tests.runtimes:CoreCapRuntime"))
    try:
        assert lib.config.workers == 2
        assert host.call("threads", None) == 2 and host.call("threads", 4) == 2  # a spawned child inherits the cap
    finally:
        host.close()
        lib.close()
        set_core_cap(0)


def test_a_spare_host_spawned_before_the_settings_were_read_runs_under_the_cap(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``sidecar run`` spawns its Whisper host before ``Library.open`` sets the cap: the cap comes with the load."""
    monkeypatch.delenv(ENV, raising=False)
    spare = start_spare("tests.runtimes:CoreCapRuntime")
    save_settings(data_dir, Settings(max_cores=1))
    lib = Library.open(data_dir)
    host = ModelHost(ModelSpec.of("tests.runtimes:CoreCapRuntime"))
    try:
        assert host.pid == spare, "the spare took the load"
        assert host.call("threads", None) == 1 and host.call("threads", 4) == 1
    finally:
        host.close()
        lib.close()
        set_core_cap(0)
