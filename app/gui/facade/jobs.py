"""Jobs: the list as the last refresh read it, a job's items page by page, adding folders, and the queue's commands.

The job list is refreshed by change: each poll reads the store's per-job change
counters (:meth:`Library.changes`) and re-reads only the jobs whose counter moved
(:class:`~app.gui.facade.engine_facade.EngineFacade` polls; :meth:`JobsFacade.apply`
takes what it read). A job that settles is announced once, on the desktop or the tray.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence, TypeVar

from PySide6.QtCore import QObject, Signal

from app.engine.desktop_notify import DesktopNotifier
from app.engine.job_notices import FAILED, FINISHED, REVIEW, JobNotice, settled_notice, wanted_kinds
from app.engine.job_options import JobOptions
from app.engine.library import JobChanges, Library
from app.gui.count_words import count_words
from app.gui.facade.core import FacadeCore
from app.gui.facade.settings import SettingsFacade
from app.gui.operations import Op, Operation
from app.media.audio_streams import AudioChoice
from app.settings import Settings, load_settings
from app.store.records import ItemView, JobSummary

R = TypeVar("R")  # a row of the queue, as the view's shape makes it


class JobsFacade(QObject):
    """The queue's facade; every command re-reads the jobs when it ends."""

    jobsChanged = Signal(list)  # list[JobSummary]; a job not re-read keeps its identical object
    itemsPage = Signal(int, int, list)  # job id, offset, the rows fetch_items' shape made of that page's ItemViews
    addProgress = Signal(str, int, int)  # folder being added (as given), files found (total 0) or recorded, total
    addEnded = Signal(str)  # that folder's job was created, or adding it failed
    jobAdded = Signal(object)  # JobSummary
    pausedAllChanged = Signal(bool)  # "Pause all" is on (new jobs wait too) / off
    audioTracks = Signal(int, object)  # item id, AudioChoice | None: its file's audio streams and the one used
    notice = Signal(int, str, str)  # job id, title, message: one per settled job, where no desktop notifier took it
    openJob = Signal(int)  # a job's notification was clicked: show that job

    def __init__(self, core: FacadeCore, settings: SettingsFacade):
        super().__init__(core)
        self._core, self._settings = core, settings
        self._jobs: dict[int, JobSummary] = {}
        self.all_paused = False  # "Pause all" is on, as the last refresh read it
        self.notifier: DesktopNotifier | None = None  # the desktop's notification service, once the engine started

    # -- observing ------------------------------------------------------------------------

    def apply(self, changes: JobChanges, first: bool) -> None:
        """Take what a refresh read: emit ``pausedAllChanged`` and ``jobsChanged`` where they moved, announce settled jobs."""
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

    def current(self) -> list[JobSummary]:
        """The jobs as the last refresh read them (what ``jobsChanged`` last carried)."""
        return list(self._jobs.values())

    def added(self, job: JobSummary) -> None:
        """A job was made (a folder added, a video sent to translate again): ``jobAdded``."""
        self.jobAdded.emit(job)

    def _announce(self, changed: Sequence[JobSummary], previous: dict[int, JobSummary]) -> None:
        """One notice per job that settled (finished, needs review, failed), with its counts.

        Sent to the desktop's notification service where there is one (clickable: it opens
        the job), else (or when the service does not take it) emitted as ``notice`` for the
        tray's balloon.
        """
        s = self._settings.current or Settings()
        wanted = wanted_kinds(s.notify_finished, s.notify_review, s.notify_failed)
        for job in changed:
            notice = settled_notice(previous.get(job.id), job, wanted)
            if notice is not None:
                self._tell(notice)

    def _tell(self, notice: JobNotice) -> None:
        title, body = self.notice_words(notice)
        notifier = self.notifier
        if notifier is None:
            self.notice.emit(notice.job_id, title, body)
            return

        def shown(notification: int | None) -> None:
            if notification is None:  # the service is gone or refused it: the tray's balloon instead
                self.notice.emit(notice.job_id, title, body)

        self._core.run(Op(lambda _: notifier.notify(notice.job_id, title, body), shown, lane="slow"))

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

    def fetch_items(self, job_id: int, offset: int, limit: int, shape: Callable[[list[ItemView]], list[R]]) -> None:
        """A page of the job's items, as ``shape`` makes them into rows; answers ``itemsPage``.

        ``shape`` turns the page into what the view shows (the queue's cell words) on the
        worker thread, so the GUI thread receives rows ready to paint.
        """
        library = self._core.open_library()
        if library is not None:
            def page(rows: list[R]) -> None:
                self.itemsPage.emit(job_id, offset, rows)

            self._core.run(Op(lambda _: shape(library.items(job_id, offset, limit)), page))

    # -- commands -------------------------------------------------------------------------

    def add_paths(self, paths: Sequence[Path], settings: Settings | None = None) -> None:
        """One job per path; the scan runs on the slow lane, reporting ``addProgress`` (files found, then recorded).

        ``settings``: use these rather than the saved file (a save of them may still be on its way).
        """
        data_dir = self._core.data_dir
        for path in paths:
            folder = str(path)

            def add(library: Library, op: Operation, path: Path = Path(path)) -> JobSummary:
                return library.add(path, JobOptions.from_settings(settings or load_settings(data_dir)), progress=op.report)

            def added(job: JobSummary, folder: str = folder) -> None:
                self.addEnded.emit(folder)
                self.added(job)

            def failed(exc: BaseException, folder: str = folder) -> None:
                self.addEnded.emit(folder)
                self._core.report(exc)

            def progress(done: int, total: int, folder: str = folder) -> None:
                self.addProgress.emit(folder, done, total)

            self._core.command(add, added, failed, lane="slow", progress=progress)

    def pause(self, job_id: int | None) -> None:
        self._core.command(lambda lib, _: lib.pause(job_id))

    def resume(self, job_id: int | None) -> None:
        self._core.command(lambda lib, _: lib.resume(job_id))

    def retry_job(self, job_id: int) -> None:
        self._core.command(lambda lib, _: lib.retry_job(job_id))

    def retry_item(self, item_id: int) -> None:
        self._core.command(lambda lib, _: lib.retry_item(item_id))

    def translate_again(self, job_id: int | None = None, item_id: int | None = None) -> None:
        """Queue again the items that got no translation (the item, the job's, or all): see :meth:`Library.translate_again`."""
        self._core.command(lambda lib, _: lib.translate_again(job_id, item_id))

    def cancel(self, job_id: int) -> None:
        self._core.command(lambda lib, _: lib.cancel(job_id))

    def audio_tracks(self, item_id: int) -> None:
        """Read the item's audio streams from its file's header; answers ``audioTracks``."""
        from app.pipelines.video import audio_choice

        library = self._core.open_library()
        if library is None:
            return

        def read(_: Operation) -> AudioChoice | None:
            source = library.item_source(item_id)
            return audio_choice(Path(source.path), JobOptions.from_stored(source.options))

        def tracks(choice: AudioChoice | None) -> None:
            self.audioTracks.emit(item_id, choice)

        self._core.run(Op(read, tracks, lane="slow", key=f"audio:{item_id}"))

    def set_audio_track(self, item_id: int, track: int) -> None:
        """Subtitle audio track ``track`` (from 1; 0 chooses by rule) of this item: it runs again from extraction."""
        self._core.command(lambda lib, _: lib.set_item_option(item_id, "audio_track", track))


__all__ = ["JobsFacade"]
