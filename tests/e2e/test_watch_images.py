"""A watched folder through the real image pipeline (RapidOCR + e5): indexed when it appears,
found under its new name after a rename without re-running a model, not found after deletion."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable

import pytest
from sqlalchemy import select

from app.engine.library import Library
from app.engine.watch import WatchService, WatchSettings, add_watch, watch_options
from app.pipelines.image import SIDECAR_SUFFIX, image_pipeline
from app.settings import Settings
from app.store.tables import stages
from tests.rendered_images import render_text_image

pytestmark = pytest.mark.e2e


def wait_for(condition: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.1)


def test_watched_image_is_searchable_follows_its_rename_and_leaves_search_when_deleted(
        tmp_path: Path, data_dir: Path, fast_config) -> None:
    pics = tmp_path / "pics"
    pics.mkdir()
    lib = Library(data_dir, {"image": image_pipeline(data_dir)}, fast_config)
    add_watch(lib, pics, watch_options(Settings(), kind="image"))
    service = WatchService(lib, WatchSettings(quiet_seconds=0.5, refresh_seconds=0.2))
    lib.start()
    service.start()
    try:
        wait_for(lambda: service.status() and service.status()[0].mode != "stopped", 10, "the watcher")
        photo = pics / "receipt.png"
        render_text_image(photo, ["Invoice number 4471", "Total due 120 EUR"])

        def indexed(path: Path) -> bool:
            cur = lib.store.current.get(str(path))
            return cur is not None and cur.status in ("completed", "failed")

        wait_for(lambda: indexed(photo), 300, "the image to be indexed")
        lib.run_until_idle()
        item = lib.store.current.get(str(photo))
        assert item is not None and item.status == "completed"
        assert [r.path for r in lib.search("invoice 4471", kind="image")] == [str(photo)]
        sidecar = pics / (photo.name + SIDECAR_SUFFIX)
        sidecar_bytes = sidecar.read_bytes()
        with lib.store.db.read() as conn:
            attempts_before = conn.execute(select(stages.c.name, stages.c.attempt).where(stages.c.item_id == item.item_id)).all()

        renamed = pics / "invoice-4471.png"
        os.rename(photo, renamed)
        wait_for(lambda: lib.store.current.get(str(renamed)) is not None, 30, "the rename")
        wait_for(lambda: all(s.pending == 0 for s in service.status()), 30, "the watcher to settle")
        lib.run_until_idle()
        moved = lib.store.current.get(str(renamed))
        with lib.store.db.read() as conn:
            attempts_after = conn.execute(select(stages.c.name, stages.c.attempt).where(stages.c.item_id == item.item_id)).all()
        assert moved is not None and moved.item_id == item.item_id
        assert attempts_after == attempts_before, "a rename must not run any stage again"
        assert [r.path for r in lib.search("invoice 4471", kind="image")] == [str(renamed)]
        assert (pics / (renamed.name + SIDECAR_SUFFIX)).read_bytes() == sidecar_bytes and not sidecar.exists()

        renamed.unlink()
        wait_for(lambda: lib.store.current.get(str(renamed)) is None, 30, "the deletion")
        assert lib.search("invoice 4471", kind="image") == []
    finally:
        service.stop()
        lib.close()
