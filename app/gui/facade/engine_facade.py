"""The GUI's one door to the engine: the library's lifecycle, and one facade per domain.

Views never touch the store, the disk or a model. They call a method on a domain facade
(``facade.jobs``, ``.review``, ``.search``, ``.models``, ``.settings``, ``.workers``),
which starts an :class:`~app.gui.operations.Op` and returns at once; the answer comes
back as a Qt signal of that facade carrying plain data (the engine's frozen dataclasses,
lists and dicts, see :mod:`app.gui.facade.records`), delivered on the GUI thread.

This one opens the library, polls it (the jobs by change counter, then the reviews and
the engine's hold), and closes it. The lanes and the thread guard are in
:mod:`app.gui.facade.core`.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from app.engine.desktop_notify import DesktopNotifier
from app.engine.gpu_gate import NvmlProbe
from app.engine.library import JobChanges, Library
from app.engine.watch import WatchService
from app.errors import Code, SidecarError
from app.gui.facade.core import FacadeCore, LibraryFactory
from app.gui.facade.jobs import JobsFacade
from app.gui.facade.models import ModelsFacade
from app.gui.facade.review import ReviewFacade
from app.gui.facade.search import SearchFacade
from app.gui.facade.settings import SettingsFacade
from app.gui.facade.workers import WorkersFacade
from app.gui.operations import Op, Operation
from app.settings import Settings, load_settings, save_settings
from app.store.records import Review


class EngineFacade(FacadeCore):
    """Owns the Library and the domain facades; answers start and shutdown with a signal."""

    started = Signal()
    closed = Signal()
    startFailed = Signal(str, str)  # code, message: the library could not be opened (settingsLoaded came first)
    _engineTouched = Signal()

    def __init__(self, data_dir: Path, library_factory: LibraryFactory = Library.open,
                 poll_ms: int = 1000, parent: QObject | None = None):
        super().__init__(data_dir, parent)
        self._factory = library_factory
        self._watches: WatchService | None = None
        self.settings = SettingsFacade(self)
        self.jobs = JobsFacade(self, self.settings)
        self.review = ReviewFacade(self, self.jobs)
        self.search = SearchFacade(self)
        self.models = ModelsFacade(self)
        self.workers = WorkersFacade(self, self.settings)
        self._refresh_running = False
        self._refresh_again = False
        self._changes: JobChanges | None = None
        self._poll = QTimer(self)
        self._poll.setInterval(poll_ms)
        self._poll.timeout.connect(self.refresh)
        self._poll.timeout.connect(self.workers.read_hold)
        self.settings.settingsSaved.connect(self.workers.read_hold)
        self.commandEnded.connect(self.refresh)
        # The scheduler calls on_change from its worker threads; this signal hops to
        # the GUI thread, and the short single-shot timer folds a burst into one refresh.
        self._touch_timer = QTimer(self)
        self._touch_timer.setSingleShot(True)
        self._touch_timer.setInterval(min(200, poll_ms))
        self._touch_timer.timeout.connect(self.refresh)
        self._engineTouched.connect(self._touch_timer.start)

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Open the library and start the engine (recovery, workers) off the GUI thread.

        On a lane thread, lowered below the window's (``BACKGROUND_NICE``): the engine's
        threads inherit that, so stage work gives way to the window for the CPU.

        When the library cannot be opened (a mistyped database URL, a server out of reach),
        the settings still arrive (``settingsLoaded``, so Settings open) and ``startFailed``
        says why; the window offers to correct the URL, then calls ``start`` again.
        """
        read: list[Settings] = []

        def open_and_start(_: Operation) -> tuple[Library, Settings]:
            settings = load_settings(self.data_dir)
            read.append(settings)
            self.settings.gpu_device = NvmlProbe().device_name()
            library = self._factory(self.data_dir, settings)
            library.scheduler.on_change = self._engineTouched.emit
            library.start()
            if sys.platform.startswith("linux"):
                notifier = DesktopNotifier(self.jobs.openJob.emit)  # the signal hops to the GUI thread
                self.jobs.notifier = notifier if notifier.start() else None
            self._watches = WatchService(library, on_change=lambda action, path: self._engineTouched.emit())
            self._watches.start()
            return library, settings

        def opened(result: tuple[Library, Settings]) -> None:
            self.library, settings = result
            self.start_error = None
            self.settings.loaded(settings)
            self._poll.start()
            self.started.emit()
            self.refresh()

        def failed(exc: BaseException) -> None:
            if self.closing:
                return
            self.report(exc)
            self.start_error = exc if isinstance(exc, SidecarError) else SidecarError(str(exc) or type(exc).__name__,
                                                                                      code=Code.INTERNAL_ERROR)
            if read:
                self.settings.loaded(read[0])
            self.startFailed.emit(self.start_error.code, self.start_error.message)

        self.start_error = None
        self.run(Op(open_and_start, opened, failed))

    def reopen(self, database_url: str) -> None:
        """Save ``database_url`` as the library database, then start again (the way back after ``startFailed``)."""
        snapshot = dataclasses.replace(self.settings.current or Settings(), database_url=database_url)
        self.run(Op(lambda _: save_settings(self.data_dir, snapshot), lambda _: self.start(), lane="slow"))

    def shutdown(self) -> None:
        """Stop the engine (running stages stop at a checkpoint) and emit ``closed``."""
        if self.closing:
            return
        self.closing = True
        self._poll.stop()
        self._touch_timer.stop()
        self.ops.cancel_all()
        library, self.library = self.library, None
        notifier, watches = self.jobs.notifier, self._watches

        def close(_: Operation) -> None:
            if notifier is not None:
                notifier.close()
            if watches is not None:
                watches.stop()
            if library is not None:
                library.close()

        def closed(_: object) -> None:
            self.release_guards()
            self.closed.emit()

        self.run(Op(close, closed, closed))

    # -- observing ------------------------------------------------------------------------

    @Slot()
    def refresh(self) -> None:
        """Re-read the jobs whose change counter moved (and then the reviews).

        At most one refresh is in flight; a request meanwhile re-runs it once after.
        """
        if self.library is None or self.closing:
            return
        if self._refresh_running:
            self._refresh_again = True
            return
        self._refresh_running = True
        library, since = self.library, self._changes

        def fetch(_: Operation) -> tuple[JobChanges, list[Review] | None]:
            changes = library.changes(since)
            moved = since is None or bool(changes.changed or changes.removed)
            return changes, library.reviews() if moved else None

        def fetched(result: tuple[JobChanges, list[Review] | None]) -> None:
            changes, reviews = result
            first = self._changes is None
            self._changes = changes
            if not self.closing:
                self.jobs.apply(changes, first)
                if reviews is not None:
                    self.review.show(reviews)
            self._refreshed()

        def failed(exc: BaseException) -> None:
            if not self.closing:
                self.report(exc)
            self._refreshed()

        self.run(Op(fetch, fetched, failed))

    def _refreshed(self) -> None:
        self._refresh_running = False
        if self._refresh_again and not self.closing:
            self._refresh_again = False
            self.refresh()


__all__ = ["EngineFacade"]
