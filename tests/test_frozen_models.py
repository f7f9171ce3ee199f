"""A job keeps the models chosen when it was added: `models use` later changes new jobs only."""

from __future__ import annotations

from pathlib import Path

from app.engine.library import JobOptions, Library
from app.ml import local_models, model_choice
from app.ml.llm_runtime import smollm2_path
from app.pipelines.video import TranslateStage
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
    assert stage.backend(job.options).model_path == frozen["path"], "the job still uses what it froze"
    assert stage.backend(JobOptions().as_dict()).model_path != frozen["path"], "a job without a snapshot asks again"
    assert stage.fingerprint(job.options) != stage.fingerprint({**job.options, "models": {"translation": None}})
