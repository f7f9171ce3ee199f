"""Start the desktop app: single-instance check, engine, window, tray."""

from __future__ import annotations

import functools
import gc
import logging
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from app.engine.library import Library
from app.gui.facade import EngineFacade, LibraryFactory
from app.gui.log_panel import install_handler
from app.gui.main_window import MainWindow
from app.gui.single_instance import InstanceServer, hand_over, server_name
from app.gui.translations import install_translators
from app.gui.tray import Tray
from app.resources import resource_path
from app.settings import load_settings

log = logging.getLogger(__name__)

SWITCH_INTERVAL_S = 0.001
"""How long an engine thread may hold the GIL while the GUI thread waits for it.

Python's default (5 ms) lets each busy engine thread (stages, store reads, the facade's
workers) keep the GIL for 5 ms at a time; with a few of them runnable, the GUI thread
waits several such slices for its turn. 1 ms hands it back sooner, at a small cost in
engine throughput (more switches). ``bench/gui_stall.py`` shows the share of stalls
spent blocked this way."""


def settle_after_start() -> None:
    """Collect once and freeze what start-up made (modules, widgets, the engine's tables) out of the collector.

    Later full collections then walk only what was allocated since, so a gen-2
    collection that happens to run on the GUI thread is shorter.
    """
    gc.collect()
    gc.freeze()


def app_icon() -> QIcon:
    return QIcon(str(resource_path("sidecar.svg")))


@dataclass
class Gui:
    """Everything one running GUI consists of (tests and the screenshot script drive it)."""

    app: QApplication
    facade: EngineFacade
    window: MainWindow
    server: InstanceServer
    tray: Tray | None

    def quit(self) -> None:
        """Hide at once, stop the engine off the GUI thread, leave the event loop when it has stopped."""
        self.window.hide()
        if self.tray is not None:
            self.tray.icon.hide()
        self.server.close()
        self.facade.shutdown()


def build_gui(paths: Sequence[Path], data_dir: Path, library_factory: LibraryFactory = Library.open,
              poll_ms: int = 1000, ui_language: str | None = None) -> Gui | None:
    """Hand ``paths`` to a running instance (None is returned) or build this instance's window and engine.

    ``ui_language`` (``--language``) overrides the Settings choice for this run only.
    """
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    app.setApplicationName("Sidecar")
    app.setQuitOnLastWindowClosed(False)
    name = server_name(data_dir)
    if hand_over(name, paths):
        log.info("handed %d path(s) to the running Sidecar", len(paths))
        return None
    server = InstanceServer(name)
    server.listen()
    # Widgets take their text when built, so the language is settled before any window:
    # one small file read at start, before the event loop runs.
    install_translators(app, load_settings(data_dir).ui_language if ui_language is None else ui_language)
    icon = app_icon()

    app.setWindowIcon(icon)
    handler = install_handler()
    facade = EngineFacade(data_dir, library_factory, poll_ms)
    window = MainWindow(facade, handler, icon)
    tray = Tray(facade, window, icon) if Tray.available() else None
    gui = Gui(app, facade, window, server, tray)
    window.has_tray = tray is not None
    if tray is not None:
        tray.quit_action.triggered.connect(gui.quit)
        window.trayNotice.connect(tray.say)
    window.quitRequested.connect(gui.quit)
    facade.closed.connect(app.quit)
    facade.closed.connect(lambda: logging.getLogger("app").removeHandler(handler))

    def received(more: list[str]) -> None:
        window.showNormal()
        window.raise_()
        window.activateWindow()
        window.add_paths([Path(p) for p in more])

    server.pathsReceived.connect(received)
    pending = [Path(p) for p in paths]
    facade.started.connect(lambda: window.add_paths(pending))
    facade.started.connect(settle_after_start)
    facade.start()
    return gui


def run_gui(argv_paths: Sequence[Path], data_dir: Path, start_in_tray: bool = False,
            ui_language: str | None = None) -> int:
    """``sidecar`` with no subcommand: open the window (or hand the paths to the open one) and run until quit.

    ``start_in_tray`` (the sign-in start the Windows installer offers) keeps the window
    hidden when there is a tray to reach it from; without a tray the window shows.
    """
    # The app's process is the engine: a crash report lets the next start tell a crash
    # (counted towards crash_loop) from a kill.
    gui = build_gui(argv_paths, data_dir, functools.partial(Library.open, crash_reports=True, role="gui"),
                    ui_language=ui_language)
    if gui is None:
        return 0
    if not (start_in_tray and gui.tray is not None):
        gui.window.show()
    return gui.app.exec()
