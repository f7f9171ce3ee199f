"""What to tell the person when a job stops needing the machine: one notice per job, with counts, never one per file.

A job "settles" when it goes from working (queued, running, paused, adding files) to
finished, needs-review or failed. That moment gets one notice whose kind is the most
pressing one the person left switched on (failed, then review, then finished) and whose
counts say the rest, so a job of 1,000 files with 3 failures is one pop-up, not three
hundred. The GUI words it through tr(); ``sidecar run`` uses :meth:`JobNotice.english`.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from app.errors import SidecarError
from app.status_words import ALL_FAILED, TO_DECIDE, Count, job_label_parts
from app.status_words import FAILED as FAILED_COUNT
from app.store.records import JobSummary
from app.store.states import JobSummaryStatus

log = logging.getLogger(__name__)

FINISHED, REVIEW, FAILED = "job_finished", "needs_review", "items_failed"  # notice kinds, not states
KINDS = (FAILED, REVIEW, FINISHED)  # most pressing first

_WORKING = (JobSummaryStatus.QUEUED, JobSummaryStatus.RUNNING, JobSummaryStatus.PAUSED, JobSummaryStatus.CREATING)
_SETTLED = (JobSummaryStatus.COMPLETED, JobSummaryStatus.REVIEW, JobSummaryStatus.FAILED)


@dataclass(frozen=True)
class JobNotice:
    job_id: int
    name: str  # the job folder's name
    kind: str  # finished | review | failed
    done: int
    review: int
    failed: int
    total: int
    results: tuple[tuple[str, int], ...] = ()  # done items that did not deliver everything (translation_failed: 2)

    def english(self) -> tuple[str, str]:
        """Title and body for ``sidecar run`` (no translator there)."""
        title = {FINISHED: "Job finished", REVIEW: "Review needed", FAILED: "Items failed"}[self.kind]
        counts = [f"{self.done} of {self.total} done"]
        counts += [count.english() for count in self.shortfalls()]
        if self.review:
            counts.append(f"{self.review} to decide")
        if self.failed:
            counts.append(f"{self.failed} failed")
        return title, f"{self.name}: {', '.join(counts)}"

    def shortfalls(self) -> list[Count]:
        """The done items that lack part of what the job asked for ("2 not translated"), as the job's label counts them."""
        return [Count(code, n) for code, n in self.results]


def settled_notice(old: JobSummary | None, new: JobSummary, wanted: frozenset[str]) -> JobNotice | None:
    """The notice for ``new`` if it just settled and the person wants one of its kinds; else None."""
    if old is None or old.status not in _WORKING or new.status not in _SETTLED:
        return None
    present = {FINISHED} | ({REVIEW} if new.review else set()) | (
        {FAILED} if new.failed or new.status == JobSummaryStatus.FAILED else set())
    kind = next((k for k in KINDS if k in present and k in wanted), None)
    if kind is None:
        return None
    shortfalls = tuple((c.what, c.n) for c in job_label_parts(new).counts if c.what not in (FAILED_COUNT, ALL_FAILED,
                                                                                          TO_DECIDE))
    return JobNotice(new.id, Path(new.folder).name or new.folder, kind, new.done, new.review, new.failed, new.total,
                     shortfalls)


def wanted_kinds(finished: bool, review: bool, failed: bool) -> frozenset[str]:
    """The kinds the person left on in Settings."""
    return frozenset(k for k, on in ((FINISHED, finished), (REVIEW, review), (FAILED, failed)) if on)


class NoticeWatch:
    """``sidecar run``'s notices: reads the job summaries every ``interval`` seconds and sends what settled.

    The GUI compares the summaries its own refresh reads; a headless engine has no
    refresh, so this thread does the same comparison. :meth:`stop` looks once more, so a
    job that settles just before ``--until-idle`` returns is still announced.
    """

    def __init__(self, read: Callable[[], Sequence[JobSummary]], send: Callable[[JobNotice], object],
                 wanted: frozenset[str], interval: float = 2.0):
        self._read = read
        self._send = send
        self._wanted = wanted
        self._interval = interval
        self._seen: dict[int, JobSummary] = {job.id: job for job in read()}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="sidecar-notices", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def look(self) -> None:
        for job in self._read():
            notice = settled_notice(self._seen.get(job.id), job, self._wanted)
            self._seen[job.id] = job
            if notice is not None:
                self._send(notice)

    def _loop(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                self.look()
            except SidecarError as exc:  # the database away for a moment: look again next time
                log.warning("job notices: %s (%s)", exc.message, exc.code)

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        self.look()
