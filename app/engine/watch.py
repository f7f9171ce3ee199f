"""Watched folders (SPEC §8): files that appear, change, move or vanish become item transitions.

One :class:`FolderWatcher` per watched folder. A watchdog observer (native, or polling
on network shares where change events are unreliable, or when the native one cannot
start) only feeds a queue; one thread per folder does everything else, so the store
sees one folder's changes in the order they happened and never two at once.

A new or modified media file is queued only once it is *stable*: its size and mtime
unchanged for a quiet period. Events reset the clock, so a file still being copied is
never hashed for an item. Stable files go through the same planning as a job's scan
(``plan_item``: cached stage results, fingerprints, the kind's skip rule) and are
appended to the folder's rolling job.

Renames and moves keep the item (its sha256, finished stages and search rows) and move
its placed files along when they are still exactly what Sidecar wrote; deletions make
the item non-current and drop its search rows. The person's files are never deleted
or changed. At start a catch-up scan compares the folder with the store and applies
the same transitions to whatever changed while Sidecar was closed.
"""

from __future__ import annotations

import logging
import os
import queue
import re
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from app.engine.atomic_write import sha256_file
from app.engine.library import JobOptions, Library
from app.engine.plan import plan_item
from app.engine.kinds import ALL, MEDIA_KINDS
from app.engine.scan import scan
from app.engine.stage import Pipeline
from app.errors import SidecarError
from app.settings import Settings, load_settings, save_settings
from app.store import Store
from app.store.current_items import CurrentItem
from app.store.records import NewItem
from app.store.watches import Watch

log = logging.getLogger(__name__)

# Filesystems whose change notifications do not cover changes made by other machines.
NETWORK_FILESYSTEMS = frozenset({
    "nfs", "nfs4", "cifs", "smbfs", "smb3", "9p", "afs", "ncpfs", "davfs", "glusterfs", "ceph",
    "fuse.sshfs", "fuse.rclone", "fuse.davfs2", "fuse.glusterfs", "fuse.cephfs", "fuse.s3fs",
})
_DRIVE_REMOTE = 4  # GetDriveTypeW
_OCTAL_ESCAPE = re.compile(r"\\([0-7]{3})")
_EVENT_TYPES = frozenset({"created", "modified", "closed", "deleted", "moved"})
_REMOVED_REASON = "the file was deleted or moved out of the watched folder"

ChangeCallback = Callable[[str, str], None]  # (action, path): queued | renamed | removed | unchanged


# -- where change events can be trusted --------------------------------------------------------


def network_fs_type(path: str, mounts_text: str) -> str | None:
    """The network filesystem ``path`` lives on according to a ``/proc/mounts`` text, else None.

    The longest mount point containing the path wins (a local disk mounted inside a
    share is local). Mount points escape spaces and tabs as octal (``\\040``).
    """
    best, best_type = "", ""
    for line in mounts_text.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        mount_point = _OCTAL_ESCAPE.sub(lambda m: chr(int(m.group(1), 8)), fields[1])
        if _is_within(path, mount_point) and len(mount_point) >= len(best):
            best, best_type = mount_point, fields[2]
    return best_type if best_type in NETWORK_FILESYSTEMS else None


def _is_within(path: str, folder: str) -> bool:
    folder = folder.rstrip("/") or "/"
    return folder == "/" or path == folder or path.startswith(folder + "/")


def is_network_folder(folder: Path, platform: str = sys.platform, mounts_text: str | None = None) -> bool:
    """Whether ``folder`` is on a network share (then only polling sees every change).

    Linux: the filesystem type from ``/proc/mounts``. Windows: UNC paths, or a mapped
    drive the OS reports as remote. Elsewhere nothing is detected; the person can ask
    for polling per watch.
    """
    if platform == "win32":
        text = str(folder)
        if text.startswith(("\\\\", "//")):
            return True
        if sys.platform == "win32" and len(text) >= 2 and text[1] == ":":
            import ctypes

            return int(ctypes.windll.kernel32.GetDriveTypeW(text[:2] + "\\")) == _DRIVE_REMOTE  # type: ignore[attr-defined]
        return False
    if platform.startswith("linux"):
        if mounts_text is None:
            try:
                mounts_text = Path("/proc/mounts").read_text(encoding="utf-8", errors="replace")
            except OSError:
                return False
        return network_fs_type(os.path.realpath(folder), mounts_text) is not None
    return False


