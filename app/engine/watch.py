"""Watched folders (SPEC §8): a :class:`~app.engine.folder_watcher.FolderWatcher` per row of the watches table.

The service starts and stops watchers as the table changes (the CLI or the Settings
page may edit it from another process), wakes the engine when a watcher queued work,
and runs every folder's catch-up scan for ``run --until-idle``. The functions below
it are the table as the person edits it.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from app.engine.folder_watcher import ChangeCallback, FolderWatcher, WatchSettings, is_within_folder
from app.engine.kinds import ALL
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.errors import Code, FolderMissing, SidecarError
from app.settings import Settings, load_settings, save_settings
from app.store.watches import Watch

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WatcherStatus:
    folder: str
    mode: str  # native | polling | stopped
    pending: int


class WatchService:
    """Runs a :class:`FolderWatcher` per row of the watches table and follows that table while running,
    so ``sidecar watch add`` in another process or the Settings page takes effect without a restart.

    Stop it before closing the library: its threads write through the library's store.
    """

    def __init__(self, library: Library, settings: WatchSettings | None = None, on_change: ChangeCallback | None = None,
                 native_observer: Callable[[], BaseObserver] = Observer):
        self.library = library
        if settings is None:
            person = load_settings(library.data_dir)
            settings = WatchSettings(quiet_seconds=person.watch_quiet_seconds, left_out=tuple(person.scan_ignore))
        self.settings = settings
        self._user_on_change = on_change
        self._native_observer = native_observer
        self._watchers: dict[str, FolderWatcher] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def _on_change(self, action: str, path: str) -> None:
        if action in ("queued", "renamed"):
            self.library.wake()
        if self._user_on_change is not None:
            self._user_on_change(action, path)

    def _watcher(self, watch: Watch) -> FolderWatcher:
        return FolderWatcher(self.library.store, self.library.pipelines, watch, self.settings, self._on_change,
                             self._native_observer)

    def start(self) -> None:
        self._stopping.clear()
        self.sync()
        self._thread = threading.Thread(target=self._follow_table, name="sidecar-watches", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(10.0)
            self._thread = None
        with self._lock:
            watchers, self._watchers = list(self._watchers.values()), {}
        for w in watchers:
            w.stop()

    def sync(self) -> None:
        """Start watchers for new rows of the watches table and stop those whose row is gone."""
        wanted = {w.folder: w for w in self.library.store.watches.list()}
        with self._lock:
            for folder in [f for f in self._watchers if f not in wanted]:
                self._watchers.pop(folder).stop()
            for folder, watch in wanted.items():
                if folder not in self._watchers and not self._stopping.is_set():
                    watcher = self._watcher(watch)
                    watcher.start()
                    self._watchers[folder] = watcher

    def _follow_table(self) -> None:
        while not self._stopping.wait(self.settings.refresh_seconds):
            try:
                self.sync()
            except Exception:  # keep watching through a transient store error
                log.exception("could not re-read the watched folders")

    def catch_up(self, timeout: float = 600.0) -> None:
        """Only the catch-up scan of every watched folder, waiting for stability (``run --until-idle``)."""
        for watch in self.library.store.watches.list():
            self._watcher(watch).catch_up_now(timeout)

    def status(self) -> list[WatcherStatus]:
        with self._lock:
            return [WatcherStatus(f, w.mode, w.pending) for f, w in sorted(self._watchers.items())]


# -- the watches table as the person edits it (CLI, Settings page) ------------------------------------


def watch_options(settings: Settings, kind: str = ALL, top_level: bool = False) -> JobOptions:
    """The job options a new watch freezes, from the current settings (like ``sidecar add``)."""
    return JobOptions.from_settings(settings, kind, top_level)


def add_watch(library: Library, folder: Path, options: JobOptions, polling: bool = False) -> Watch:
    """Watch ``folder`` (stored, so it persists); a running service picks it up within seconds."""
    path = Path(folder).expanduser().absolute()
    if not path.is_dir():
        raise FolderMissing(f"{path} is not a folder")
    for other in library.store.watches.list():
        o = Path(other.folder)
        if o != path and (is_within_folder(path, o) or is_within_folder(o, path)):
            raise SidecarError(f"{path} overlaps the watched folder {o}; watch one of them", code=Code.WATCH_OVERLAPS)
    watch = library.store.watches.add(str(path), options.stored(), polling)
    mirror_to_settings(library)
    return watch


def remove_watch(library: Library, folder: Path) -> Watch:
    """Stop watching ``folder``; its items, outputs and search rows stay."""
    watch = library.store.watches.remove(str(Path(folder).expanduser().absolute()))
    mirror_to_settings(library)
    return watch


def set_watched_folders(library: Library, folders: Sequence[Path], options: JobOptions) -> list[Watch]:
    """Make the watched folders exactly ``folders`` (the Settings page's list); new ones get ``options``."""
    wanted = {str(Path(f).expanduser().absolute()) for f in folders}
    for watch in library.store.watches.list():
        if watch.folder not in wanted:
            library.store.watches.remove(watch.folder)
    present = {w.folder for w in library.store.watches.list()}
    for folder in sorted(wanted - present):
        add_watch(library, Path(folder), options)
    mirror_to_settings(library)
    return library.store.watches.list()


def mirror_to_settings(library: Library) -> list[str]:
    """Copy the watches table into ``Settings.watched_folders`` (the table is the truth; this is for display)."""
    folders = [w.folder for w in library.store.watches.list()]
    settings = load_settings(library.data_dir)
    if settings.watched_folders != folders:
        settings.watched_folders = folders
        save_settings(library.data_dir, settings)
    return folders


__all__ = ["WatchService", "WatchSettings", "WatcherStatus", "add_watch", "mirror_to_settings", "remove_watch",
           "set_watched_folders", "watch_options"]
