"""The image pipeline's engine contracts: identical content is computed once, index writes are fenced."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import text

from app.engine.context import ClaimContext
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.model_pool import ModelPool
from app.engine.plan import HashStage
from app.errors import LeaseLost
from app.paths import database_path
from app.pipelines.image import image_pipeline, sidecar_json
from app.pipelines.outputs import DescribeOutput, TextEmbeddingOutput, VisualOutput, decode_vector, encode_vector
from app.store import Store
from tests.engine_stages import DigestOutput, fake_pipeline


def test_vectors_survive_a_checkpoint_exactly() -> None:
    vector = np.random.default_rng(0).standard_normal(512).astype(np.float32)
    encoded = encode_vector(vector.tolist())
    assert json.loads(json.dumps(encoded)) == encoded
    assert decode_vector(encoded) == vector.tolist()
    assert len(encoded) < 3000, "512 float32 as base64, not a 10 KB JSON list"


def test_sidecar_json_is_deterministic_and_holds_no_vectors() -> None:
    visual = VisualOutput("clip-x", 8, encode_vector([0.5] * 8), ["cat"])
    describe = DescribeOutput("cat\nimg 1", "猫", ["cat"], {}, "rapidocr-3", "2026-01-01T00:00:00+00:00")
    text_out = TextEmbeddingOutput("e5", encode_vector([0.1] * 384))
    data = sidecar_json("ab" * 32, visual, describe, text_out)
    assert data == sidecar_json("ab" * 32, visual, describe, text_out)
    payload = json.loads(data)
    assert payload["ocr_text"] == "猫" and payload["models"] == {"ocr": "rapidocr-3", "text_embedding": "e5", "visual": "clip-x"}
    assert "vector" not in data.decode()


def test_pipeline_without_a_visual_model_gates_only_ocr_and_e5(data_dir: Path) -> None:
    stages = image_pipeline(data_dir).stages
    assert [s.name for s in stages] == ["visual", "describe", "text_embedding", "place"]
    specs = [s.model_spec(JobOptions()) for s in stages]
    assert specs[0] is None and specs[3] is None
    assert specs[1].runtime == "app.ml.ocr_runtime:OcrRuntime"
    assert specs[2].runtime == "app.ml.text_embedding:TextEmbeddingRuntime"
    assert getattr(stages[3], "per_path", False)


def _context(store: Store, data_dir: Path, owner: str) -> ClaimContext:
    claim = store.stages.claim_next_stage(owner, gpu=None)
    assert claim is not None
    return ClaimContext(store, claim, data_dir / "ws", ModelPool(), 0.0)


def test_identical_content_in_one_job_is_computed_once(tmp_path: Path, data_dir: Path, fast_config) -> None:
    folder = tmp_path / "pics"
    folder.mkdir()
    for name in ("a.mp4", "b.mp4"):
        (folder / name).write_bytes(b"same bytes" * 100)
    pipeline, _ = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline}, fast_config)
    try:
        lib.add(folder, JobOptions(kind="video"))
        for owner in ("h1", "h2"):  # each item identifies its content first
            hashing = _context(lib.store, data_dir, owner)
            assert hashing.claim.name == "hash" and hashing.item.sha256 == ""
            out = HashStage().run(hashing)
            lib.store.stages.complete_stage(hashing.claim, out.written(), identified=out.sha256)
        first = _context(lib.store, data_dir, "w1")
        assert first.computed_output(DigestOutput) is None
        lib.store.stages.complete_stage(first.claim, DigestOutput("computed-by-a").written())
        second = _context(lib.store, data_dir, "w2")
        assert second.claim.item_id != first.claim.item_id and second.claim.name == first.claim.name
        assert second.computed_output(DigestOutput) == DigestOutput("computed-by-a")
    finally:
        lib.close()


def test_index_writes_of_a_lost_claim_are_refused(tmp_path: Path, data_dir: Path, fast_config) -> None:
    folder = tmp_path / "pics"
    folder.mkdir()
    (folder / "a.mp4").write_bytes(b"x" * 100)
    pipeline, _ = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline}, fast_config)
    lib.add(folder, JobOptions(kind="video"))
    lib.close()
    now = [1_000_000.0]
    store = Store(database_path(data_dir), clock=lambda: now[0], lease_seconds=30)
    try:
        ctx = _context(store, data_dir, "w1")
        vector = [1.0] + [0.0] * 383
        ctx.search_index.upsert_image("s1", text_model="e5", text_vector=vector, document="ok")
        now[0] += 31  # the lease ran out: another worker may own the stage now
        with pytest.raises(LeaseLost):
            ctx.search_index.upsert_image("s2", text_model="e5", text_vector=vector, document="late")
        with pytest.raises(LeaseLost):
            ctx.search_index.upsert_dialogue("a.mp4", "s3", [(0.0, 1.0, "late", "en")], [vector], text_model="e5")
        with store.db.read() as conn:
            assert conn.execute(text("SELECT sha256 FROM search_image")).scalars().all() == ["s1"]
            assert conn.execute(text("SELECT count(*) FROM search_cue")).scalar_one() == 0
    finally:
        store.close()
