"""The jobs list's ETA appears only once a rate is measurable, and follows it."""

from __future__ import annotations

from app.gui.jobs_view import EtaEstimator, format_eta
from app.store.records import JobSummary


def _job(done: int, status: str = "running") -> JobSummary:
    return JobSummary(id=1, folder="/m", status=status, paused=False, total=10, done=done, failed=0, skipped=0,
                      review=0, running=1, error_code=None, error=None, created_at=0.0)


def test_eta_waits_for_a_measurable_rate_then_extrapolates_it() -> None:
    now = [100.0]
    eta = EtaEstimator(clock=lambda: now[0])
    assert eta.update(_job(2)) is None  # first sight: measuring starts here, earlier work does not count
    now[0] += 2.0
    assert eta.update(_job(3)) is None, "two seconds of work is noise"
    now[0] += 8.0
    assert eta.update(_job(4, status="queued")) == 6 * 10.0 / 2  # 2 items in 10 s, 6 left
    assert eta.update(_job(4, status="paused")) is None
    assert format_eta(30.0) == "30 s" and format_eta(3725) == "1 h 02 min"


def test_a_running_job_without_a_rate_yet_says_it_is_estimating(qapp: object) -> None:
    """Issue 39.9: the ETA column looked broken, always empty, for jobs of a few long files."""
    from app.gui.jobs_view import JobsModel

    model = JobsModel()
    model.set_jobs([_job(0)])
    assert model.data(model.index(0, model.COLUMNS.index("ETA"))) == "estimating…"
    model.set_jobs([_job(10, status="completed")])
    assert model.data(model.index(0, model.COLUMNS.index("ETA"))) == ""
