"""What the domain facades share: the library once open, the lanes its calls run on, and how a failure is told.

Three lanes, so a slow operation never delays the status the person is watching:

* ``store`` (one thread): short store calls — status, pages, pause, decide. One
  thread keeps them in the order the person asked for them (a pause is written
  before the refresh that shows it).
* ``slow``: adding folders (scan + sha256 of every file), search (query embedding)
  and settings/model-list file I/O. Searches share the key ``search``: the newest
  query's answer is the only one shown.
* ``downloads``: model installs, each cancellable, so a download of minutes never
  holds up a search.

While a facade is alive ``Database.thread_guard`` and ``ModelHost.thread_guard``
raise on the GUI thread, so a view that reached past the facade fails loudly in
tests instead of freezing the window in production.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from pathlib import Path
from typing import Callable, TypeVar

from PySide6.QtCore import QObject, Signal

from app.engine.library import Library
from app.errors import Code, SidecarError
from app.gui.operations import BACKGROUND_NICE, Failed, Op, Operation, Operations, ProgressSlot
from app.ml.host import ModelHost
from app.settings import Settings
from app.store.database import Database

log = logging.getLogger(__name__)

T = TypeVar("T")
LibraryFactory = Callable[[Path, Settings], Library]
LANES = {"store": 1, "slow": 2, "downloads": 2}


class GuiThreadViolation(SidecarError):
    """The store or a model was entered on the GUI thread (a bug: the window would freeze)."""

    code = Code.GUI_THREAD_BLOCKED


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


class FacadeCore(QObject):
    """The open library and the lanes; each domain facade runs its calls through :meth:`run` or :meth:`command`."""

    error = Signal(str, str)  # code, message
    commandEnded = Signal()  # a command finished or failed: the jobs are re-read

    def __init__(self, data_dir: Path, parent: QObject | None = None):
        super().__init__(parent)
        self.data_dir = data_dir
        self.library: Library | None = None
        self.closing = False
        self.start_error: SidecarError | None = None  # why the last start could not open the library
        self.ops = Operations(LANES, self, nice=BACKGROUND_NICE)
        self.guard = ThreadGuard(threading.get_ident())
        Database.thread_guard = self.guard
        ModelHost.thread_guard = self.guard

    def run(self, request: Op[T]) -> Operation:
        """Start ``request``; a failure it does not handle itself is told through ``error``."""
        if request.failure is None:
            request = dataclasses.replace(request, failure=self.report)
        return self.ops.start(request)

    def report(self, exc: BaseException) -> None:
        if isinstance(exc, SidecarError):
            self.error.emit(exc.code, exc.message)
        else:
            log.error("engine call failed", exc_info=exc)
            self.error.emit(Code.INTERNAL_ERROR, str(exc) or type(exc).__name__)

    def open_library(self) -> Library | None:
        """The running library; None (and an ``error`` signal) before start or after shutdown began."""
        if self.library is None or self.closing:
            if self.start_error is not None and not self.closing:
                self.error.emit(self.start_error.code, self.start_error.message)
            elif not self.closing:
                self.error.emit(Code.ENGINE_STARTING, "the engine is still starting; try again in a moment")
            return None
        return self.library

    def command(self, call: Callable[[Library, Operation], T], success: Callable[[T], None] | None = None,
                failure: Failed | None = None, *, lane: str = "store", progress: ProgressSlot | None = None) -> None:
        """Run a command the person gave on the open library; ``commandEnded`` follows its answer either way."""
        library = self.open_library()
        if library is None:
            return

        def succeeded(result: T) -> None:
            if success is not None:
                success(result)
            self.commandEnded.emit()

        def failed(exc: BaseException) -> None:
            (failure or self.report)(exc)
            self.commandEnded.emit()

        self.run(Op(lambda op: call(library, op), succeeded, failed, lane=lane, progress=progress))

    def release_guards(self) -> None:
        """Uninstall this facade's thread guard (after shutdown: a later facade installs its own)."""
        if Database.thread_guard is self.guard:
            Database.thread_guard = None
        if ModelHost.thread_guard is self.guard:
            ModelHost.thread_guard = None


__all__ = ["LANES", "FacadeCore", "GuiThreadViolation", "LibraryFactory", "ThreadGuard"]
