"""A job keeps the models chosen when it was added: `models use` later changes new jobs only."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from sqlalchemy import text

from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.ml import index_models, local_models, model_choice
from app.ml.llm_runtime import smollm2_path
from app.pipelines.image import image_pipeline
from app.pipelines.video import TranslateStage
from tests.clip_graphs import write_clip_model
from tests.engine_stages import fake_pipeline, make_media


def test_job_freezes_the_translation_model_chosen_at_add_time(data_dir: Path, tmp_path: Path) -> None:
    local_models.models_register(data_dir, smollm2_path(), "translation", "smol")
    model_choice.models_use(data_dir, "smol")
    make_media(tmp_path / "lib", 1)
    lib = Library(data_dir, {"video": fake_pipeline()[0]})
    try:
        job = lib.add(tmp_path / "lib", JobOptions())
    finally:
        lib.close()
    frozen = job.options["models"]["translation"]
    assert frozen is not None and frozen["name"] == "smol"

    model_choice.models_use(data_dir, "gemma3-270m")  # the bundled default again
    stage = TranslateStage(data_dir)
    options = JobOptions.from_stored(job.options)
    assert stage.backend(options).model_path == frozen["path"], "the job still uses what it froze"
    assert stage.backend(JobOptions()).model_path != frozen["path"], "a job without a snapshot asks again"
    assert stage.fingerprint(options) != stage.fingerprint(options.with_overrides({"models": {"translation": None}}))


def _photos(folder: Path, n: int) -> Path:
    folder.mkdir(parents=True)
    rng = np.random.default_rng(7)
    for i in range(n):
        small = rng.integers(0, 255, (6, 8, 3), dtype=np.uint8)
        Image.fromarray(small).resize((160, 120), Image.Resampling.BICUBIC).save(folder / f"photo_{i}.png")
    return folder


def _use_clip(data_dir: Path, folder: Path, name: str, seed: int) -> None:
    local_models.models_register(data_dir, write_clip_model(folder, dim=16, seed=seed), "visual", name)
    model_choice.models_use(data_dir, name)


def test_job_indexes_with_the_clip_model_chosen_when_it_was_added(
    data_dir: Path, tmp_path: Path, fast_config: EngineConfig
) -> None:
    _use_clip(data_dir, tmp_path / "clip-a", "clip-a", seed=1)
    lib = Library(data_dir, {"image": image_pipeline(data_dir)}, fast_config)
    try:
        job = lib.add(_photos(tmp_path / "pics", 2), JobOptions(kind="image"))
        _use_clip(data_dir, tmp_path / "clip-b", "clip-b", seed=2)  # chosen after the job was added
        visual = next(s for s in lib.pipelines["image"].stages if s.name == "visual")
        assert dict(visual.model_spec(JobOptions.from_stored(job.options)).params)["model_dir"] == str((tmp_path / "clip-a").resolve())
        assert dict(visual.model_spec(JobOptions()).params)["model_dir"] == str((tmp_path / "clip-b").resolve())
        lib.start()
        lib.run_until_idle()
        with lib.store.db.read() as conn:
            stored = {row.visual_model for row in conn.execute(text("SELECT visual_model FROM search_image"))}
        loads = lib.model_loads()
        done = lib.status(job.id)[0].done
    finally:
        lib.close()
    assert done == 2
    assert len(stored) == 1 and next(iter(stored)).startswith("clip-clip-a-"), stored
    assert not any("clip-b" in key for key in loads), "the newer choice was never loaded for this job"


def test_queries_look_the_chosen_clip_model_up_once_per_change_of_choice(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lookups: list[str] = []
    real = index_models.active_model

    def counted(data: Path, role: str):  # a spy: the real lookup, counted
        lookups.append(role)
        return real(data, role)

    monkeypatch.setattr(index_models, "active_model", counted)
    choice = index_models.VisualChoice(data_dir)
    assert choice.current() is None and choice.current() is None
    _use_clip(data_dir, tmp_path / "clip-a", "clip-a", seed=1)
    first = choice.current()
    assert first is not None and first.name == "clip-a" and choice.current() is first
    _use_clip(data_dir, tmp_path / "clip-b", "clip-b", seed=2)
    assert choice.current().name == "clip-b" and choice.current().name == "clip-b"
    assert lookups == ["visual"] * 3, "one lookup per state of the choice, none per query"