# -- one folder ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WatchSettings:
    """Timing of the stability check and the polling observer; ``force_polling`` skips the native observer."""

    quiet_seconds: float = 5.0
    poll_seconds: float = 2.0
    force_polling: bool = False
    refresh_seconds: float = 2.0  # how often a running service re-reads the watches table (CLI/GUI edits)

    @property
    def tick_seconds(self) -> float:
        return max(0.05, min(0.5, self.quiet_seconds / 4))


@dataclass
class _Pending:
    size: int
    mtime_ns: int
    since: float  # monotonic time of the last change seen


class _Intake(FileSystemEventHandler):
    """Runs on the observer's thread: only hands events over, so a slow store never stalls the observer."""

    def __init__(self, events: "queue.Queue[FileSystemEvent]"):
        self.events = events

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in _EVENT_TYPES:
            self.events.put(event)


def renamed_output_name(output_name: str, old_name: str, new_name: str) -> str | None:
    """The name a placed file takes when its media file is renamed, or None when it is not named after it.

    ``photo.jpg.sidecar.json`` follows the whole name, ``Movie.ja.srt`` follows the stem.
    """
    if output_name.startswith(old_name + "."):
        return new_name + output_name[len(old_name):]
    old_stem, new_stem = Path(old_name).stem, Path(new_name).stem
    if output_name.startswith(old_stem + "."):
        return new_stem + output_name[len(old_stem):]
    return None


def _move_no_clobber(src: Path, dst: Path) -> bool:
    """Move ``src`` to ``dst`` unless something is already there (a hard link refuses atomically)."""
    try:
        os.link(src, dst)
    except FileExistsError:
        return False
    except OSError:  # no hard links on this filesystem (FAT, some shares)
        if dst.exists():
            return False
        os.replace(src, dst)
        return True
    os.unlink(src)
    return True


def _stat(path: str) -> os.stat_result | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st if os.path.isfile(path) else None


