"""The CLIP path end to end, with small generated CLIP-shaped graphs registered as the visual model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from sqlalchemy import text

from app.cli import main as cli
from app.ml import local_models, model_choice
from app.paths import database_path
from app.store import Store
from tests.clip_graphs import write_clip_model
from tests.rendered_images import render_text_image

pytestmark = pytest.mark.e2e

DIM = 48


def sidecar(capsys: pytest.CaptureFixture[str], data_dir: Path, *args: str) -> tuple[int, dict[str, Any]]:
    code = cli([*args, "--data-dir", str(data_dir), "--json"])
    return code, json.loads(capsys.readouterr().out)


def _photo(path: Path, seed: int) -> Path:
    """A distinct picture: smooth random colour blobs (no text), so only CLIP can tell them apart."""
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 255, (6, 8, 3), dtype=np.uint8)
    Image.fromarray(small).resize((320, 240), Image.Resampling.BICUBIC).save(path)
    return path


def test_clip_vectors_are_stored_and_an_image_query_finds_the_same_image_first(tmp_path, data_dir, capsys) -> None:
    model = write_clip_model(tmp_path / "tiny-clip", dim=DIM)
    local_models.models_register(data_dir, model, "visual", "tiny-clip")
    model_choice.models_use(data_dir, "tiny-clip")
    pics = tmp_path / "pics"
    pics.mkdir()
    photos = [_photo(pics / f"photo_{n}.jpg", seed=n) for n in range(4)]
    render_text_image(pics / "label.png", ["Warehouse shelf 12"])

    code, _ = sidecar(capsys, data_dir, "add", str(pics), "--kind", "image")
    assert code == 0
    code, ran = sidecar(capsys, data_dir, "run", "--until-idle", "--workers", "2")
    assert code == 0 and ran["jobs"][0]["done"] == 5, ran

    store = Store(database_path(data_dir))
    try:
        with store.db.read() as conn:
            rows = conn.execute(text("SELECT visual_model, visual_dim FROM search_image")).all()
            stored = conn.execute(text(f"SELECT count(*) FROM search_visual_vec_{DIM}")).scalar_one()
    finally:
        store.close()
    assert len(rows) == 5 and stored == 5
    assert {r.visual_dim for r in rows} == {DIM}
    assert all(r.visual_model.startswith("clip-tiny-clip-") for r in rows)

    for photo in photos:
        code, found = sidecar(capsys, data_dir, "search", "--image", str(photo))
        assert code == 0
        assert Path(found["results"][0]["path"]) == photo
        assert found["results"][0]["score"] == pytest.approx(1.0, abs=1e-4)

    payload = json.loads((pics / "photo_0.jpg.sidecar.json").read_text(encoding="utf-8"))
    assert payload["models"]["visual"].startswith("clip-tiny-clip-")
    assert isinstance(payload["tags"], list)

    code, found = sidecar(capsys, data_dir, "search", "warehouse shelf")
    assert code == 0 and Path(found["results"][0]["path"]).name == "label.png", "CLIP joins the fusion, keywords still win"


def test_image_query_without_a_visual_model_says_so(tmp_path, data_dir, capsys) -> None:
    photo = _photo(tmp_path / "p.jpg", seed=1)
    code, payload = sidecar(capsys, data_dir, "search", "--image", str(photo))
    assert code == 2
    assert payload["error"]["code"] == "no_visual_model"


def test_without_a_visual_model_the_visual_stage_is_skipped_with_a_note(tmp_path, data_dir, capsys) -> None:
    pics = tmp_path / "pics"
    pics.mkdir()
    _photo(pics / "a.jpg", seed=3)
    sidecar(capsys, data_dir, "add", str(pics), "--kind", "image")
    code, ran = sidecar(capsys, data_dir, "run", "--until-idle")
    assert code == 0 and ran["jobs"][0]["done"] == 1
    _, status = sidecar(capsys, data_dir, "status", "1")
    assert status["jobs"][0]["items"][0]["result"] == "indexed (no visual model installed)"
