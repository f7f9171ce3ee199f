"""Photos as people keep them, through the real image pipeline (RapidOCR + e5) driven by `sidecar`:
the same photo in two albums, phone formats (HEIC, AVIF), rotated shots and camera RAW files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sqlalchemy import text

from app.paths import database_path
from app.store import Store, search_queries
from app.store.search_queries import CurrentContent
from tests.e2e.test_image_search import index_folder, search
from tests.rendered_images import render_text_image

pytestmark = pytest.mark.e2e


def word_search(data_dir: Path, query: str) -> list[str]:
    """Paths the word index (FTS) finds for ``query``: names and content words, no semantic list."""
    store = Store(database_path(data_dir))
    try:
        with store.db.read() as conn:
            return [h.path for h in search_queries.fts_images(conn, query, current=CurrentContent("current_items"))]
    finally:
        store.close()


def test_the_same_photo_in_two_folders_is_found_by_each_name_and_each_json_describes_only_its_bytes(
        tmp_path: Path, data_dir: Path, capsys) -> None:
    root = tmp_path / "library"
    sofa = render_text_image(root / "Photos" / "trip" / "cat on the sofa.png", ["Whiskers asleep"])
    meme = root / "Memes" / "duplicate cat.png"
    meme.parent.mkdir(parents=True)
    shutil.copy(sofa, meme)

    job = index_folder(capsys, data_dir, root)
    assert (job["total"], job["done"], job["failed"]) == (2, 2, 0)

    assert word_search(data_dir, "sofa") == [str(sofa)]
    assert word_search(data_dir, "trip") == [str(sofa)]
    assert word_search(data_dir, "memes") == [str(meme)]
    assert word_search(data_dir, "duplicate") == [str(meme)]
    assert sorted(word_search(data_dir, "whiskers")) == sorted([str(sofa), str(meme)]), "OCR is the content's: both"
    assert Path(search(capsys, data_dir, "sofa", "--kind", "image")[0]["path"]) == sofa
    assert Path(search(capsys, data_dir, "memes", "--kind", "image")[0]["path"]) == meme

    store = Store(database_path(data_dir))
    try:
        with store.db.read() as conn:
            assert conn.execute(text("SELECT count(*) FROM search_image")).scalar_one() == 1, "computed once"
            assert conn.execute(text("SELECT count(*) FROM search_image_name")).scalar_one() == 2
    finally:
        store.close()

    sofa_json = json.loads((sofa.parent / (sofa.name + ".sidecar.json")).read_text(encoding="utf-8"))
    meme_json = json.loads((meme.parent / (meme.name + ".sidecar.json")).read_text(encoding="utf-8"))
    assert "Whiskers" in sofa_json["ocr_text"] and "Whiskers" in meme_json["ocr_text"]
    for words in ("memes", "duplicate", "sofa", "trip"):
        assert words not in json.dumps(sofa_json).lower() and words not in json.dumps(meme_json).lower()


def test_a_renamed_photo_keeps_its_name_row(tmp_path: Path, data_dir: Path, capsys) -> None:
    pics = tmp_path / "pics"
    photo = render_text_image(pics / "beach day.png", ["Sunscreen"])
    index_folder(capsys, data_dir, pics)
    moved = pics / "IMG_0042.png"
    photo.rename(moved)
    store = Store(database_path(data_dir))
    try:
        assert store.current.rename(str(photo), str(moved))
    finally:
        store.close()
    assert word_search(data_dir, "beach") == [str(moved)], "the name row follows the file, as its sidecar JSON does"