class FolderWatcher:
    """Keeps one watched folder's items in step with the disk."""

    def __init__(self, store: Store, pipelines: Mapping[str, Pipeline], watch: Watch, settings: WatchSettings,
                 on_change: ChangeCallback | None = None,
                 native_observer: Callable[[], BaseObserver] = Observer):
        self.store = store
        self.pipelines = dict(pipelines)
        self.watch = watch
        self.settings = settings
        self.folder = Path(watch.folder)
        self.options = dict(watch.options)
        self.recursive = not self.options.get("top_level", False)
        self.kinds = MEDIA_KINDS.selection(str(self.options.get("kind", ALL))) & frozenset(self.pipelines)
        self.mode = "stopped"
        self._on_change = on_change or (lambda action, path: None)
        self._native_observer = native_observer
        self._events: queue.Queue[FileSystemEvent] = queue.Queue()
        self._pending: dict[str, _Pending] = {}
        self._catching_up: set[str] = set()
        self._vanished: dict[str, list[CurrentItem]] = {}
        self._stopping = threading.Event()
        self._observer: BaseObserver | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        """Observe first, then catch up on the worker thread, so nothing that happens meanwhile is missed."""
        self._observer = self._start_observer()
        self._thread = threading.Thread(target=self._run, name=f"sidecar-watch-{self.watch.id}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stopping.set()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout)
            self._observer = None
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self.mode = "stopped"

    @property
    def pending(self) -> int:
        """Files seen but not yet stable (or held by a catch-up that is still deciding renames)."""
        # list() copies under the GIL in one step, so this is safe from another thread.
        return len(list(self._pending)) + sum(len(v) for v in list(self._vanished.values()))

    def _start_observer(self) -> BaseObserver:
        reason = ("forced" if self.settings.force_polling else "chosen for this folder" if self.watch.polling
                  else "network share" if is_network_folder(self.folder) else None)
        if reason is None:
            try:
                observer = self._native_observer()
                observer.schedule(_Intake(self._events), str(self.folder), recursive=self.recursive)
                observer.start()
            except OSError as exc:
                reason = f"the native observer failed: {exc}"
            else:
                self.mode = "native"
                return observer
        observer = PollingObserver(timeout=self.settings.poll_seconds)
        observer.schedule(_Intake(self._events), str(self.folder), recursive=self.recursive)
        observer.start()
        self.mode = "polling"
        log.info("watching %s by polling every %.1fs (%s)", self.folder, self.settings.poll_seconds, reason)
        return observer

    def _run(self) -> None:
        try:
            self.catch_up()
        except Exception:  # noqa: BLE001 - a failed catch-up must not stop live watching
            log.exception("catch-up scan of %s failed", self.folder)
        tick = self.settings.tick_seconds
        next_check = time.monotonic() + tick
        while not self._stopping.is_set():
            try:
                event: FileSystemEvent | None = self._events.get(timeout=max(0.0, next_check - time.monotonic()))
            except queue.Empty:
                event = None
            try:
                if event is not None:
                    self._handle(event)
                if time.monotonic() >= next_check:
                    self._settle()
                    next_check = time.monotonic() + tick
            except Exception:  # noqa: BLE001 - a store hiccup must not end the watch
                log.exception("watching %s: could not apply a change", self.folder)

    # -- catch-up ---------------------------------------------------------------------------

    def catch_up(self) -> None:
        """Compare the folder with the store: new and changed files wait for stability, vanished items
        wait until those files are identified (a vanished item whose content reappears is a rename)."""
        if not self.folder.is_dir():
            log.warning("watched folder %s is not available; its items are kept as they are (folder_unavailable)", self.folder)
            return
        result = scan(self.folder, recursive=self.recursive, kinds=self.kinds)
        on_disk = {str(e.path): e for e in result.entries}
        known = {c.path: c for c in self.store.current.under(str(self.folder)) if self._in_scope(c.path)}
        now = time.monotonic()
        for path, entry in on_disk.items():
            cur = known.get(path)
            if cur is None or (cur.size, cur.mtime_ns) != (entry.size, entry.mtime_ns):
                self._pending[path] = _Pending(entry.size, entry.mtime_ns, now)
                self._catching_up.add(path)
        for path, cur in known.items():
            if path not in on_disk:
                self._vanished.setdefault(cur.sha256, []).append(cur)
        self.store.watches.mark_scanned(self.watch.id)
        log.info("catch-up of %s: %d new or changed, %d vanished", self.folder, len(self._catching_up),
                 sum(len(v) for v in self._vanished.values()))
        if not self._catching_up:
            self._flush_vanished()

    def catch_up_now(self, timeout: float) -> None:
        """The catch-up scan on the caller's thread, waiting until its files are stable (``run --until-idle``).

        Not for a started watcher (its own thread does this). Files still changing after
        ``timeout`` are left for the next start.
        """
        self.catch_up()
        deadline = time.monotonic() + timeout
        while self._pending and time.monotonic() < deadline and not self._stopping.wait(self.settings.tick_seconds):
            self._settle()
        if self._pending:
            log.warning("%d file(s) in %s were still changing; they are picked up next time", len(self._pending), self.folder)

    # -- events -----------------------------------------------------------------------------

    def _handle(self, event: FileSystemEvent) -> None:
        src = os.fsdecode(event.src_path)
        dest = os.fsdecode(event.dest_path) if event.dest_path else ""
        kind = event.event_type
        if event.is_directory:
            if kind == "deleted":
                self._remove_under(src)
            elif kind == "moved":
                self._move_folder(src, dest)
            elif kind == "created":
                self._touch_tree(src)
            return
        if kind in ("created", "modified", "closed"):
            self._touch(src)
        elif kind == "deleted":
            self._pending.pop(src, None)
            if MEDIA_KINDS.of(Path(src)) is not None:
                self._remove([src])
        elif kind == "moved":
            self._moved(src, dest)

    def _in_scope(self, path: str) -> bool:
        p = Path(path)
        if not _is_within_folder(p, self.folder) or (not self.recursive and p.parent != self.folder):
            return False
        kind = MEDIA_KINDS.of(p)
        return kind is not None and kind.name in self.kinds

    def _touch(self, path: str) -> None:
        """Something happened to ``path``: (re)start its quiet period."""
        if not self._in_scope(path):
            return
        st = _stat(path)
        if st is not None:
            self._pending[path] = _Pending(st.st_size, st.st_mtime_ns, time.monotonic())

    def _touch_tree(self, folder: str) -> None:
        for entry in scan(Path(folder), recursive=self.recursive, kinds=self.kinds).entries:
            self._touch(str(entry.path))

    def _moved(self, src: str, dest: str) -> None:
        self._pending.pop(src, None)
        if not self._in_scope(dest):
            if MEDIA_KINDS.of(Path(src)) is not None:
                self._remove([src])
            return
        if MEDIA_KINDS.of(Path(src)) is None:  # e.g. "photo.jpg.part" → "photo.jpg": a new file
            self._touch(dest)
            return
        self._rename(src, dest)

    def _move_folder(self, src: str, dest: str) -> None:
        if not _is_within_folder(Path(dest), self.folder):
            self._remove_under(src)
            return
        for path in [p for p in self._pending if _is_within_folder(Path(p), Path(src))]:
            del self._pending[path]
            self._touch(dest + path[len(src):])
        for cur in self.store.current.under(src):
            self._rename(cur.path, dest + cur.path[len(src):])
        self._touch_tree(dest)

    def _remove_under(self, folder: str) -> None:
        for path in [p for p in self._pending if _is_within_folder(Path(p), Path(folder))]:
            del self._pending[path]
        self._remove([c.path for c in self.store.current.under(folder)])

    def _remove(self, paths: Sequence[str]) -> None:
        if not self.folder.is_dir():
            # An unmounted share or unplugged disk looks like everything was deleted.
            log.warning("watched folder %s is not available; not treating its files as deleted", self.folder)
            return
        if self.store.current.mark_removed(list(paths), _REMOVED_REASON):
            for path in paths:
                self._on_change("removed", path)

    # -- renames ----------------------------------------------------------------------------

    def _rename(self, src: str, dest: str) -> None:
        """Keep the item: move its history to ``dest`` and its placed files along; nothing is re-run."""
        if not self._in_scope(dest):
            self._remove([src])
            return
        cur = self.store.current.get(src)
        if cur is None:
            self._touch(dest)
            return
        if self.store.current.has_rows(dest):
            # The destination has an item history of its own: identify it as a new version
            # (cached stage results make that cheap) and let the old path go.
            self._remove([src])
            self._touch(dest)
            return
        moved = self._move_placed_files(src, dest)
        if not self.store.current.rename(src, dest, moved):
            log.warning("could not move the item of %s to %s; it is identified again", src, dest)
            self._remove([src])
        else:
            log.info("renamed %s → %s (item %d kept)", src, dest, cur.item_id)
            self._on_change("renamed", dest)
        # A rename keeps size and mtime, so this normally finds nothing to do; a move that
        # also changed the bytes is identified like any changed file.
        self._touch(dest)

    def _move_placed_files(self, src: str, dest: str) -> list[tuple[str, str, str]]:
        """Move placed files named after ``src`` next to ``dest`` — only those still exactly as Sidecar wrote them."""
        moved = []
        for placed in self.store.current.placed_files(src):
            old = Path(placed.target)
            name = renamed_output_name(old.name, Path(src).name, Path(dest).name)
            if name is None:
                continue
            new = Path(dest).parent / name
            found = sha256_file(old)
            if found is None:
                # Already moved along (a whole folder moved), or deleted by the person.
                there = sha256_file(new)
                if there is not None and self.store.steps.is_our_output(str(old), there):
                    moved.append((str(old), str(new), there))
                continue
            if not self.store.steps.is_our_output(str(old), found):
                log.info("left %s where it is: it changed since Sidecar wrote it", old)
                continue
            try:
                done = _move_no_clobber(old, new)
            except OSError as exc:
                log.warning("could not move %s to %s: %s", old, new, exc)
                continue
            if not done:
                log.info("left %s where it is: %s already exists", old, new)
                continue
            moved.append((str(old), str(new), found))
        return moved

    # -- stable files -----------------------------------------------------------------------

    def _settle(self) -> None:
        """Queue every pending file whose size and mtime held still for the quiet period."""
        now = time.monotonic()
        for path, seen in list(self._pending.items()):
            st = _stat(path)
            if st is None:
                del self._pending[path]
                continue
            if (st.st_size, st.st_mtime_ns) != (seen.size, seen.mtime_ns):
                self._pending[path] = _Pending(st.st_size, st.st_mtime_ns, now)
            elif now - seen.since >= self.settings.quiet_seconds:
                del self._pending[path]
                self._identify(path, st)
        if self._catching_up:
            self._catching_up &= set(self._pending)
            if not self._catching_up:
                self._flush_vanished()

    def _flush_vanished(self) -> None:
        gone = [c.path for items in self._vanished.values() for c in items]
        self._vanished.clear()
        self._remove(gone)

    def _identify(self, path: str, st: os.stat_result) -> None:
        """Hash a stable file and decide: nothing changed, same bytes touched, a rename seen at catch-up, or new work."""
        cur = self.store.current.get(path)
        if cur is not None and (cur.size, cur.mtime_ns) == (st.st_size, st.st_mtime_ns):
            return
        try:
            sha = sha256_file(Path(path))
        except OSError as exc:  # locked by the writer (Windows) or unreadable: try again after a quiet period
            log.info("cannot read %s yet (%s)", path, exc)
            self._pending[path] = _Pending(st.st_size, st.st_mtime_ns, time.monotonic())
            return
        after = _stat(path)
        if sha is None or after is None:
            return
        if (after.st_size, after.st_mtime_ns) != (st.st_size, st.st_mtime_ns):
            self._pending[path] = _Pending(after.st_size, after.st_mtime_ns, time.monotonic())
            return
        if cur is not None and cur.sha256 == sha:
            self.store.current.refresh_stat(cur.item_id, after.st_size, after.st_mtime_ns)
            self._on_change("unchanged", path)
            return
        if cur is None:
            twins = self._vanished.get(sha)
            if twins:
                twin = twins.pop()
                if not twins:
                    del self._vanished[sha]
                self._rename(twin.path, path)
                return
        new_item = self._plan(Path(path), after, sha)
        job_id = self.store.watches.rolling_job(self.watch.id)
        self.store.current.supersede_unfinished(path)
        self.store.jobs.add_items(job_id, [new_item], self.store.jobs.item_count(job_id))
        if cur is not None:
            self.store.current.drop_orphaned_content([cur.sha256])
        log.info("queued %s in job %d", path, job_id)
        self._on_change("queued", path)

    def _plan(self, path: Path, st: os.stat_result, sha: str) -> NewItem:
        kind = MEDIA_KINDS.of(path)
        assert kind is not None
        if kind.skip is not None:
            try:
                names = os.listdir(path.parent)
            except OSError:
                names = []
            reason = kind.skip_reason(path, names)
            if reason:
                # Unlike a job's scan, keep the hash: the item is then current and the next
                # catch-up sees this file as known instead of adding it again.
                return NewItem(path=str(path), kind=kind.name, size=st.st_size, mtime_ns=st.st_mtime_ns, sha256=sha,
                               skip_reason=reason)
        return plan_item(self.store.jobs, self.pipelines[kind.name], self.options, path, st.st_size, st.st_mtime_ns,
                         sha)


def _is_within_folder(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


# -- all folders --------------------------------------------------------------------------------


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
        self.settings = settings or WatchSettings(quiet_seconds=load_settings(library.data_dir).watch_quiet_seconds)
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
            except Exception:  # noqa: BLE001 - keep watching through a transient store error
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
        raise SidecarError(f"{path} is not a folder", code="folder_missing")
    for other in library.store.watches.list():
        o = Path(other.folder)
        if o != path and (_is_within_folder(path, o) or _is_within_folder(o, path)):
            raise SidecarError(f"{path} overlaps the watched folder {o}; watch one of them", code="watch_overlaps")
    watch = library.store.watches.add(str(path), options.as_dict(), polling)
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


__all__ = ["FolderWatcher", "NETWORK_FILESYSTEMS", "WatchService", "WatchSettings", "WatcherStatus", "add_watch",
           "is_network_folder", "mirror_to_settings", "network_fs_type", "remove_watch", "renamed_output_name",
           "set_watched_folders", "watch_options"]
