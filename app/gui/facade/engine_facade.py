"""The GUI's one door to the engine: every Library call runs off the GUI thread.

Views never touch the store, the disk or a model. They call a method here, which
starts an :class:`~app.gui.operations.Operation` and returns at once; the answer
comes back as a Qt signal carrying plain data (the engine's frozen dataclasses,
lists and dicts), delivered on the GUI thread.

Three lanes, so a slow operation never delays the status the person is watching:

* ``store`` (one thread): short store calls — status, pages, pause, decide. One
  thread keeps them in the order the person asked for them (a pause is written
  before the refresh that shows it).
* ``slow``: adding folders (scan + sha256 of every file), search (query embedding)
  and settings/model-list file I/O. Searches share the key ``search``: the newest
  query's answer is the only one shown.
* ``downloads``: model installs, each cancellable, so a download of minutes never
  holds up a search.

The job list is refreshed by change: each poll reads the store's per-job change
counters (:meth:`Library.changes`) and re-reads only the jobs whose counter moved.

The module is over 400 lines because it is the GUI's only door to the engine: one
short method per engine call. Splitting it would give the views two doors.

While a facade is alive ``Database.thread_guard`` and ``ModelHost.thread_guard``
raise on the GUI thread, so a view that reached past the facade fails loudly in
tests instead of freezing the window in production.
"""

from __future__ import annotations

import dataclasses
import getpass
import logging
import os
import sys
import threading
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Sequence

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from app.engine.autostart import autostart_enabled, set_autostart
from app.engine.background import Hold, background_rules, schedule_of, working_override
from app.engine.desktop_notify import DesktopNotifier
from app.engine.gpu_gate import NvmlProbe
from app.engine.job_notices import FAILED, FINISHED, REVIEW, JobNotice, settled_notice, wanted_kinds
from app.engine.library import JobChanges, JobOptions, Library
from app.engine.review_evidence import ReviewEvidence, review_evidence
from app.engine.subtitle_edits import SubtitleDocument
from app.engine.watch import WatchService, set_watched_folders, watch_options
from app.errors import Code, SidecarError
from app.gui.count_words import count_words
from app.gui.operations import BACKGROUND_NICE, Operation, OperationCancelled, Operations
from app.gui.thumbnails import thumbnail
from app.media.cue_edits import EditCue
from app.ml.cpu_share import set_core_cap
from app.ml.host import ModelHost
from app.paths import database_path
from app.settings import Settings, load_settings, save_settings
from app.store.database import Database
from app.store.location import ENV as DATABASE_URL_ENV
from app.store.probe import probe_database
from app.store.records import ItemView, JobSummary, Review

log = logging.getLogger(__name__)

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


def job_options(settings: Settings) -> JobOptions:
    """What a new job freezes from the current settings (the same mapping as ``sidecar add``)."""
    return JobOptions.from_settings(settings)


