"""Words people understand (issue 15.5), read off the real window's models while the real engine runs.

A job whose items failed reads "finished — N failed" (its stored status stays
"completed"); a skip and an image's "indexed (no visual model installed)" sit in the
Note column, never in Error; an error cell's tooltip gives the code's sentence and what
to do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import Qt

from app.engine.library import Library
from app.errors import EXPLANATIONS
from app.gui.app import Gui
from app.gui.queue_view import QueueModel
from app.settings import Settings
from tests.engine_stages import fake_pipeline, make_media
from tests.gui.conftest import GUI_TEST_CONFIG, library_factory
from tests.rendered_images import render_text_image

FAILING = ("clip001.mp4", "clip002.mp4")


def failing_library(data_dir: Path, settings: Settings) -> Library:
    """The fake video pipeline whose extract stage fails two files for good (corrupt_media)."""
    pipeline = fake_pipeline(0.02, fail_codes={name: ("corrupt_media", False) for name in FAILING})[0]
    return Library(data_dir, {"video": pipeline}, GUI_TEST_CONFIG)


def _rows(qtbot: Any, gui: Gui, count: int) -> dict[str, int]:
    """Wait until the queue shows ``count`` settled items; their rows by file name."""
    queue = gui.window.queue.model
    qtbot.waitUntil(lambda: queue.rowCount() == count and all(
        (item := queue.item_at(r)) is not None and item.status in ("completed", "failed", "skipped")
        for r in range(count)), timeout=60000)
    return {Path(queue.item_at(r).path).name: r for r in range(count)}


def _cell(model: QueueModel, row: int, column: int, role: Qt.ItemDataRole = Qt.ItemDataRole.DisplayRole) -> Any:
    return model.data(model.index(row, column), role)


def test_failed_items_read_finished_n_failed_with_sentence_and_advice_and_a_skip_is_a_note(
    qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]
) -> None:
    media = tmp_path / "Clips"
    make_media(media, 4)
    (media / "clip003.srt").write_text("1\n00:00:00,000 --> 00:00:01,000\nhello\n", encoding="utf-8")
    gui = start_gui(failing_library)
    gui.window.add_paths([media])
    jobs = gui.window.jobs_model
    qtbot.waitUntil(lambda: bool(jobs.jobs) and jobs.jobs[0].status == "completed", timeout=60000)
    assert (jobs.jobs[0].failed, jobs.jobs[0].done, jobs.jobs[0].skipped) == (2, 1, 1)
    assert jobs.data(jobs.index(0, jobs.COLUMNS.index("Status"))) == "Finished — 2 failed"

    rows = _rows(qtbot, gui, 4)
    queue = gui.window.queue.model
    corrupt = EXPLANATIONS["corrupt_media"]
    for name in FAILING:
        row = rows[name]
        assert _cell(queue, row, QueueModel.ERROR) == "extract failed on purpose"  # words
        assert _cell(queue, row, QueueModel.NOTE) == ""
        tip = _cell(queue, row, QueueModel.ERROR, Qt.ItemDataRole.ToolTipRole)
        assert tip.splitlines() == [corrupt.sentence, "extract failed on purpose",  # words only, no code (issue 39.7)
                                    f"What to do: {corrupt.advice}"]
        details = _cell(queue, row, 0, Qt.ItemDataRole.ToolTipRole)
        assert details == f"{media / name}\n\n{tip}"  # the item's details: where it is, what happened, what to do
    skipped = rows["clip003.mp4"]
    assert _cell(queue, skipped, QueueModel.NOTE) == "already subtitled (clip003.srt)"
    assert _cell(queue, skipped, QueueModel.ERROR) == ""
    assert _cell(queue, rows["clip000.mp4"], QueueModel.ERROR) == ""
    assert queue.headerData(QueueModel.NOTE, Qt.Orientation.Horizontal) == "Note"


def test_an_image_indexed_without_a_visual_model_has_a_note_not_an_error(
    qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]
) -> None:
    pics = tmp_path / "Scans"
    render_text_image(pics / "invoice.png", ["Invoice number 4471"])
    gui = start_gui(library_factory(real_images=True))
    gui.window.add_paths([pics])
    jobs = gui.window.jobs_model
    qtbot.waitUntil(lambda: bool(jobs.jobs) and jobs.jobs[0].status == "completed", timeout=240000)
    assert jobs.data(jobs.index(0, jobs.COLUMNS.index("Status"))) == "Finished"
    row = _rows(qtbot, gui, 1)["invoice.png"]
    queue = gui.window.queue.model
    item = queue.item_at(row)
    assert item.result and "no visual model" in item.result
    assert _cell(queue, row, QueueModel.NOTE) == item.result
    assert _cell(queue, row, QueueModel.ERROR) == ""
    assert _cell(queue, row, QueueModel.ERROR, Qt.ItemDataRole.ToolTipRole) is None


def test_the_details_pane_reads_a_failed_item_in_full_and_a_missing_launcher_is_said(
    qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui], monkeypatch: Any
) -> None:
    from PySide6.QtWidgets import QMessageBox

    from PySide6.QtGui import QDesktopServices

    media = tmp_path / "Clips"
    make_media(media, 3)
    gui = start_gui(failing_library)
    gui.window.add_paths([media])
    rows = _rows(qtbot, gui, 3)
    view = gui.window.queue
    view.table.selectRow(rows[FAILING[0]])
    text = view.details.toPlainText()
    assert str(media / FAILING[0]) in text and EXPLANATIONS["corrupt_media"].sentence in text and "What to do: " in text
    assert "corrupt_media" not in text  # words, not the code (issue 39.7)
    assert _cell(view.model, rows[FAILING[0]], QueueModel.ERROR) == "extract failed on purpose"

    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()) and False)
    view.open_button.click()
    assert opened == [str(media / FAILING[0])]
    assert isinstance(view.no_launcher, QMessageBox) and view.no_launcher.isVisible()
    assert str(media / FAILING[0]) in view.no_launcher.text()
    view.no_launcher.close()
    view.folder_button.click()
    assert opened[-1] == str(media) and view.no_launcher.isVisible()
    view.no_launcher.close()
