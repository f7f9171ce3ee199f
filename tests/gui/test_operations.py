"""GUI operations: the newest search wins, adding a folder shows progress, and refreshes re-read only changed jobs."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any, Callable

import pytest

from app.engine.library import Library
from app.engine.search import SearchResult
from app.gui.app import Gui
from app.gui.operations import BACKGROUND_NICE, Op, Operations
from app.settings import Settings
from tests.engine_stages import fake_pipeline, make_media
from tests.gui.conftest import GUI_TEST_CONFIG, library_factory


def test_progress_reaches_the_gui_once_per_visible_step(qtbot: Any) -> None:
    ops = Operations({"work": 1})
    seen: list[tuple[int, int]] = []
    results: list[str] = []

    def count(op: Any) -> str:
        for n in range(1, 10_001):
            op.report(n, 10_000)
        return "counted"

    ops.start(Op(count, results.append, lane="work", progress=lambda done, total: seen.append((done, total)), steps=50))
    qtbot.waitUntil(lambda: results == ["counted"], timeout=10000)
    assert len(seen) == 51, "10,000 reports should arrive as one update per visible step (0 … 50)"
    assert seen[-1] == (10_000, 10_000)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_a_cancelled_operation_reports_cancelled_and_later_ones_still_run(qtbot: Any) -> None:
    ops = Operations({"work": 1})
    gate, errors, results = threading.Event(), [], []
    ops.start(Op(lambda op: gate.wait(10), lane="work"))  # occupies the only thread
    queued = ops.start(Op(lambda op: "never", results.append, errors.append, lane="work", key="install:x"))
    assert ops.cancel("install:x") and queued.cancelled
    ops.start(Op(lambda op: "ran", results.append, lane="work"))
    gate.set()
    qtbot.waitUntil(lambda: results == ["ran"] and len(errors) == 1, timeout=10000)
    assert errors[0].code == "cancelled"
    assert ops.current("install:x") is None


def _slow_search_factory(calls: list[str], old_started: threading.Event,
                         release_old: threading.Event) -> Callable[[Path, Settings], Library]:
    """The GUI test library with a fake search: the first query ("ca") waits until the test releases it."""
    make = library_factory()

    def factory(data_dir: Path, settings: Settings) -> Library:
        library = make(data_dir, settings)

        def search(query: str | None, image: Path | None = None, kind: str = "all",
                   limit: int = 20) -> list[SearchResult]:
            calls.append(str(query))
            if query == "ca":
                old_started.set()
                release_old.wait(60)
            return [SearchResult(path=str(data_dir / f"{query}.mkv"), kind="dialogue", score=1.0,
                                 snippet=f"a line about {query}", start=12.0)]

        library.search = search  # type: ignore[method-assign]
        return library
    return factory


def test_search_as_you_type_never_shows_an_older_querys_answer(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    calls: list[str] = []
    old_started, release_old = threading.Event(), threading.Event()
    gui = start_gui(_slow_search_factory(calls, old_started, release_old))
    panel = gui.window.search
    gui.window.tabs.setCurrentWidget(panel)
    shown: list[str] = []
    gui.facade.search.searchResults.connect(lambda label, results: shown.append(label))

    qtbot.keyClicks(panel.query, "ca")
    qtbot.waitUntil(old_started.is_set, timeout=10000)  # the search for "ca" runs, and is slow
    qtbot.keyClicks(panel.query, "t")
    qtbot.waitUntil(lambda: shown == ["cat"], timeout=10000)
    assert panel.lines.count() == 1 and "a line about cat" in panel.lines.item(0).text()

    with qtbot.waitSignal(gui.facade.ops.superseded, timeout=10000) as dropped:
        release_old.set()  # the answer for "ca" now arrives, after the one for "cat"
    assert dropped.args == ["search"]
    assert calls == ["ca", "cat"]
    assert shown == ["cat"], "a stale answer replaced the newest one"
    assert panel.lines.count() == 1 and "a line about cat" in panel.lines.item(0).text()
    assert "“cat”" in panel.status.text()


def test_adding_a_folder_shows_progress_and_the_job_appears(qtbot: Any, tmp_path: Path,
                                                          start_gui: Callable[..., Gui]) -> None:
    media = tmp_path / "Archive"
    make_media(media, 40)
    gui = start_gui()
    progress: list[tuple[str, int, int]] = []
    bar_seen: list[bool] = []
    gui.facade.jobs.addProgress.connect(lambda folder, done, total: progress.append((folder, done, total)))
    gui.facade.jobs.addProgress.connect(lambda *_: bar_seen.append(gui.window.add_progress.isVisible()))

    with qtbot.waitSignal(gui.facade.jobs.jobAdded, timeout=20000) as added:
        gui.window.add_paths([media])
    assert added.args[0].folder == str(media) and added.args[0].total == 40
    assert progress, "no progress arrived while the folder was being added"
    assert {folder for folder, _, _ in progress} == {str(media)}
    phases = [total for _, _, total in progress]
    assert phases == sorted(phases) and set(phases) == {0, 40}, "files found while walking (total 0), then recorded"
    found = [done for _, done, total in progress if total == 0]
    recorded = [done for _, done, total in progress if total == 40]
    assert found == sorted(found) and recorded == sorted(recorded)
    assert recorded[-1] == 40
    assert bar_seen and all(bar_seen), "the status bar did not show the progress"
    assert not gui.window.add_progress.isVisible(), "the progress bar stays after the job was created"
    qtbot.waitUntil(lambda: [j.folder for j in gui.window.jobs_model.jobs] == [str(media)], timeout=20000)


def test_refresh_rereads_only_the_jobs_that_changed(qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    first, second = tmp_path / "First", tmp_path / "Second"
    make_media(first, 2)
    make_media(second, 2)
    gui = start_gui()
    gui.window.add_paths([first, second])
    jobs = gui.window.jobs_model
    qtbot.waitUntil(lambda: len(jobs.jobs) == 2 and all(j.status == "completed" for j in jobs.jobs), timeout=60000)
    library = gui.facade.library
    assert library is not None
    repo = library.store.jobs
    read: list[list[int]] = []
    real_changes = repo.changes

    def changes(since: Any, all_paused_before: Any) -> Any:
        all_paused, marks, changed = real_changes(since, all_paused_before)
        read.append(sorted(s.id for s in changed))
        return all_paused, marks, changed

    repo.changes = changes  # type: ignore[method-assign]
    qtbot.waitUntil(lambda: len(read) >= 5, timeout=20000)
    assert not any(read), f"an idle library was re-read: {read}"
    read.clear()

    unchanged, changed = jobs.jobs
    gui.facade.jobs.pause(changed.id)
    qtbot.waitUntil(lambda: jobs.jobs[1].paused, timeout=10000)
    assert any(read) and all(ids in ([], [changed.id]) for ids in read), f"reads beyond the changed job: {read}"
    assert jobs.jobs[0] is unchanged, "the unchanged job was replaced by a re-read copy"


def test_a_job_seen_running_then_completed_raises_one_finished_notice(qtbot: Any, tmp_path: Path,
                                                                      start_gui: Callable[..., Gui]) -> None:
    media = tmp_path / "Later"
    make_media(media, 3)
    gui = start_gui()
    jobs = gui.window.jobs_model
    gui.facade.jobs.pause(None)
    gui.window.add_paths([media])
    qtbot.waitUntil(lambda: len(jobs.jobs) == 1 and jobs.jobs[0].status == "paused", timeout=20000)
    notices: list[tuple[str, str]] = []
    gui.facade.jobs.notice.connect(lambda job_id, title, message: notices.append((title, message)))
    gui.facade.jobs.resume(None)
    qtbot.waitUntil(lambda: jobs.jobs[0].status == "completed", timeout=60000)
    qtbot.waitUntil(lambda: bool(notices), timeout=10000)
    assert notices == [("Job finished", "Later: 3 of 3 done")]


def _thread_nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice values are Linux's")
def test_background_work_and_the_engines_stages_run_below_the_window(qtbot: Any, tmp_path: Path,
                                                                      start_gui: Callable[..., Gui]) -> None:
    """The window's thread gets a CPU before them on a busy machine (``bench/gui_stall.py``)."""
    window = _thread_nice()
    ops, seen = Operations({"work": 1}, nice=4), []
    ops.start(Op(lambda op: _thread_nice(), seen.append, lane="work"))
    qtbot.waitUntil(lambda: seen == [window + 4], timeout=10000)

    stages: list[int] = []

    def factory(data_dir: Path, settings: Settings) -> Library:
        pipeline = fake_pipeline(0.01, on_run=lambda ctx: stages.append(_thread_nice()))[0]
        return Library(data_dir, {"video": pipeline}, GUI_TEST_CONFIG)

    media = tmp_path / "Clips"
    make_media(media, 2)
    gui = start_gui(factory)
    gui.window.add_paths([media])
    qtbot.waitUntil(lambda: len(stages) == 2, timeout=30000)
    assert stages == [window + BACKGROUND_NICE] * 2, "a stage ran at the window's priority"
    assert _thread_nice() == window
