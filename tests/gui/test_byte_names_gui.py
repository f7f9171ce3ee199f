"""A file whose name is not UTF-8 in the desktop app (issue 21): shown readably, found by its readable words,
and handed on (open, editor, similar images) under its exact bytes, which Qt's text alone would lose."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable
from urllib.parse import unquote_to_bytes

from PySide6.QtCore import Qt

from app.gui.app import Gui
from app.gui.file_urls import file_url
from app.gui.search_panel import PathRole
from app.shown_names import unescape
from tests.gui.conftest import library_factory
from tests.rendered_images import render_text_image


def test_a_latin1_named_image_is_listed_found_and_opened_by_its_exact_bytes(
        qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    folder = Path(os.fsdecode(os.fsencode(tmp_path) + b"/Scans \xff"))
    image = Path(os.fsdecode(os.fsencode(folder) + b"/Quittung \xe9t\xe9 4471.png"))
    render_text_image(image, ["Invoice number 4471"])
    gui = start_gui(library_factory(real_images=True))
    gui.window.add_paths([folder])
    qtbot.waitUntil(lambda: bool(gui.window.jobs_model.jobs) and gui.window.jobs_model.jobs[0].status == "completed",
                    timeout=240000)
    jobs = gui.window.jobs_model
    assert jobs.data(jobs.index(0, 0), Qt.ItemDataRole.DisplayRole) == "Scans \ufffd"

    queue = gui.window.queue.model
    qtbot.waitUntil(lambda: queue.item_at(0) is not None, timeout=10000)
    assert queue.data(queue.index(0, 0), Qt.ItemDataRole.DisplayRole) == "Quittung \ufffdt\ufffd 4471.png"
    assert queue.item_at(0).path == str(image)  # what "Open file" and the editor are given

    panel = gui.window.search
    gui.window.tabs.setCurrentWidget(panel)
    qtbot.keyClicks(panel.query, "quittung")  # a readable part of the name
    with qtbot.waitSignal(gui.facade.search.searchResults, timeout=120000):
        qtbot.keyClick(panel.query, Qt.Key.Key_Return)
    assert panel.images.rowCount() == 1
    top = panel.images.item(0)
    assert top.text() == "Quittung \ufffdt\ufffd 4471.png"
    assert unescape(top.data(PathRole)) == str(image)
    panel.grid.setCurrentIndex(panel.images.index(0, 0))
    assert panel.selected_image() == str(image)


def test_file_urls_carry_the_exact_bytes() -> None:
    path = os.fsdecode(b"/media/Caf\xe9 talk.flac")
    url = file_url(path)
    assert url.isValid() and url.scheme() == "file"
    assert unquote_to_bytes(bytes(url.toEncoded()).decode("ascii")[len("file://"):]) == b"/media/Caf\xe9 talk.flac"
    assert file_url("/media/Film.mkv").toLocalFile() == "/media/Film.mkv"
