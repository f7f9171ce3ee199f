"""The GUI's one door to the engine: every Library call runs off the GUI thread.

Views never touch the store, the disk or a model. They call a method here, which
queues the work on a thread pool and returns at once; the answer comes back as a Qt
signal carrying plain data (the engine's frozen dataclasses, lists and dicts). The
signal is emitted from the worker, and because the facade lives on the GUI thread
Qt delivers it there through the event loop (a queued connection).

Two pools, so a slow operation never delays the status the person is watching:

* ``_store_pool`` (one thread): short store calls — status, pages, pause, decide.
  One thread keeps them in the order the person asked for them (a pause is
  written before the refresh that shows it).
* ``_slow_pool``: adding folders (scan + sha256 of every file), search (query
  embedding) and settings/model-list file I/O.

While a facade is alive ``Database.thread_guard`` and ``ModelHost.thread_guard``
raise on the GUI thread, so a view that reached past the facade fails loudly in
tests instead of freezing the window in production.
"""

from __future__ import annotations

import dataclasses
import getpass
import logging
import threading
from pathlib import Path
from typing import Any, Callable, Sequence

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from app.engine.library import JobOptions, Library
from app.engine.watch import WatchService, set_watched_folders, watch_options
from app.errors import SidecarError
from app.ml.host import ModelHost
from app.pipelines import default_pipelines
from app.settings import Settings, load_settings, save_settings
from app.store.database import Database
from app.store.records import JobSummary
from app.store.states import JobStatus

log = logging.getLogger(__name__)

LibraryFactory = Callable[[Path, Settings], Library]


class GuiThreadViolation(SidecarError):
    """The store or a model was entered on the GUI thread (a bug: the window would freeze)."""

    code = "gui_thread_blocked"


class ThreadGuard:
    """Raises when called on the GUI thread; counts the calls it let through.

    The counts let tests prove the guard was installed while they ran (calls seen >
    0) and that nothing tripped it, even where an exception was caught downstream.
    """

    def __init__(self, gui_thread_id: int):
        self.gui_thread_id = gui_thread_id
        self.passed = 0
        self.violations: list[str] = []

    def __call__(self) -> None:
        if threading.get_ident() == self.gui_thread_id:
            self.violations.append(threading.current_thread().name)
            raise GuiThreadViolation("the store or a model was called on the GUI thread")
        self.passed += 1


def default_library(data_dir: Path, settings: Settings) -> Library:
    """The production engine: the real pipelines with the person's engine settings."""
    return Library(data_dir, default_pipelines(data_dir, settings), settings.engine_config())


def job_options(settings: Settings) -> JobOptions:
    """What a new job freezes from the current settings (the same mapping as ``sidecar add``)."""
    return JobOptions.from_settings(settings)


class _Relay(QObject):
    """Carries a finished task's outcome back to the facade's thread."""

    done = Signal(object, object, object)  # callback, result, error


class _Task(QRunnable):
    def __init__(self, fn: Callable[[], Any], on_done: Callable[[Any], None] | None,
                 on_error: Callable[[BaseException], None] | None, relay: _Relay):
        super().__init__()
        self._fn, self._on_done, self._on_error, self._relay = fn, on_done, on_error, relay

    def run(self) -> None:
        try:
            result = self._fn()
        except BaseException as exc:  # noqa: BLE001 - every failure is reported to the GUI, none kills the pool
            self._relay.done.emit(self._on_error, None, exc)
        else:
            self._relay.done.emit(self._on_done, result, None)


