"""Photos as people keep them, through the real image pipeline (RapidOCR + e5) driven by `sidecar`:
the same photo in two albums, phone formats (HEIC, AVIF), rotated shots and camera RAW files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import text

from app.paths import database_path
from app.store import Store, search_queries
from app.store.search_queries import CurrentContent
from tests.e2e.test_image_search import index_folder, search, sidecar
from tests.rendered_images import render_text_image, sideways_photo, write_dng

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


def test_phone_and_camera_photos_are_found_by_their_text_and_a_bad_one_fails_alone(
        tmp_path: Path, data_dir: Path, capsys) -> None:
    def page(name: str, lines: list[str]) -> Image.Image:
        return Image.open(render_text_image(tmp_path / "src" / f"{name}.png", lines)).convert("RGB")

    pics = tmp_path / "camera roll"
    pics.mkdir()
    page("heic", ["Harbour ferry timetable"]).save(pics / "IMG_0001.HEIC")
    page("avif", ["Museum ticket adult"]).save(pics / "IMG_0002.avif")
    sideways_photo(page("right", ["Boarding pass gate", "Seat number"]), pics / "IMG_0003.jpg", 6)
    sideways_photo(page("left", ["Parcel locker code", "Pickup until Friday"]), pics / "IMG_0004.jpg", 8)
    write_dng(pics / "DSC_0005.dng", page("raw", ["Vineyard tasting menu"]).transpose(Image.Transpose.ROTATE_90),
              orientation=6)
    write_dng(pics / "DSC_0006.dng", None)
    good = (tmp_path / "src" / "good.heic")
    page("broken", ["Never read"]).save(good)
    (pics / "IMG_0007.heic").write_bytes(good.read_bytes()[: good.stat().st_size // 3])

    job = index_folder(capsys, data_dir, pics)
    assert (job["total"], job["done"], job["failed"]) == (7, 5, 2)
    _, status = sidecar(capsys, data_dir, "status", str(job["id"]))
    by_name = {Path(i["path"]).name: i for i in status["jobs"][0]["items"]}
    assert by_name["DSC_0006.dng"]["error_code"] == "raw_no_preview"
    assert by_name["IMG_0007.heic"]["error_code"] == "corrupt_media"
    assert not (pics / "DSC_0006.dng.sidecar.json").exists() and not (pics / "IMG_0007.heic.sidecar.json").exists()

    for query, name in (("ferry timetable", "IMG_0001.HEIC"), ("museum ticket", "IMG_0002.avif"),
                        ("boarding pass", "IMG_0003.jpg"), ("parcel locker", "IMG_0004.jpg"),
                        ("vineyard tasting", "DSC_0005.dng")):
        assert Path(search(capsys, data_dir, query, "--kind", "image")[0]["path"]).name == name, query

    def ocr(name: str) -> str:
        return json.loads((pics / f"{name}.sidecar.json").read_text(encoding="utf-8"))["ocr_text"]

    # Upright before OCR: the lines come top to bottom (RapidOCR reads a sideways line on its own,
    # but a page turned 90° counter-clockwise would list its lines bottom first).
    assert ocr("IMG_0003.jpg").index("Boarding") < ocr("IMG_0003.jpg").index("Seat")
    assert ocr("IMG_0004.jpg").index("Parcel") < ocr("IMG_0004.jpg").index("Pickup")
    assert json.loads((pics / "DSC_0005.dng.sidecar.json").read_text(encoding="utf-8"))["exif"] == {
        "camera_make": "Sidecar", "camera_model": "Test Camera"}
