"""One watched folder (SPEC §8): files that appear, change, move or vanish become item transitions.

A watchdog observer (native, or polling where :mod:`app.engine.mounts` says change
events are unreliable, or when the native one cannot start) only feeds a queue; one
thread per folder does everything else, so the store sees one folder's changes in
the order they happened and never two at once.

A new or modified media file is queued only once it is *stable*: its size and mtime
unchanged for a quiet period. Events reset the clock, so a file still being copied is
never hashed for an item. Stable files go through the same planning as a job's scan
(``plan_item``: cached stage results, fingerprints, the kind's skip rule) and are
appended to the folder's rolling job. System and hidden litter (``@eaDir``, ``#recycle``,
``._*``…, the scan rules of :mod:`app.engine.kinds`) is ignored here as in a job's scan,
including files that appear later inside such a folder.

Renames and moves keep the item (its sha256, finished stages and search rows) and move
its placed files along (:mod:`app.engine.renames`); deletions make the item
non-current and drop its search rows. The person's files are never deleted or
changed. At start a catch-up scan compares the folder with the store and applies the
same transitions to whatever changed while Sidecar was closed.

The module stays one piece past 400 lines because catch-up, stability and renames
share one state (pending files, vanished items awaiting their twin) on one thread.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from app.atomic_write import sha256_file
from app.engine.job_options import JobOptions
from app.engine.kinds import LEFT_OUT_BY_DEFAULT, MEDIA_KINDS, ScanRules
from app.engine.mounts import polling_reason
from app.engine.plan import ITEM_BATCH, ItemPlanner, batched
from app.engine.renames import move_placed_files
from app.engine.scan import ScanResult, scan, walk
from app.engine.stage import Pipeline
from app.errors import NotRegularFile
from app.store import Store
from app.store.current_items import CurrentItem
from app.store.records import NewItem
from app.store.watches import Watch

log = logging.getLogger(__name__)

_EVENT_TYPES = frozenset({"created", "modified", "closed", "deleted", "moved"})
_REMOVED_REASON = "the file was deleted or moved out of the watched folder"

ChangeCallback = Callable[[str, str], None]  # (action, path): queued | renamed | removed | unchanged


@dataclass(frozen=True)
class WatchSettings:
    """Timing of the stability check and the polling observer; ``force_polling`` skips the native observer.

    ``left_out`` is the person's current list of names to ignore (``Settings.scan_ignore``).
    """

    quiet_seconds: float = 5.0
    poll_seconds: float = 2.0
    force_polling: bool = False
    refresh_seconds: float = 2.0  # how often a running service re-reads the watches table (CLI/GUI edits)
    left_out: tuple[str, ...] = LEFT_OUT_BY_DEFAULT

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

    def __init__(self, events: queue.Queue[FileSystemEvent]):
        self.events = events

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in _EVENT_TYPES:
            self.events.put(event)


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
        self.options = JobOptions.from_stored(watch.options)
        self.recursive = not self.options.top_level
        self.kinds = MEDIA_KINDS.selection(self.options.kind) & frozenset(self.pipelines)
        self.rules = ScanRules(settings.left_out)
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
        reason = polling_reason(self.folder, self.settings.force_polling, self.watch.polling)
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
        except Exception:  # a failed catch-up must not stop live watching
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
            except Exception:  # a store hiccup must not end the watch
                log.exception("watching %s: could not apply a change", self.folder)

    # -- catch-up ---------------------------------------------------------------------------

    def catch_up(self) -> None:
        """Compare the folder with the store: new and changed files wait for stability, vanished items
        wait until those files are identified (a vanished item whose content reappears is a rename)."""
        if not self.folder.is_dir():
            log.warning("watched folder %s is not available; its items are kept as they are (folder_unavailable)", self.folder)
            return
        # Items left out by the scan rules (an @eaDir thumbnail indexed before they applied) count as
        # vanished, so they leave search instead of staying current forever.
        known = {c.path: c for c in self.store.current.under(str(self.folder)) if self._in_scope(c.path, litter=True)}
        on_disk: set[str] = set()  # the walk is streamed: only the paths are kept, not a scan entry per file
        now = time.monotonic()
        for entry in walk(self.folder, ScanResult(), recursive=self.recursive, kinds=self.kinds, rules=self.rules):
            path = str(entry.path)
            on_disk.add(path)
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

    def _in_scope(self, path: str, litter: bool = False) -> bool:
        """Whether ``path`` is a file this watch handles; ``litter`` also admits names the scan rules leave out."""
        p = Path(path)
        if not is_within_folder(p, self.folder) or (not self.recursive and p.parent != self.folder):
            return False
        if not litter and self.rules.left_out_below(p, self.folder) is not None:
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
        for entry in scan(Path(folder), recursive=self.recursive, kinds=self.kinds, rules=self.rules).entries:
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
        if not is_within_folder(Path(dest), self.folder):
            self._remove_under(src)
            return
        for path in [p for p in self._pending if is_within_folder(Path(p), Path(src))]:
            del self._pending[path]
            self._touch(dest + path[len(src):])
        for cur in self.store.current.under(src):
            self._rename(cur.path, dest + cur.path[len(src):])
        self._touch_tree(dest)

    def _remove_under(self, folder: str) -> None:
        for path in [p for p in self._pending if is_within_folder(Path(p), Path(folder))]:
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
        moved = move_placed_files(self.store, src, dest)
        if not self.store.current.rename(src, dest, moved):
            log.warning("could not move the item of %s to %s; it is identified again", src, dest)
            self._remove([src])
        else:
            log.info("renamed %s → %s (item %d kept)", src, dest, cur.item_id)
            self._on_change("renamed", dest)
        # A rename keeps size and mtime, so this normally finds nothing to do; a move that
        # also changed the bytes is identified like any changed file.
        self._touch(dest)


    def _settle(self) -> None:
        """Queue every pending file whose size and mtime held still for the quiet period, a batch at a time."""
        now = time.monotonic()
        stable: list[tuple[str, os.stat_result]] = []
        for path, seen in list(self._pending.items()):
            st = _stat(path)
            if st is None:
                del self._pending[path]
                continue
            if (st.st_size, st.st_mtime_ns) != (seen.size, seen.mtime_ns):
                self._pending[path] = _Pending(st.st_size, st.st_mtime_ns, now)
            elif now - seen.since >= self.settings.quiet_seconds:
                del self._pending[path]
                stable.append((path, st))
        for chunk in batched(stable, ITEM_BATCH):
            if self._stopping.is_set():  # the rest are found again by the next start's catch-up
                break
            self._identify(chunk)
        if self._catching_up:
            self._catching_up &= set(self._pending)
            if not self._catching_up:
                self._flush_vanished()

    def _flush_vanished(self) -> None:
        """Remove the vanished items no rename claimed; they count as pending until the store says so."""
        gone = [c.path for items in self._vanished.values() for c in items]
        try:
            self._remove(gone)
        finally:
            self._vanished.clear()

    def _identify(self, files: Sequence[tuple[str, os.stat_result]]) -> None:
        """Hash a batch of stable files and decide for each: nothing changed, same bytes touched, a rename seen
        at catch-up, or new work. The new work of the batch is planned and appended in one transaction, as an
        add records a batch (a folder that receives 10,000 files is ten inserts, not 10,000 rounds of them)."""
        known = self.store.current.get_many([path for path, _ in files])
        new_items: list[NewItem] = []
        replaced: list[str] = []
        planners: dict[str, ItemPlanner] = {}
        listings: dict[Path, list[str]] = {}
        for path, st in files:
            cur = known.get(path)
            if cur is not None and (cur.size, cur.mtime_ns) == (st.st_size, st.st_mtime_ns):
                continue
            try:
                sha = sha256_file(Path(path))
            except NotRegularFile:  # became a pipe or a device link since it was seen: never read, never queued
                log.info("%s is not a regular file; left out", path)
                continue
            except OSError as exc:  # locked by the writer (Windows) or unreadable: try again after a quiet period
                log.info("cannot read %s yet (%s)", path, exc)
                self._pending[path] = _Pending(st.st_size, st.st_mtime_ns, time.monotonic())
                continue
            after = _stat(path)
            if sha is None or after is None:
                continue
            if (after.st_size, after.st_mtime_ns) != (st.st_size, st.st_mtime_ns):
                self._pending[path] = _Pending(after.st_size, after.st_mtime_ns, time.monotonic())
                continue
            if cur is not None and cur.sha256 == sha:
                self.store.current.refresh_stat(cur.item_id, after.st_size, after.st_mtime_ns)
                self._on_change("unchanged", path)
                continue
            if cur is None:
                twins = self._vanished.get(sha)
                if twins:
                    twin = twins.pop()
                    if not twins:
                        del self._vanished[sha]
                    self._rename(twin.path, path)
                    continue
            new_items.append(self._plan(Path(path), after, sha, planners, listings))
            if cur is not None:
                replaced.append(cur.sha256)
        if not new_items:
            return
        paths = [item.path for item in new_items]
        job_id = self.store.watches.rolling_job(self.watch.id)
        self.store.current.supersede_unfinished(paths)
        self.store.jobs.add_items(job_id, new_items, self.store.jobs.item_count(job_id))
        if replaced:
            self.store.current.drop_orphaned_content(replaced)
        log.info("queued %d file(s) in job %d", len(new_items), job_id)
        for path in paths:
            self._on_change("queued", path)

    def _plan(self, path: Path, st: os.stat_result, sha: str, planners: dict[str, ItemPlanner],
              listings: dict[Path, list[str]]) -> NewItem:
        """Stage rows for one file; ``planners`` (one per kind) and ``listings`` (the kept names of each folder,
        for the already-subtitled rule) live for one batch, so a folder of 10,000 videos is listed once, not
        once per video."""
        kind = MEDIA_KINDS.of(path)
        assert kind is not None
        if kind.skip is not None:
            if path.parent not in listings:
                try:
                    listings[path.parent] = self.rules.kept(os.listdir(path.parent))
                except OSError:
                    listings[path.parent] = []
            skip = kind.skip_reason(path, listings[path.parent], self.options)
            if skip:
                # Keep the hash (as a job's scan does for content it knows): the item is then current and the next
                # catch-up sees this file as known instead of adding it again.
                return NewItem(path=str(path), kind=kind.name, size=st.st_size, mtime_ns=st.st_mtime_ns, sha256=sha,
                               skip_reason=skip.message, skip_code=skip.code)
        if kind.name not in planners:
            planners[kind.name] = ItemPlanner(self.store.jobs, self.pipelines[kind.name], self.options)
        return planners[kind.name].plan(path, st.st_size, st.st_mtime_ns, sha)


def is_within_folder(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or inside it (by path, without touching the disk)."""
    return path == folder or folder in path.parents


__all__ = ["ChangeCallback", "FolderWatcher", "WatchSettings", "is_within_folder"]
