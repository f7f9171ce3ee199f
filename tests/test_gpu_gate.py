"""GPU gate: memory budget, lowest stage index first, each model loaded once per group."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Mapping

from app.engine.config import EngineConfig
from app.engine.gpu_gate import GpuGate
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.stage import Pipeline, StageContext
from app.ml.spec import ModelSpec
from tests.engine_stages import JsonOutput, fake_pipeline, make_media, process

WHISPER = ModelSpec.of("tests.runtimes:EchoRuntime", memory_mb=4000, tag="whisper")
LLM = ModelSpec.of("tests.runtimes:EchoRuntime", memory_mb=4000, tag="llm")


class FakeProbe:
    """A 6 GB device: free memory is what our resident models leave."""

    def __init__(self, total_mb: int) -> None:
        self.total_mb = total_mb
        self.resident = lambda: {}

    def free_mb(self) -> int:
        return self.total_mb - sum(self.resident().values())


def test_gate_admits_within_budget_and_releases_idle_models() -> None:
    gate = GpuGate(configured_budget_mb=6000, max_concurrent=2, probe=None)
    released: list[str] = []
    assert gate.try_admit(1, 4000, "a", {}, released.append)
    assert not gate.try_admit(2, 4000, "b", {}, released.append), "4000 + 4000 does not fit 6000"
    gate.release(1)
    # "a" is resident and idle now: admitting "b" releases it first.
    assert gate.try_admit(2, 4000, "b", {"a": 4000}, released.append)
    assert released == ["a"]
    assert gate.try_admit(3, 4000, "b", {"b": 4000}, released.append), "a resident model needs no new memory"


def test_gate_without_device_uses_configured_budget_one_at_a_time() -> None:
    gate = GpuGate(configured_budget_mb=8000, max_concurrent=1, probe=None)
    assert gate.try_admit(1, 100, "a", {}, lambda k: None)
    assert not gate.try_admit(2, 100, "a", {}, lambda k: None)


def test_group_is_transcribed_before_translated_and_each_model_loads_once(data_dir: Path, tmp_path: Path) -> None:
    make_media(tmp_path / "lib", 5)
    journal = tmp_path / "journal"
    pipeline, digests = fake_pipeline(max_sleep=0.01, journal=journal)
    digests[1].spec, digests[2].spec = WHISPER, LLM
    probe = FakeProbe(6000)
    both_resident: list[bool] = []
    config = EngineConfig(workers=3, lease_seconds=5, poll_interval=0.05, group_size=8, progress_interval=0.0)
    lib = Library(data_dir, {"video": pipeline}, config, probe=probe)
    probe.resident = lambda: lib.scheduler.pool.resident()
    for d in digests[1:]:
        d.on_run = lambda ctx: both_resident.append(len(lib.scheduler.pool.resident()) > 1)
    out = process(lib, tmp_path / "lib")
    assert (out.summary.status, out.summary.done) == ("completed", 5)
    assert out.loads == {WHISPER.key: 1, LLM.key: 1}
    assert both_resident and not any(both_resident), "whisper is freed before the LLM loads"
    runs = [line.split() for line in journal.read_text().splitlines()]
    transcribe = [(float(a), float(b)) for _, _, s, a, b in runs if s == "transcribe"]
    translate = [(float(a), float(b)) for _, _, s, a, b in runs if s == "translate"]
    assert max(b for _, b in transcribe) <= min(a for a, _ in translate)
    gpu = sorted(transcribe + translate)
    assert all(gpu[i][1] <= gpu[i + 1][0] for i in range(len(gpu) - 1)), "one GPU stage at a time"


MODEL_A = ModelSpec.of("tests.runtimes:EchoRuntime", memory_mb=4000, tag="a")
MODEL_B = ModelSpec.of("tests.runtimes:EchoRuntime", memory_mb=4000, tag="b")


class HoldsAUndeclared:
    """Asks the pool for model A without declaring it, as a stage row planned before its stage declared a model does.

    ``clip001`` keeps A across the admission of another item's model stage that needs A's room.
    """

    name, durable, output_type = "extract", True, JsonOutput

    def __init__(self) -> None:
        self.held, self.b_ran = threading.Event(), threading.Event()
        self.pids: list[int] = []

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"v": 1}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> JsonOutput:
        client = ctx.model(MODEL_A)
        self.pids.append(client.call("pid"))
        if ctx.item.path.name == "clip001.mp4":
            self.held.set()
            assert self.b_ran.wait(60), "model B's stage never ran"
            self.pids.append(client.call("pid"))  # A must still answer, from the same process
        else:
            assert self.held.wait(60)
        return JsonOutput()


class Between:
    """A CPU stage between the two, so the engine cannot prewarm B (which would sidestep the release)."""

    name, durable, output_type = "between", True, JsonOutput

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"v": 1}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> JsonOutput:
        return JsonOutput()


class UsesB:
    name, durable, output_type = "embed", True, JsonOutput

    def __init__(self, first: HoldsAUndeclared) -> None:
        self.first = first

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"v": 1}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return MODEL_B

    def run(self, ctx: StageContext) -> JsonOutput:
        assert ctx.model(MODEL_B).call("echo", 1) == 1
        self.first.b_ran.set()
        return JsonOutput()


def test_the_gate_never_releases_a_model_a_running_stage_holds(data_dir: Path, tmp_path: Path) -> None:
    make_media(tmp_path / "lib", 2)
    first = HoldsAUndeclared()
    probe = FakeProbe(6000)  # A and B do not fit together: admitting B would release an idle A
    config = EngineConfig(workers=2, lease_seconds=5, poll_interval=0.05, progress_interval=0.0)
    lib = Library(data_dir, {"video": Pipeline("video", [first, Between(), UsesB(first)])}, config, probe=probe)
    probe.resident = lambda: lib.scheduler.pool.resident()
    out = process(lib, tmp_path / "lib")
    assert (out.summary.status, out.summary.done) == ("completed", 2)
    assert out.loads == {MODEL_A.key: 1, MODEL_B.key: 1}, "A was ended under the stage that held it"
    assert len(first.pids) == 3 and len(set(first.pids)) == 1
