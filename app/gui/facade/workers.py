"""Workers: the engine processes on the library, and when they work (a hold, a timed pause, the schedule)."""

from __future__ import annotations

import dataclasses
from datetime import datetime

from PySide6.QtCore import QObject, Signal, Slot

from app.engine.background import Hold, schedule_of, working_override
from app.engine.instances import WorkerView
from app.gui.facade.core import FacadeCore
from app.gui.facade.settings import SettingsFacade
from app.gui.operations import Op
from app.settings import Settings


class WorkersFacade(QObject):
    """Answers ``workersChanged``; ``holdChanged`` whenever the reason the engine waits changes."""

    workersChanged = Signal(list)  # list[WorkerView]: every engine process on the library, any machine
    holdChanged = Signal(object)  # Hold | None: why the engine waits (schedule, battery…), None while it works

    def __init__(self, core: FacadeCore, settings: SettingsFacade):
        super().__init__(core)
        self._core, self._settings = core, settings
        self.hold: Hold | None = None

    def refresh(self) -> None:
        """Read every engine process on the library (``sidecar workers``); answers ``workersChanged``.

        Quiet before the engine started: a view's timer may ask that early.
        """
        library = self._core.library
        if library is not None and not self._core.closing:
            def read(views: list[WorkerView]) -> None:
                self.workersChanged.emit(views)

            self._core.run(Op(lambda _: library.workers(), read, key="workers"))

    @Slot()
    def read_hold(self) -> None:
        """Ask the engine why it waits, if it does; ``holdChanged`` when the answer differs from the last."""
        library = self._core.library
        if library is not None and not self._core.closing:
            self._core.run(Op(lambda _: library.held(), self._hold_read, lane="slow", key="hold"))

    def _hold_read(self, hold: Hold | None) -> None:
        if hold != self.hold:
            self.hold = hold
            self.holdChanged.emit(hold)

    def pause_work(self, until: datetime) -> None:
        """The tray's "Pause for 1 hour" / "until tomorrow morning": saved, so a restart keeps it."""
        self._set_timed(until.timestamp(), 0.0)

    def resume_work(self) -> None:
        """The tray's "Resume now": ends a timed pause; outside the schedule, works until its next window opens."""
        s = self._settings.current or Settings()
        until = working_override(schedule_of(s), datetime.now())
        self._set_timed(0.0, until.timestamp() if until is not None else 0.0)

    def _set_timed(self, paused_until: float, working_until: float) -> None:
        current = self._settings.current
        if current is not None:
            self._settings.save(dataclasses.replace(current, paused_until=paused_until, working_until=working_until))


__all__ = ["WorkersFacade"]
