"""Shared fixtures: every test gets its own data dir (a real SQLite file in WAL mode)."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Iterator

import onnxruntime  # noqa: F401 - loaded before usearch: the other order segfaults (the tests OCR in-process; the app does so in model hosts)
import pytest

# The tests run as on an English system wherever they run: a job's default target language is the system's
# (app.settings.default_target_language, read when app.settings is imported), and the tests' subtitles and
# words are English. LC_ALL=C.UTF-8 puts every program the tests start in a locale every machine has; it names
# no language, so LC_MESSAGES names the one Sidecar reads.
os.environ["LC_ALL"] = "C.UTF-8"
os.environ["LC_MESSAGES"] = "en_US.UTF-8"

import app.pipelines  # noqa: F401 - registers the media kinds the engine scans for, as the CLI and GUI do
from app.engine.config import EngineConfig
from tests.postgres_server import PostgresCluster

# Generated media (espeak-ng / ffmpeg) shared by the video tests; both database backends (store_location);
# the search tests' small library (documents, e5); private D-Bus daemons with dbusmock's UPower and notification daemon.
pytest_plugins = ["tests.media_fixtures", "tests.store_backends", "tests.search_library", "tests.private_dbus"]

# The machine's own D-Bus stays out of the suite (and of the engines it starts): a laptop on battery
# would pause them, a desktop would show their notifications. The D-Bus tests start private buses
# (tests/private_dbus.py) and point these at them.
os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/sidecar-tests/system_bus_socket"
os.environ["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/sidecar-tests/session_bus_socket"


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    d.mkdir()
    return d


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """One throwaway PostgreSQL server for the session (tests/postgres_server.py)."""
    cluster = PostgresCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster) -> str:
    """A fresh, empty database on the session's server, as a SQLAlchemy URL."""
    return postgres_cluster.create_database()


@pytest.fixture
def fast_config() -> EngineConfig:
    return EngineConfig(workers=2, lease_seconds=3.0, backoff_base=0.05, backoff_cap=0.2, poll_interval=0.05,
                        progress_interval=0.0)


@pytest.fixture(autouse=True)
def _log_level(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="app")


def _utf8(text: str) -> str:
    """``text`` with undecodable-byte surrogates (``\\udce9``) written as escapes, so it encodes as UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Reports that can cross from a pytest-xdist worker to the controller.

    The byte-name tests log paths whose undecodable bytes Python holds as lone surrogates;
    xdist sends a report's captured log and failure text as strict UTF-8, and one such
    character ends the worker with an internal error (and the rest of its tests unrun).
    """
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    report.sections = [(title, _utf8(text)) for title, text in report.sections]
    if report.longrepr is not None and _utf8(str(report.longrepr)) != str(report.longrepr):
        report.longrepr = _utf8(str(report.longrepr))
