"""GUI operations: work handed off the GUI thread, answered on it, newest request first.

Every slow call the window makes (the store, a scan, a query embedding, a model
download) goes through :class:`Operations`. Like Anki's ops or Orange's task state,
one helper owns the three things such calls need, so no view re-implements them:

* **Latest request wins.** Operations started under the same ``key`` replace each
  other: starting one cancels the one before it, and an answer that arrives after a
  newer request was made is dropped, never shown. Search as you type relies on this,
  because a slow query for "ca" must not overwrite the answer for "cat".
* **Progress** a worker reports through :meth:`Operation.report` reaches the GUI thread
  only when the visible step changes (``steps`` per operation), so a folder of 50,000
  files makes at most ``steps`` updates, not 50,000.
* **Cooperative cancel.** :class:`Operation` is a ``() -> bool`` "was I cancelled?"
  callable, the shape ``models_install``'s ``cancel`` polls between chunks.

A request is an :class:`Op` ``[T]``, in the manner of Anki's ``QueryOp[T]``: the call that
runs off the GUI thread returns a ``T``, and its ``success`` callback takes that ``T``,
so mypy checks that what a worker answers is what the window expects.

Work runs on named lanes (thread pools). A one-thread lane keeps its calls in the
order they were asked for (a pause is written before the refresh that shows it); the
others let a long download run beside a search. Their threads can run ``nice`` levels
below the window's (:mod:`app.thread_priority`), so a scan or a store read never takes
the CPU the window's thread is waiting for.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any, Callable, Generic, Mapping, TypeVar

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from app.errors import Code, SidecarError
from app.thread_priority import lower_current_thread

log = logging.getLogger(__name__)

T = TypeVar("T")
Failed = Callable[[BaseException], None]
ProgressSlot = Callable[[int, int], None]

BACKGROUND_NICE = 10
"""Nice levels the desktop app's background threads run below its window's thread.

