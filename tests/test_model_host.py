"""Model runtimes live in child processes: a native crash fails one stage, which is retried."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.engine.library import Library
from app.ml.spec import ModelSpec
from app.errors import ModelCrashed
from app.ml.host import ModelHost
from tests.engine_stages import fail_first_call, fake_pipeline, make_media, process

ECHO = ModelSpec.of("tests.runtimes:EchoRuntime", memory_mb=100, tag="a")


def test_host_streams_events_and_reports_a_crash() -> None:
    host = ModelHost(ECHO)
    try:
        seen: list[int] = []
        assert host.call("count", 5, on_event=lambda e: seen.append(e) is None) == 5
        assert seen == [0, 1, 2, 3, 4]
        with pytest.raises(ModelCrashed):
            host.call("abort")
        assert not host.alive
    finally:
        host.close()


def test_stage_whose_model_process_dies_is_retried_and_engine_lives_on(data_dir: Path, tmp_path: Path, fast_config) -> None:
    media = make_media(tmp_path / "lib", 3)
    pipeline, digests = fake_pipeline(gpu_spec=ECHO)
    digests[1].model_method = fail_first_call(media[1].name, "abort")
    out = process(Library(data_dir, {"video": pipeline}, fast_config), tmp_path / "lib")
    assert (out.summary.status, out.summary.done, out.summary.failed) == ("completed", 3, 0)
    assert out.items[media[1].name].status == "completed"
    assert out.loads[ECHO.key] == 2, "the crashed runtime is restarted once"
    assert [n for n, _ in digests[1].calls].count(media[1].name) == 2


def test_out_of_device_memory_releases_models_and_retries(data_dir: Path, tmp_path: Path, fast_config) -> None:
    media = make_media(tmp_path / "lib", 2)
    pipeline, digests = fake_pipeline(gpu_spec=ECHO)
    digests[1].model_method = fail_first_call(media[0].name, "oom")
    out = process(Library(data_dir, {"video": pipeline}, fast_config), tmp_path / "lib")
    assert (out.summary.done, out.summary.failed) == (2, 0)
    assert out.loads[ECHO.key] == 2, "the model was released after the out-of-memory error and loaded again"
