"""Settings: read and save the settings file, check a database or translation server before it is saved."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

from PySide6.QtCore import QObject, Signal, SignalInstance

from app.engine.autostart import autostart_enabled, set_autostart
from app.engine.background import background_rules
from app.engine.watch import set_watched_folders, watch_options
from app.errors import Code, SidecarError
from app.gui.facade.core import FacadeCore
from app.gui.operations import Op, Operation
from app.ml.cpu_share import set_core_cap
from app.paths import database_path
from app.settings import Settings, load_settings, save_settings
from app.store.location import ENV as DATABASE_URL_ENV
from app.store.probe import DatabaseProbe, probe_database


class SettingsFacade(QObject):
    """The settings as last read or saved (``current``), and the checks the Settings dialog offers."""

    settingsLoaded = Signal(object)  # Settings
    settingsSaved = Signal(object)  # Settings
    serverChecked = Signal(str, str, str)  # translation server URL as asked, code ("" when it answers), why not
    databaseChecked = Signal(str, str, str)  # URL as asked, code ("" when it opens), why not ("library"/"empty" when it opens)

    def __init__(self, core: FacadeCore):
        super().__init__(core)
        self._core = core
        self.current: Settings | None = None
        self.gpu_device: str | None = None  # the GPU's name once the engine looked (None: no GPU; Settings hide its budget)

    def loaded(self, settings: Settings) -> None:
        """Keep ``settings`` as the current ones and tell the windows (at start, and after :meth:`load`)."""
        self.current = settings
        self.settingsLoaded.emit(settings)

    def load(self) -> None:
        self._core.run(Op(lambda _: load_settings(self._core.data_dir), self.loaded, lane="slow"))

    def save(self, settings: Settings) -> None:
        """Save, then make the watches table (the truth for watched folders) match the page's list."""
        snapshot = dataclasses.replace(settings, watched_folders=list(settings.watched_folders))
        library, data_dir = self._core.library, self._core.data_dir

        def save(_: Operation) -> Settings:
            save_settings(data_dir, snapshot)
            if library is not None:
                set_watched_folders(library, [Path(f) for f in snapshot.watched_folders], watch_options(snapshot))
                library.set_background_rules(background_rules(snapshot))
            set_core_cap(snapshot.max_cores)
            if sys.platform.startswith("linux") and snapshot.start_at_login != autostart_enabled():
                set_autostart(snapshot.start_at_login)
            return load_settings(data_dir)

        def saved(stored: Settings) -> None:
            self.current = stored
            self.settingsSaved.emit(stored)

        self._core.run(Op(save, saved, lane="slow"))

    def check_database(self, url: str) -> None:
        """Connect to the library database ``url`` names and read its schema; answers ``databaseChecked``.

        The newest check is the only one answered (a person may edit and check again).
        """
        def opened(probe: DatabaseProbe) -> None:
            self.databaseChecked.emit(url, "", "library" if probe.revision is not None else "empty")

        self._core.run(Op(lambda _: probe_database(self._core.data_dir, url), opened,
                          lambda exc: self._check_failed(self.databaseChecked, url, exc), lane="slow", key="database-check"))

    def check_translation_server(self, url: str) -> None:
        """Ask the translation server ``url`` for an answer (a few seconds at most); answers ``serverChecked``."""
        from app.ml.llm_runtime import probe_endpoint

        self._core.run(Op(lambda _: probe_endpoint(url), lambda _: self.serverChecked.emit(url, "", ""),
                          lambda exc: self._check_failed(self.serverChecked, url, exc), lane="slow", key="server-check"))

    def _check_failed(self, answer: SignalInstance, url: str, exc: BaseException) -> None:
        if isinstance(exc, SidecarError):
            answer.emit(url, exc.code, exc.message)
        else:
            self._core.report(exc)
            answer.emit(url, Code.INTERNAL_ERROR, str(exc) or type(exc).__name__)

    def local_database_url(self) -> str:
        """The URL setting that means the library on this computer: empty, or its file's URL when
        ``SIDECAR_DATABASE_URL`` would otherwise name the server again."""
        return f"sqlite:///{self.local_database()}" if os.environ.get(DATABASE_URL_ENV, "").strip() else ""

    def local_database(self) -> Path:
        """Where the library on this computer is (the data dir's SQLite file): Settings show it."""
        return database_path(self._core.data_dir)


__all__ = ["SettingsFacade"]