The facade's lanes, and the engine's threads: the facade starts the library on a lane
and Linux threads inherit their creator's nice value. ``bench/gui_stall.py`` with a
1,000-item job on two loaded CPUs: most of the longest stalls were the window's thread
waiting for a CPU behind these threads; lowered by 10, it takes the CPU when it wakes."""

_lowered = threading.local()  # per pool thread: the nice steps already applied


class OperationCancelled(SidecarError):
    """The operation was cancelled before it started."""

    code = Code.CANCELLED


class _Relay(QObject):
    """Lives on the GUI thread; signals emitted by workers arrive there through the event loop."""

    progress = Signal(object, int, int)  # operation, done, total
    finished = Signal(object, object, object)  # operation, result, error


@dataclass(frozen=True)
class Op(Generic[T]):
    """A request typed by its answer: ``call`` runs on ``lane`` and returns a ``T`` that ``success`` takes.

    ``failure`` gets what ``call`` raised (or :class:`OperationCancelled`); with a ``key``
    the request replaces the previous one of that key; ``progress`` gets the worker's
    :meth:`Operation.report`, at most ``steps`` times.
    """

    call: Callable[[Operation], T]
    success: Callable[[T], None] | None = None
    failure: Failed | None = None
    lane: str = "store"
    key: str | None = None
    progress: ProgressSlot | None = None
    steps: int = 100


class Operation:
    """One request under way: its cancel token and its throttled progress, shared by the GUI and the worker."""

    def __init__(self, request: Op[Any], relay: _Relay):
        self.request = request
        self.key = request.key
        self.steps = max(1, request.steps)
        self.on_progress = request.progress
        self._cancelled = threading.Event()
        self._last_step: int | None = None
        self._relay = relay

    def __call__(self) -> bool:
        return self._cancelled.is_set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def cancel(self) -> None:
        """Ask the worker to stop at its next check; its answer, if any, is still delivered to its ``failure``/``success``."""
        self._cancelled.set()

    def report(self, done: int, total: int | None) -> None:
        """Called by the worker; forwards only a change of visible step (and the last one) to the GUI.

        ``total`` None or 0 means unknown: the GUI then gets ``total`` 0, at each doubling of ``done``.
        """
        if self.on_progress is None:
            return
        total = total or 0
        if total <= 0:
            step = -max(0, int(done)).bit_length()
        else:
            step = self.steps if done >= total else done * self.steps // total
        if step == self._last_step:
            return
        self._last_step = step
        self._relay.progress.emit(self, int(done), int(total))


class _Run(QRunnable):
    def __init__(self, op: Operation, relay: _Relay, nice: int):
        super().__init__()
        self._op, self._relay, self._nice = op, relay, nice

    def run(self) -> None:
        if getattr(_lowered, "steps", 0) != self._nice:  # once per pool thread
            lower_current_thread(self._nice)
            _lowered.steps = self._nice
        if self._op.cancelled:
            self._relay.finished.emit(self._op, None, OperationCancelled("cancelled before it started"))
            return
        try:
            result = self._op.request.call(self._op)
        except BaseException as exc:  # noqa: BLE001 - every failure is reported to the GUI, none kills the pool
            self._relay.finished.emit(self._op, None, exc)
        else:
            self._relay.finished.emit(self._op, result, None)


class Operations(QObject):
    """Starts operations on lanes and delivers their answers on the GUI thread (see the module docstring)."""

    superseded = Signal(str)  # key: an answer was dropped because a newer request with that key was made

    def __init__(self, lanes: Mapping[str, int], parent: QObject | None = None, nice: int = 0):
        super().__init__(parent)
        self.nice = nice
        self._pools: dict[str, QThreadPool] = {}
        for name, threads in lanes.items():
            pool = QThreadPool(self)
            pool.setMaxThreadCount(threads)
            self._pools[name] = pool
        self._latest: dict[str, Operation] = {}
        self._relay = _Relay()
        self._relay.progress.connect(self._progress)
        self._relay.finished.connect(self._finished)

    def start(self, request: Op[T]) -> Operation:
        """Run ``request.call(operation)`` on its lane; ``success(result)`` or ``failure(exc)`` runs on the GUI thread.

        With a ``key``, the previous operation of that key is cancelled and its answer
        (and progress) will be dropped.
        """
        op = Operation(request, self._relay)
        if op.key is not None:
            previous = self._latest.get(op.key)
            if previous is not None:
                previous.cancel()
            self._latest[op.key] = op
        self._pools[request.lane].start(_Run(op, self._relay, self.nice))
        return op

    def current(self, key: str) -> Operation | None:
        """The unfinished operation of ``key``, if one is running or queued."""
        return self._latest.get(key)

    def cancel(self, key: str) -> bool:
        """Cancel the current operation of ``key``; False when none is running."""
        op = self._latest.get(key)
        if op is None:
            return False
        op.cancel()
        return True

    def cancel_all(self) -> None:
        """Cancel every keyed operation (downloads, searches) at shutdown.

        Unkeyed operations are commands the person gave (pause, decide): they finish.
        """
        for op in list(self._latest.values()):
            op.cancel()

    def _is_current(self, op: Operation) -> bool:
        return op.key is None or self._latest.get(op.key) is op

    @Slot(object, int, int)
    def _progress(self, op: Operation, done: int, total: int) -> None:
        if self._is_current(op) and op.on_progress is not None:
            op.on_progress(done, total)

    @Slot(object, object, object)
    def _finished(self, op: Operation, result: Any, exc: BaseException | None) -> None:
        if not self._is_current(op):
            log.debug("dropped the answer of a superseded %s operation", op.key)
            self.superseded.emit(op.key)
            return
        if op.key is not None:
            del self._latest[op.key]
        if exc is not None:
            if op.request.failure is not None:
                op.request.failure(exc)
        elif op.request.success is not None:
            op.request.success(result)


__all__ = ["BACKGROUND_NICE", "Op", "Operation", "OperationCancelled", "Operations"]