class EngineFacade(QObject):
    """Owns the Library; answers every request with a signal."""

    started = Signal()
    closed = Signal()
    jobsChanged = Signal(list)  # list[JobSummary]; a job not re-read keeps its identical object
    itemsPage = Signal(int, int, list)  # job id, offset, list[ItemView] (or what fetch_items' shape made of them)
    reviewsChanged = Signal(list)  # list[Review]
    reviewDecided = Signal(object)  # Review
    decisionFailed = Signal(int, str, str)  # review id, code (review_conflict…), message
    subtitlesOpened = Signal(object)  # SubtitleDocument
    subtitlesSaved = Signal(object)  # SubtitleDocument as saved
    subtitlesFailed = Signal(str, str, str)  # video path, code (no_subtitles, item_busy, changed_on_disk…), message
    reviewEvidence = Signal(object, dict)  # ReviewEvidence of the review last asked for, {"ours"/"theirs": QImage}
    searchResults = Signal(str, object)  # query (or image path), list[SearchResult]: Python objects, so paths keep undecodable bytes
    addProgress = Signal(str, int, int)  # folder being added (as given), files found (total 0) or recorded, total
    addEnded = Signal(str)  # that folder's job was created, or adding it failed
    jobAdded = Signal(object)  # JobSummary
    settingsLoaded = Signal(object)  # Settings
    pausedAllChanged = Signal(bool)  # "Pause all" is on (new jobs wait too) / off
    settingsSaved = Signal(object)  # Settings
    startFailed = Signal(str, str)  # code, message: the library could not be opened (settingsLoaded came first)
    serverChecked = Signal(str, str, str)  # translation server URL as asked, code ("" when it answers), why not
    databaseChecked = Signal(str, str, str)  # URL as asked, code ("" when it opens), why not ("library"/"empty" when it opens)
    modelsListed = Signal(list)  # list[ModelRow]
    modelProgress = Signal(str, int, int)  # model name, bytes done, bytes in all (0: unknown)
    modelInstallEnded = Signal(str, str, str)  # model name, "" when installed else the error code (download_failed…), why
    workersChanged = Signal(list)  # list[WorkerView]: every engine process on the library, any machine
    audioTracks = Signal(int, object)  # item id, AudioChoice | None: its file's audio streams and the one used
    notice = Signal(int, str, str)  # job id, title, message: one per settled job, where no desktop notifier took it
    openJob = Signal(int)  # a job's notification was clicked: show that job
    holdChanged = Signal(object)  # Hold | None: why the engine waits (schedule, battery…), None while it works
    error = Signal(str, str)  # code, message
    _engineTouched = Signal()

    def __init__(self, data_dir: Path, library_factory: LibraryFactory = Library.open,
                 poll_ms: int = 1000, parent: QObject | None = None):
        super().__init__(parent)
        self.data_dir = data_dir
        self.settings: Settings | None = None
        self._factory = library_factory
        self._library: Library | None = None
        self._watches: WatchService | None = None
        self.ops = Operations(LANES, self, nice=BACKGROUND_NICE)
        self.guard = ThreadGuard(threading.get_ident())
        Database.thread_guard = self.guard
        ModelHost.thread_guard = self.guard
        self._refresh_running = False
        self._refresh_again = False
        self._changes: JobChanges | None = None
        self._jobs: dict[int, JobSummary] = {}
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
        self.start_error: SidecarError | None = None  # why the last start could not open the library
        self.all_paused = False  # "Pause all" is on, as the last refresh read it
        self.gpu_device: str | None = None  # the GPU's name once the engine looked (None: no GPU; Settings hide its budget)
        self._notifier: DesktopNotifier | None = None
        self._hold: Hold | None = None
        self._poll.timeout.connect(self._read_hold)

    # -- plumbing -------------------------------------------------------------------------

    def _run(self, fn: Callable[[Operation], Any], on_done: Callable[[Any], None] | None = None,
             on_error: Callable[[BaseException], None] | None = None, lane: str = "store", **options: Any) -> Operation:
        return self.ops.start(fn, on_done, on_error or self._report, lane=lane, **options)

    def _report(self, exc: BaseException) -> None:
        if isinstance(exc, SidecarError):
            self.error.emit(exc.code, exc.message)
        else:
            log.error("engine call failed", exc_info=exc)
            self.error.emit(Code.INTERNAL_ERROR, str(exc) or type(exc).__name__)

    def _lib(self) -> Library | None:
        """The running library; None (and an ``error`` signal) before start or after shutdown began."""
        if self._library is None or self._closing:
            if self.start_error is not None and not self._closing:
                self.error.emit(self.start_error.code, self.start_error.message)
            elif not self._closing:
                self.error.emit(Code.ENGINE_STARTING, "the engine is still starting; try again in a moment")
            return None
        return self._library

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
            self.gpu_device = NvmlProbe().device_name()
            library = self._factory(self.data_dir, settings)
            library.scheduler.on_change = self._engineTouched.emit
            library.start()
            if sys.platform.startswith("linux"):
                notifier = DesktopNotifier(self.openJob.emit)  # the signal hops to the GUI thread
                self._notifier = notifier if notifier.start() else None
            self._watches = WatchService(library, on_change=lambda action, path: self._engineTouched.emit())
            self._watches.start()
            return library, settings

        def opened(result: tuple[Library, Settings]) -> None:
            self._library, self.settings = result
            self.start_error = None
            self.settingsLoaded.emit(self.settings)
            self._poll.start()
            self.started.emit()
            self.refresh()

        def failed(exc: BaseException) -> None:
            if self._closing:
                return
            self._report(exc)
            self.start_error = exc if isinstance(exc, SidecarError) else SidecarError(str(exc) or type(exc).__name__,
                                                                                      code=Code.INTERNAL_ERROR)
            if read:
                self.settings = read[0]
                self.settingsLoaded.emit(self.settings)
            self.startFailed.emit(self.start_error.code, self.start_error.message)

        self.start_error = None
        self._run(open_and_start, opened, failed)

    def shutdown(self) -> None:
        """Stop the engine (running stages stop at a checkpoint) and emit ``closed``."""
        if self._closing:
            return
        self._closing = True
        self._poll.stop()
        self._touch_timer.stop()
        self.ops.cancel_all()
        library, self._library = self._library, None

        def close(_: Operation) -> None:
            if self._notifier is not None:
                self._notifier.close()
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

        self._run(close, closed, closed)

    # -- observing ------------------------------------------------------------------------

    @Slot()
    def refresh(self) -> None:
        """Re-read the jobs whose change counter moved (and then the reviews).

        At most one refresh is in flight; a request meanwhile re-runs it once after.
        """
        if self._library is None or self._closing:
            return
        if self._refresh_running:
            self._refresh_again = True
            return
        self._refresh_running = True
        library, since = self._library, self._changes

        def fetch(_: Operation) -> tuple[JobChanges, list[Any] | None]:
            changes = library.changes(since)
            moved = since is None or bool(changes.changed or changes.removed)
            return changes, library.reviews() if moved else None

        def fetched(result: tuple[JobChanges, list[Any] | None] | BaseException) -> None:
            self._refresh_running = False
            if self._closing:
                return
            if isinstance(result, BaseException):
                self._report(result)
            else:
                self._apply(*result)
            if self._refresh_again:
                self._refresh_again = False
                self.refresh()

        self._run(fetch, fetched, fetched)

    def _apply(self, changes: JobChanges, reviews: list[Any] | None) -> None:
        first = self._changes is None
        self._changes = changes
        if first or changes.all_paused != self.all_paused:
            self.all_paused = changes.all_paused
            self.pausedAllChanged.emit(changes.all_paused)
        if first or changes.changed or changes.removed:
            previous = self._jobs
            merged = {**previous, **{job.id: job for job in changes.changed}}
            self._jobs = {job_id: merged[job_id] for job_id in sorted(merged) if job_id in changes.marks}
            if not first:
                self._announce(changes.changed, previous)
            self.jobsChanged.emit(list(self._jobs.values()))
        if reviews is not None:
            key = tuple((r.id, r.revision, r.state) for r in reviews)
            if key != self._last_reviews:
                self._last_reviews = key
                self.reviewsChanged.emit(reviews)

    def _announce(self, changed: Sequence[JobSummary], previous: dict[int, JobSummary]) -> None:
        """One notice per job that settled (finished, needs review, failed), with its counts.

        Sent to the desktop's notification service where there is one (clickable: it opens
        the job), else (or when the service does not take it) emitted as ``notice`` for the
        tray's balloon.
        """
        s = self.settings or Settings()
        wanted = wanted_kinds(s.notify_finished, s.notify_review, s.notify_failed)
        for job in changed:
            notice = settled_notice(previous.get(job.id), job, wanted)
            if notice is not None:
                self._tell(notice)

    def _tell(self, notice: JobNotice) -> None:
        title, body = self.notice_words(notice)
        notifier = self._notifier
        if notifier is None:
            self.notice.emit(notice.job_id, title, body)
            return

        def shown(notification: int | None) -> None:
            if notification is None:  # the service is gone or refused it: the tray's balloon instead
                self.notice.emit(notice.job_id, title, body)

        self._run(lambda _: notifier.notify(notice.job_id, title, body), shown, lane="slow")

    def notice_words(self, notice: JobNotice) -> tuple[str, str]:
        title = {FINISHED: self.tr("Job finished"), REVIEW: self.tr("Review needed"),
                 FAILED: self.tr("Items failed")}[notice.kind]
        body = self.tr("{name}: {done} of {total} done").format(name=notice.name, done=notice.done, total=notice.total)
        for shortfall in notice.shortfalls():  # "3 of 3 done" alone hid the 2 that got no translation
            body += ", " + count_words(shortfall)
        if notice.review:
            body += self.tr(", %n to decide", "", notice.review)
        if notice.failed:
            body += self.tr(", %n failed", "", notice.failed)
        return title, body

    # -- when to work -----------------------------------------------------------------------

    @Slot()
    def _read_hold(self) -> None:
        library = self._library
        if library is not None and not self._closing:
            self._run(lambda _: library.held(), self._hold_read, lane="slow", key="hold")

    def _hold_read(self, hold: Hold | None) -> None:
        if hold != self._hold:
            self._hold = hold
            self.holdChanged.emit(hold)

    def pause_work(self, until: datetime) -> None:
        """The tray's "Pause for 1 hour" / "until tomorrow morning": saved, so a restart keeps it."""
        self._set_timed(until.timestamp(), 0.0)

    def resume_work(self) -> None:
        """The tray's "Resume now": ends a timed pause; outside the schedule, works until its next window opens."""
        s = self.settings or Settings()
        until = working_override(schedule_of(s), datetime.now())
        self._set_timed(0.0, until.timestamp() if until is not None else 0.0)

    def _set_timed(self, paused_until: float, working_until: float) -> None:
        if self.settings is None:
            return
        self.save_settings(dataclasses.replace(self.settings, paused_until=paused_until, working_until=working_until))

    def jobs(self) -> list[JobSummary]:
        """The jobs as the last refresh read them (what ``jobsChanged`` last carried)."""
        return list(self._jobs.values())

    def refresh_workers(self) -> None:
        """Read every engine process on the library (``sidecar workers``); answers ``workersChanged``.

        Quiet before the engine started: a view's timer may ask that early.
        """
        library = self._library
        if library is not None and not self._closing:
            self._run(lambda _: library.workers(), self.workersChanged.emit, key="workers")

    def fetch_items(self, job_id: int, offset: int, limit: int,
                    shape: Callable[[list[ItemView]], list[Any]] | None = None) -> None:
        """A page of the job's items; answers ``itemsPage``.

        ``shape`` turns the page into what the view shows (the queue's cell words) on the
        worker thread too, so the GUI thread receives rows ready to paint.
        """
        library = self._lib()
        if library is not None:
            def read(_: Operation) -> list[Any]:
                items = library.items(job_id, offset, limit)
                return shape(items) if shape is not None else items

            self._run(read, lambda rows: self.itemsPage.emit(job_id, offset, rows))

    # -- commands -------------------------------------------------------------------------

    def _command(self, fn: Callable[[Library, Operation], Any], lane: str = "store",
                 then: Callable[[Any], None] | None = None, on_error: Callable[[BaseException], None] | None = None,
                 **options: Any) -> None:
        library = self._lib()
        if library is None:
            return

        def done(result: Any) -> None:
            if isinstance(result, BaseException):
                (on_error or self._report)(result)
            elif then is not None:
                then(result)
            self.refresh()

        self._run(lambda op: fn(library, op), done, done, lane=lane, **options)

    def add_paths(self, paths: Sequence[Path], settings: Settings | None = None) -> None:
        """One job per path; the scan runs on the slow lane, reporting ``addProgress`` (files found, then recorded).

        ``settings``: use these rather than the saved file (a save of them may still be on its way).
        """
        for path in paths:
            folder = str(path)

            def add(library: Library, op: Operation, path: Path = Path(path)) -> JobSummary:
                return library.add(path, job_options(settings or load_settings(self.data_dir)), progress=op.report)

            def added(job: JobSummary, folder: str = folder) -> None:
                self.addEnded.emit(folder)
                self.jobAdded.emit(job)

            def failed(exc: BaseException, folder: str = folder) -> None:
                self.addEnded.emit(folder)
                self._report(exc)

            self._command(add, lane="slow", then=added, on_error=failed,
                          on_progress=lambda done, total, folder=folder: self.addProgress.emit(folder, done, total))

    def pause(self, job_id: int | None) -> None:
        self._command(lambda lib, _: lib.pause(job_id))

    def resume(self, job_id: int | None) -> None:
        self._command(lambda lib, _: lib.resume(job_id))

    def retry_job(self, job_id: int) -> None:
        self._command(lambda lib, _: lib.retry_job(job_id))

    def retry_item(self, item_id: int) -> None:
        self._command(lambda lib, _: lib.retry_item(item_id))

    def translate_again(self, job_id: int | None = None, item_id: int | None = None) -> None:
        """Queue again the items that got no translation (the item, the job's, or all): see :meth:`Library.translate_again`."""
        self._command(lambda lib, _: lib.translate_again(job_id, item_id))

    def cancel(self, job_id: int) -> None:
        self._command(lambda lib, _: lib.cancel(job_id))

    def audio_tracks(self, item_id: int) -> None:
        """Read the item's audio streams from its file's header; answers ``audioTracks``."""
        from app.pipelines.video import audio_choice

        library = self._lib()
        if library is None:
            return

        def read(_: Operation) -> Any:
            source = library.item_source(item_id)
            return audio_choice(Path(source.path), source.options)

        self._run(read, lambda choice: self.audioTracks.emit(item_id, choice), lane="slow", key=f"audio:{item_id}")

    def set_audio_track(self, item_id: int, track: int) -> None:
        """Subtitle audio track ``track`` (from 1; 0 chooses by rule) of this item: it runs again from extraction."""
        self._command(lambda lib, _: lib.set_item_option(item_id, "audio_track", track))

    def decide(self, review_id: int, decision: str, reason: str, expected_revision: int | None) -> None:
        """Record a review decision; a conflict arrives as ``decisionFailed(id, "review_conflict", …)``."""
        actor = f"gui:{getpass.getuser()}"

        def failed(exc: BaseException) -> None:
            if isinstance(exc, SidecarError):
                self.decisionFailed.emit(review_id, exc.code, exc.message)
            else:
                self._report(exc)

        self._command(lambda lib, _: lib.decide(review_id, decision, reason, actor, expected_revision),
                      then=self.reviewDecided.emit, on_error=failed)

    def load_review_evidence(self, review: Review) -> None:
        """Read both versions of a reviewed file, diff them or make thumbnails off the GUI thread.

        Only the latest ask answers: clicking through the list never shows an older file's evidence.
        """
        def load(_: Operation) -> tuple[ReviewEvidence, dict[str, Any]]:
            evidence = review_evidence(review)
            images: dict[str, Any] = {}
            if evidence.kind == "image":
                images = {"ours": thumbnail(evidence.ours.data), "theirs": thumbnail(evidence.theirs.data)}
            return evidence, images

        self._run(load, lambda loaded: self.reviewEvidence.emit(*loaded), lane="slow", key="review-evidence")

    def open_subtitles(self, video: Path) -> None:
        """Read the subtitles beside ``video`` for the editor; ``subtitlesFailed`` says why when there are none."""
        self._command(lambda lib, _: lib.open_subtitles(video), lane="slow", then=self.subtitlesOpened.emit,
                      on_error=lambda exc: self._subtitles_failed(video, exc))

    def save_subtitles(self, document: SubtitleDocument, cues: Sequence[EditCue]) -> None:
        """Save the person's edit of ``document``'s files (atomic; refused while Sidecar works on the video).

        On the slow lane: the save re-embeds the cues for dialogue search (e5), which must
        not hold up the store lane's status and queue reads.
        """
        self._command(lambda lib, _: lib.save_subtitles(document, cues), lane="slow", then=self.subtitlesSaved.emit,
                      on_error=lambda exc: self._subtitles_failed(document.video, exc))

    def retranslate(self, video: Path, kind: str, model: str) -> None:
        """Translate ``video`` again from its stored transcript with ``model`` (made the translation model in use).

        A new job with ``redo`` (the video is subtitled already, so a plain add would skip
        it); the transcript is reused by fingerprint, and files the person edited go to Review.
        """
        from app.ml.model_choice import models_use

        def add(library: Library, _: Operation) -> JobSummary:
            models_use(self.data_dir, model)
            return library.add(video, JobOptions.from_settings(load_settings(self.data_dir), kind, redo=True))

        self._command(add, lane="slow", then=self.jobAdded.emit,
                      on_error=lambda exc: self._subtitles_failed(video, exc))

    def _subtitles_failed(self, video: Path, exc: BaseException) -> None:
        if isinstance(exc, SidecarError):
            self.subtitlesFailed.emit(str(video), exc.code, exc.message)
        else:
            self._report(exc)

    def search(self, query: str | None, image: Path | None = None, kind: str = "all", limit: int = 100) -> None:
        """Text search over images and dialogue, or images similar to ``image``.

        Searches share one key: an answer to a query typed before the latest one is
        dropped, so search as you type never shows a stale result.
        """
        library = self._lib()
        if library is None:
            return
        label = query if query is not None else str(image)
        self._run(lambda _: library.search(query, image, kind, limit),
                  lambda results: self.searchResults.emit(label, results), lane="slow", key="search")

    # -- settings -------------------------------------------------------------------------

    def load_settings(self) -> None:
        self._run(lambda _: load_settings(self.data_dir), self._settings_loaded, lane="slow")

    def _settings_loaded(self, settings: Settings) -> None:
        self.settings = settings
        self.settingsLoaded.emit(settings)

    def save_settings(self, settings: Settings) -> None:
        """Save, then make the watches table (the truth for watched folders) match the page's list."""
        snapshot = dataclasses.replace(settings, watched_folders=list(settings.watched_folders))
        library = self._library

        def save(_: Operation) -> Settings:
            save_settings(self.data_dir, snapshot)
            if library is not None:
                set_watched_folders(library, [Path(f) for f in snapshot.watched_folders], watch_options(snapshot))
                library.set_background_rules(background_rules(snapshot))
            set_core_cap(snapshot.max_cores)
            if sys.platform.startswith("linux") and snapshot.start_at_login != autostart_enabled():
                set_autostart(snapshot.start_at_login)
            return load_settings(self.data_dir)

        def saved(stored: Settings) -> None:
            self.settings = stored
            self.settingsSaved.emit(stored)
            self._read_hold()

        self._run(save, saved, lane="slow")

    def check_database(self, url: str) -> None:
        """Connect to the library database ``url`` names and read its schema; answers ``databaseChecked``.

        The newest check is the only one answered (a person may edit and check again).
        """
        def checked(result: Any) -> None:
            if isinstance(result, SidecarError):
                self.databaseChecked.emit(url, result.code, result.message)
            elif isinstance(result, BaseException):
                self._report(result)
                self.databaseChecked.emit(url, Code.INTERNAL_ERROR, str(result) or type(result).__name__)
            else:
                self.databaseChecked.emit(url, "", "library" if result.revision is not None else "empty")

        self._run(lambda _: probe_database(self.data_dir, url), checked, checked, lane="slow", key="database-check")

    def check_translation_server(self, url: str) -> None:
        """Ask the translation server ``url`` for an answer (a few seconds at most); answers ``serverChecked``."""
        from app.ml.llm_runtime import probe_endpoint

        def checked(result: Any) -> None:
            if isinstance(result, SidecarError):
                self.serverChecked.emit(url, result.code, result.message)
            elif isinstance(result, BaseException):
                self._report(result)
                self.serverChecked.emit(url, Code.INTERNAL_ERROR, str(result) or type(result).__name__)
            else:
                self.serverChecked.emit(url, "", "")

        self._run(lambda _: probe_endpoint(url), checked, checked, lane="slow", key="server-check")

    def reopen(self, database_url: str) -> None:
        """Save ``database_url`` as the library database, then start again (the way back after ``startFailed``)."""
        snapshot = dataclasses.replace(self.settings or Settings(), database_url=database_url)
        self._run(lambda _: save_settings(self.data_dir, snapshot), lambda _: self.start(), lane="slow")

    def local_database_url(self) -> str:
        """The URL setting that means the library on this computer: empty, or its file's URL when
        ``SIDECAR_DATABASE_URL`` would otherwise name the server again."""
        return f"sqlite:///{self.local_database()}" if os.environ.get(DATABASE_URL_ENV, "").strip() else ""

    def local_database(self) -> Path:
        """Where the library on this computer is (the data dir's SQLite file): Settings show it."""
        return database_path(self.data_dir)

    # -- models ---------------------------------------------------------------------------

    def list_models(self) -> None:
        from app.ml.model_choice import model_rows

        self._run(lambda _: model_rows(self.data_dir), self.modelsListed.emit, lane="slow", key="models")

    def install_model(self, name: str) -> None:
        """Download ``name`` with ``modelProgress``; :meth:`cancel_install` stops it (the part file stays for a resume)."""
        from app.ml.model_install import models_install

        def ended(result: Any) -> None:
            code = result.code if isinstance(result, SidecarError) else ""
            if code == OperationCancelled.code:
                code = Code.DOWNLOAD_CANCELLED
            if isinstance(result, BaseException) and code != Code.DOWNLOAD_CANCELLED:
                self._report(result)
                code = code or Code.INTERNAL_ERROR
            why = (result.message if isinstance(result, SidecarError) else str(result)) if code else ""
            self.modelInstallEnded.emit(name, code, why)
            self.list_models()

        self._run(lambda op: models_install(self.data_dir, name, op.report, op), ended, ended,
                  lane="downloads", key=f"install:{name}",
                  on_progress=lambda done, total: self.modelProgress.emit(name, done, total))

    def install_model_file(self, path: str) -> None:
        """Install a translation package from a file (no network); ``modelInstallEnded`` names it, or says why not."""
        from app.ml.model_install import install_from_file

        def ended(result: Any) -> None:
            name = str(result.get("name")) if isinstance(result, dict) else Path(path).name
            code = (result.code or Code.INTERNAL_ERROR) if isinstance(result, SidecarError) else (
                Code.INTERNAL_ERROR if isinstance(result, BaseException) else "")
            why = (result.message if isinstance(result, SidecarError) else str(result)) if code else ""
            self.modelInstallEnded.emit(name, code, why)
            self.list_models()

        self._run(lambda _: install_from_file(self.data_dir, Path(path)), ended, ended, lane="downloads",
                  key=f"install-file:{path}")

    def installing(self, name: str) -> bool:
        return self.ops.current(f"install:{name}") is not None

    def cancel_install(self, name: str) -> bool:
        """Ask a running install of ``name`` to stop at its next chunk; False when none runs."""
        return self.ops.cancel(f"install:{name}")

    def use_model(self, name: str) -> None:
        from app.ml.model_choice import models_use

        self._run(lambda _: models_use(self.data_dir, name), lambda _: self.list_models(), lane="slow")

    def remove_model(self, name: str) -> None:
        from app.ml.model_install import models_remove

        self._run(lambda _: models_remove(self.data_dir, name), lambda _: self.list_models(), lane="slow")


__all__ = ["EngineFacade", "GuiThreadViolation", "LANES", "ThreadGuard", "job_options"]
