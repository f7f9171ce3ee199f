"""What Sidecar is doing, in one line: the tray's tooltip and the window's pause indicator say it.

A person who closed the window reaches Sidecar through the tray only; hovering the icon
answers "is it working, on what, and how far". The line is built from the jobs the facade
last reported and whether "Pause all" is on, so it costs no store read of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from PySide6.QtCore import QCoreApplication

from app.gui.facade.records import JobSummary, JobSummaryStatus

#: Jobs with work left to run (a job waiting for review or finished has none).
UNFINISHED = (JobSummaryStatus.CREATING, JobSummaryStatus.QUEUED, JobSummaryStatus.RUNNING, JobSummaryStatus.PAUSED)


def activity_line(jobs: Sequence[JobSummary], all_paused: bool) -> str:
    """``Sidecar — 3 of 12 files, working on Film`` / ``Sidecar — Paused (…)`` / ``Sidecar — Idle``."""
    unfinished = [job for job in jobs if job.status in UNFINISHED]
    done = sum(job.done + job.failed + job.skipped for job in unfinished)
    total = sum(job.total + job.skipped for job in unfinished)
    if all_paused:
        if not unfinished:
            return QCoreApplication.translate("Activity", "Sidecar — Paused: new jobs wait for Resume all")
        return QCoreApplication.translate("Activity", "Sidecar — Paused: {done} of {total} files done").format(done=done, total=total)
    running = [job for job in unfinished if job.status == JobSummaryStatus.RUNNING]
    if running:
        return QCoreApplication.translate("Activity", "Sidecar — {done} of {total} files, working on {name}").format(
            done=done, total=total, name=Path(running[0].folder).name or running[0].folder)
    if any(job.status in (JobSummaryStatus.QUEUED, JobSummaryStatus.CREATING) for job in unfinished):
        return QCoreApplication.translate("Activity", "Sidecar — {done} of {total} files, starting").format(done=done, total=total)
    if unfinished:
        count = len(unfinished)  # lupdate reads a plain name here, not a call
        return QCoreApplication.translate("Activity", "Sidecar — %n job(s) paused", "", count)
    return QCoreApplication.translate("Activity", "Sidecar — Idle")
