"""The real pipelines, per item kind; a kind appears here only when its stages exist."""

from __future__ import annotations

from pathlib import Path

from app.engine.stage import Pipeline
from app.pipelines.image import image_pipeline
from app.pipelines.video import video_pipeline
from app.settings import Settings


def default_pipelines(data_dir: Path, settings: Settings) -> dict[str, Pipeline]:
    return {"image": image_pipeline(data_dir), "video": video_pipeline(data_dir, settings)}
