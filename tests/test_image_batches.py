"""Batched model stages (issue 25 item 4): a worker claims up to K stages like one it got, runs them as one
model call, and settles each claim on its own: a member that fails fails alone, a member whose lease was lost
is not completed by the batch."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, cast

from sqlalchemy import select

from app.engine.config import EngineConfig
from app.engine.context import ClaimContext
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.model_pool import ModelPool
from app.engine.plan import HashOutput
from app.engine.stage import BatchStage, ModelSpec, Pipeline, StageContext, StageOutput
from app.errors import Code, MediaError
from app.pipelines.image import image_pipeline
from app.store import Store
from app.store.records import NewItem, NewStage
from app.store.tables import stages
from tests.engine_stages import JsonOutput
from tests.rendered_images import render_text_image
from tests.store_backends import open_store

SPEC = ModelSpec.of("tests.test_image_batches:NeverLoaded", memory_mb=10)  # the fake stage asks for no model


@dataclass
class BatchDigest:
    """A batch stage whose "model call" is recorded: names starting with ``bad`` fail, the rest return their claim."""

    name: str = "digest"
    durable: bool = True
    batch_size: int = 8
    output_type: type[StageOutput] = JsonOutput
    batches: list[list[str]] = field(default_factory=list)
    during: Callable[[Sequence[StageContext]], None] = lambda contexts: None

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"v": 1}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return SPEC

    def run(self, ctx: StageContext) -> StageOutput:
        (outcome,) = self.run_batch([ctx])
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def run_batch(self, contexts: Sequence[StageContext]) -> list[StageOutput | Exception]:
        self.batches.append(sorted(ctx.item.path.name for ctx in contexts))
        self.during(contexts)
        return [MediaError(f"{ctx.item.path.name}: not a readable image", code=Code.CORRUPT_MEDIA)
                if ctx.item.path.name.startswith("bad") else JsonOutput({"by": "batch"}) for ctx in contexts]


def _identify_all(store: Store, lib: Library, data_dir: Path) -> None:
    """Run every CPU stage that is runnable before the model stages (hash, a visual stage without a model) by hand,
    so the model stages of all items are ready together and the next claim takes them as one batch."""
    while (claim := store.stages.claim_next_stage("prep:0", gpu=False)) is not None:
        ctx = ClaimContext(store, claim, data_dir / "ws" / str(claim.item_id), ModelPool(), 0.0)
        output = lib.pipelines[claim.item_kind].stages[claim.idx].run(ctx)
        store.stages.complete_stage(claim, output.written(),
                                    identified=output.sha256 if isinstance(output, HashOutput) else None)


def test_batch_members_are_settled_alone(tmp_path: Path, data_dir: Path, fast_config: EngineConfig) -> None:
    folder = tmp_path / "films"
    folder.mkdir()
    for name in ("a.mp4", "bad.mp4", "c.mp4", "stolen.mp4"):
        (folder / name).write_bytes(name.encode() * 100)
    stage = BatchDigest()
    assert isinstance(stage, BatchStage)
    lib = Library(data_dir, {"video": Pipeline("video", [stage])}, fast_config)

    def steal(contexts: Sequence[StageContext]) -> None:
        """While the batch runs, another worker takes over ``stolen.mp4`` (its lease given up) and finishes it."""
        victim = next(cast(ClaimContext, c).claim for c in contexts if c.item.path.name == "stolen.mp4")
        lib.store.stages.release_stage(victim)
        thief = lib.store.stages.claim_next_stage("thief:0", gpu=None)
        assert thief is not None and thief.stage_id == victim.stage_id
        lib.store.stages.complete_stage(thief, {"by": "thief"})

    stage.during = steal
    try:
        job = lib.add(folder, JobOptions(kind="video"))
        _identify_all(lib.store, lib, data_dir)
        lib.start()
        lib.run_until_idle()
        assert stage.batches == [["a.mp4", "bad.mp4", "c.mp4", "stolen.mp4"]], "one claim took all four as one call"
        by_name = {Path(i.path).name: i for i in lib.items(job.id)}
        assert by_name["bad.mp4"].status == "failed" and by_name["bad.mp4"].error_code == Code.CORRUPT_MEDIA
        for name in ("a.mp4", "c.mp4"):
            assert by_name[name].status == "completed"
            assert lib.store.stages.succeeded_output(by_name[name].id, "digest") == {"by": "batch"}
        assert by_name["stolen.mp4"].status == "completed"
        assert lib.store.stages.succeeded_output(by_name["stolen.mp4"].id, "digest") == {"by": "thief"}, \
            "the batch's late result for a claim it lost is discarded"
    finally:
        lib.close()


def test_companions_are_like_the_lead_and_each_a_claim_of_its_own(store_location: Path | str) -> None:
    store = open_store(store_location, time.time, lease_seconds=30)
    job = store.jobs.create("/lib", {}, owner="test")
    plans = {"ocr": ("describe", "ocr-model"), "e5": ("text_embedding", "e5-model")}
    new_items = [NewItem(f"/lib/{kind}{n}.png", "image", 1, 1, "",
                         (NewStage(0, plans[kind][0], f"fp-{kind}", gpu_mb=1, model_key=plans[kind][1]),))
                 for n in range(6) for kind in ("ocr", "e5")]
    store.jobs.add_items(job, new_items)
    store.jobs.finish_creating(job, {})
    lead = store.stages.claim_next_stage("w:0", gpu=True)
    assert lead is not None and lead.name == "describe"
    companions = store.stages.claim_companions(lead, 3)
    assert len(companions) == 3
    assert {(c.name, c.model_key, c.owner) for c in companions} == {("describe", "ocr-model", "w:0")}
    assert len({lead.stage_id, *(c.stage_id for c in companions)}) == 4
    rest = store.stages.claim_companions(lead, 10)
    assert [c.name for c in rest] == ["describe"] * 2, "only the six describe stages, each claimed once"
    store.stages.complete_stage(companions[0], {"ok": True})
    with store.db.read() as conn:
        running = conn.execute(select(stages.c.id).where(stages.c.status == "running")).scalars().all()
    assert sorted(running) == sorted([lead.stage_id, *(c.stage_id for c in companions[1:]), *(c.stage_id for c in rest)]), \
        "completing one member leaves the others running under their own leases"
    store.close()


def test_a_corrupt_image_in_an_ocr_batch_fails_alone(tmp_path: Path, data_dir: Path, fast_config: EngineConfig) -> None:
    folder = tmp_path / "scans"
    folder.mkdir()
    for n, words in enumerate(["Invoice 4711", "Parking permit", "Meeting notes"]):
        render_text_image(folder / f"page{n}.png", [words])
    (folder / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"not an image" * 50)
    lib = Library(data_dir, {"image": image_pipeline(data_dir, batch_size=4)}, fast_config)
    describe = cast(BatchStage, lib.pipelines["image"].stages[2])
    assert describe.name == "describe"
    batches: list[list[str]] = []
    read_batch = describe.run_batch

    def recorded(contexts: Sequence[StageContext]) -> list[dict[str, Any] | Exception]:
        batches.append(sorted(ctx.item.path.name for ctx in contexts))
        return read_batch(contexts)

    describe.run_batch = recorded  # type: ignore[method-assign]  # the real stage, its batches recorded
    try:
        job = lib.add(folder, JobOptions(kind="image", image_sidecar_json=False))
        _identify_all(lib.store, lib, data_dir)
        lib.start()
        lib.run_until_idle()
        by_name = {Path(i.path).name: i for i in lib.items(job.id)}
        assert by_name["broken.png"].status == "failed" and by_name["broken.png"].error_code == Code.CORRUPT_MEDIA
        assert all(by_name[f"page{n}.png"].status == "completed" for n in range(3)), by_name
        text = lib.store.stages.succeeded_output(by_name["page0.png"].id, "describe")
        assert text is not None and "4711" in text["ocr_text"]
        assert batches == [["broken.png", "page0.png", "page1.png", "page2.png"]], "one OCR call read all four"
    finally:
        lib.close()
