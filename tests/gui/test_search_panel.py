"""A search typed in the panel returns real results: images indexed by the real image pipeline (RapidOCR + e5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import Qt

from app.gui.app import Gui
from app.gui.search_panel import PathRole
from tests.gui.conftest import library_factory
from tests.rendered_images import render_text_image


def test_search_shows_matching_images_with_thumbnails(qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    pics = tmp_path / "Scans"
    render_text_image(pics / "invoice.png", ["Invoice number 4471", "Total due 120 EUR"])
    render_text_image(pics / "notes.png", ["Meeting notes", "quarterly budget review"])
    gui = start_gui(library_factory(real_images=True))
    gui.window.add_paths([pics])
    qtbot.waitUntil(lambda: bool(gui.window.jobs_model.jobs) and gui.window.jobs_model.jobs[0].status == "completed",
                    timeout=240000)
    assert gui.window.jobs_model.jobs[0].done == 2

    panel = gui.window.search
    gui.window.tabs.setCurrentWidget(panel)
    qtbot.keyClicks(panel.query, "invoice 4471")
    with qtbot.waitSignal(gui.facade.searchResults, timeout=120000) as answer:
        qtbot.keyClick(panel.query, Qt.Key.Key_Return)
    assert answer.args[0] == "invoice 4471"
    assert panel.images.rowCount() >= 1
    top = panel.images.item(0)
    assert Path(top.data(PathRole)) == pics / "invoice.png"
    assert panel.images_label.text() == f"Images ({panel.images.rowCount()})"
    assert "result(s)" in panel.status.text()
    placeholder = top.icon().pixmap(panel.grid.iconSize()).toImage()
    qtbot.waitUntil(lambda: top.icon().pixmap(panel.grid.iconSize()).toImage() != placeholder, timeout=10000)


def test_a_search_that_matches_nothing_says_so_instead_of_an_empty_grid(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    panel = gui.window.search
    gui.window.tabs.setCurrentWidget(panel)
    qtbot.keyClicks(panel.query, "coffee")
    with qtbot.waitSignal(gui.facade.searchResults, timeout=120000) as answer:
        qtbot.keyClick(panel.query, Qt.Key.Key_Return)
    assert answer.args == ["coffee", []]
    assert panel.empty.isVisible() and panel.empty.text() == "Nothing matches “coffee”."
    assert not panel.results.isVisible() and panel.images.rowCount() == 0

    panel.show_results("cat", [{"path": "/pics/cat.png", "kind": "image", "score": 0.1, "snippet": "", "start": None}])
    assert panel.results.isVisible() and not panel.empty.isVisible()
