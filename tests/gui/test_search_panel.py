"""A search typed in the panel returns real results: images indexed by the real image pipeline (RapidOCR + e5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PIL import Image
from PySide6.QtCore import Qt

from app.engine.search import SearchResult
from app.gui.app import Gui
from app.gui.queue_view import QUEUE_THUMB
from app.gui.search_panel import THUMB, PathRole
from app.gui.thumbnails import ThumbnailLoader
from tests.gui.conftest import library_factory
from tests.rendered_images import render_text_image, write_dng


def test_search_shows_matching_images_with_thumbnails(qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    pics = tmp_path / "Scans"
    render_text_image(pics / "invoice.png", ["Invoice number 4471", "Total due 120 EUR"])
    render_text_image(pics / "notes.png", ["Meeting notes", "quarterly budget review"])
    gui = start_gui(library_factory(real_images=True))
    gui.window.add_paths([pics])
    qtbot.waitUntil(lambda: bool(gui.window.jobs_model.jobs) and gui.window.jobs_model.jobs[0].status == "completed",
                    timeout=240000)
    assert gui.window.jobs_model.jobs[0].done == 2

    # The queue shows each image's thumbnail, decoded off the GUI thread once its row is shown.
    queue = gui.window.queue.model
    qtbot.waitUntil(lambda: queue.item_at(0) is not None, timeout=10000)
    decoration = Qt.ItemDataRole.DecorationRole
    qtbot.waitUntil(lambda: queue.data(queue.index(0, 0), decoration) is not None, timeout=10000)
    thumb = queue.data(queue.index(0, 0), decoration).pixmap(QUEUE_THUMB)
    assert not thumb.isNull() and thumb.width() <= QUEUE_THUMB.width() and thumb.height() <= QUEUE_THUMB.height()

    panel = gui.window.search
    gui.window.tabs.setCurrentWidget(panel)
    qtbot.keyClicks(panel.query, "invoice 4471")
    with qtbot.waitSignal(gui.facade.search.searchResults, timeout=120000) as answer:
        qtbot.keyClick(panel.query, Qt.Key.Key_Return)
    assert answer.args[0] == "invoice 4471"
    assert panel.images.rowCount() >= 1
    top = panel.images.item(0)
    assert Path(top.data(PathRole)) == pics / "invoice.png"
    assert panel.images_label.text() == f"Images ({panel.images.rowCount()})"
    assert "1 result for" in panel.status.text() or "results for" in panel.status.text()  # English plurals, no "(s)"
    assert "(s)" not in panel.status.text()
    placeholder = top.icon().pixmap(panel.grid.iconSize()).toImage()
    qtbot.waitUntil(lambda: top.icon().pixmap(panel.grid.iconSize()).toImage() != placeholder, timeout=10000)


def test_thumbnails_of_phone_and_camera_photos_come_from_the_engines_image_loader(qtbot: Any, tmp_path: Path) -> None:
    page = Image.open(render_text_image(tmp_path / "page.png", ["Harbour ferry"]))
    page.save(tmp_path / "IMG_0001.heic")
    write_dng(tmp_path / "DSC_0002.dng", page)
    loader = ThumbnailLoader(THUMB)
    for path in (tmp_path / "IMG_0001.heic", tmp_path / "DSC_0002.dng"):
        with qtbot.waitSignal(loader.ready, timeout=10000) as done:
            loader.load(str(path))
        assert done.args[0] == str(path)
        thumb = done.args[1]
        assert not thumb.isNull() and thumb.width() == THUMB.width() and thumb.height() <= THUMB.height()


def test_a_search_that_matches_nothing_says_so_instead_of_an_empty_grid(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    panel = gui.window.search
    gui.window.tabs.setCurrentWidget(panel)
    qtbot.keyClicks(panel.query, "coffee")
    with qtbot.waitSignal(gui.facade.search.searchResults, timeout=120000) as answer:
        qtbot.keyClick(panel.query, Qt.Key.Key_Return)
    assert answer.args == ["coffee", []]
    assert panel.empty.isVisible() and panel.empty.text() == "Nothing matches “coffee”."
    assert not panel.results.isVisible() and panel.images.rowCount() == 0

    panel.show_results("cat", [SearchResult(path="/pics/cat.png", kind="image", score=0.1, snippet="")])
    assert panel.results.isVisible() and not panel.empty.isVisible()


def test_each_result_says_why_it_matched(start_gui: Callable[..., Gui]) -> None:
    panel = start_gui().window.search
    panel.show_results("Osaka", [
        SearchResult(path="/pics/sign.jpg", kind="image", score=0.2, snippet="[Osaka]", match="translation",
                     match_text="大阪"),
        SearchResult(path="/pics/paris.jpg", kind="image", score=0.1, snippet="", match="translated_query",
                     match_text="Louvre"),
        SearchResult(path="/films/a.mkv", kind="dialogue", score=0.1, snippet="see you in Osaka", start=3.0),
    ])
    tips = [panel.images.item(row).toolTip() for row in range(panel.images.rowCount())]
    assert tips[0].splitlines() == ["/pics/sign.jpg", "[Osaka]", "Matched the translation of “大阪”"]
    assert tips[1].splitlines()[-1] == "Matched the query translated as “Louvre”"
    assert panel.lines.item(0).toolTip().splitlines()[-1] == "Matched the words"