class EngineFacade(QObject):
    """Owns the Library; answers every request with a signal."""

    started = Signal()
    closed = Signal()
    jobsChanged = Signal(list)  # list[JobSummary]
    itemsPage = Signal(int, int, list)  # job id, offset, list[ItemView]
    reviewsChanged = Signal(list)  # list[Review]
    reviewDecided = Signal(object)  # Review
    decisionFailed = Signal(int, str, str)  # review id, code (review_conflict…), message
    searchResults = Signal(str, list)  # query (or image path), list[dict]
    jobAdded = Signal(object)  # JobSummary
    settingsLoaded = Signal(object)  # Settings
    settingsSaved = Signal(object)  # Settings
    modelsListed = Signal(list)  # list[dict]
    notice = Signal(str, str)  # title, message: job finished, items failed, review needed
    error = Signal(str, str)  # code, message
    _engineTouched = Signal()

    def __init__(self, data_dir: Path, library_factory: LibraryFactory = default_library,
                 poll_ms: int = 1000, parent: QObject | None = None):
        super().__init__(parent)
        self.data_dir = data_dir
        self.settings: Settings | None = None
        self._factory = library_factory
        self._library: Library | None = None
        self._watches: WatchService | None = None
        self._relay = _Relay()
        self._relay.done.connect(self._finish)
        self._store_pool = QThreadPool(self)
        self._store_pool.setMaxThreadCount(1)
        self._slow_pool = QThreadPool(self)
        self._slow_pool.setMaxThreadCount(2)
        self.guard = ThreadGuard(threading.get_ident())
        Database.thread_guard = self.guard
        ModelHost.thread_guard = self.guard
        self._refresh_running = False
        self._refresh_again = False
        self._last_jobs: dict[int, JobSummary] = {}
        self._last_reviews: tuple[tuple[int, int, str], ...] | None = None
        self._poll = QTimer(self)
        self._poll.setInterval(poll_ms)
        self._poll.timeout.connect(self.refresh)
        # The scheduler calls on_change from its worker threads; this signal hops to
        # the GUI thread, and the short single-shot timer folds a burst into one refresh.
        self._touch_timer = QTimer(self)
        self._touch_timer.setSingleShot(True)
        self._touch_timer.setInterval(min(200, poll_ms))
        self._touch_timer.timeout.connect(self.refresh)
        self._engineTouched.connect(self._touch_timer.start)
        self._closing = False

    # -- plumbing -------------------------------------------------------------------------

    def _submit(self, fn: Callable[[], Any], on_done: Callable[[Any], None] | None = None,
                on_error: Callable[[BaseException], None] | None = None, slow: bool = False) -> None:
        (self._slow_pool if slow else self._store_pool).start(_Task(fn, on_done, on_error or self._report, self._relay))

    @Slot(object, object, object)
    def _finish(self, callback: Callable[[Any], None] | None, result: Any, exc: BaseException | None) -> None:
        if callback is not None:
            callback(exc if exc is not None else result)

    def _report(self, exc: BaseException) -> None:
        if isinstance(exc, SidecarError):
            self.error.emit(exc.code, exc.message)
        else:
            log.error("engine call failed", exc_info=exc)
            self.error.emit("internal_error", str(exc) or type(exc).__name__)

    def _lib(self) -> Library | None:
        """The running library; None (and an ``error`` signal) before start or after shutdown began."""
        if self._library is None or self._closing:
            if not self._closing:
                self.error.emit("engine_starting", "the engine is still starting; try again in a moment")
            return None
        return self._library

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Open the library and start the engine (recovery, workers) off the GUI thread."""
        def open_and_start() -> tuple[Library, Settings]:
            settings = load_settings(self.data_dir)
            library = self._factory(self.data_dir, settings)
            library.scheduler.on_change = self._engineTouched.emit
            library.start()
            self._watches = WatchService(library, on_change=lambda action, path: self._engineTouched.emit())
            self._watches.start()
            return library, settings

        def opened(result: tuple[Library, Settings]) -> None:
            self._library, self.settings = result
            self.settingsLoaded.emit(self.settings)
            self._poll.start()
            self.started.emit()
            self.refresh()

        self._submit(open_and_start, opened)

    def shutdown(self) -> None:
        """Stop the engine (running stages stop at a checkpoint) and emit ``closed``."""
        if self._closing:
            return
        self._closing = True
        self._poll.stop()
        self._touch_timer.stop()
        library, self._library = self._library, None

        def close() -> None:
            if self._watches is not None:
                self._watches.stop()
            if library is not None:
                library.close()

        def closed(_: Any) -> None:
            if Database.thread_guard is self.guard:
                Database.thread_guard = None
            if ModelHost.thread_guard is self.guard:
                ModelHost.thread_guard = None
            self.closed.emit()

        self._submit(close, closed, closed)

    # -- observing ------------------------------------------------------------------------

    @Slot()
    def refresh(self) -> None:
        """Fetch job summaries and reviews; at most one refresh is in flight, a request meanwhile re-runs it once."""
        if self._library is None or self._closing:
            return
        if self._refresh_running:
            self._refresh_again = True
            return
        self._refresh_running = True
        library = self._library

        def fetch() -> tuple[list[JobSummary], list[Any]]:
            return library.status(), library.reviews()

        def fetched(result: tuple[list[JobSummary], list[Any]] | BaseException) -> None:
            self._refresh_running = False
            if self._closing:
                return
            if isinstance(result, BaseException):
                self._report(result)
            else:
                jobs, reviews = result
                self._announce(jobs)
                self.jobsChanged.emit(jobs)
                key = tuple((r.id, r.revision, r.state) for r in reviews)
                if key != self._last_reviews:
                    self._last_reviews = key
                    self.reviewsChanged.emit(reviews)
            if self._refresh_again:
                self._refresh_again = False
                self.refresh()

        self._submit(fetch, fetched, fetched)

    def _announce(self, jobs: Sequence[JobSummary]) -> None:
        """Turn changes between two refreshes into notices (the tray shows them)."""
        first = not self._last_jobs
        for job in jobs:
            old = self._last_jobs.get(job.id)
            name = Path(job.folder).name or job.folder
            if first or old is None:
                continue
            if job.status == JobStatus.COMPLETED and old.status != JobStatus.COMPLETED:
                self.notice.emit("Job finished", f"{name}: {job.done} of {job.total} done")
            if job.failed > old.failed:
                self.notice.emit("Items failed", f"{name}: {job.failed - old.failed} more item(s) failed")
            if job.review > old.review:
                self.notice.emit("Review needed", f"{name}: {job.review} item(s) need a decision")
        self._last_jobs = {j.id: j for j in jobs}

    def fetch_items(self, job_id: int, offset: int, limit: int) -> None:
        library = self._lib()
        if library is not None:
            self._submit(lambda: library.items(job_id, offset, limit), lambda rows: self.itemsPage.emit(job_id, offset, rows))

    # -- commands -------------------------------------------------------------------------

    def _command(self, fn: Callable[[Library], Any], slow: bool = False, then: Callable[[Any], None] | None = None,
                 on_error: Callable[[BaseException], None] | None = None) -> None:
        library = self._lib()
        if library is None:
            return

        def done(result: Any) -> None:
            if isinstance(result, BaseException):
                (on_error or self._report)(result)
            elif then is not None:
                then(result)
            self.refresh()

        self._submit(lambda: fn(library), done, done, slow=slow)

    def add_paths(self, paths: Sequence[Path]) -> None:
        """One job per path; the scan and hashing run on the slow pool."""
        for path in paths:
            def add(library: Library, path: Path = Path(path)) -> JobSummary:
                settings = load_settings(self.data_dir)
                return library.add(path, job_options(settings))

            self._command(add, slow=True, then=self.jobAdded.emit)

    def pause(self, job_id: int | None) -> None:
        self._command(lambda lib: lib.pause(job_id))

    def resume(self, job_id: int | None) -> None:
        self._command(lambda lib: lib.resume(job_id))

    def retry_job(self, job_id: int) -> None:
        self._command(lambda lib: lib.retry_job(job_id))

    def retry_item(self, item_id: int) -> None:
        self._command(lambda lib: lib.retry_item(item_id))

    def cancel(self, job_id: int) -> None:
        self._command(lambda lib: lib.cancel(job_id))

    def decide(self, review_id: int, decision: str, reason: str, expected_revision: int | None) -> None:
        """Record a review decision; a conflict arrives as ``decisionFailed(id, "review_conflict", …)``."""
        actor = f"gui:{getpass.getuser()}"

        def failed(exc: BaseException) -> None:
            if isinstance(exc, SidecarError):
                self.decisionFailed.emit(review_id, exc.code, exc.message)
            else:
                self._report(exc)

        self._command(lambda lib: lib.decide(review_id, decision, reason, actor, expected_revision),
                      then=self.reviewDecided.emit, on_error=failed)

    def search(self, query: str | None, image: Path | None = None, kind: str = "all", limit: int = 100) -> None:
        """Text search over images and dialogue, or images similar to ``image``."""
        library = self._lib()
        if library is None:
            return
        label = query if query is not None else str(image)
        self._submit(lambda: library.search(query, image, kind, limit),
                     lambda results: self.searchResults.emit(label, results), slow=True)

    # -- settings -------------------------------------------------------------------------

    def load_settings(self) -> None:
        self._submit(lambda: load_settings(self.data_dir), self._settings_loaded, slow=True)

    def _settings_loaded(self, settings: Settings) -> None:
        self.settings = settings
        self.settingsLoaded.emit(settings)

    def save_settings(self, settings: Settings) -> None:
        """Save, then make the watches table (the truth for watched folders) match the page's list."""
        snapshot = dataclasses.replace(settings, watched_folders=list(settings.watched_folders))
        library = self._library

        def save() -> Settings:
            save_settings(self.data_dir, snapshot)
            if library is not None:
                set_watched_folders(library, [Path(f) for f in snapshot.watched_folders], watch_options(snapshot))
            return load_settings(self.data_dir)

        def saved(stored: Settings) -> None:
            self.settings = stored
            self.settingsSaved.emit(stored)

        self._submit(save, saved, slow=True)

    def list_models(self) -> None:
        from app.ml.model_choice import models_list

        self._submit(lambda: models_list(self.data_dir), self.modelsListed.emit, slow=True)


__all__ = ["EngineFacade", "GuiThreadViolation", "ThreadGuard", "default_library", "job_options"]
