"""The queue stays cheap for the GUI thread while a job runs (issue 15: the window never stalls).

Rows arrive formatted from the facade's worker thread; a re-read page repaints only the
rows that changed; a job that grows gets rows inserted (the view keeps its place); the
log panel appends a burst of engine lines at once; the GUI process hands the GIL back
quickly and has frozen its start-up objects out of the collector.
"""

from __future__ import annotations

import dataclasses
import gc
import logging
import sys
import threading
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QModelIndex

import app.gui.queue_rows as queue_rows
from app.gui.app import SWITCH_INTERVAL_S, Gui
from app.gui.queue_rows import QueueRow, RowCache, queue_row
from app.gui.queue_view import QueueModel, changed_runs
from tests.engine_stages import make_media

ITEMS = 6


def _finished_queue(qtbot: Any, tmp_path: Path, gui: Gui) -> QueueModel:
    media = tmp_path / "Clips"
    make_media(media, ITEMS)
    gui.window.add_paths([media])
    jobs, queue = gui.window.jobs_model, gui.window.queue.model
    qtbot.waitUntil(lambda: bool(jobs.jobs) and jobs.jobs[0].status == "completed", timeout=60000)
    qtbot.waitUntil(lambda: queue.rowCount() == ITEMS and all(
        (item := queue.item_at(r)) is not None and item.status == "completed" for r in range(ITEMS)), timeout=60000)
    return queue


def test_rows_are_formatted_on_the_facades_worker_thread(qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui],
                                                          monkeypatch: Any) -> None:
    threads: list[int] = []

    def recording(item: Any) -> QueueRow:
        threads.append(threading.get_ident())
        return queue_row(item)

    monkeypatch.setattr(queue_rows, "queue_row", recording)
    gui = start_gui()
    queue = _finished_queue(qtbot, tmp_path, gui)
    assert threads and threading.get_ident() not in threads, "queue rows were formatted on the GUI thread"
    row = queue.row_at(0)
    assert isinstance(row, QueueRow) and queue.data(queue.index(0, 0)) == Path(row.item.path).name
    assert queue.data(queue.index(0, QueueModel.PROGRESS)) == "100 %"


def test_a_re_read_page_repaints_only_the_rows_that_changed(qtbot: Any, tmp_path: Path,
                                                           start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    queue = _finished_queue(qtbot, tmp_path, gui)
    job = queue.job
    assert job is not None
    page = [queue.row_at(r) for r in range(ITEMS)]
    changes: list[tuple[int, int, int, int]] = []
    queue.dataChanged.connect(lambda top, bottom, *_: changes.append((top.row(), bottom.row(), top.column(), bottom.column())))

    gui.facade.jobs.itemsPage.emit(job.id, 0, list(page))
    assert changes == [], "an unchanged page repainted rows"

    moved = dataclasses.replace(page[3].item, progress=0.5)
    gui.facade.jobs.itemsPage.emit(job.id, 0, [*page[:3], queue_row(moved), *page[4:]])
    assert changes == [(3, 3, 0, len(QueueModel.COLUMNS) - 1)]
    assert queue.data(queue.index(3, QueueModel.PROGRESS)) == "50 %"
    assert changed_runs(page, [*page[:1], queue_row(moved), queue_row(moved), *page[3:]]) == [(1, 2)]


def test_a_growing_job_inserts_rows_instead_of_resetting_the_model(qtbot: Any, tmp_path: Path,
                                                                  start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    queue = _finished_queue(qtbot, tmp_path, gui)
    job = queue.job
    assert job is not None
    resets: list[bool] = []
    inserted: list[tuple[int, int]] = []
    queue.modelReset.connect(lambda: resets.append(True))
    queue.rowsInserted.connect(lambda parent, first, last: inserted.append((first, last)))

    queue.show_job(dataclasses.replace(job, total=job.total + 3))
    assert resets == [] and inserted == [(ITEMS, ITEMS + 2)] and queue.rowCount(QModelIndex()) == ITEMS + 3


def test_a_burst_of_log_lines_is_appended_at_once(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    panel = gui.window.log_panel
    panel.flush()
    appends: list[bool] = []
    panel.view.textChanged.connect(lambda: appends.append(True))
    for n in range(50):
        logging.getLogger("app.test_burst").info("line %d of the burst", n)
    qtbot.waitUntil(lambda: "line 49 of the burst" in panel.view.toPlainText(), timeout=5000)
    assert len(appends) == 1, f"{len(appends)} appends for one burst of 50 lines"
    assert panel.view.toPlainText().count("of the burst") == 50


def test_the_gui_process_hands_the_gil_back_quickly_and_froze_its_start_up_objects(
        qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    gc.unfreeze()
    sys.setswitchinterval(0.005)
    start_gui()
    qtbot.waitUntil(lambda: gc.get_freeze_count() > 0, timeout=5000)
    assert sys.getswitchinterval() == SWITCH_INTERVAL_S


def test_an_unchanged_item_keeps_its_row_object_and_a_changed_one_is_formatted_again(
        qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    queue = _finished_queue(qtbot, tmp_path, gui)
    items = [queue.item_at(r) for r in range(ITEMS)]
    cache = RowCache()
    first = cache(items)
    moved = dataclasses.replace(items[2], progress=0.25)
    second = cache([*items[:2], moved, *items[3:]])
    assert all(second[n] is first[n] for n in range(ITEMS) if n != 2)
    assert second[2] is not first[2] and second[2].display[QueueModel.PROGRESS] == "25 %"
